// Rebuilding every frame from key frames: poses from a pose track's keys
// (rebuild_poses), and a whole motion with AMC channel values from a key
// motion (rebuild_motion), by slerp or the cubic (interpolation.h). Key
// frames come back exactly.
#pragma once

#include <mocap/compress/interpolation.h>
#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/pose_track.h>
#include <mocap/core/skeleton.h>

#include <span>
#include <string>

namespace mocap {

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

}  // namespace mocap
