// The prepared sampler (clip_decoder.h): the plan is built here once per
// clip; a sample walks it (clip_sampler.h describes the steps).
#include "compress/runtime/clip_sampler.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <span>
#include <utility>

#include "compress/runtime/clip_curve.h"
#include "compress/runtime/clip_pose.h"
#include "compress/runtime/interpolators.h"

namespace mocap {

using clip_sampler::Block;
using clip_sampler::Group;
using clip_sampler::kLanes;
using clip_sampler::Pack;

bool clip_kernel_available(ClipKernel kernel) {
  return kernel != ClipKernel::kAvx2 || clip_sampler::cpu_has_avx2();
}

const char* clip_kernel_name(ClipKernel kernel) {
  switch (kernel) {
    case ClipKernel::kAuto: return "auto";
    case ClipKernel::kPortable: return "portable";
    case ClipKernel::kAvx2: return "avx2";
  }
  return "?";
}

namespace {

// A channel whose value never changes, and that value.
bool constant_track(const CompressedClip&, const ClipTrack& track, float& value) {
  if (track.storage == TrackStorage::kConstant) return value = track.constant, true;
  return false;
}

// Where `sequence` sits inside `axes` as a subsequence (the earliest match),
// or false.
bool embed(const std::vector<std::uint8_t>& sequence, const Pack& pack, std::vector<int>& at) {
  at.clear();
  int d = 0;
  for (const std::uint8_t a : sequence) {
    while (d < pack.length && pack.axes[d] != a) ++d;
    if (d == pack.length) return false;
    at.push_back(d++);
  }
  return true;
}

struct BlockBuilder {
  const CompressedClip& clip;
  Block block;
  std::map<std::pair<int, int>, std::size_t> group_of;            // (spacing, degree) -> index
  std::vector<std::vector<std::span<const float>>> group_points;  // per group, per track

  // Sends track `channel` to value slot `slot`: the template when constant,
  // else its group.
  void route(int channel, int slot) {
    const ClipTrack& track = clip.tracks[static_cast<std::size_t>(channel)];
    float value = 0.0f;
    if (constant_track(clip, track, value)) {
      block.values[static_cast<std::size_t>(slot)] = value;
      return;
    }
    const auto key = std::make_pair(track.spacing, static_cast<int>(track.degree));
    const auto [it, added] = group_of.try_emplace(key, block.groups.size());
    if (added) {
      Group g;
      g.spacing = track.spacing;
      g.degree = track.degree;
      g.segments = clip_curve::gaps(clip.frame_count, track.spacing);
      g.inv_spacing = 1.0 / track.spacing;
      block.groups.push_back(std::move(g));
      group_points.emplace_back();
    }
    Group& g = block.groups[it->second];
    g.slots.push_back(slot);
    ++g.tracks;
    group_points[it->second].push_back(track.points);
  }

