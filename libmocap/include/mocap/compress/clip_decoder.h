// Runtime sampling of a compressed clip (clip_file.h): small, float,
// allocation-free once a cursor is made.
//
// Per track the sample is a B-spline (or keyed Hermite) evaluation on the
// points unpacked when the file was read; per bone the rotation channels are
// turned into the bone's local rotation exactly as core/fk.h's
// pose_from_channels composes them (turns about C * e_k in dof order, first
// applied first; the root starts from its axis rotation O), with a float
// sin/cos accurate to about 1e-7.
#pragma once

#include <mocap/compress/clip_file.h>
#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <span>

namespace mocap {

// Where the last sample was, for cheap sequential playback: whole-pose clips
// find the key segment by stepping from it instead of searching. Uniform
// tracks need no search at all. Caller-owned, one per thread.
struct ClipCursor {
  int segment = 0;  // key segment of the last sample (whole-pose clips)
};
ClipCursor make_cursor(const CompressedClip& clip);

// Local rotations (one per bone, skeleton order, as core/fk.h's Pose holds
// them: the bone's C*M*C^-1, the root's O*M) and the root translation
// (metres: the root position plus TX, TY, TZ, as Pose::offset[0]) at
// `seconds` from the first frame, clamped to [0, (frames - 1) / fps].
// `local_rotations` must hold clip.bones.size() entries (extra ones are left
// alone). No allocation; many threads may read one clip, each with its own
// cursor.
void sample_clip(const CompressedClip& clip, double seconds, ClipCursor& cursor,
                 std::span<Eigen::Quaternionf> local_rotations, Eigen::Vector3f& root_translation);

// One channel's value (its unit) at frame time `frame` (fractional frame
// index, clamped), in double from the float points.
double sample_channel(const CompressedClip& clip, int channel, double frame);

// Every frame decoded back to AMC channel values (radians, metres) with the
// stored frame numbers and rate, for `mocap decompress`. Fails when
// check_skeleton fails.
Result<Motion> decode_motion(const CompressedClip& clip, const Skeleton& skeleton);

}  // namespace mocap
