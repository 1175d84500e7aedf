// Eyes on the body's timeline: the head of a capture drives the procedural
// eyes of eyes.h.
//
//   - head_track() runs forward kinematics over a clip and keeps the head's
//     world rotation and the eyes' position per frame.
//   - detect_head_turns() finds fast head turns (yaw speed above a threshold).
//   - EyeTimeline generates a rig's track over any duration and samples it at
//     any increasing times: a clip's frames, 40 Hz for displays, or both; the
//     values at a given time do not depend on the sampling. With a head:
//       * the eyes lead a fast head turn: at the turn's onset they saccade to
//         where the head is going, then counter-rotate as the head catches up
//         (the gaze stays on the turn's goal in the world);
//       * a turn larger than `large_turn_rad` brings a blink at its onset;
//       * the lead is a saccade on the main sequence toward the turn's goal,
//         clamped to the edge of the eyes' range (the head does the rest);
//       * with a world target, the partner of conversation modes is that
//         point, and the eyes counter-rotate against every head motion to keep
//         it (vestibulo-ocular reflex); head-turn leads are then off, since the
//         eyes hold the target instead. Each eye aims from its own centre
//         (EyeParams::interocular_m apart), so a near target makes them
//         converge. A target behind the head does not wrap: the eyes stay at
//         the edge of their range on the side where it went until it is
//         within reach again on either side;
//       * every frame's gaze is clamped radially to the unit disc and its
//         eye-in-head velocity limited to 700 deg/s (kMaxEyeInHeadDegS) with
//         respect to the previous frame. Only that limiter depends on the
//         sampling, and only while it acts (a target reappearing on the other
//         side), since every motion of its own stays under 700 deg/s.
//   - split_look_at() shares a look-at rotation between neck, head and eyes for
//     callers that pose a skeleton.
//
// Frames: world positions in metres, rotations as in fk.h. The face of an
// Acclaim (CMU) skeleton in its rest pose looks along +Z with +Y up, so the
// character's right is -X. Gaze units are those of eyes.h.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>
#include <mocap/eyes/eyes.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <optional>
#include <string_view>
#include <vector>

namespace mocap {

// The head over time: one rotation and one eye position per capture frame.
struct HeadTrack {
  double fps = 120.0;
  std::vector<Eigen::Quaterniond> rotation;   // head bone's world rotation (rest pose: identity)
  std::vector<Eigen::Vector3d> eye_position;  // midpoint between the eyes, metres
  // Rest-pose directions of the face (see the file comment for Acclaim).
  Eigen::Vector3d forward = Eigen::Vector3d::UnitZ();
  Eigen::Vector3d up = Eigen::Vector3d::UnitY();

  int frame_count() const { return static_cast<int>(rotation.size()); }
  double duration_s() const { return frame_count() / fps; }
  // Interpolated at `time_s` (slerp / lerp between frames; held at the ends).
  Eigen::Quaterniond rotation_at(double time_s) const;
  Eigen::Vector3d eye_position_at(double time_s) const;
};

// The head track of a clip: world rotation of bone `head_bone` per frame and
// the eyes at the middle of that bone. The name matches in any case when no
// bone has it exactly (BVH files say "Head"). In a BVH skeleton the joint
// called `head_bone` is the head's base and turns it; the head ends at the
// joint's first child (its End Site). Fails when the bone is missing or the
// clip has no frames.
Result<HeadTrack> head_track(const Skeleton& skeleton, const Motion& motion, std::string_view head_bone = "head");

// Yaw of the face about the world up axis, radians, positive toward the
// character's left (a right-handed turn about +Y).
double head_yaw(const HeadTrack& head, const Eigen::Quaterniond& rotation);

struct HeadTurnOptions {
  double speed_threshold_rad_s = 1.2;  // a turn is yaw faster than this (about 70 deg/s)
  double min_amplitude_rad = 0.17;     // turns smaller than this (about 10 deg) are ignored