  // Row-interleaves each group's points.
  void interleave() {
    for (std::size_t gi = 0; gi < block.groups.size(); ++gi) {
      Group& g = block.groups[gi];
      const std::size_t points = static_cast<std::size_t>(g.segments + g.degree);
      const std::size_t n = static_cast<std::size_t>(g.tracks);
      g.rows.assign(points * n, 0.0f);
      for (std::size_t k = 0; k < n; ++k) {
        // A track shorter than its group's rows (only a hand-made clip) reads zeros.
        const std::span<const float> p = group_points[gi][k];
        for (std::size_t r = 0; r < std::min(points, p.size()); ++r) g.rows[r * n + k] = p[r];
      }
    }
  }
};

// The rotation a bone's constant dofs make, in double as pose_from_channels.
Eigen::Quaternionf fixed_rotation(const ClipBone& bone, bool root, const std::vector<float>& values) {
  const Eigen::Quaterniond c = bone.axis_rotation.cast<double>();
  Eigen::Quaterniond q = root ? c : Eigen::Quaterniond::Identity();
  for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
    if (!is_rotation(bone.dofs[k])) continue;
    const Eigen::Vector3d axis = c * Eigen::Vector3d::Unit(static_cast<int>(bone.dofs[k]) % 3);
    q = Eigen::Quaterniond(Eigen::AngleAxisd(values[k], axis)) * q;
  }
  return q.cast<float>();
}

// The whole-pose plan: the rebuild's key rotations, and per segment what
// rebuild_poses prepares per pair of keys (interpolators.h: Slerp::set,
// CubicInterpolator's tangents and prepare), in double, stored as float.
std::unique_ptr<clip_sampler::WholePose> make_whole_pose(const CompressedClip& clip) {
  auto w = std::make_unique<clip_sampler::WholePose>();
  const std::size_t bones = clip.bones.size(), keys = clip.keys.size();
  const std::size_t segments = keys >= 2 ? keys - 1 : 0;
  w->cubic = clip.interpolation == Interpolation::kCubic;
  w->bones = static_cast<int>(bones);
  std::vector<Eigen::Quaterniond> key(keys * bones);
  std::vector<Eigen::Vector3d> translation(keys);
  for (std::size_t b = 0; b < bones; ++b) {
    const clip_pose::BoneRig rig = clip_pose::rig_of(clip, b);
    for (std::size_t j = 0; j < keys; ++j) key[j * bones + b] = clip_pose::key_rotation(clip, rig, static_cast<int>(j));
    if (rig.rotations == 2) {
      clip_sampler::WholePose::TwoDof p;
      p.bone = static_cast<int>(b);
      p.a1 = rig.axis[0], p.a2 = rig.axis[1];
      p.root = rig.root;
      p.c = rig.c.cast<float>();
      w->two_dof.push_back(p);
    }
  }
  for (std::size_t j = 0; j < keys; ++j) translation[j] = clip_pose::key_translation(clip, static_cast<int>(j));
  w->key.resize(key.size());
  for (std::size_t i = 0; i < key.size(); ++i) w->key[i] = key[i].cast<float>();
  for (const auto& v : translation) w->translation.push_back(v.cast<float>());
  const std::span<const int> times(clip.keys);
  if (!w->cubic) {
    w->slerp.resize(segments * bones);
    for (std::size_t g = 0; g < segments; ++g) {
      for (std::size_t b = 0; b < bones; ++b) {
        const Eigen::Vector4d q0 = key[g * bones + b].coeffs();
        Eigen::Vector4d q1 = key[(g + 1) * bones + b].coeffs();
        double dot = q0.dot(q1);
        if (dot < 0.0) q1 = -q1, dot = -dot;
        const double theta = std::acos(std::min(dot, 1.0));
        clip_sampler::WholePose::Slerp& s = w->slerp[g * bones + b];
        s.b = Eigen::Quaternionf(Eigen::Vector4f(q1.cast<float>()));
        s.theta = static_cast<float>(theta);
        s.sin_theta = static_cast<float>(std::sin(theta));
        s.cos_theta = static_cast<float>(std::cos(theta));
        s.inv_sin = theta < 1e-6 ? 0.0f : static_cast<float>(1.0 / std::sin(theta));
      }
    }
    return w;
  }
  // The cubic: CubicInterpolator's tangents (key_tangents over every key) and
  // its per-segment Bezier form.
  std::vector<Eigen::Vector3d> turn_slope(segments * bones), move_slope(segments), turn, move;
  for (std::size_t g = 0; g < segments; ++g) {
    const double h = times[g + 1] - times[g];
    for (std::size_t b = 0; b < bones; ++b)
      turn_slope[g * bones + b] = detail::log_rotation(key[g * bones + b].conjugate() * key[(g + 1) * bones + b]) / h;
    move_slope[g] = (translation[g + 1] - translation[g]) / h;
  }
  const Eigen::Vector3d zero = Eigen::Vector3d::Zero();
  detail::key_tangents<Eigen::Vector3d>(times, turn_slope, bones, std::vector<bool>(bones, true), zero, turn);
  detail::key_tangents<Eigen::Vector3d>(times, move_slope, 1, std::vector<bool>(1, false), zero, move);
  for (const auto& m : move) w->move.push_back(m.cast<float>());
  w->cubic_arcs.resize(segments * bones);
  for (std::size_t g = 0; g < segments; ++g) {
    const double h = times[g + 1] - times[g];
    for (std::size_t b = 0; b < bones; ++b) {
      const Eigen::Vector3d w1 = (h / 3.0) * turn[g * bones + b], w3 = (h / 3.0) * turn[(g + 1) * bones + b];
      const Eigen::Vector3d w2 = detail::log_rotation(detail::exp_rotation(-w1) * key[g * bones + b].conjugate() *
                                                      key[(g + 1) * bones + b] * detail::exp_rotation(-w3));
      w->cubic_arcs[g * bones + b] = {w1.cast<float>(), w2.cast<float>(), w3.cast<float>()};
    }
  }
  return w;
}

// exp of a rotation vector in float (interpolators.h's exp_rotation).
inline Eigen::Quaternionf exp_rotation(const Eigen::Vector3f& r) {
  const float angle = r.norm();
  if (!(angle > 0.0f)) return Eigen::Quaternionf::Identity();
  float s = 0.0f, c = 1.0f;
  clip_curve::sin_cos(0.5f * angle, s, c);
  const Eigen::Vector3f v = (s / angle) * r;
  return Eigen::Quaternionf(c, v.x(), v.y(), v.z());
}

// project_two_dofs_fast (dof_model.h) in float: the half angle about e2 from
// its direction by whichever half-angle identity does not cancel.
inline Eigen::Quaternionf project_two_dofs(const clip_sampler::WholePose::TwoDof& p, const Eigen::Quaternionf& q) {
  const Eigen::Quaternionf m = p.root ? p.c.conjugate() * q : p.c.conjugate() * q * p.c;
  const Eigen::Vector3f e1 = Eigen::Vector3f::Unit(p.a1), e2 = Eigen::Vector3f::Unit(p.a2);
  const Eigen::Vector3f d = m * e1;
  const float x = e1.dot(d), y = e2.dot(e1.cross(d));
  const float r = std::sqrt(x * x + y * y);
  float ch = 1.0f, sh = 0.0f;
  if (r > 1e-12f) {
    const float cos_b = x / r, sin_b = y / r;
    if (cos_b >= 0.0f) {
      ch = std::sqrt(0.5f * (1.0f + cos_b));
      sh = sin_b / (2.0f * ch);
    } else {
      sh = std::copysign(std::sqrt(0.5f * (1.0f - cos_b)), y);
      ch = sin_b / (2.0f * sh);
    }
  }
  const Eigen::Quaternionf r2(ch, sh * e2.x(), sh * e2.y(), sh * e2.z());
  const Eigen::Quaternionf n = r2.conjugate() * m;
  Eigen::Quaternionf twist(n.w(), 0.0f, 0.0f, 0.0f);
  twist.vec()[p.a1] = n.vec()[p.a1];
  const float norm = twist.norm();
  const Eigen::Quaternionf projected = norm < 1e-12f ? r2 : r2 * Eigen::Quaternionf(twist.coeffs() / norm);
  return p.root ? p.c * projected : p.c * projected * p.c.conjugate();
}

void sample_whole_pose(const ClipSamplerPlan& plan, double t, ClipCursor& cursor,
                       std::span<Eigen::Quaternionf> local_rotations, Eigen::Vector3f& root_translation) {
  const clip_sampler::WholePose& w = *plan.whole;
  const std::size_t bones = std::min(static_cast<std::size_t>(w.bones), local_rotations.size());
  const std::size_t stride = static_cast<std::size_t>(w.bones);
  const int key_count = static_cast<int>(plan.keys.size());
  int j = 0;
  double s = 0.0;
  if (key_count >= 2) {
    j = cursor.segment = clip_curve::key_segment_from(plan.keys.data(), key_count, t, cursor.segment);
    s = std::clamp((t - plan.keys[j]) / (plan.keys[j + 1] - plan.keys[j]), 0.0, 1.0);
  }
  const std::size_t a = static_cast<std::size_t>(j);
  // Key frames: the key itself, whichever segment the cursor is on.
  if (key_count < 2 || s == 0.0 || s == 1.0) {
    const std::size_t k = s == 1.0 ? a + 1 : a;
    std::copy_n(w.key.begin() + static_cast<std::ptrdiff_t>(k * stride), bones, local_rotations.begin());
    root_translation = plan.root_position + w.translation[k];
    return;
  }
  const Eigen::Quaternionf* qa = w.key.data() + a * stride;
  const float sf = static_cast<float>(s);
  if (!w.cubic) {
    // sin(s theta) and cos(s theta) once; sin((1 - s) theta) by the angle difference.
    const clip_sampler::WholePose::Slerp* seg = w.slerp.data() + a * stride;
    for (std::size_t b = 0; b < bones; ++b) {
      const auto& g = seg[b];
      Eigen::Vector4f q;
      if (g.inv_sin == 0.0f) {
        q = ((1.0f - sf) * qa[b].coeffs() + sf * g.b.coeffs()).normalized();
      } else {
        float st = 0.0f, ct = 1.0f;
        clip_curve::sin_cos(sf * g.theta, st, ct);
        q = ((g.sin_theta * ct - g.cos_theta * st) * g.inv_sin) * qa[b].coeffs() + (st * g.inv_sin) * g.b.coeffs();
      }
      local_rotations[b] = Eigen::Quaternionf(q);
    }
    root_translation = plan.root_position + (1.0f - sf) * w.translation[a] + sf * w.translation[a + 1];
  } else {
    const float u = 1.0f - sf;
    const float b1 = 1.0f - u * u * u, b2 = sf * sf * (3.0f - 2.0f * sf), b3 = sf * sf * sf;
    const clip_sampler::WholePose::Cubic* seg = w.cubic_arcs.data() + a * stride;
    for (std::size_t b = 0; b < bones; ++b) {
      const auto& g = seg[b];
      local_rotations[b] = qa[b] * exp_rotation(b1 * g.w1) * exp_rotation(b2 * g.w2) * exp_rotation(b3 * g.w3);
    }
    const detail::HermiteBasis h(s, plan.keys[j + 1] - plan.keys[j]);
    root_translation = plan.root_position + static_cast<float>(h.b[0]) * w.translation[a] +
                       static_cast<float>(h.b[1]) * w.translation[a + 1] + static_cast<float>(h.b[2]) * w.move[a] +
                       static_cast<float>(h.b[3]) * w.move[a + 1];
  }
  for (const auto& p : w.two_dof)
    if (static_cast<std::size_t>(p.bone) < bones)
      local_rotations[static_cast<std::size_t>(p.bone)] =
          project_two_dofs(p, local_rotations[static_cast<std::size_t>(p.bone)]);
}

}  // namespace

