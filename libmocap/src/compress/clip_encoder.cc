#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/clip_encoder.h>
#include <mocap/core/fk.h>
#include <mocap/core/foot_contacts.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>

#include "compress/clip_fit.h"
#include "compress/runtime/dof_model.h"

namespace mocap {
namespace {

// World positions and rotations of every frame, frame-major.
struct World {
  std::vector<Eigen::Vector3d> p;
  std::vector<Eigen::Quaterniond> r;
};

void world_of(const Skeleton& skeleton, const Motion& motion, World& w) {
  const std::size_t bones = skeleton.bones.size();
  w.p.resize(static_cast<std::size_t>(motion.frame_count()) * bones);
  w.r.resize(w.p.size());
  Pose pose = make_pose(skeleton);
  for (int f = 0; f < motion.frame_count(); ++f) {
    pose_from_channels(skeleton, motion.frame(f), pose);
    forward_kinematics(skeleton, pose, std::span(w.p).subspan(f * bones, bones),
                       std::span(w.r).subspan(f * bones, bones));
  }
}

struct Measured {
  std::vector<double> joint;  // per bone: worst of the bounded error over frames, cm
  double worst = 0, worst_shell = 0, mean = 0;
  int worst_joint = -1, worst_frame = -1, worst_shell_joint = -1, worst_shell_frame = -1;
  std::vector<double> joint_velocity_p99;  // per bone: p99 over frames of the velocity error, cm/s
  JointVelocityError velocity;             // over every joint and frame
};

// The velocity error of every joint and frame into m: per bone its p99 over
// frames (what steers the channels) and the whole motion's (what is bounded).
void measure_velocity(const World& reference, const World& other, int bones, int frames, double fps,
                      std::vector<double>& errors, std::vector<double>& column, Measured& m) {
  errors.resize(static_cast<std::size_t>(frames) * bones);
  column.resize(static_cast<std::size_t>(frames));
  joint_velocity_errors(reference.p, other.p, bones, frames, fps, errors);
  m.joint_velocity_p99.assign(static_cast<std::size_t>(bones), 0.0);
  const auto rank = static_cast<std::size_t>(std::ceil(0.99 * frames)) - 1;
  for (int j = 0; j < bones; ++j) {
    for (int f = 0; f < frames; ++f) column[f] = errors[static_cast<std::size_t>(f) * bones + j];
    std::nth_element(column.begin(), column.begin() + static_cast<std::ptrdiff_t>(rank), column.end());
    m.joint_velocity_p99[j] = column[rank];
  }
  m.velocity = summarize_velocity_errors(errors, bones);
}

// Joint and shell errors of `other` against `reference` over `frames` (all when empty).
Measured measure(const World& reference, const World& other, int bones, int frames, std::span<const int> only,
                 bool shell_bounded, double radius) {
  Measured m;
  m.joint.assign(static_cast<std::size_t>(bones), 0.0);
  double sum = 0;
  std::size_t count = 0;
  const int n = only.empty() ? frames : static_cast<int>(only.size());
  for (int i = 0; i < n; ++i) {
    const int f = only.empty() ? i : only[i];
    for (int j = 0; j < bones; ++j) {
      const std::size_t e = static_cast<std::size_t>(f) * bones + j;
      const Eigen::Vector3d dp = other.p[e] - reference.p[e];
      const double joint = 100.0 * dp.norm();
      double shell = 0;
      const Eigen::Matrix3d dr = (other.r[e].toRotationMatrix() - reference.r[e].toRotationMatrix()) * radius;
      for (int k = 0; k < 3; ++k) shell = std::max(shell, 100.0 * (dr.col(k) + dp).norm());
      sum += joint, ++count;
      if (joint > m.worst) m.worst = joint, m.worst_joint = j, m.worst_frame = f;
      if (shell > m.worst_shell) m.worst_shell = shell, m.worst_shell_joint = j, m.worst_shell_frame = f;
      m.joint[j] = std::max(m.joint[j], shell_bounded ? shell : joint);
    }
  }
  m.mean = count ? sum / count : 0.0;
  if (m.worst_joint < 0 && n > 0) m.worst_joint = 0, m.worst_frame = only.empty() ? 0 : only[0];
  if (m.worst_shell_joint < 0 && n > 0) m.worst_shell_joint = 0, m.worst_shell_frame = only.empty() ? 0 : only[0];
  return m;
}

// The capture's planted feet for the contact bounds: their frames, the
// channels that move each foot, and each round's errors on them.
struct Planted {
  ClipFootContacts contacts;
  std::array<std::vector<char>, 2> on;     // per foot, per frame: in contact
  std::vector<std::array<bool, 2>> moves;  // per channel: the feet it moves
  // Of the last round measured, per foot: the worst heel, ball or toe error
  // on its contact frames (cm), and its mean ball speed there minus the
  // capture's (cm/s).
  std::array<double, 2> worst_cm{}, speed_difference{};
};

std::optional<Planted> find_planted(const Skeleton& skeleton, const Motion& motion,
                                    const std::vector<std::vector<int>>& affected) {
  auto contacts = clip_foot_contacts(skeleton, motion, "");
  if (!contacts) return std::nullopt;  // no feet: nothing planted to hold
  Planted p;
  p.contacts = std::move(*contacts);
  p.moves.assign(affected.size(), {false, false});
  for (std::size_t s = 0; s < 2; ++s) {
    const Foot& foot = p.contacts.feet[s];
    p.on[s].assign(static_cast<std::size_t>(motion.frame_count()), 0);
    for (const FootContact& c : p.contacts.contacts[s].contacts) {
      for (int f = c.first; f <= c.last; ++f) p.on[s][f] = 1;
    }
    for (std::size_t c = 0; c < affected.size(); ++c) {
      for (const int j : affected[c])
        p.moves[c][s] = p.moves[c][s] || j == foot.heel || j == foot.ball || j == foot.toe;
    }
  }
  return p;
}

void measure_planted(const World& reference, const World& other, int bones, int frames, double fps, Planted& p) {
  const auto speed = [&](const World& w, int f, int j) {
    const int a = std::max(0, f - 1), c = std::min(frames - 1, f + 1);
    if (a == c) return 0.0;
    return 100.0 * fps *
           (w.p[static_cast<std::size_t>(c) * bones + j] - w.p[static_cast<std::size_t>(a) * bones + j]).norm() /
           (c - a);
  };
  for (std::size_t s = 0; s < 2; ++s) {
    const Foot& foot = p.contacts.feet[s];
    double worst = 0.0, difference = 0.0;
    int count = 0;
    for (int f = 0; f < frames; ++f) {
      if (!p.on[s][f]) continue;
      for (const int j : {foot.heel, foot.ball, foot.toe}) {
        const std::size_t e = static_cast<std::size_t>(f) * bones + j;
        worst = std::max(worst, 100.0 * (other.p[e] - reference.p[e]).norm());
      }
      difference += speed(other, f, foot.ball) - speed(reference, f, foot.ball);
      ++count;
    }
    p.worst_cm[s] = worst;
    p.speed_difference[s] = count ? difference / count : 0.0;
  }
}

// The clip's skeleton and timing, without tracks.
CompressedClip clip_frame(const Skeleton& skeleton, const Motion& motion) {
  CompressedClip clip;
  clip.fps = motion.fps;
  clip.frame_count = motion.frame_count();
  clip.first_frame = motion.frame_numbers.front();
  for (int f = 1; f < motion.frame_count(); ++f) {
    if (motion.frame_numbers[f] != clip.first_frame + f) {
      clip.irregular_frame_numbers = motion.frame_numbers;
      break;
    }
  }
  clip.root_position = skeleton.root_position.cast<float>();
  clip.offsets_in_parent_frame = skeleton.offsets_in_parent_frame;
  for (const Bone& b : skeleton.bones) {
    ClipBone c;
    c.name = b.name;
    c.parent = b.parent;
    c.dofs = b.dofs;
    c.length = static_cast<float>(b.length);
    c.axis = xyz_euler_angles(b.axis_rotation).cast<float>();
    c.axis_order = 0;  // XYZ
    clip.bones.push_back(std::move(c));
  }
  finalize_clip(clip);
  return clip;
}

// Per channel, the farthest a unit error in it moves any joint (metres per
// radian for rotations, 1 for translations): the longest chain of bone
// lengths from the bone down, plus the shell radius when the shell is bounded.
std::vector<double> levers(const Skeleton& skeleton, double extra, std::vector<std::vector<int>>& affected) {
  const int bones = static_cast<int>(skeleton.bones.size());
  std::vector<double> reach(static_cast<std::size_t>(bones), 0.0);  // longest chain below and including b
  for (auto it = skeleton.eval_order.rbegin(); it != skeleton.eval_order.rend(); ++it) {
    const int b = *it;
    reach[b] += skeleton.bones[b].length;
    const int p = skeleton.bones[b].parent;
    if (p >= 0) reach[p] = std::max(reach[p], reach[b]);
  }
  std::vector<double> lever(static_cast<std::size_t>(skeleton.channel_count), 1.0);
  affected.assign(static_cast<std::size_t>(skeleton.channel_count), {});
  for (int b = 0; b < bones; ++b) {
    const Bone& bone = skeleton.bones[b];
    std::vector<int> below;  // b and its descendants
    for (int d = 0; d < bones; ++d) {
      for (int a = d; a >= 0; a = skeleton.bones[a].parent) {
        if (a == b) {
          below.push_back(d);
          break;
        }
      }
    }
    for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
      const int c = bone.first_channel + static_cast<int>(k);
      lever[c] = is_rotation(bone.dofs[k]) ? std::max(reach[b] + extra, 1e-3) : 1.0 + extra;
      affected[c] = below;
    }
  }
  return lever;
}

// One channel's share of a bound after a round whose worst affected joint
// used `ratio` of it: tightened past a break, loosened while rounds remain.
void steer(double& share, double ratio, bool loosen) {
  if (ratio > 1.0) {
    share *= 0.97 / ratio;
  } else if (loosen && ratio > 0.0) {
    share *= std::min(1.5, std::sqrt(1.0 / ratio));
  } else if (loosen && ratio == 0.0) {
    share *= 1.5;
  }
  share = std::min(share, 1e6);
}

}  // namespace

