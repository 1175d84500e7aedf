// Runtime sampling of a compressed clip (compressed_clip.h): small, float,
// allocation-free once a cursor is made.
//
// Two forms give the same pose (within float rounding, about 1e-6 rad):
//   sample_clip(ClipSampler, ...)      the runtime one: a plan made once per
//                                      clip (make_sampler), then SIMD
//                                      kernels (AVX2 + FMA when the CPU has
//                                      them, else a portable build of the
//                                      same code); 31 CMU bones in about a
//                                      third of pose_from_channels' time
//   sample_clip(CompressedClip, ...)   the reference: the clip's arrays read
//                                      track by track, no preparation
//
// Per track the sample is a B-spline (or keyed Hermite) evaluation on the
// points unpacked when the file was read; per bone the rotation channels are
// turned into the bone's local rotation exactly as core/fk.h's
// pose_from_channels composes them (turns about C * e_k in dof order, first
// applied first; the root starts from its axis rotation O), with a float
// sin/cos accurate to about 1e-7.
#pragma once

#include <mocap/compress/compressed_clip.h>
#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

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

// Which kernels a ClipSampler runs. kAuto: AVX2 where the CPU has it
// (x86-64 with AVX2 and FMA), else portable. kAvx2 where the CPU lacks it
// gives the portable kernels (see sampler_kernel).
enum class ClipKernel : std::uint8_t { kAuto, kPortable, kAvx2 };
bool clip_kernel_available(ClipKernel kernel);    // kAuto and kPortable always
const char* clip_kernel_name(ClipKernel kernel);  // "auto", "portable", "avx2"

struct ClipSamplerPlan;  // internal (src/compress/runtime/clip_sampler.h)

// A clip prepared for sampling: tracks grouped by knot spacing and degree
// (one segment and one basis per group, control points interleaved so that
// a group is a few multiply-adds per track), constant channels folded in,
// bones packed 8 at a time by their sequence of dof axes so that their
// half-angle sin/cos and quaternion products run 8 lanes wide. It copies
// what it needs: the clip may be destroyed or changed afterwards (a changed
// clip needs a new sampler). Immutable once made: any number of threads may
// sample one sampler at once, each with its own cursor. Copies share the
// plan. A default-constructed sampler has no plan and must not be sampled.
struct ClipSampler {
  std::shared_ptr<const ClipSamplerPlan> plan;
};
// Allocates (once). The clip must be valid, as parse_compressed_clip or
// encode_clip give it.
ClipSampler make_sampler(const CompressedClip& clip, ClipKernel kernel = ClipKernel::kAuto);
// A cursor for the sampler's clip, where the clip itself is gone.
ClipCursor make_cursor(const ClipSampler& sampler);
// The kernels the sampler runs: kPortable or kAvx2, never kAuto.
ClipKernel sampler_kernel(const ClipSampler& sampler);

// As sample_clip above, from the prepared form: same clamping of `seconds`,
// same outputs (`local_rotations` needs sampler's bone count entries, extra
// ones left alone, missing ones not written), same cursor (a cursor made by
// either make_cursor serves both). No allocation, no lock.
void sample_clip(const ClipSampler& sampler, double seconds, ClipCursor& cursor,
                 std::span<Eigen::Quaternionf> local_rotations, Eigen::Vector3f& root_translation);

// One channel's value (its unit) at frame time `frame` (fractional frame
// index, clamped), in double from the float points.
double sample_channel(const CompressedClip& clip, int channel, double frame);

// Every frame decoded back to AMC channel values (radians, metres) with the
// stored frame numbers and rate, for `mocap decompress`. Fails when
// check_skeleton fails.
Result<Motion> decode_motion(const CompressedClip& clip, const Skeleton& skeleton);

// The compressed clip file at `path` (read_compressed_clip), refused unless
// it is `skeleton`'s (check_skeleton, `skeleton_name` naming the skeleton's
// file), decoded as decode_motion. The error is the first step's that fails.
Result<Motion> read_clip_motion(const std::string& path, const Skeleton& skeleton, const std::string& skeleton_name);

}  // namespace mocap
