// A track as the two displays show it (eye_display.h), for people who would
// rather look than read: a movie of every frame through ffmpeg (io/movie.h),
// or a PNG of one frame. The picture is draw_eye_pair's, eye_pair_size big.
#pragma once

#include <mocap/core/error.h>
#include <mocap/eyes/eye_display.h>
#include <mocap/eyes/eyes.h>

#include <cstddef>
#include <span>
#include <string>

namespace mocap {

// By the extension, case-insensitive: .png a picture; .mp4, .mkv, .mov,
// .webm, .avi a movie.
enum class EyePreviewKind : std::uint8_t { kPicture, kMovie };
Result<EyePreviewKind> eye_preview_kind(const std::string& path);

// Checks before any work that `path` can be written: a known extension, the
// folder there, and for a movie ffmpeg on PATH and a rate in (0, 1000]; the
// geometry valid. The error names the path and what was expected.
Result<void> check_eye_preview(const std::string& path, const EyeDisplayGeometry& geometry, double fps);

// Writes `frames` (taken `fps` apart) as a movie of one picture per frame,
// or frames[picture_frame] (clamped to the last) as a PNG. Either the whole
// file is written or none.
Result<void> write_eye_preview(const std::string& path, std::span<const EyeFrame> frames, double fps,
                               const EyeDisplayGeometry& geometry, std::size_t picture_frame = 0);

}  // namespace mocap
