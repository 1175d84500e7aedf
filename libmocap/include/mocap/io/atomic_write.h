// File output that never leaves a half-written file behind.
#pragma once

#include <mocap/core/error.h>

#include <string>
#include <string_view>

namespace mocap {

// Writes `content` to a temporary file beside `path`, flushes it and renames
// it over `path`: readers see the old file or the new one, never a part.
Result<void> write_file_atomically(const std::string& path, std::string_view content);

}  // namespace mocap