  // Fails (no file) unless the threshold is > 0 and the amplitude >= 0, both finite.
  Result<void> validate() const;
};

struct HeadTurn {
  double start_s = 0.0;  // onset: the yaw speed crosses the threshold
  double end_s = 0.0;    // the yaw speed falls below a third of the threshold
  double yaw_rad = 0.0;  // signed change of yaw over the turn (positive: to the left)
  double peak_speed_rad_s = 0.0;
};

// Fast head turns, in time order. The yaw speed is a central difference over
// +-25 ms, so single-frame capture noise does not count as a turn.
std::vector<HeadTurn> detect_head_turns(const HeadTrack& head, const HeadTurnOptions& options = {});

// The eye-in-head gaze (normalised, eyes.h) that looks from `eye_position` at
// `target` with the head at `rotation`; not clamped (may exceed 1).
Eigen::Vector2d gaze_toward(const HeadTrack& head, const Eigen::Quaterniond& rotation,
                            const Eigen::Vector3d& eye_position, const Eigen::Vector3d& target, double range_rad);
// The world direction of an eye-in-head gaze (inverse of gaze_toward).
Eigen::Vector3d gaze_direction(const HeadTrack& head, const Eigen::Quaterniond& rotation, const Eigen::Vector2d& gaze,
                               double range_rad);

// The world centre of one eye: `mid` (the midpoint between the eyes) plus
// half of `interocular_m` toward the character's left (left eye) or right.
Eigen::Vector3d eye_center(const HeadTrack& head, const Eigen::Quaterniond& rotation, const Eigen::Vector3d& mid,
                           double interocular_m, bool left_eye);

// Fastest eye-in-head rotation the timeline outputs on a clip, deg/s (people
// top out near 700).
inline constexpr double kMaxEyeInHeadDegS = 700.0;

// How a look-at is shared between neck, head and eyes (fractions of the
// rotation, summing to 1; 60/30/10 by default).
struct LookAtSplit {
  double neck = 0.6;
  double head = 0.3;
  double eyes = 0.1;
};
struct LookAtRotations {
  Eigen::Quaterniond neck = Eigen::Quaterniond::Identity();
  Eigen::Quaterniond head = Eigen::Quaterniond::Identity();
  Eigen::Quaterniond eyes = Eigen::Quaterniond::Identity();
};
// Splits `total` (the rotation taking the current facing to the look-at
// direction) into three rotations about the same axis whose product
// neck * head * eyes is `total`. Fractions are normalised to sum to 1.
LookAtRotations split_look_at(const Eigen::Quaterniond& total, const LookAtSplit& split = {});

struct EyeTimelineOptions {
  EyeParams params;
  std::uint64_t seed = 1;
  const HeadTrack* head = nullptr;              // optional; must outlive the timeline
  std::optional<Eigen::Vector3d> world_target;  // fixed gaze target, metres (needs a head)
  bool lead_head_turns = true;                  // eyes lead fast head turns (no world target)
  double large_turn_rad = 0.52;                 // a head turn at least this large brings a blink (30 deg)
  HeadTurnOptions turns;

  // Fails (no file) when world_target is set without a head or is not
  // finite, large_turn_rad < 0, or `turns` is invalid.
  Result<void> validate() const;
};

// A rig on a time axis, sampled at increasing times.
class EyeTimeline {
 public:
  explicit EyeTimeline(const EyeTimelineOptions& options);

  // The frame at `time_s` (s, from 0). Times must not decrease; an earlier
  // time is treated as the last one. Updates stats() when given.
  EyeFrame at(double time_s);
  // Changes parameters from now on (emotion, mode, factors).
  void set_params(const EyeParams& params) { options_.params = params; }
  const EyeParams& params() const { return options_.params; }
  const std::vector<HeadTurn>& head_turns() const { return turns_; }
  const EyeStats& stats() const { return stats_; }
  // When set, every generator event is appended (for tests and tuning).
  void record_events(std::vector<EyeEvent>* events) { stats_.events = events; }

 private:
  Eigen::Vector2d partner(double time_s, bool left_eye, double& last_x) const;
  Eigen::Vector2d lead(double time_s) const;

  EyeTimelineOptions options_;
  EyeRig rig_;
  EyeStats stats_;
  std::vector<HeadTurn> turns_;
  std::vector<double> blink_cues_;
  double last_time_ = 0.0;
  // The target's unwrapped yaw per eye (normalised), and the last output
  // gaze for the velocity limit.
  double partner_x_[2] = {0.0, 0.0};
  bool have_last_ = false;
  EyeFrame last_;
};

// Frames at 0, 1/fps, 2/fps, ... up to `duration_s` (exclusive) of one timeline.
std::vector<EyeFrame> eye_track(EyeTimeline& timeline, double fps, double duration_s);

}  // namespace mocap