Result<void> ClipEncodeOptions::validate() const {
  if (!(max_joint_error_cm > 0.0 && std::isfinite(max_joint_error_cm)))
    return fail("", 0, "max joint error must be a finite number of centimetres > 0");
  if (!(max_contact_error_cm >= 0.0 && std::isfinite(max_contact_error_cm)))
    return fail("", 0, "max contact error must be a finite number of centimetres >= 0 (0: unbounded)");
  if (!(max_contact_speed_cm_s >= 0.0 && std::isfinite(max_contact_speed_cm_s)))
    return fail("", 0, "max contact speed must be a finite number of cm/s >= 0 (0: unbounded)");
  if (!(max_velocity_error_cm_s >= 0.0 && std::isfinite(max_velocity_error_cm_s)))
    return fail("", 0, "max velocity error must be a finite number of cm/s >= 0 (0: unbounded)");
  if (!(max_shell_error_cm >= 0.0 && std::isfinite(max_shell_error_cm)))
    return fail("", 0, "max shell error must be a finite number of centimetres >= 0 (0: joints bounded)");
  if (max_shell_error_cm > 0.0 && !(shell_radius_m > 0.0 && std::isfinite(shell_radius_m)))
    return fail("", 0, "shell radius must be a finite number of metres > 0");
  if (!pose_keys.empty()) {
    if (pose_keys.front() != 0) return fail("", 0, "pose keys must start at frame index 0");
    for (std::size_t i = 1; i < pose_keys.size(); ++i) {
      if (pose_keys[i] <= pose_keys[i - 1]) return fail("", 0, "pose keys must be increasing");
    }
  }
  if (max_iterations < 1) return fail("", 0, "max iterations must be >= 1");
  return {};
}

