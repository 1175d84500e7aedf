// Reading and writing Acclaim ASF skeletons.
//
// A file is read into its raw form (AsfSkeleton, io/asf_skeleton.h: what the
// file said, in its own units), which the writer gives back exactly, and
// built into the runtime Skeleton (core/skeleton.h) that algorithms use.
// read_asf does both for callers that only need the runtime skeleton.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/asf_skeleton.h>

#include <string>
#include <string_view>

namespace mocap {

// Reads an ASF file: :version, :name, :units, :documentation, :root,
// :bonedata (dofs in any subset and order of rx ry rz tx ty tz l, limits over
// several lines), :hierarchy. Values stay in the file's units. The error
// names the file, the line and what was expected; a result always passes
// validate() (asf_skeleton.h).
Result<AsfSkeleton> read_asf_file(const std::string& path);

// The same from text in memory; `name` stands for the file in errors.
Result<AsfSkeleton> parse_asf_file(std::string_view text, const std::string& name);

// read_asf_file then build_skeleton: the runtime skeleton, lengths in
// metres and angles in radians.
Result<Skeleton> read_asf(const std::string& path);

// The same from text in memory; `name` stands for the file in errors.
Result<Skeleton> parse_asf(std::string_view text, const std::string& name);

// The skeleton as ASF text, in the file's own units. Values read by
// read_asf_file come back exactly: parse_asf_file(format_asf(s)) == s, and
// the hierarchy is written parents first. `skeleton` must pass validate().
std::string format_asf(const AsfSkeleton& skeleton);

// Writes format_asf to `path` whole or not at all.
Result<void> write_asf(const AsfSkeleton& skeleton, const std::string& path);

}  // namespace mocap
