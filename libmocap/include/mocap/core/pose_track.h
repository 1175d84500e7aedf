// The poses of a whole motion: every frame's local rotations and offsets
// (fk.h's Pose), computed once from the channels so that key extraction,
// rebuild and selection (compress/) never touch channel values again.
// Lengths in metres.
#pragma once

#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstddef>
#include <vector>

namespace mocap {

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

}  // namespace mocap