Result<CompressedClip> encode_clip(const Skeleton& skeleton, const Motion& motion, const ClipEncodeOptions& options,
                                   ClipEncodeStats* stats) {
  const auto start = std::chrono::steady_clock::now();
  if (auto ok = options.validate(); !ok) return std::unexpected(ok.error());
  const int frames = motion.frame_count();
  const int channels = skeleton.channel_count;
  const int bones = static_cast<int>(skeleton.bones.size());
  if (frames < 1) return fail("", 0, "the motion has no frames");
  if (motion.channel_count != channels || motion.values.size() != static_cast<std::size_t>(frames) * channels)
    return fail("", 0,
                "the motion has " + std::to_string(motion.channel_count) + " channels, the skeleton " +
                    std::to_string(channels));
  if (!(motion.fps > 0.0 && motion.fps <= 1e6)) return fail("", 0, "frame rate not in (0, 1e6]");
  for (const double v : motion.values) {
    if (!(std::abs(v) <= 1e5)) return fail("", 0, "a channel value is not finite or beyond 1e5");
  }
  for (int f = 1; f < frames; ++f) {
    if (motion.frame_numbers[f] <= motion.frame_numbers[f - 1]) return fail("", 0, "frame numbers not increasing");
  }
  if (!options.pose_keys.empty() && options.pose_keys.back() != frames - 1)
    return fail("", 0, "pose keys must end at the last frame index " + std::to_string(frames - 1));

  const bool shell = options.max_shell_error_cm > 0.0;
  const double bound_cm = shell ? options.max_shell_error_cm : options.max_joint_error_cm;
  // A hair under the bound: the float sampler differs from the double decode by ~1e-6 cm.
  const double target_cm = bound_cm * (1.0 - 1e-4) - 1e-6;
  // Whole-pose clips bound their key frames alone: no velocity there.
  const double velocity_bound = options.pose_keys.empty() ? options.max_velocity_error_cm_s : 0.0;
  const double velocity_target = velocity_bound * (1.0 - 1e-4);
  std::vector<std::vector<int>> affected;
  const std::vector<double> lever = levers(skeleton, shell ? options.shell_radius_m : 0.0, affected);

  // Planted feet: on their contact frames each channel that moves the foot
  // gets its tolerances times contact_scale (steered by the contact bounds).
  const double contact_target_cm = options.max_contact_error_cm * (1.0 - 1e-4);
  const double contact_speed_target = options.max_contact_speed_cm_s * (1.0 - 1e-4);
  std::optional<Planted> planted = find_planted(skeleton, motion, affected);
  const bool contact_bounded =
      planted && options.pose_keys.empty() && (contact_target_cm > 0.0 || contact_speed_target > 0.0);
  std::vector<double> contact_scale(static_cast<std::size_t>(channels), 1.0), fitted_scale(contact_scale.size(), -1.0);
  if (contact_target_cm > 0.0) std::ranges::fill(contact_scale, std::min(1.0, contact_target_cm / target_cm));
  std::vector<std::vector<double>> frame_scale(static_cast<std::size_t>(channels));  // per channel moving a foot

  World reference, decoded;
  world_of(skeleton, motion, reference);
  CompressedClip clip = clip_frame(skeleton, motion);
  clip.keys = options.pose_keys;
  clip.interpolation = clip.keys.empty() ? Interpolation::kSlerp : options.interpolation;

  // Curves through continuous channels: an Euler flip in the capture costs a
  // per-track curve knots, and a whole-pose curve turned the long way round
  // between keys (05_06 at 20 % keys decoded 129 cm off before this).
  std::vector<double> continuous = motion.values;
  if (options.continuous) detail::make_channels_continuous(skeleton, continuous, frames);
  std::vector<std::vector<double>> values(static_cast<std::size_t>(channels), std::vector<double>(frames));
  for (int f = 0; f < frames; ++f) {
    for (int c = 0; c < channels; ++c) values[c][f] = continuous[static_cast<std::size_t>(f) * channels + c];
  }
  clip_fit::FitOptions fit_options;
  // Keyed tracks have no curve of their own (the whole pose is rebuilt between keys): degree 1.
  fit_options.degree = !options.pose_keys.empty() ? 1 : !options.cubic ? 1 : (options.linear ? 0 : 3);
  fit_options.quantise = options.quantise;
  fit_options.entropy = options.entropy;
  fit_options.delta = options.delta;
  fit_options.keys = clip.keys;

  // Share of the bound each channel may use, as a fraction of bound / lever;
  // of the velocity bound likewise (its channel rate: bound / lever / fps).
  std::vector<double> share(static_cast<std::size_t>(channels), 0.35);
  std::vector<double> rate_share(static_cast<std::size_t>(channels), 0.35);
  std::vector<clip_fit::Tolerance> fitted(static_cast<std::size_t>(channels), clip_fit::Tolerance{-1.0, -1.0, {}});
  const auto tolerance_of = [&](int c) {
    clip_fit::Tolerance t{share[c] * bound_cm * 0.01 / lever[c], std::numeric_limits<double>::infinity(), {}};
    if (velocity_bound > 0.0) t.rate = rate_share[c] * velocity_bound * 0.01 / motion.fps / lever[c];
    if (contact_bounded && (planted->moves[c][0] || planted->moves[c][1])) {
      std::vector<double>& scale = frame_scale[c];
      scale.assign(static_cast<std::size_t>(frames), 1.0);
      for (int f = 0; f < frames; ++f) {
        if ((planted->moves[c][0] && planted->on[0][f]) || (planted->moves[c][1] && planted->on[1][f]))
          scale[f] = contact_scale[c];
      }
      t.scale = scale;
    }
    return t;
  };
  // Refit only on a real change: a few per cent moves no spacing or grid.
  const auto changed = [](double a, double b) {
    if (a == b) return false;
    return std::isinf(a) || std::isinf(b) || std::abs(a - b) > 0.03 * a;
  };
  std::vector<double> velocity_errors, velocity_column;
  double slack = 1.0;  // the joints' velocity targets over the bound
  std::vector<clip_fit::Fit> fits(static_cast<std::size_t>(channels));
  std::vector<clip_fit::ChannelCache> caches(static_cast<std::size_t>(channels));
  const int last_spacing = static_cast<int>(clip_fit::spacings().size()) - 1;

  std::optional<CompressedClip> best;
  std::vector<std::uint8_t> best_bytes;
  Measured best_measure;
  double closest_cm = std::numeric_limits<double>::infinity();
  double closest_velocity = std::numeric_limits<double>::infinity();
  int iterations = 0;
  const int rounds = options.max_iterations + 40;  // extra rounds only tighten, until the bound holds
  for (int round = 0; round < rounds; ++round) {
    if (round >= options.max_iterations && best) break;
    ++iterations;
    for (int c = 0; c < channels; ++c) {
      const clip_fit::Tolerance tolerance = tolerance_of(c);
      if (!changed(tolerance.value, fitted[c].value) && !changed(tolerance.rate, fitted[c].rate) &&
          !changed(contact_scale[c], fitted_scale[c]))
        continue;
      // After the first round only spacings near the last choice are tried.
      const int at = fits[c].spacing_index;
      const int first = round == 0 || at < 0 ? 0 : std::max(0, at - 3);
      const int last = round == 0 || at < 0 ? last_spacing : std::min(last_spacing, at + 3);
      fits[c] = clip_fit::fit_channel(values[c], tolerance, fit_options, first, last, &caches[c]);
      fitted[c] = tolerance;
      fitted_scale[c] = contact_scale[c];
    }
    clip.tracks.resize(static_cast<std::size_t>(channels));
    if (!options.per_track_keys && clip.keys.empty()) {
      // One spacing for every track: the finest any track chose.
      int finest = last_spacing;
      for (const auto& fit : fits) {
        if (fit.spacing_index >= 0) finest = std::min(finest, fit.spacing_index);
      }
      for (int c = 0; c < channels; ++c) {
        if (fits[c].spacing_index >= 0 && fits[c].spacing_index != finest) {
          clip.tracks[c] =
              clip_fit::fit_channel(values[c], tolerance_of(c), fit_options, finest, finest, &caches[c]).track;
        } else {
          clip.tracks[c] = fits[c].track;
        }
      }
    } else {
      for (int c = 0; c < channels; ++c) clip.tracks[c] = fits[c].track;
    }
    // Decode our own bytes with the real reader and decoder.
    const std::vector<std::uint8_t> bytes = format_compressed_clip(clip);
    auto parsed = parse_compressed_clip(bytes, "encoded clip");
    if (!parsed) return fail("", 0, "internal error: the encoded clip does not parse: " + parsed.error().message);
    auto motion_back = decode_motion(*parsed, skeleton);
    if (!motion_back) return fail("", 0, "internal error: " + motion_back.error().message);
    world_of(skeleton, *motion_back, decoded);
    Measured m = measure(reference, decoded, bones, frames, clip.keys, shell, options.shell_radius_m);
    const double bounded = shell ? m.worst_shell : m.worst;
    closest_cm = std::min(closest_cm, bounded);
    if (velocity_bound > 0.0)
      measure_velocity(reference, decoded, bones, frames, motion.fps, velocity_errors, velocity_column, m);
    const bool velocity_held = velocity_bound <= 0.0 || m.velocity.p99_cm_s <= velocity_target;
    if (!velocity_held) closest_velocity = std::min(closest_velocity, m.velocity.p99_cm_s);
    bool contacts_held = true;
    if (contact_bounded) {
      measure_planted(reference, decoded, bones, frames, motion.fps, *planted);
      const PlantedFeetSpeed speed =
          planted_feet_speed(planted->contacts, reference.p, decoded.p, bones, frames, motion.fps);
      contacts_held =
          (contact_target_cm <= 0.0 || std::max(planted->worst_cm[0], planted->worst_cm[1]) <= contact_target_cm) &&
          (contact_speed_target <= 0.0 || speed.difference_cm_s <= contact_speed_target);
    }
    if (bounded <= target_cm && velocity_held && contacts_held && (!best || bytes.size() < best_bytes.size())) {
      best = std::move(*parsed);
      best_bytes = bytes;
      best_measure = m;
    }
    // Tighten the channels above joints that break the bound, loosen those
    // whose joints all have room.
    const bool loosen = round + 1 < options.max_iterations;
    // Every joint's p99 within the bound is more than the whole motion's p99
    // needs: the joints' targets follow the room the whole motion leaves.
    if (velocity_bound > 0.0 && m.velocity.p99_cm_s > 0.0)
      slack = std::clamp(slack * std::sqrt(velocity_target / m.velocity.p99_cm_s), 1.0, 4.0);
    for (int c = 0; c < channels; ++c) {
      double ratio = 0.0, rate_ratio = 0.0;
      for (const int j : affected[c]) {
        ratio = std::max(ratio, m.joint[j] / target_cm);
        if (velocity_bound > 0.0)
          rate_ratio = std::max(rate_ratio, m.joint_velocity_p99[j] / (velocity_target * slack));
      }
      steer(share[c], ratio, loosen);
      if (velocity_bound > 0.0) steer(rate_share[c], rate_ratio, loosen);
      if (!contact_bounded) continue;
      double contact_ratio = 0.0;
      for (std::size_t s = 0; s < 2; ++s) {
        if (!planted->moves[c][s]) continue;
        if (contact_target_cm > 0.0) contact_ratio = std::max(contact_ratio, planted->worst_cm[s] / contact_target_cm);
        if (contact_speed_target > 0.0)
          contact_ratio = std::max(contact_ratio, planted->speed_difference[s] / contact_speed_target);
      }
      if (planted->moves[c][0] || planted->moves[c][1]) {
        steer(contact_scale[c], contact_ratio, loosen);
        contact_scale[c] = std::min(contact_scale[c], 1.0);
      }
    }
  }
  if (!best && closest_cm <= target_cm && contact_bounded)
    return fail("", 0,
                "cannot hold the planted feet's bounds (" + std::to_string(options.max_contact_error_cm) + " cm, +" +
                    std::to_string(options.max_contact_speed_cm_s) + " cm/s) with the joint and velocity bounds");
  if (!best && closest_cm <= target_cm && velocity_bound > 0.0)
    return fail("", 0,
                "cannot hold the velocity bound of " + std::to_string(velocity_bound) +
                    " cm/s: the closest decoded file had " + std::to_string(closest_velocity) + " cm/s");
  if (!best)
    return fail("", 0,
                "cannot hold the bound of " + std::to_string(bound_cm) + " cm: the closest decoded file was " +
                    std::to_string(closest_cm) + " cm");
  best->name.clear();
  if (stats && !clip.keys.empty()) {
    // Whole-pose mode bounded the key frames; the stats are of every frame.
    auto motion_back = decode_motion(*best, skeleton);
    if (!motion_back) return fail("", 0, "internal error: " + motion_back.error().message);
    world_of(skeleton, *motion_back, decoded);
    best_measure = measure(reference, decoded, bones, frames, {}, shell, options.shell_radius_m);
  }
  if (stats && velocity_bound <= 0.0) {  // measured for the stats alone
    if (clip.keys.empty()) {
      auto motion_back = decode_motion(*best, skeleton);
      if (!motion_back) return fail("", 0, "internal error: " + motion_back.error().message);
      world_of(skeleton, *motion_back, decoded);
    }
    measure_velocity(reference, decoded, bones, frames, motion.fps, velocity_errors, velocity_column, best_measure);
  }
  if (stats) {
    ClipEncodeStats& s = *stats;
    s.bytes = best_bytes.size();
    s.raw_bytes = static_cast<std::size_t>(frames) * channels * 4;
    s.worst_joint_error_cm = best_measure.worst;
    s.worst_joint = best_measure.worst_joint;
    s.worst_frame = best_measure.worst_frame;
    s.worst_shell_error_cm = best_measure.worst_shell;
    s.worst_shell_joint = best_measure.worst_shell_joint;
    s.worst_shell_frame = best_measure.worst_shell_frame;
    s.mean_joint_error_cm = best_measure.mean;
    s.velocity = best_measure.velocity;
    if (planted) {  // of the best file
      auto motion_back = decode_motion(*best, skeleton);
      if (!motion_back) return fail("", 0, "internal error: " + motion_back.error().message);
      world_of(skeleton, *motion_back, decoded);
      measure_planted(reference, decoded, bones, frames, motion.fps, *planted);
      s.planted = planted_feet_speed(planted->contacts, reference.p, decoded.p, bones, frames, motion.fps);
      s.worst_contact_error_cm = std::max(planted->worst_cm[0], planted->worst_cm[1]);
    }
    s.keys = summarize(*best).keys;
    s.iterations = iterations;
    s.encode_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return std::move(*best);
}

}  // namespace mocap
