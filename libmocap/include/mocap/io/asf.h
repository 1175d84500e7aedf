// Reading and writing Acclaim ASF skeletons.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/skeleton.h>

#include <string>
#include <string_view>

namespace mocap {

// Reads an ASF file: :version, :name, :units, :documentation, :root,
// :bonedata (dofs in any subset and order of rx ry rz tx ty tz l, limits over
// several lines), :hierarchy. Lengths become metres and angles radians. The
// error names the file, the line and what was expected.
Result<Skeleton> read_asf(const std::string& path);

// The same from text in memory; `name` stands for the file in errors.
Result<Skeleton> parse_asf(std::string_view text, const std::string& name);

// The skeleton as ASF text, in the file's own units. Values read by
// read_asf come back exactly: parse(format(s)) == s.
std::string format_asf(const Skeleton& skeleton);

// Writes format_asf to `path` whole or not at all.
Result<void> write_asf(const Skeleton& skeleton, const std::string& path);

}  // namespace mocap
