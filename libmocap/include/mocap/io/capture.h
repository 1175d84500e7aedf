// A capture as the front ends (CLI, viewer, batch reports) load it: an ASF
// skeleton and an AMC motion of it, or a BVH file alone (io/bvh.h), read in
// one call. (A compressed clip, .mkc, is compress/compressed_clip.h's.)
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/amc.h>
#include <mocap/io/bvh.h>

#include <string>
#include <vector>

namespace mocap {

struct Capture {
  std::string asf_path;
  std::string amc_path;
  Skeleton skeleton;
  Motion motion;                        // frames at `fps` (read_capture's argument)
  AmcLayout layout;                     // how the AMC file laid the motion out, to write it back alike
  std::vector<std::string> bone_names;  // skeleton.bones[b].name, in bone order (skin-weights files name bones)
};

// Reads `asf_path`, then `amc_path` against its skeleton, at `fps` frames
// per second (> 0; AMC files store no rate). The error is the parser's: the
// file, the line and what was expected (asf.h, amc.h); the ASF's comes first.
// A BVH path (is_bvh_path) with an empty `amc_path` is read_bvh_capture's in
// centimetres, `fps` unused.
Result<Capture> read_capture(const std::string& asf_path, const std::string& amc_path, double fps = 120.0);

// A BVH file alone: its skeleton (offsets_in_parent_frame set) and motion at
// the file's own rate (Frame Time), lengths times `metres_per_unit` (> 0),
// an empty layout; asf_path and amc_path both hold `bvh_path`.
Result<Capture> read_bvh_capture(const std::string& bvh_path, double metres_per_unit = kBvhCentimetres);

// `motion` of `skeleton` as text to write back: BVH (format_bvh, lengths in
// units of `metres_per_unit`) for a BVH skeleton (offsets_in_parent_frame)
// or when `bvh` is set, else AMC (format_amc, in `layout` when given). The
// error is format_bvh's.
Result<std::string> format_capture_motion(const Skeleton& skeleton, const Motion& motion, bool bvh,
                                          double metres_per_unit = kBvhCentimetres, const AmcLayout* layout = nullptr);

}  // namespace mocap
