// Movies through Debian's ffmpeg as a pipe: raw RGB frames in, the file
// ffmpeg makes of them out (H.264 in an .mp4, or whatever the name's
// extension asks of ffmpeg). ffmpeg writes a temporary file beside the
// movie, renamed into place when it ends well: a failed or abandoned movie
// leaves no file behind, as every output of the library (io/atomic_write.h).
#pragma once

#include <mocap/core/error.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>

namespace mocap {

// The executable `name` on PATH, or nullopt.
std::optional<std::string> find_on_path(const std::string& name);

// Checks before any rendering that a movie can be written: ffmpeg on PATH,
// the output's folder there (check_output_path), an even size (H.264's
// 4:2:0) and a rate in (0, 1000]. The error says which.
Result<void> check_movie(const std::string& path, int width, int height, double fps);

// Which row a frame's pixels start with: glReadPixels gives the bottom row
// first, pictures made on the CPU the top one.
enum class RowOrder : std::uint8_t { kTopFirst, kBottomFirst };

class MovieWriter {
 public:
  MovieWriter() = default;
  ~MovieWriter();  // an unfinished movie is abandoned: no file
  MovieWriter(const MovieWriter&) = delete;
  MovieWriter& operator=(const MovieWriter&) = delete;

  // Starts ffmpeg writing `path` from frames of width x height at `fps`.
  Result<void> open(const std::string& path, int width, int height, double fps, RowOrder rows = RowOrder::kTopFirst);
  // One frame: width * height * 3 bytes, RGB, rows in the order given to open.
  Result<void> write(std::span<const std::uint8_t> rgb);
  // Ends the stream, waits for ffmpeg and renames its file into place.
  Result<void> close();
  // Ends ffmpeg and removes what it wrote.
  void abandon();
  bool is_open() const { return pipe_ != nullptr; }
  int frames() const { return frames_; }
  const std::string& path() const { return path_; }

 private:
  std::FILE* pipe_ = nullptr;
  std::string path_;
  std::string temp_path_;
  int width_ = 0, height_ = 0, frames_ = 0;
};

}  // namespace mocap