ClipSampler make_sampler(const CompressedClip& clip, ClipKernel kernel) {
  auto plan = std::make_shared<ClipSamplerPlan>();
  const bool avx2 = kernel != ClipKernel::kPortable && clip_sampler::cpu_has_avx2();
  plan->kernel = avx2 ? ClipKernel::kAvx2 : ClipKernel::kPortable;
  plan->kernels = avx2 ? &clip_sampler::avx2_kernels() : &clip_sampler::portable_kernels();
  plan->fps = clip.fps;
  plan->frame_count = std::max(1, clip.frame_count);
  plan->bones = static_cast<int>(clip.bones.size());
  plan->keys = clip.keys;
  plan->root_position = clip.root_position;
  if (!clip.bones.empty()) plan->root_axis = clip.bones[0].axis_rotation;

  if (!clip.keys.empty()) {
    plan->whole = make_whole_pose(clip);
    return ClipSampler{std::move(plan)};
  }

  // Blocks of consecutive bones small enough for the stack scratch: at most
  // 8 angle slots per turn, and tracks per group bounded by the channels.
  std::size_t b = 0;
  const std::size_t bones = clip.bones.size();
  while (b < bones) {
    std::size_t end = b;
    int turns = 0, channels = 0;
    while (end < bones) {
      const ClipBone& bone = clip.bones[end];
      const int t = static_cast<int>(std::count_if(bone.dofs.begin(), bone.dofs.end(), is_rotation));
      const int c = static_cast<int>(bone.dofs.size());
      if (end > b && ((turns + t) * kLanes > clip_sampler::kMaxAngles || channels + c > clip_sampler::kMaxGroupTracks))
        break;
      turns += t, channels += c;
      ++end;
    }
    BlockBuilder builder{clip, {}, {}, {}};
    Block& block = builder.block;
    // Which bones turn (some rotation dof varies); their axis sequences.
    struct Turning {
      std::size_t bone;
      std::vector<std::uint8_t> axes;
      std::vector<int> dofs;  // dof index k of each turn
    };
    std::vector<Turning> turning;
    for (std::size_t i = b; i < end; ++i) {
      const ClipBone& bone = clip.bones[i];
      Turning t{i, {}, {}};
      bool varies = false;
      for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
        if (!is_rotation(bone.dofs[k])) continue;
        t.axes.push_back(static_cast<std::uint8_t>(static_cast<int>(bone.dofs[k]) % 3));
        t.dofs.push_back(static_cast<int>(k));
        float v = 0.0f;
        varies |= !constant_track(clip, clip.tracks[static_cast<std::size_t>(bone.first_channel) + k], v);
      }
      if (varies) {
        turning.push_back(std::move(t));
      } else {
        std::vector<float> values(bone.dofs.size(), 0.0f);
        for (std::size_t k = 0; k < bone.dofs.size(); ++k)
          constant_track(clip, clip.tracks[static_cast<std::size_t>(bone.first_channel) + k], values[k]);
        block.fixed.emplace_back(static_cast<int>(i), fixed_rotation(bone, i == 0, values));
      }
    }
    // Longest sequences first, each into the first pack that holds it as a
    // subsequence (its missing turns stay zero angles: identity).
    std::stable_sort(turning.begin(), turning.end(),
                     [](const Turning& x, const Turning& y) { return x.axes.size() > y.axes.size(); });
    struct Member {
      std::size_t pack;
      int lane;
      std::vector<int> at;
    };
    std::vector<Member> members;
    std::vector<int> used;
    std::vector<int> at;
    for (const Turning& t : turning) {
      std::size_t p = 0;
      for (; p < block.packs.size(); ++p)
        if (used[p] < kLanes && embed(t.axes, block.packs[p], at)) break;
      if (p == block.packs.size()) {
        Pack pack;
        pack.length = static_cast<int>(t.axes.size());
        std::copy(t.axes.begin(), t.axes.end(), pack.axes);
        block.packs.push_back(pack);
        used.push_back(0);
        embed(t.axes, block.packs[p], at);
      }
      Pack& pack = block.packs[p];
      const int lane = used[p]++;
      pack.bones[lane] = static_cast<int>(t.bone);
      // R_C, identity for the root (its C multiplies after: O * M).
      const Eigen::Matrix3f r =
          t.bone == 0 ? Eigen::Matrix3f::Identity().eval()
                      : clip.bones[t.bone].axis_rotation.cast<double>().toRotationMatrix().cast<float>().eval();
      for (int e = 0; e < 9; ++e) pack.r[e][lane] = r(e / 3, e % 3);
      members.push_back({p, lane, at});
    }
    for (std::size_t p = 0; p < block.packs.size(); ++p) {
      block.packs[p].slot_base = block.angles;
      for (int lane = used[p]; lane < kLanes; ++lane)
        for (int e = 0; e < 9; ++e) block.packs[p].r[e][lane] = e % 4 == 0 ? 1.0f : 0.0f;
      block.angles += block.packs[p].length * kLanes;
    }
    block.values.assign(static_cast<std::size_t>(block.angles) + kLanes, 0.0f);
    for (std::size_t m = 0; m < members.size(); ++m) {
      const Turning& t = turning[m];
      const Pack& pack = block.packs[members[m].pack];
      const ClipBone& bone = clip.bones[t.bone];
      for (std::size_t i = 0; i < t.dofs.size(); ++i)
        builder.route(bone.first_channel + t.dofs[i], pack.slot_base + members[m].at[i] * kLanes + members[m].lane);
    }
    // The root's translation after the angles.
    if (b == 0 && bones > 0) {
      const ClipBone& root = clip.bones[0];
      for (std::size_t k = 0; k < root.dofs.size(); ++k) {
        const Channel c = root.dofs[k];
        if (is_rotation(c) || c == Channel::L) continue;
        builder.route(root.first_channel + static_cast<int>(k),
                      block.angles + static_cast<int>(c) - static_cast<int>(Channel::TX));
      }
    }
    builder.interleave();
    plan->blocks.push_back(std::move(block));
    b = end;
  }
  return ClipSampler{std::move(plan)};
}

