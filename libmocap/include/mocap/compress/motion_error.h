// How far one motion is from another of the same skeleton, measured on world
// joint positions (forward kinematics through the whole hierarchy), in cm.
//
// Per frame f, over the skeleton's bones j (bone 0 the root, the others their
// end points, as fk.h gives them):
//   position  P(f) = mean_j |p'(f, j) - p(f, j)|                      cm
//   joint     J(f) = max_j  |p'(f, j) - p(f, j)|                      cm
//   velocity  V(f) = mean_j |v'(f, j) - v(f, j)|, v by central
//                    differences (p(f+1) - p(f-1)) / 2, one-sided at
//                    the ends                                         cm per frame
//   combined  C(f) = P(f) + lambda * V(f)
//   shell     S(f) = max_j max_k |(R'(f, j) r e_k + p'(f, j)) -
//                                 (R(f, j) r e_k + p(f, j))|          cm
// where R is a bone's world rotation and r e_k (k = x, y, z) a point at
// distance r from the joint in the bone's frame, as ACL measures: a small
// rotation error at a joint is a large error at a fingertip.
// Each is summarised over frames by mean, RMS, 99th percentile (nearest rank)
// and max, naming the worst frame and the worst joint.
//
// The honest "max" is joint.max: the worst joint on the worst frame, every
// joint and every frame (ACL's measure without the shell). position.max is
// only the worst frame of a mean over joints and can hide a joint far worse:
// on CMU 87_03 rebuilt from keys chosen for a 2 cm mean, position.max is
// 1.98 cm while ltoes is 14.96 cm off at frame 173.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <span>
#include <string>
#include <vector>

namespace mocap {

struct ErrorOptions {
  double velocity_weight = 1.0;  // lambda of the combined error, cm per (cm per frame)
  double shell_radius = 0.03;    // metres (3 cm)
};

struct ErrorStats {
  double mean = 0.0;
  double rms = 0.0;
  double p99 = 0.0;  // 99th percentile over frames, nearest rank
  double max = 0.0;
  int worst_frame = -1;  // frame index (0-based) where the value is max; -1 when no frames
  // Bone whose own error, averaged over frames, is largest (for joint and
  // shell: the bone at the max); -1 when no frames.
  int worst_joint = -1;
};

struct MotionError {
  int frames = 0;
  ErrorStats position;  // cm, per frame the mean over joints
  ErrorStats joint;     // cm, per frame the worst joint: joint.max is the worst joint error of the motion
  ErrorStats velocity;  // cm per frame
  ErrorStats combined;  // cm
  ErrorStats shell;     // cm
};

// The measure as a reusable job: construct once for a skeleton and the most
// frames it will see (this allocates), then run() any number of times without
// allocating. Inputs are world positions (metres) and world rotations of every
// frame, frame-major (entry f * bones + j), as forward_kinematics gives them.
class ErrorMeasure {
 public:
  ErrorMeasure(int bones, int max_frames);

  // Compares `other` with `reference` over `frames` frames. Returns false (and
  // leaves the result alone) when frames is negative or above max_frames or a
  // span is shorter than frames * bones.
  bool run(std::span<const Eigen::Vector3d> reference_positions,
           std::span<const Eigen::Quaterniond> reference_rotations, std::span<const Eigen::Vector3d> other_positions,
           std::span<const Eigen::Quaterniond> other_rotations, int frames, const ErrorOptions& options,
           MotionError& result);

  int bones() const { return bones_; }
  int max_frames() const { return max_frames_; }
  // Per-frame values of the last run (cm), frames() long.
  std::span<const double> position_per_frame() const { return {position_.data(), static_cast<std::size_t>(frames_)}; }
  std::span<const double> joint_per_frame() const { return {joint_.data(), static_cast<std::size_t>(frames_)}; }

 private:
  int bones_ = 0;
  int max_frames_ = 0;
  int frames_ = 0;
  std::vector<double> position_, joint_, velocity_, combined_, shell_;  // per frame
  std::vector<int> joint_at_, shell_joint_;              // per frame: bone at the frame's joint and shell max
  std::vector<double> joint_position_, joint_velocity_;  // per bone, summed over frames
  std::vector<double> sorted_;                           // scratch for percentiles
};

// Compares `other` with `reference`, two motions of `skeleton` with the same
// frame numbers. Fails when their frame counts or frame numbers differ.
Result<MotionError> measure_error(const Skeleton& skeleton, const Motion& reference, const Motion& other,
                                  const ErrorOptions& options = {});

}  // namespace mocap
