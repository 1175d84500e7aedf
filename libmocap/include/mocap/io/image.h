// Pictures out: RGB images written as PNG files, whole or not at all.
#pragma once

#include <mocap/core/error.h>

#include <cstdint>
#include <span>
#include <string>

namespace mocap {

// Writes `rgb` (width x height pixels, 3 bytes each, rows top first) as a PNG
// through a temporary file renamed over `path` (io/atomic_write.h). Fails,
// naming the path, when the size is not positive, `rgb` is smaller than the
// size says, or the file cannot be written.
Result<void> write_png(const std::string& path, int width, int height, std::span<const std::uint8_t> rgb);

}  // namespace mocap
