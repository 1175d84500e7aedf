// Reading and writing Biovision BVH motions.
//
// A BVH file holds a HIERARCHY of joints (ROOT, JOINT, End Site), each with
// an OFFSET from its parent and CHANNELS (any of X/Y/Zposition and
// X/Y/Zrotation, in any order), then a MOTION section: `Frames:`, `Frame
// Time:` (seconds) and one row of numbers per frame, the joints' channels in
// hierarchy order. Rotations are in degrees; a row of rotation channels
// "Zrotation Yrotation Xrotation" means R = Rz * Ry * Rx (the last listed is
// applied first).
//
// How a BVH file sits in the runtime Skeleton and Motion (core/skeleton.h):
//  - every JOINT (ROOT first) and every End Site is a bone, in file order
//    (depth first); an End Site is a bone without dofs named
//    "<joint>_end". The skeleton has `offsets_in_parent_frame` set, so a
//    bone's end point is the joint's position and its offset (the OFFSET,
//    as length * direction) turns with the parent joint (core/fk.h).
//  - axes are identity; a joint's dofs are its position channels (TX, TY,
//    TZ, in file order), then its rotation channels in reverse file order
//    (dofs are applied first to last, BVH lists the outermost first). A
//    motion frame holds them in that order, radians and metres. The writer
//    lists position channels first and rotations reversed back: a file
//    that lists them otherwise is read correctly and written in this order.
//  - position channels replace the OFFSET on their axes, as Blender and
//    MotionBuilder read them (a root's X/Y/Zposition is where it is); the
//    OFFSET's value on such an axis is dropped (written back as 0).
//  - frames are numbered from 0; the rate is 1 / Frame Time, rounded to
//    the nearest whole number of frames per second when within 1e-4 of it
//    (".0083333" is 120 Hz).
//
// Units: BVH has none. The reader and writer take metres per file unit;
// the default is centimetres (0.01), which most BVH tools write. CMU's
// cgspeed BVH conversion is in its ASF's units (0.0254 / 0.45 m): pass that.
//
// Any other skeleton (ASF/AMC, rebuilt, decoded) is written through to_bvh:
// a BVH joint per bone at the bone's start with the bone's rotation, its
// children's OFFSET the bone's vector, a leaf's end as an End Site.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <optional>
#include <string>
#include <string_view>

namespace mocap {

inline constexpr double kBvhCentimetres = 0.01;  // metres per unit, the default

struct BvhFile {
  Skeleton skeleton;  // offsets_in_parent_frame set
  Motion motion;
};

// Reads a BVH file; lengths are multiplied by `metres_per_unit` (> 0),
// angles become radians. One ROOT only. The error names the file, the line
// and what was expected (an unclosed brace, an unknown channel, a row with
// the wrong number of values, Frames: disagreeing with the rows, a number
// that is not finite or beyond +-1e8 (file units or degrees), a binary file
// or a line over 64 KiB).
Result<BvhFile> read_bvh(const std::string& path, double metres_per_unit = kBvhCentimetres);
// The same from text in memory; `name` stands for the file in errors.
Result<BvhFile> parse_bvh(std::string_view text, const std::string& name, double metres_per_unit = kBvhCentimetres);

// A BVH skeleton and motion that give the same world joint positions as
// `skeleton` and `motion` on every frame: for a BVH skeleton a copy; for an
// Acclaim one a joint per bone (named as the bone) at the bone's start, a
// child's OFFSET the parent bone's vector (every child's, however many), a
// leaf's end an End Site "<bone>_end", the root with three position and
// three rotation channels, and each other bone with rotation dofs three
// rotation channels (its own axes first, in its own order, then the ones it
// lacks) holding Euler angles of its local rotation C * M * C^-1, or, for an
// identity axis and fewer than three dofs, its AMC values and 0 for the
// axes it lacks (Blender's BVH importer takes 0 or 3 rotation channels per
// joint and fails on 1 or 2); a bone without dofs gets none. Fails for translation or length dofs below the
// root (BVH would need them on the children).
Result<BvhFile> to_bvh(const Skeleton& skeleton, const Motion& motion);

// BVH text of any motion (through to_bvh), lengths divided by
// `metres_per_unit`, numbers with at most 6 decimals (1e-6 degree or file
// unit), tab-indented, LF line ends, Frame Time 1 / fps to 10 significant
// digits. Written, read back and written again with the same unit, the text
// is the same.
Result<std::string> format_bvh(const Skeleton& skeleton, const Motion& motion,
                               double metres_per_unit = kBvhCentimetres);
// Writes format_bvh to `path` whole or not at all.
Result<void> write_bvh(const Skeleton& skeleton, const Motion& motion, const std::string& path,
                       double metres_per_unit = kBvhCentimetres);

// Metres per unit from a name ("m", "cm", "mm", "in", "ft") or a positive
// number of metres ("0.0564444"); nullopt otherwise.
std::optional<double> parse_length_unit(std::string_view text);

// True when `path` ends in ".bvh" (any case).
bool is_bvh_path(std::string_view path);

}  // namespace mocap
