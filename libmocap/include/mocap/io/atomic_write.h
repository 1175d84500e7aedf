// File output that never leaves a half-written file behind, and commands
// that write all of their outputs or none.
//
// A command first checks every output it will write (check_output_path), so
// that a missing folder fails before hours of work rather than after; it
// then computes, and writes everything at the end with write_files_atomically.
#pragma once

#include <mocap/core/error.h>

#include <span>
#include <string>
#include <string_view>

namespace mocap {

// Writes `content` to a temporary file beside `path`, flushes it and renames
// it over `path`: readers see the old file or the new one, never a part.
Result<void> write_file_atomically(const std::string& path, std::string_view content);

// Whether `path` can be written as a file, checked without creating
// anything: its folder ("." for a bare name) exists, is a folder and is
// writable, and `path` itself is not a folder. The error names the folder
// (or the path) and what is wrong with it.
Result<void> check_output_path(const std::string& path);

// One output of a command.
struct OutputFile {
  std::string path;
  std::string content;
};

// Writes every file or none: each goes to a temporary file beside its path
// first; only when all of them are written and flushed are they renamed into
// place, in order. Any failure before the renames removes every temporary
// file and leaves every path as it was. (A rename itself failing once the
// first ones are done, which needs the folder to change under us, is
// reported with the files already renamed.) Paths must differ.
Result<void> write_files_atomically(std::span<const OutputFile> files);

}  // namespace mocap
