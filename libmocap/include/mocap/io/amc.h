// Reading and writing Acclaim AMC motions.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <string>
#include <string_view>

namespace mocap {

// Reads an AMC file of `skeleton`: header keywords (:FULLY-SPECIFIED,
// :DEGREES, :RADIANS), comments, explicit frame-number lines, bone lines in
// any order within a frame, CRLF or LF. Every frame must give every bone that
// has dofs exactly once with one number per dof. Angles become radians,
// lengths metres. `fps` is the motion's rate (AMC does not store one).
Result<Motion> read_amc(const std::string& path, const Skeleton& skeleton, double fps = 120.0);

// The same from text in memory; `name` stands for the file in errors.
Result<Motion> parse_amc(std::string_view text, const std::string& name, const Skeleton& skeleton, double fps = 120.0);

// The motion as AMC text, in the units the file was read in. Values read by
// read_amc come back exactly.
std::string format_amc(const Motion& motion, const Skeleton& skeleton);

// Writes format_amc to `path` whole or not at all.
Result<void> write_amc(const Motion& motion, const Skeleton& skeleton, const std::string& path);

}  // namespace mocap
