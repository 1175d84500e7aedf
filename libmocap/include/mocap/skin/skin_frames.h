// skin_frames: a frame sequence skinned and handed to a writer, one frame
// at a time, e.g. one OBJ per frame (`mocap skin -o out_%04d.obj`). The
// method, in order, for each entry f of `frames`:
//  1. pose(f, skinner): the bones posed for frame f, by writing the
//     skinner's matrices() and calling run(), or by skin() (skinner.h);
//  2. write(f, skinner): the posed mesh (skinner.positions(), normals())
//     written or used; an error stops the sequence and is returned.
// The Skinner is the caller's (Skinner::create fails on weights that do
// not fit the mesh, before any frame); nothing here allocates per frame but
// what the writer does.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/fk.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/mesh.h>
#include <mocap/skin/bind.h>
#include <mocap/skin/skinner.h>

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mocap {

// Poses the skinner's bones for frame `frame` and deforms the mesh.
using PoseFrame = std::function<void(int frame, Skinner& skinner)>;
// Takes the skinned frame `frame`.
using WriteFrame = std::function<Result<void>(int frame, const Skinner& skinner)>;

struct SkinFramesResult {
  int frames = 0;             // frames skinned and written
  double skin_seconds = 0.0;  // the Skinner's wall-clock seconds over them (matrices and deformation)
};

// Steps 1-2 above for every entry of `frames`, in order. Fails with the
// writer's first error (the frames before it are written).
Result<SkinFramesResult> skin_frames(Skinner& skinner, std::span<const int> frames, const PoseFrame& pose,
                                     const WriteFrame& write);

// Frame f of `motion` (an index into its frames) posing `skeleton` bound
// by `bind`: pose_from_channels, pose_for_bind, then Skinner::skin. The pose it fills is
// allocated once here. `skeleton`, `motion` and `bind` must outlive it.
PoseFrame pose_from_motion(const Skeleton& skeleton, const Motion& motion, const SkeletonBind& bind);

// "out_%04d.obj": the text before and after one %d (with optional zero
// padding and a width up to 12), so that no user text reaches printf.
struct FramePathPattern {
  std::string before;
  std::string after;
  int width = 0;
  bool zero_pad = false;
  // The path of frame number `number`: before + number (padded) + after.
  std::string path(int number) const;
};
// The pattern, or nullopt when `text` has no %d, another % or a width over 12.
std::optional<FramePathPattern> parse_frame_path_pattern(const std::string& text);

// A writer of frame f as an OBJ (io/mesh.h format_obj_into: `mesh`'s faces,
// groups and texture coordinates with the skinned positions and normals, in
// `metres_per_unit`) at pattern.path(numbers[f]), atomically (io/atomic_write.h).
// `mesh` and `numbers` must outlive it; its text buffer is reused between frames.
WriteFrame obj_frame_writer(const Mesh& mesh, FramePathPattern pattern, std::span<const int> numbers,
                            double metres_per_unit = 1.0);

// skin_frames through obj_frame_writer: the OBJ sequence in one call.
Result<SkinFramesResult> write_obj_frames(Skinner& skinner, std::span<const int> frames, const PoseFrame& pose,
                                          const Mesh& mesh, const FramePathPattern& pattern,
                                          std::span<const int> numbers, double metres_per_unit = 1.0);

// What an output path asks of a skinned sequence (`mocap skin -o`): one
// glTF binary, written whole by rig/gltf.h, or one OBJ per frame.
struct SkinOutputPlan {
  bool glb = false;
  FramePathPattern pattern;  // when !glb

  // The file that stands for the output when checking, before any work,
  // that it can be written: `output` itself, or for a pattern the first
  // frame's file (every frame's goes in its folder).
  std::string first_path(const std::string& output) const;
};

// The plan for `output` in `format` ("glb" or "obj", e.g. told from the
// extension: io/output_format.h). Fails, naming `output`, when an OBJ
// output is not a pattern parse_frame_path_pattern takes.
Result<SkinOutputPlan> plan_skin_output(const std::string& output, std::string_view format);

}  // namespace mocap
