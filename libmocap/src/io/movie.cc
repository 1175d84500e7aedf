#include <mocap/io/atomic_write.h>
#include <mocap/io/movie.h>

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace mocap {
namespace {

// A word for /bin/sh: in single quotes, a quote inside closed and reopened.
std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A free name beside `path` that keeps its extension (ffmpeg picks the
// container from it): dir/.name.XXXXXX.ext, created empty so no other
// writer takes it.
std::optional<std::string> temp_beside(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string ext = p.extension().string();
  std::string name = (p.parent_path() / ("." + p.stem().string() + ".XXXXXX" + ext)).string();
  const int fd = ::mkstemps(name.data(), static_cast<int>(ext.size()));
  if (fd < 0) return std::nullopt;
  ::close(fd);
  return name;
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

Result<void> check_movie(const std::string& path, int width, int height, double fps) {
  if (!find_on_path("ffmpeg")) {
    return fail(path, 0, "cannot write a movie: ffmpeg is not on PATH (Debian: apt-get install ffmpeg)");
  }
  if (auto ok = check_output_path(path); !ok) return ok;
  if (width <= 0 || height <= 0 || width % 2 || height % 2) {
    return fail(path, 0,
                "a movie needs an even width and height (H.264 4:2:0), not " + std::to_string(width) + "x" +
                    std::to_string(height));
  }
  if (!(fps > 0.0) || fps > 1000.0) return fail(path, 0, "the movie's rate must be in (0, 1000] frames per second");
  return {};
}

MovieWriter::~MovieWriter() {
  abandon();
}

Result<void> MovieWriter::open(const std::string& path, int width, int height, double fps, RowOrder rows) {
  if (auto ok = check_movie(path, width, height, fps); !ok) return ok;
  abandon();
  const auto temp = temp_beside(path);
  if (!temp) return fail(path, 0, "cannot create a temporary file beside it");
  // A dead ffmpeg makes fwrite fail (EPIPE) rather than kill the program.
  std::signal(SIGPIPE, SIG_IGN);
  char size_rate[64];
  std::snprintf(size_rate, sizeof size_rate, "-s %dx%d -r %.6g", width, height, fps);
  const std::string flip = rows == RowOrder::kBottomFirst ? "-vf vflip " : "";
  const std::string command = "ffmpeg -nostdin -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgb24 " +
                              std::string(size_rate) + " -i - " + flip + "-pix_fmt yuv420p " + shell_quote(*temp);
  pipe_ = ::popen(command.c_str(), "w");
  if (!pipe_) {
    std::filesystem::remove(*temp);
    return fail(path, 0, "cannot start ffmpeg");
  }
  path_ = path, temp_path_ = *temp, width_ = width, height_ = height, frames_ = 0;
  return {};
}

Result<void> MovieWriter::write(std::span<const std::uint8_t> rgb) {
  if (!pipe_) return fail(path_, 0, "no movie open");
  const std::size_t bytes = static_cast<std::size_t>(width_) * height_ * 3;
  if (rgb.size() < bytes) return fail(path_, 0, "frame smaller than the movie");
  if (std::fwrite(rgb.data(), 1, bytes, pipe_) != bytes) return fail(path_, 0, "ffmpeg stopped taking frames");
  ++frames_;
  return {};
}

Result<void> MovieWriter::close() {
  if (!pipe_) return {};
  const int status = ::pclose(pipe_);
  pipe_ = nullptr;
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::error_code ec;
    std::filesystem::remove(temp_path_, ec);
    return fail(path_, 0,
                "ffmpeg failed (exit status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  }
  std::error_code ec;
  namespace fs = std::filesystem;
  // mkstemps made it private to us; a movie is read by others like every output.
  fs::permissions(temp_path_,
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read, ec);
  fs::rename(temp_path_, path_, ec);
  if (ec) {
    std::filesystem::remove(temp_path_, ec);
    return fail(path_, 0, "cannot rename the finished movie into place");
  }
  return {};
}

void MovieWriter::abandon() {
  if (!pipe_) return;
  ::pclose(pipe_);
  pipe_ = nullptr;
  std::error_code ec;
  std::filesystem::remove(temp_path_, ec);
}

}  // namespace mocap
