// Poses and forward kinematics.
//
// A pose gives each bone a rotation relative to its parent and an offset, so
// that with R the world rotation of a bone and p the world position of its
// end point:
//   R_root = rotation[0],  p_root = offset[0]           (the root's position)
//   R_b = R_parent * rotation[b],  p_b = p_parent + R_b * offset[b]
// For a bone, rotation[b] is the Acclaim local rotation C * M * C^-1 (C from
// the bone's axis, M from its rotation dofs in dof-line order, first applied
// first) and offset[b] is (length + l) * direction + C * (tx, ty, tz) in the
// rest-pose world frame. For the root, rotation[0] is O * M (O from
// `orientation` in `axis` order) and offset[0] is `position` + (TX, TY, TZ).
//
// A BVH skeleton (Skeleton::offsets_in_parent_frame, io/bvh.h) differs in one
// place: a joint's offset turns with its parent's world rotation,
//   p_b = p_parent + R_parent * offset[b]    (R_b = R_parent * rotation[b] as above)
// so p_b is the BVH joint's position and R_b the rotation it gives its
// children. Its bones have identity axes, so rotation[b] is the product of
// the channel turns, and offset[b] is the BVH OFFSET (metres).
#pragma once

#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <span>
#include <vector>

namespace mocap {

struct Pose {
  std::vector<Eigen::Quaterniond> rotation;  // one per bone, unit length
  std::vector<Eigen::Vector3d> offset;       // one per bone, metres
};

// A pose with room for `skeleton`'s bones (identity rotations, zero offsets).
Pose make_pose(const Skeleton& skeleton);

// The skeleton's rest pose (every channel 0): the ASF's own pose, a T-pose
// for CMU skeletons.
Pose rest_pose(const Skeleton& skeleton);

// The pose of one frame of channel values (see motion.h). `pose` must come
// from make_pose for the same skeleton; no allocation.
void pose_from_channels(const Skeleton& skeleton, std::span<const double> channels, Pose& pose);
// The same into one row of rotations and offsets (one each per bone), e.g. a
// frame of a PoseTrack (keyframes.h).
void pose_from_channels(const Skeleton& skeleton, std::span<const double> channels,
                        std::span<Eigen::Quaterniond> rotation, std::span<Eigen::Vector3d> offset);

// World position of every bone's end point (bone 0: the root's position), in
// metres, into `positions`, and every bone's world rotation into
// `rotations` (one each per bone; the rotations are needed on the way even
// when the caller does not use them). No allocation.
void forward_kinematics(const Skeleton& skeleton, const Pose& pose, std::span<Eigen::Vector3d> positions,
                        std::span<Eigen::Quaterniond> rotations);
// The same from one row of local rotations and offsets (one each per bone).
void forward_kinematics(const Skeleton& skeleton, std::span<const Eigen::Quaterniond> local_rotation,
                        std::span<const Eigen::Vector3d> offset, std::span<Eigen::Vector3d> positions,
                        std::span<Eigen::Quaterniond> rotations);

// World positions of every frame of a motion: frame_count() * bones values,
// frame-major. Bit for bit pose_from_channels and forward_kinematics frame
// by frame, done several frames at once (one per vector lane).
std::vector<Eigen::Vector3d> world_positions(const Skeleton& skeleton, const Motion& motion);

// World positions (metres) and, unless `rotations` is empty, rotations of
// frames [first, first + count) of `motion` (0 <= first, first + count <=
// frame_count()), frame-major into `positions` and `rotations` (count *
// bones each), as world_positions. Allocates its scratch once per call,
// nothing per frame: a long motion is walked in blocks of frames.
void world_transforms(const Skeleton& skeleton, const Motion& motion, int first, int count,
                      std::span<Eigen::Vector3d> positions, std::span<Eigen::Quaterniond> rotations);

// World positions (metres) and rotations of every frame of `motion`,
// frame-major, into `positions` and `rotations` (each frame_count() * bones
// long). Allocates one pose per call, nothing per frame.
void world_transforms(const Skeleton& skeleton, const Motion& motion, std::span<Eigen::Vector3d> positions,
                      std::span<Eigen::Quaterniond> rotations);

}  // namespace mocap
