#include <mocap/eyes/eye_preview.h>
#include <mocap/io/atomic_write.h>
#include <mocap/io/image.h>
#include <mocap/io/movie.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <vector>

namespace mocap {

Result<EyePreviewKind> eye_preview_kind(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == ".png") return EyePreviewKind::kPicture;
  for (const char* movie : {".mp4", ".mkv", ".mov", ".webm", ".avi"}) {
    if (ext == movie) return EyePreviewKind::kMovie;
  }
  return fail(path, 0, "unknown extension '" + ext + "': expected .png (one frame) or .mp4, .mkv, .mov, .webm, .avi");
}

Result<void> check_eye_preview(const std::string& path, const EyeDisplayGeometry& geometry, double fps) {
  const auto kind = eye_preview_kind(path);
  if (!kind) return std::unexpected(kind.error());
  if (auto valid = geometry.validate(); !valid) return fail(path, 0, valid.error().message);
  if (*kind == EyePreviewKind::kPicture) return check_output_path(path);
  const EyePairSize size = eye_pair_size(geometry);
  return check_movie(path, size.width, size.height, fps);
}

Result<void> write_eye_preview(const std::string& path, std::span<const EyeFrame> frames, double fps,
                               const EyeDisplayGeometry& geometry, std::size_t picture_frame) {
  if (auto ok = check_eye_preview(path, geometry, fps); !ok) return ok;
  if (frames.empty()) return fail(path, 0, "no frames to show");
  const EyePairSize size = eye_pair_size(geometry);
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(size.width) * static_cast<std::size_t>(size.height) * 3);
  if (*eye_preview_kind(path) == EyePreviewKind::kPicture) {
    draw_eye_pair(geometry, frames[std::min(picture_frame, frames.size() - 1)], rgb);
    return write_png(path, size.width, size.height, rgb);
  }
  MovieWriter movie;
  if (auto ok = movie.open(path, size.width, size.height, fps); !ok) return ok;
  for (const EyeFrame& frame : frames) {
    draw_eye_pair(geometry, frame, rgb);
    if (auto ok = movie.write(rgb); !ok) return ok;  // the writer abandons the movie
  }
  return movie.close();
}

}  // namespace mocap
