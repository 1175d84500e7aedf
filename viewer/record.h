// Movies through Debian's ffmpeg as a pipe: raw RGB frames in, the file
// ffmpeg makes of them out (H.264 in an .mp4, or whatever the name's
// extension asks of ffmpeg). GL-free: frames are rows as glReadPixels gives
// them (bottom first), which ffmpeg flips (-vf vflip).
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>

namespace mocap::viewer {

// The executable `name` on PATH, or nullopt.
std::optional<std::string> find_on_path(const std::string& name);

// Checks before any rendering that a movie can be written: ffmpeg on PATH,
// the output's folder there (io/atomic_write.h check_output_path), an even
// size (H.264's 4:2:0) and a positive rate. The error says which.
std::optional<std::string> check_movie(const std::string& path, int width, int height, double fps);

class MovieWriter {
 public:
  MovieWriter() = default;
  ~MovieWriter();
  MovieWriter(const MovieWriter&) = delete;
  MovieWriter& operator=(const MovieWriter&) = delete;

  // Starts ffmpeg writing `path` from frames of width x height at `fps`.
  std::optional<std::string> open(const std::string& path, int width, int height, double fps);
  // One frame: width * height * 3 bytes, RGB, rows bottom first.
  std::optional<std::string> write(std::span<const std::uint8_t> rgb_bottom_first);
  // Ends the stream and waits for ffmpeg; the error when it failed.
  std::optional<std::string> close();
  bool is_open() const { return pipe_ != nullptr; }
  int frames() const { return frames_; }
  const std::string& path() const { return path_; }

 private:
  std::FILE* pipe_ = nullptr;
  std::string path_;
  int width_ = 0, height_ = 0, frames_ = 0;
};

}  // namespace mocap::viewer
