// The format of an output file, picked the same way by every command: an
// explicit --format, else the file's extension, else (standard output) the
// command's default.
#pragma once

#include <mocap/core/error.h>

#include <initializer_list>
#include <string>
#include <string_view>

namespace mocap {

// One of `accepted` (lower-case names that are also the extensions: "csv" is
// ".csv"):
//  - `format` when not empty (an error unless it is accepted);
//  - else, when `path` is empty or "-" (standard output), `stdout_format`;
//  - else the extension of `path`, case-insensitive (an error naming the
//    accepted extensions when it has none of them).
// The error has no file; its message names `path` or `format` and what was expected.
Result<std::string> pick_output_format(std::string_view path, std::string_view format,
                                       std::initializer_list<std::string_view> accepted,
                                       std::string_view stdout_format);

}  // namespace mocap
