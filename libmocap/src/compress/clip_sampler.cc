// The prepared sampler (clip_decoder.h): the plan is built here once per
// clip; a sample walks it (clip_sampler.h describes the steps).
#include "compress/clip_sampler.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <span>
#include <utility>

#include "compress/clip_curve.h"

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
bool constant_track(const CompressedClip& clip, const ClipTrack& track, float& value) {
  if (track.storage == TrackStorage::kConstant) return value = track.constant, true;
  if (track.spacing == 0 && clip.keys.size() < 2) {
    value = clip.keys.size() == 1 && !track.points.empty() ? track.points[0] : 0.0f;
    return true;
  }
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
      g.segments = track.spacing > 0 ? clip_curve::gaps(clip.frame_count, track.spacing) : 1;
      g.inv_spacing = track.spacing > 0 ? 1.0 / track.spacing : 1.0;
      block.groups.push_back(std::move(g));
      group_points.emplace_back();
    }
    Group& g = block.groups[it->second];
    g.slots.push_back(slot);
    ++g.tracks;
    group_points[it->second].push_back(track.points);
  }

  // Row-interleaves each group's points; keyed groups get a zero row before
  // and after so that the 4-tap Hermite never reads outside.
  void interleave() {
    for (std::size_t gi = 0; gi < block.groups.size(); ++gi) {
      Group& g = block.groups[gi];
      const bool keyed = g.spacing == 0;
      const std::size_t points = keyed ? clip.keys.size() : static_cast<std::size_t>(g.segments + g.degree);
      const std::size_t pad = keyed ? 1 : 0, n = static_cast<std::size_t>(g.tracks);
      g.rows.assign((points + 2 * pad) * n, 0.0f);
      for (std::size_t k = 0; k < n; ++k) {
        // A track shorter than its group's rows (only a hand-made clip) reads zeros.
        const std::span<const float> p = group_points[gi][k];
        for (std::size_t r = 0; r < std::min(points, p.size()); ++r) g.rows[(r + pad) * n + k] = p[r];
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

  // Hermite tangents at the keys as weights on the neighbouring points (clip_curve::key_tangent).
  const int key_count = static_cast<int>(clip.keys.size());
  plan->alpha.assign(clip.keys.size(), 0.0);
  plan->beta.assign(clip.keys.size(), 0.0);
  plan->gamma.assign(clip.keys.size(), 0.0);
  for (int j = 0; key_count >= 2 && j < key_count; ++j) {
    const int* k = clip.keys.data();
    if (j == 0) {
      plan->beta[j] = -1.0 / (k[1] - k[0]), plan->gamma[j] = 1.0 / (k[1] - k[0]);
    } else if (j == key_count - 1) {
      plan->alpha[j] = -1.0 / (k[j] - k[j - 1]), plan->beta[j] = 1.0 / (k[j] - k[j - 1]);
    } else {
      const double h0 = k[j] - k[j - 1], h1 = k[j + 1] - k[j];
      plan->alpha[j] = -h1 / h0 / (h0 + h1);
      plan->gamma[j] = h0 / h1 / (h0 + h1);
      plan->beta[j] = -(plan->alpha[j] + plan->gamma[j]);
    }
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

  // Whole-pose clips: one segment and one set of Hermite weights for every
  // keyed track, on p[j - 1] .. p[j + 2] (linear: on p[j], p[j + 1]).
  const int key_count = static_cast<int>(plan.keys.size());
  float keyed3[4] = {}, keyed1[2] = {};
  int j = 0;
  if (key_count >= 2) {
    j = cursor.segment = clip_curve::key_segment_from(plan.keys.data(), key_count, t, cursor.segment);
    const double h = plan.keys[j + 1] - plan.keys[j];
    const double u = std::clamp((t - plan.keys[j]) / h, 0.0, 1.0);
    const double u2 = u * u, u3 = u2 * u;
    const double h00 = 2 * u3 - 3 * u2 + 1, h10 = (u3 - 2 * u2 + u) * h, h01 = -2 * u3 + 3 * u2, h11 = (u3 - u2) * h;
    const std::size_t a = static_cast<std::size_t>(j), b = a + 1;
    keyed3[0] = static_cast<float>(h10 * plan.alpha[a]);
    keyed3[1] = static_cast<float>(h00 + h10 * plan.beta[a] + h11 * plan.alpha[b]);
    keyed3[2] = static_cast<float>(h01 + h10 * plan.gamma[a] + h11 * plan.beta[b]);
    keyed3[3] = static_cast<float>(h11 * plan.gamma[b]);
    keyed1[0] = static_cast<float>(1.0 - u), keyed1[1] = static_cast<float>(u);
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
      int first = 0, taps = 4;
      if (g.spacing == 0) {
        if (g.degree == 1) {
          w[0] = keyed1[0], w[1] = keyed1[1], first = j + 1, taps = 2;
        } else {
          std::copy(keyed3, keyed3 + 4, w), first = j;
        }
      } else {
        double u = 0.0;
        first = clip_curve::uniform_segment(t, g.inv_spacing, g.segments, u);
        const float uf = static_cast<float>(u);
        if (g.degree == 1) {
          w[0] = 1.0f - uf, w[1] = uf, taps = 2;
        } else {
          clip_curve::cubic_basis(uf, w);
        }
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
