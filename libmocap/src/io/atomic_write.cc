#include <mocap/io/atomic_write.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

namespace mocap {
namespace {

std::string folder_of(const std::string& path) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

// A written and flushed temporary file, not yet renamed over its target.
struct Staged {
  std::string target;
  std::vector<char> temp;  // NUL-terminated, as mkstemp fills it
};

Result<Staged> stage(const std::string& path, std::string_view content) {
  Staged staged{path, std::vector<char>(path.begin(), path.end())};
  const std::string suffix = ".tmp.XXXXXX";
  staged.temp.insert(staged.temp.end(), suffix.begin(), suffix.end());
  staged.temp.push_back('\0');
  const int fd = ::mkstemp(staged.temp.data());
  if (fd < 0) {
    return fail(path, 0, "cannot create a file in the folder '" + folder_of(path) + "': " + std::strerror(errno));
  }
  auto abandon = [&](const char* what) -> Result<Staged> {
    const std::string reason = std::string(what) + ": " + std::strerror(errno);
    ::close(fd);
    ::unlink(staged.temp.data());
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
    ::unlink(staged.temp.data());
    return fail(path, 0, std::string("close failed: ") + std::strerror(errno));
  }
  return staged;
}

Result<void> commit(const Staged& staged) {
  if (std::rename(staged.temp.data(), staged.target.c_str()) != 0) {
    const std::string reason = std::string("rename failed: ") + std::strerror(errno);
    ::unlink(staged.temp.data());
    return fail(staged.target, 0, reason);
  }
  return {};
}

}  // namespace

Result<void> write_file_atomically(const std::string& path, std::string_view content) {
  auto staged = stage(path, content);
  if (!staged) return std::unexpected(staged.error());
  return commit(*staged);
}

Result<void> check_output_path(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return fail(path, 0, "no file name given");
  std::error_code ec;
  if (fs::is_directory(path, ec)) return fail(path, 0, "is a folder; expected a file name");
  const std::string folder = folder_of(path);
  const fs::file_status status = fs::status(folder, ec);
  if (!fs::exists(status)) return fail(path, 0, "the folder '" + folder + "' does not exist");
  if (!fs::is_directory(status)) return fail(path, 0, "'" + folder + "' is not a folder");
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    return fail(path, 0, "cannot write in the folder '" + folder + "': " + std::strerror(errno));
  }
  return {};
}

Result<void> write_files_atomically(std::span<const OutputFile> files) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (std::filesystem::path(files[i].path).lexically_normal() ==
          std::filesystem::path(files[j].path).lexically_normal()) {
        return fail(files[i].path, 0, "named twice as an output");
      }
    }
  }
  std::vector<Staged> staged;
  staged.reserve(files.size());
  for (const OutputFile& file : files) {
    auto s = stage(file.path, file.content);
    if (!s) {
      for (const Staged& done : staged) ::unlink(done.temp.data());
      return std::unexpected(s.error());
    }
    staged.push_back(std::move(*s));
  }
  for (std::size_t i = 0; i < staged.size(); ++i) {
    if (auto ok = commit(staged[i]); !ok) {
      for (std::size_t j = i + 1; j < staged.size(); ++j) ::unlink(staged[j].temp.data());
      return ok;
    }
  }
  return {};
}

}  // namespace mocap
