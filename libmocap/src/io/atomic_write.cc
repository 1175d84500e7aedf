#include <mocap/io/atomic_write.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace mocap {

Result<void> write_file_atomically(const std::string& path, std::string_view content) {
  std::vector<char> temp_path(path.begin(), path.end());
  const std::string suffix = ".tmp.XXXXXX";
  temp_path.insert(temp_path.end(), suffix.begin(), suffix.end());
  temp_path.push_back('\0');
  const int fd = ::mkstemp(temp_path.data());
  if (fd < 0) return fail(path, 0, std::string("cannot create a temporary file beside it: ") + std::strerror(errno));
  auto abandon = [&](const char* what) -> Result<void> {
    const std::string reason = std::string(what) + ": " + std::strerror(errno);
    ::close(fd);
    ::unlink(temp_path.data());
    return fail(path, 0, reason);
  };
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return abandon("write failed");
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, 0644) != 0) return abandon("chmod failed");
  if (::fsync(fd) != 0) return abandon("fsync failed");
  if (::close(fd) != 0) {
    ::unlink(temp_path.data());
    return fail(path, 0, std::string("close failed: ") + std::strerror(errno));
  }
  if (std::rename(temp_path.data(), path.c_str()) != 0) {
    const std::string reason = std::string("rename failed: ") + std::strerror(errno);
    ::unlink(temp_path.data());
    return fail(path, 0, reason);
  }
  return {};
}

}  // namespace mocap
