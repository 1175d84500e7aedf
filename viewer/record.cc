#include "record.h"

#include <mocap/io/atomic_write.h>

#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace mocap::viewer {
namespace {

// A word for /bin/sh: in single quotes, a quote inside closed and reopened.
std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::optional<std::string> find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate)) return candidate;
  }
  return std::nullopt;
}

std::optional<std::string> check_movie(const std::string& path, int width, int height, double fps) {
  if (!find_on_path("ffmpeg")) {
    return path + ": cannot write a movie: ffmpeg is not on PATH (Debian: apt-get install ffmpeg)";
  }
  if (auto ok = check_output_path(path); !ok) return ok.error().to_string();
  if (width % 2 || height % 2) {
    return path + ": a movie needs an even width and height (H.264 4:2:0), not " + std::to_string(width) + "x" +
           std::to_string(height);
  }
  if (!(fps > 0.0) || fps > 1000.0) return path + ": the movie's rate must be in (0, 1000] frames per second";
  return std::nullopt;
}

MovieWriter::~MovieWriter() {
  close();
}

std::optional<std::string> MovieWriter::open(const std::string& path, int width, int height, double fps) {
  if (auto e = check_movie(path, width, height, fps)) return e;
  close();
  // A dead ffmpeg makes fwrite fail (EPIPE) rather than kill the viewer.
  std::signal(SIGPIPE, SIG_IGN);
  char size_rate[64];
  std::snprintf(size_rate, sizeof size_rate, "-s %dx%d -r %.6g", width, height, fps);
  const std::string command = "ffmpeg -nostdin -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgb24 " +
                              std::string(size_rate) + " -i - -vf vflip -pix_fmt yuv420p " + shell_quote(path);
  pipe_ = ::popen(command.c_str(), "w");
  if (!pipe_) return path + ": cannot start ffmpeg";
  path_ = path, width_ = width, height_ = height, frames_ = 0;
  return std::nullopt;
}

std::optional<std::string> MovieWriter::write(std::span<const std::uint8_t> rgb) {
  if (!pipe_) return path_ + ": no movie open";
  const std::size_t bytes = static_cast<std::size_t>(width_) * height_ * 3;
  if (rgb.size() < bytes) return path_ + ": frame smaller than the movie";
  if (std::fwrite(rgb.data(), 1, bytes, pipe_) != bytes) return path_ + ": ffmpeg stopped taking frames";
  ++frames_;
  return std::nullopt;
}

std::optional<std::string> MovieWriter::close() {
  if (!pipe_) return std::nullopt;
  const int status = ::pclose(pipe_);
  pipe_ = nullptr;
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return path_ + ": ffmpeg failed (exit status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
  }
  return std::nullopt;
}

}  // namespace mocap::viewer
