// Keyframe compression: choosing key poses of a motion and rebuilding every
// frame from them.
//
// The method, in order:
//   1. Each bone gets a weight for how much of the body it moves
//      (default_joint_weights, or a weights file).
//   2. The distance between two poses is the weighted sum of the rotation
//      angles between the bones' local rotations, plus a root translation term
//      (pose_distance).
//   3. Extraction by threshold (extract_keys): the first frame is a key; a frame
//      farther than the threshold from the last key becomes a key; the last
//      frame is always a key.
//   4. Rebuild (rebuild_poses, rebuild_motion): every bone's rotation is slerped
//      along the short arc between the neighbouring keys, translations are
//      interpolated linearly, and key frames come back exactly. On request
//      (Interpolation::kCubic) a C1 cubic through all the keys instead.
//   5. Selection beyond the threshold (select_keys_for_count,
//      select_keys_for_max_error): keys chosen against the position error of
//      the rebuild itself, measured through the whole hierarchy: the count
//      against the mean over joints, max_error against the worst joint (or
//      the worst shell point) on every frame. The
//      selection always measures the slerp rebuild, whatever rebuild the keys
//      are later given to: its keys (and max_error's bound) are those that
//      suit slerp, and a cubic rebuild of them may be better or worse.
//
// Keys are indices of frames of the motion (0-based, increasing), not AMC frame
// numbers. Angles are in radians, lengths in metres, errors in centimetres.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/fk.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mocap {

// ---------------------------------------------------------------------------
// Weights and distance

// One weight per bone (bone order, bone 0 the root), each the summed length of
// the bones it carries (its own and all below it), normalised to sum 1: the
// root carries the whole body, a hip outweighs a finger. A skeleton whose bones
// all have zero length gets equal weights.
std::vector<double> default_joint_weights(const Skeleton& skeleton);

// Weights from text of lines `bone weight` (a finite number >= 0); blank lines
// and lines starting with '#' are skipped. Bones the text does not name get 0;
// the result is normalised to sum 1. Fails, naming the line, on an unknown
// bone, a bone named twice, a malformed or negative weight, or when every
// weight is 0. `name` stands for the file in errors.
Result<std::vector<double>> parse_joint_weights(std::string_view text, const std::string& name,
                                                const Skeleton& skeleton);
// The same from a file.
Result<std::vector<double>> read_joint_weights(const std::string& path, const Skeleton& skeleton);

// The angle of the rotation between two unit quaternions, 2 acos |<a, b>|, in
// radians in [0, pi]: q and -q are the same rotation, at distance 0. Near 0
// acos is good to about 1e-8 rad; the distance only compares against
// thresholds far above that.
double rotation_angle(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b);

struct DistanceOptions {
  // The root translation term: a root displacement of 1 m adds this much to
  // the distance, which is otherwise a weighted mean of angles in radians.
  // With 1, moving the whole body 1 m counts like turning every bone 1 rad.
  double root_translation_per_metre = 1.0;
};

// ---------------------------------------------------------------------------
// The poses of a whole motion

// Local rotations and offsets of every frame (see Pose in fk.h), frame-major:
// entry f * bones + b. Built once per motion; extraction, rebuild and the
// selection work on it without touching channel values again.
struct PoseTrack {
  int frames = 0;
  int bones = 0;
  std::vector<Eigen::Quaterniond> rotation;  // frames * bones, unit length
  std::vector<Eigen::Vector3d> offset;       // frames * bones, metres; offset[f * bones] is the root position

  const Eigen::Quaterniond* rotations(int f) const { return rotation.data() + static_cast<std::size_t>(f) * bones; }
  const Eigen::Vector3d* offsets(int f) const { return offset.data() + static_cast<std::size_t>(f) * bones; }
};

// The pose track of `motion` (allocates it).
PoseTrack make_pose_track(const Skeleton& skeleton, const Motion& motion);
// Fills `track`, which must already have room for motion.frame_count() frames
// of `skeleton`'s bones (e.g. from an earlier make_pose_track); no allocation per frame.
void fill_pose_track(const Skeleton& skeleton, const Motion& motion, PoseTrack& track);

// Distance between frames a and b of `track`: sum over bones of
// weights[b] * rotation_angle, plus root_translation_per_metre * |root
// position a - root position b| (metres).
double pose_distance(const PoseTrack& track, std::span<const double> weights, int a, int b,
                     const DistanceOptions& options = {});

// ---------------------------------------------------------------------------
// Extraction by threshold

// Key frame indices by the threshold rule (step 3 above) into `keys` (cleared
// first; capacity is reused). An empty track gives no keys, a single frame one.
void extract_keys(const PoseTrack& track, std::span<const double> weights, double threshold,
                  const DistanceOptions& options, std::vector<int>& keys);
std::vector<int> extract_keys(const PoseTrack& track, std::span<const double> weights, double threshold,
                              const DistanceOptions& options = {});

struct ThresholdKeys {
  double threshold = 0.0;  // the threshold found
  std::vector<int> keys;   // what extract_keys gives at it
};
// Bisects the threshold until extract_keys gives `count` keys, or as close to
// it as a threshold can (the count is not always reachable exactly; the
// result then has the nearest count found, preferring more keys). `count` is
// clamped to [min(2, frames), frames].
ThresholdKeys threshold_for_count(const PoseTrack& track, std::span<const double> weights, int count,
                                  const DistanceOptions& options = {});

// `count` keys spaced as evenly as frame indices allow, first and last frame
// included: round(i * (frames - 1) / (count - 1)). `count` is clamped to
// [min(2, frames), frames].
std::vector<int> uniform_keys(int frames, int count);

// ---------------------------------------------------------------------------
// Rebuild

