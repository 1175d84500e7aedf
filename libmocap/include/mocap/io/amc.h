// Reading and writing Acclaim AMC motions.
//
// A motion (core/motion.h) holds numbers only. How the file laid them out,
// kept only to write the same file back, is an AmcLayout beside it; the
// default layout writes a plain CMU-style file.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <string>
#include <string_view>
#include <vector>

namespace mocap {

struct AmcLayout {
  // The angle unit of the file's numbers: its :DEGREES / :RADIANS keyword,
  // else the skeleton's (units.degrees).
  bool degrees = true;
  // Lines before the first frame (comments and keywords such as
  // :FULLY-SPECIFIED and :DEGREES), trimmed, without line ends. Empty: the
  // writer writes ":FULLY-SPECIFIED" and the angle keyword.
  std::vector<std::string> header;
  // Bone indices in the order the file's first frame listed them, which the
  // writer keeps in every frame; empty means skeleton order (bones with dofs).
  std::vector<int> line_order;
};

struct AmcFile {
  Motion motion;
  AmcLayout layout;
};

// Reads an AMC file of `skeleton`: header keywords (:FULLY-SPECIFIED,
// :DEGREES, :RADIANS), comments, explicit frame-number lines, bone lines in
// any order within a frame, CRLF or LF. Every frame must give every bone that
// has dofs exactly once with one number per dof. Angles become radians,
// lengths metres (skeleton.units says what the file's units are). `fps` is
// the motion's rate (> 0; AMC does not store one). The error names the file,
// the line and what was expected.
Result<AmcFile> read_amc_file(const std::string& path, const Skeleton& skeleton, double fps = 120.0);

// The same from text in memory; `name` stands for the file in errors.
Result<AmcFile> parse_amc_file(std::string_view text, const std::string& name, const Skeleton& skeleton,
                               double fps = 120.0);

// read_amc_file without the layout.
Result<Motion> read_amc(const std::string& path, const Skeleton& skeleton, double fps = 120.0);
Result<Motion> parse_amc(std::string_view text, const std::string& name, const Skeleton& skeleton, double fps = 120.0);

// The motion as AMC text laid out as `layout` says, angles in its unit and
// lengths in the skeleton's file unit. Values read by read_amc_file come back
// exactly, and with the layout read beside them so do the header and the
// bone line order.
std::string format_amc(const Motion& motion, const Skeleton& skeleton, const AmcLayout& layout = {});

// Writes format_amc to `path` whole or not at all.
Result<void> write_amc(const Motion& motion, const Skeleton& skeleton, const std::string& path,
                       const AmcLayout& layout = {});

}  // namespace mocap