ClipCursor make_cursor(const ClipSampler&) {
  return {};
}

ClipKernel sampler_kernel(const ClipSampler& sampler) {
  return sampler.plan ? sampler.plan->kernel : ClipKernel::kPortable;
}

void sample_clip(const ClipSampler& sampler, double seconds, ClipCursor& cursor,
                 std::span<Eigen::Quaternionf> local_rotations, Eigen::Vector3f& root_translation) {
  const ClipSamplerPlan& plan = *sampler.plan;
  const clip_sampler::Kernels& kernels = *plan.kernels;
  const double last = plan.frame_count - 1;
  double t = seconds * plan.fps;
  t = !(t >= 0.0) ? 0.0 : (t > last ? last : t);  // NaN too

  if (plan.whole) {
    sample_whole_pose(plan, t, cursor, local_rotations, root_translation);
    return;
  }

  const std::size_t outputs = local_rotations.size();
  for (std::size_t bi = 0; bi < plan.blocks.size(); ++bi) {
    const Block& block = plan.blocks[bi];
    alignas(32) float values[clip_sampler::kMaxValues];
    alignas(32) float s[clip_sampler::kMaxAngles], c[clip_sampler::kMaxAngles];
    alignas(32) float out[clip_sampler::kMaxGroupTracks];
    std::memcpy(values, block.values.data(), block.values.size() * sizeof(float));
    for (const Group& g : block.groups) {
      float w[4];
      int taps = 4;
      double u = 0.0;
      const int first = clip_curve::uniform_segment(t, g.inv_spacing, g.segments, u);
      const float uf = static_cast<float>(u);
      if (g.degree == 1) {
        w[0] = 1.0f - uf, w[1] = uf, taps = 2;
      } else {
        clip_curve::cubic_basis(uf, w);
      }
      kernels.curves(g.rows.data(), g.tracks, first, taps, w, out);
      for (int k = 0; k < g.tracks; ++k) values[g.slots[static_cast<std::size_t>(k)]] = out[k];
    }
    kernels.sin_cos(values, block.angles, s, c);
    for (std::size_t p = 0; p < block.packs.size(); ++p) {
      const Pack& pack = block.packs[p];
      alignas(32) float q[4][kLanes];
      kernels.compose(pack, s, c, q);
      for (int lane = 0; lane < kLanes; ++lane) {
        const int bone = pack.bones[lane];
        if (bone < 0) break;
        if (static_cast<std::size_t>(bone) >= outputs) continue;
        Eigen::Quaternionf r(q[0][lane], q[1][lane], q[2][lane], q[3][lane]);
        if (bone == 0) r = plan.root_axis * r;
        local_rotations[static_cast<std::size_t>(bone)] = r;
      }
    }
    for (const auto& [bone, r] : block.fixed)
      if (static_cast<std::size_t>(bone) < outputs) local_rotations[static_cast<std::size_t>(bone)] = r;
    if (bi == 0)
      root_translation = plan.root_position +
                         Eigen::Vector3f(values[block.angles], values[block.angles + 1], values[block.angles + 2]);
  }
  if (plan.blocks.empty()) root_translation = plan.root_position;
}

}  // namespace mocap