// How the rebuild goes from key to key. Time is the frame index (or, in
// rebuild_motion, the AMC frame number), so uneven key gaps are honoured.
enum class Interpolation {
  // Rotations slerped along the short arc between the two keys around a
  // frame, offsets linear: the default, and what the selection measures.
  kSlerp,
  // A C1 cubic through all the keys. Offsets: cubic Hermite. Rotations: the
  // same Hermite curve written on the rotation group (Kim, Kim and Shin's
  // cumulative form, q_a exp(b1 w1) exp(b2 w2) exp(b3 w3)), which turns at
  // the keys' angular velocities and reproduces a constant angular velocity
  // exactly, as slerp does. The tangent (velocity) at an inner key is
  // Catmull-Rom's at the real key times, (h0 d0 + h1 d1) / (h0 + h1) for
  // slopes d0, d1 over gaps h0, h1 frames (for rotations the slopes are the
  // relative rotations' rotation vectors over the gaps; where one gap is at
  // least twice the other, a rotation's tangent is capped at 3 times the
  // longer gap's mean speed, so that a jump between two close keys is not
  // carried into the long gap beside them); at the first and last key it is
  // the one-sided slope of the gap beside it. With two keys the cubic is
  // slerp and linear offsets exactly. It can still overshoot where the
  // motion is jerky between keys.
  kCubic,
};

// "slerp" or "cubic".
std::string_view interpolation_name(Interpolation interpolation);

// The poses rebuilt from the key frames `keys` of `track` into `out`, for
// every frame from keys.front() to keys.back() (out frame i is track frame
// keys.front() + i). Rotations: by `interpolation` (slerp along the short arc
// by default), then, for a bone with two rotation dofs, the nearest rotation
// those two dofs can express (so the pose is what the AMC channels written by
// rebuild_motion give back). Offsets: linear, or cubic Hermite. Key frames
// are copied exactly. `out` must have room for the frames (make_pose_track of
// the motion will do); no allocation per frame (the cubic allocates its key
// tangents once). `keys` must be increasing and non-empty.
void rebuild_poses(const Skeleton& skeleton, const PoseTrack& track, std::span<const int> keys, PoseTrack& out,
                   Interpolation interpolation = Interpolation::kSlerp);

// The frames `keys` of `motion` (channel values copied, frame numbers kept):
// what a key file holds.
Motion key_motion(const Motion& motion, std::span<const int> keys);

// Every frame from the first to the last frame number of `keys` (a motion of
// key frames, frame numbers strictly increasing), with channel values whose
// poses are rebuild_poses' poses by the same `interpolation`, timed by the
// frame numbers. Key frames come back exactly; in between, angles are chosen
// nearest to the keys' values interpolated channel by channel (straight lines
// for slerp, the cubic Hermite with kCubic's tangents for cubic), so curves
// stay continuous through unwrapped angles; translation channels are those
// interpolated values. Fails when `keys` has no frames or its frame numbers
// do not increase. `name` stands for the keys' file in errors.
Result<Motion> rebuild_motion(const Skeleton& skeleton, const Motion& keys, const std::string& name = "keys",
                              Interpolation interpolation = Interpolation::kSlerp);

// ---------------------------------------------------------------------------
// Selection against the rebuild's error

// The position error used by the selection: for a frame, the mean over bones
// of the distance between original and rebuilt world positions (the same as
// motion_error.h's position error), in cm.
struct KeySelection {
  std::vector<int> keys;
  double threshold = 0.0;            // threshold of the extraction the search started from
  double mean_error_cm = 0.0;        // mean over frames of the position error
  double max_error_cm = 0.0;         // max over frames of the position error (a mean over joints)
  double worst_joint_cm = 0.0;       // max over every joint and frame of |p' - p|
  double start_mean_error_cm = 0.0;  // the same for the threshold's keys, before refinement
};

struct SelectionOptions {
  DistanceOptions distance;
  // Refinement passes at most (each moves every key to its best place between
  // its neighbours, then trades keys from where they are least needed to where
  // the error is largest). Each pass lowers the mean error or stops.
  int max_passes = 8;
};

// `count` keys (clamped to [min(2, frames), frames]) with a low mean position
// error: the threshold's keys for that count (bisection) or uniformly spaced
// keys, whichever rebuilds better, refined by local search. The result's mean
// error is never above that of uniform_keys(frames, count).
KeySelection select_keys_for_count(const Skeleton& skeleton, const Motion& motion, std::span<const double> weights,
                                   int count, const SelectionOptions& options = {});

// What select_keys_for_max_error bounds on every frame (motion_error.h).
enum class ErrorBound {
  kJoint,  // the worst joint's position error, max_j |p' - p|: every joint, every frame
  kShell,  // the worst shell point's error, points at shell_radius from every joint
};

// The fewest keys found whose rebuild keeps `bound` within `max_error_cm`
// (cm) on every frame: from each key, the farthest next key that keeps the
// bound (all frames are keys in the worst case, so the bound always holds).
// `shell_radius` (metres) is used by ErrorBound::kShell. The threshold is
// NaN: none is used.
KeySelection select_keys_for_max_error(const Skeleton& skeleton, const Motion& motion, double max_error_cm,
                                       ErrorBound bound = ErrorBound::kJoint, double shell_radius = 0.03);

// The mean and max position error (cm) of rebuilding `motion` from `keys`, as
// the selection measures it, over the frames from the first key to the last.
struct KeyError {
  double mean_cm = 0.0;
  double max_cm = 0.0;          // worst frame of the mean over joints
  double worst_joint_cm = 0.0;  // worst joint on the worst frame
};
KeyError key_error(const Skeleton& skeleton, const Motion& motion, std::span<const int> keys);

}  // namespace mocap
