// What a person sees in a compressed motion that a position bound misses:
// joints that buzz (velocity error) and planted feet that slide or shiver.
//
// Joint velocity error: per joint j and frame f, |v'(f, j) - v(f, j)| with v
// the central difference of world positions (core/fk.h end points), one-sided
// at the ends, in cm/s (times the clip's rate); mean, 99th percentile (nearest
// rank) and max over every joint and frame, and the joint and frame of the
// max. Unlike motion_error.h's velocity (per frame the mean over joints, cm
// per frame), one joint flipping on a few frames shows here.
//
// Planted feet: the reference's foot contacts (core/foot_contacts.h); on each
// contact frame of either foot, the speed of the ball of the foot (cm/s) in
// each motion; their means over those frames and other - reference (> 0:
// the other motion's feet move while the capture's stand).
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/foot_contacts.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <span>

namespace mocap {

struct JointVelocityError {
  double mean_cm_s = 0.0;
  double p99_cm_s = 0.0;
  double max_cm_s = 0.0;
  int worst_joint = -1;  // bone at the max; -1 when no frames
  int worst_frame = -1;  // frame index at the max
};

struct PlantedFeetSpeed {
  bool feet = false;            // the skeleton has two feet (core/foot_contacts.h find_feet); else all 0
  int frames = 0;               // contact frames of the reference, both feet counted
  double reference_cm_s = 0.0;  // mean ball speed over those frames
  double other_cm_s = 0.0;
  double difference_cm_s = 0.0;  // other - reference
};

struct JitterError {
  JointVelocityError velocity;
  PlantedFeetSpeed planted;
};

// `other` against `reference`, two motions of `skeleton` with the same frame
// numbers (as measure_error in motion_error.h); fails when they differ.
Result<JitterError> measure_jitter(const Skeleton& skeleton, const Motion& reference, const Motion& other);

// The same measures on world positions already computed (the encoder's
// budget loop runs them every round without allocating): positions
// frame-major, entry f * bones + j, as forward_kinematics gives them, each
// at least frames * bones long; fps > 0.

// Fills errors[f * bones + j] with |v'(f, j) - v(f, j)| in cm/s.
void joint_velocity_errors(std::span<const Eigen::Vector3d> reference, std::span<const Eigen::Vector3d> other,
                           int bones, int frames, double fps, std::span<double> errors);

// Mean, p99, max and the max's joint and frame of joint_velocity_errors'
// output (reordered by the percentile's partial sort).
JointVelocityError summarize_velocity_errors(std::span<double> errors, int bones);

// On each contact frame of either foot, the ball's speed in each motion.
PlantedFeetSpeed planted_feet_speed(const ClipFootContacts& contacts, std::span<const Eigen::Vector3d> reference,
                                    std::span<const Eigen::Vector3d> other, int bones, int frames, double fps);

}  // namespace mocap
