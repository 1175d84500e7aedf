#include "compare.h"

#include <mocap/core/fk.h>
#include <mocap/core/foot_contacts.h>
#include <mocap/io/amc.h>
#include <mocap/io/bvh.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>

namespace mocap::viewer {
namespace {

// Hues apart from each other and from the error scale's green-red: orange
// (the main clip), blue, violet, teal, pink, olive.
constexpr std::array<colors::Rgb, 6> kPalette = {{
    colors::kBone,
    {0.30f, 0.55f, 1.00f},
    {0.70f, 0.40f, 1.00f},
    {0.20f, 0.85f, 0.85f},
    {1.00f, 0.40f, 0.70f},
    {0.75f, 0.75f, 0.30f},
}};

// Where the main clip travels over the ground (unit, xz); +X when it stays put.
Eigen::Vector3d travel_direction(const PosedCapture& main) {
  const int frames = main.frame_count();
  if (frames < 2) return Eigen::Vector3d::UnitX();
  std::vector<Eigen::Vector3d> first(main.capture.skeleton.bones.size()), last(main.capture.skeleton.bones.size());
  std::vector<Eigen::Quaterniond> r(main.capture.skeleton.bones.size());
  Pose pose = make_pose(main.capture.skeleton);
  pose_from_channels(main.capture.skeleton, main.capture.motion.frame(0), pose);
  forward_kinematics(main.capture.skeleton, pose, first, r);
  pose_from_channels(main.capture.skeleton, main.capture.motion.frame(frames - 1), pose);
  forward_kinematics(main.capture.skeleton, pose, last, r);
  Eigen::Vector3d d = last[0] - first[0];
  d.y() = 0.0;
  return d.norm() > 0.3 ? Eigen::Vector3d(d.normalized()) : Eigen::Vector3d::UnitZ();
}

Eigen::Vector3d first_root(const PosedCapture& clip) {
  if (clip.frame_count() == 0) return Eigen::Vector3d::Zero();
  Pose pose = make_pose(clip.capture.skeleton);
  std::vector<Eigen::Vector3d> p(clip.capture.skeleton.bones.size());
  std::vector<Eigen::Quaterniond> r(clip.capture.skeleton.bones.size());
  pose_from_channels(clip.capture.skeleton, clip.capture.motion.frame(0), pose);
  forward_kinematics(clip.capture.skeleton, pose, p, r);
  return p[0];
}

bool same_skeleton(const Skeleton& a, const Skeleton& b) {
  if (a.bones.size() != b.bones.size() || a.channel_count != b.channel_count) return false;
  for (std::size_t i = 0; i < a.bones.size(); ++i) {
    const Bone &x = a.bones[i], &y = b.bones[i];
    // The same bones of the same lengths (0.1 mm): another subject's ASF with
    // the same names is another skeleton.
    if (x.name != y.name || x.parent != y.parent || std::abs(x.length - y.length) > 1e-4 ||
        (x.direction * x.length - y.direction * y.length).norm() > 1e-4) {
      return false;
    }
  }
  return true;
}

// mocap eval's measure (ErrorMeasure, as measure_error runs it) and, for the
// joints, each joint's distance on each frame: the terms of its mean and max.
CompareError measure(const PosedCapture& main, const PosedCapture& other) {
  CompareError e;
  if (!same_skeleton(main.capture.skeleton, other.capture.skeleton)) {
    e.note = "another skeleton: no error";
    return e;
  }
  if (main.capture.motion.frame_numbers != other.capture.motion.frame_numbers) {
    e.note = "other frame numbers than the main clip: no error (as mocap eval)";
    return e;
  }
  const int frames = main.frame_count();
  const int bones = static_cast<int>(main.capture.skeleton.bones.size());
  const std::size_t n = static_cast<std::size_t>(frames) * bones;
  std::vector<Eigen::Vector3d> p0(n), p1(n);
  std::vector<Eigen::Quaterniond> r0(n), r1(n);
  world_transforms(main.capture.skeleton, main.capture.motion, p0, r0);
  world_transforms(other.capture.skeleton, other.capture.motion, p1, r1);
  ErrorMeasure job(bones, frames);
  if (!job.run(p0, r0, p1, r1, frames, ErrorOptions{}, e.summary)) {
    e.note = "the error measure refused the motions";
    return e;
  }
  e.mean_cm.assign(job.position_per_frame().begin(), job.position_per_frame().end());
  e.worst_cm.assign(job.joint_per_frame().begin(), job.joint_per_frame().end());
  e.joint_cm.resize(n);
  for (std::size_t i = 0; i < n; ++i) e.joint_cm[i] = static_cast<float>(100.0 * (p1[i] - p0[i]).norm());
  // Jitter: the library's measures on the positions at hand (measure_jitter's).
  std::vector<double> velocity(n);
  joint_velocity_errors(p0, p1, bones, frames, main.capture.motion.fps, velocity);
  e.velocity_cm_s.assign(static_cast<std::size_t>(frames), 0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    float& top = e.velocity_cm_s[i / static_cast<std::size_t>(bones)];
    top = std::max(top, static_cast<float>(velocity[i]));
  }
  e.velocity = summarize_velocity_errors(velocity, bones);
  if (auto contacts = clip_foot_contacts(main.capture.skeleton, main.capture.motion, "")) {
    e.planted = planted_feet_speed(*contacts, p0, p1, bones, frames, main.capture.motion.fps);
  }
  e.valid = true;
  return e;
}

}  // namespace

ContactBars contact_bars(const PosedCapture& main) {
  ContactBars bars;
  auto contacts = clip_foot_contacts(main.capture.skeleton, main.capture.motion, main.capture.amc_path);
  if (!contacts) {
    bars.note = contacts.error().message;
    return bars;
  }
  bars.feet = true;
  const std::size_t frames = static_cast<std::size_t>(main.frame_count());
  for (std::size_t s = 0; s < 2; ++s) {
    std::vector<unsigned char>& on = s == 0 ? bars.left : bars.right;
    on.assign(frames, 0);
    for (const FootContact& c : contacts->contacts[s].contacts) {
      for (int f = std::max(c.first, 0); f <= c.last && f < static_cast<int>(frames); ++f)
        on[static_cast<std::size_t>(f)] = 1;
    }
  }
  return bars;
}

void set_main(CompareState& state, const PosedCapture& main) {
  state.contacts = contact_bars(main);
}

bool same_skeleton_as(const PosedCapture& a, const PosedCapture& b) {
  return same_skeleton(a.capture.skeleton, b.capture.skeleton);
}

Eigen::Vector3d followed_point(const CompareState& state, const PosedCapture& main) {
  Eigen::Vector3d sum = main.positions.empty() ? Eigen::Vector3d::Zero() : main.positions[0];
  int n = 1;
  for (const CompareMotion& m : state.motions) {
    if (m.visible && !m.placed.empty()) sum += m.placed[0], ++n;
  }
  return sum / n;
}

colors::Rgb motion_color(int i) {
  return kPalette[static_cast<std::size_t>(i) % kPalette.size()];
}

colors::Rgb joint_color(const colors::Rgb& bone) {
  if (bone == colors::kBone) return colors::kJoint;
  return {0.45f + 0.55f * bone[0], 0.45f + 0.55f * bone[1], 0.45f + 0.55f * bone[2]};
}

colors::Rgb error_scale(float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  // Green through yellow to red.
  return t < 0.5f ? colors::Rgb{0.25f + 1.5f * t, 0.85f, 0.25f}
                  : colors::Rgb{1.0f, 0.85f - 1.3f * (t - 0.5f), 0.25f - 0.2f * (t - 0.5f)};
}

Result<PosedCapture> load_other(const std::string& first, const std::string& second, const std::string& main_asf,
                                double bvh_metres_per_unit) {
  if (second.empty()) {
    if (is_bvh_path(first)) return load_capture(first, "", bvh_metres_per_unit);
    if (main_asf.empty() || is_bvh_path(main_asf)) {
      return fail(first, 0, "an AMC alone is a motion of the main clip's ASF, and the main clip has none");
    }
    return load_capture(main_asf, first);
  }
  return load_capture(first, second);
}

void add_motion(CompareState& state, PosedCapture clip, const PosedCapture& main) {
  CompareMotion m;
  m.name = std::filesystem::path(clip.capture.amc_path).filename().string();
  m.color = motion_color(static_cast<int>(state.motions.size()) + 1);
  m.error = measure(main, clip);
  m.clip = std::move(clip);
  m.placed = m.clip.positions;
  state.motions.push_back(std::move(m));
  lay_out(state, main);
}

Eigen::Vector3d beside_offset(const CompareState& state, const PosedCapture& main, int slot) {
  if (!state.side_by_side) return Eigen::Vector3d::Zero();
  const Eigen::Vector3d across = Eigen::Vector3d::UnitY().cross(travel_direction(main)).normalized();
  return static_cast<double>(slot) * state.spacing_m * across;
}

void lay_out(CompareState& state, const PosedCapture& main) {
  const Eigen::Vector3d start = first_root(main);
  for (std::size_t i = 0; i < state.motions.size(); ++i) {
    CompareMotion& m = state.motions[i];
    Eigen::Vector3d shift = start - first_root(m.clip);
    shift.y() = 0.0;
    m.offset = shift + beside_offset(state, main, static_cast<int>(i + 1));
  }
}

int matching_frame(const PosedCapture& main, int frame, const PosedCapture& other) {
  const int count = other.frame_count();
  if (count == 0 || main.frame_count() == 0) return 0;
  frame = std::clamp(frame, 0, main.frame_count() - 1);
  if (std::abs(main.capture.motion.fps - other.capture.motion.fps) < 1e-9) {
    // The same frame number, or as many frames on from the first.
    const int number = main.capture.motion.frame_numbers[static_cast<std::size_t>(frame)];
    const int at = frame_index(other, number);
    return at >= 0 ? at : std::clamp(frame, 0, count - 1);
  }
  const double t = frame / main.capture.motion.fps;
  return std::clamp(static_cast<int>(std::floor(t * other.capture.motion.fps + 1e-6)), 0, count - 1);
}

void pose_motions(CompareState& state, const PosedCapture& main) {
  for (CompareMotion& m : state.motions) {
    pose_frame(m.clip, matching_frame(main, main.frame, m.clip));
    m.placed.resize(m.clip.positions.size());
    for (std::size_t j = 0; j < m.placed.size(); ++j) m.placed[j] = m.clip.positions[j] + m.offset;
  }
}

std::vector<Eigen::Vector3d> scene_points(const CompareState& state, const PosedCapture& main) {
  std::vector<Eigen::Vector3d> points = main.positions;
  for (const CompareMotion& m : state.motions) {
    if (m.visible) points.insert(points.end(), m.placed.begin(), m.placed.end());
  }
  return points;
}

std::span<const colors::Rgb> error_colors(const CompareState& state, int m, std::vector<colors::Rgb>& out) {
  out.clear();
  if (!state.color_by_error || m < 0 || m >= static_cast<int>(state.motions.size())) return out;
  const CompareMotion& motion = state.motions[static_cast<std::size_t>(m)];
  if (!motion.error.valid || motion.clip.frame < 0) return out;
  const std::size_t bones = motion.clip.capture.skeleton.bones.size();
  const std::size_t at = static_cast<std::size_t>(motion.clip.frame) * bones;
  if (at + bones > motion.error.joint_cm.size()) return out;
  out.resize(bones);
  for (std::size_t j = 0; j < bones; ++j) out[j] = error_scale(motion.error.joint_cm[at + j] / state.red_at_cm);
  return out;
}

}  // namespace mocap::viewer
