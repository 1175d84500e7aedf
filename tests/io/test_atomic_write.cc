// Output files are written whole or not at all (io.h): a writer killed with
// SIGKILL in the middle of write_file_atomically, in a forked child and as the
// real `mocap fk` writing a long clip's positions, leaves the previous file
// byte for byte and nothing partial under the target's name; a write that
// completes replaces it; a write that fails removes its temporary file. What
// a SIGKILL cannot clean up is the temporary file beside the target
// (`<target>.tmp.XXXXXX`): the tests name it and remove it.
#include <gtest/gtest.h>
#include <mocap/io/atomic_write.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_data.h"

namespace mocap {
namespace {

using test::TempDir;

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// `size` bytes of lines that name their offset, so no two runs of it look alike.
std::string payload(std::size_t size, const std::string& tag) {
  std::string out;
  out.reserve(size + 64);
  while (out.size() < size) out += tag + " " + std::to_string(out.size()) + "\n";
  out.resize(size);
  return out;
}

// Every entry of `dir` except `target`: what a writer left beside it.
std::vector<fs::path> others(const fs::path& dir, const fs::path& target) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path() != target) out.push_back(entry.path());
  }
  return out;
}

bool is_temp_of(const fs::path& file, const fs::path& target) {
  return file.filename().string().rfind(target.filename().string() + ".tmp.", 0) == 0;
}

struct Kill {
  bool killed = false;         // SIGKILL ended the writer (it had not exited)
  std::uintmax_t at_size = 0;  // size of its temporary file just before the kill
  int status = 0;
};

// Files created in a directory, as they appear (inotify): a kill can follow a
// writer's first bytes within microseconds, well inside an 8 MB write.
class CreateWatch {
 public:
  explicit CreateWatch(const fs::path& dir) : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    if (fd_ < 0 || ::inotify_add_watch(fd_, dir.c_str(), IN_CREATE) < 0)
      ADD_FAILURE() << "inotify: " << std::strerror(errno);
  }
  ~CreateWatch() { ::close(fd_); }
  CreateWatch(const CreateWatch&) = delete;
  CreateWatch& operator=(const CreateWatch&) = delete;

  // The name of a file created since the last call whose name starts with
  // `prefix`, waiting up to `wait_ms`; empty when none.
  std::string created(const std::string& prefix, int wait_ms) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, wait_ms) <= 0) return {};
    alignas(inotify_event) char buf[4096];
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    for (ssize_t at = 0; at < n;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buf + at);
      const std::string name = event->len > 0 ? event->name : "";
      if (name.rfind(prefix, 0) == 0) return name;
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
    return {};
  }

 private:
  int fd_;
};

// Waits for `pid` to start writing the temporary file beside `target` (the
// file exists and holds bytes), then SIGKILLs it. `watch` watches the
// target's directory since before the writer started. When the writer exits
// first (it finished before it was seen writing) that is reported, not hidden.
Kill kill_mid_write(pid_t pid, const fs::path& target, CreateWatch& watch, Clock::duration timeout) {
  Kill k;
  const auto deadline = Clock::now() + timeout;
  const std::string prefix = target.filename().string() + ".tmp.";
  for (;;) {
    const std::string name = watch.created(prefix, 5);
    if (!name.empty()) {
      const fs::path temp = target.parent_path() / name;
      struct stat st {};
      while (::stat(temp.c_str(), &st) == 0 && st.st_size == 0) {
      }
      if (st.st_size > 0) {  // else renamed already: the writer is done
        k.at_size = static_cast<std::uintmax_t>(st.st_size);
        ::kill(pid, SIGKILL);
      }
      break;
    }
    if (::waitpid(pid, &k.status, WNOHANG) == pid) return k;
    if (Clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      break;
    }
  }
  ::waitpid(pid, &k.status, 0);
  k.killed = WIFSIGNALED(k.status) && WTERMSIG(k.status) == SIGKILL;
  return k;
}

constexpr std::size_t kBig = 256u << 20;  // 256 MiB: a write that takes a while

TEST(AtomicWrite, ACompletedWriteReplacesThePreviousFile) {
  TempDir dir;
  const fs::path target = dir.path() / "out.txt";
  ASSERT_TRUE(write_file_atomically(target.string(), payload(1 << 20, "old")));
  const std::string next = payload(kBig, "new");
  const auto written = write_file_atomically(target.string(), next);
  ASSERT_TRUE(written) << written.error().to_string();
  EXPECT_EQ(fs::file_size(target), next.size());
  EXPECT_TRUE(test::read_text(target) == next);
  EXPECT_TRUE(others(dir.path(), target).empty()) << "a temporary file was left behind";
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
}

TEST(AtomicWrite, AWriterKilledMidWriteLeavesThePreviousFileByteForByte) {
  TempDir dir;
  const fs::path target = dir.path() / "out.txt";
  const std::string previous = payload(1 << 20, "old");
  ASSERT_TRUE(write_file_atomically(target.string(), previous));
  const std::string next = payload(kBig, "new");  // built before the fork, shared with the child
  CreateWatch watch(dir.path());
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) ::_exit(write_file_atomically(target.string(), next) ? 0 : 1);
  const auto started = Clock::now();
  const Kill k = kill_mid_write(pid, target, watch, 60s);
  const double took = std::chrono::duration<double>(Clock::now() - started).count();
  ASSERT_TRUE(k.killed) << "the writer was not killed in the middle: it ended with status " << k.status;

  // The target is the previous file, whole.
  EXPECT_EQ(fs::file_size(target), previous.size());
  EXPECT_TRUE(test::read_text(target) == previous) << "the previous file changed";
  // The part written sits in the temporary file only, and it is a part.
  const auto left = others(dir.path(), target);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_TRUE(is_temp_of(left[0], target)) << left[0];
  const std::uintmax_t partial = fs::file_size(left[0]);
  EXPECT_GT(partial, 0u);
  EXPECT_LT(partial, next.size());
  std::printf("killed after %.3f s with %ju of %zu bytes in %s (%ju seen before the kill)\n", took, partial,
              next.size(), left[0].filename().c_str(), k.at_size);
  fs::remove(left[0]);

  // A later write still replaces it.
  ASSERT_TRUE(write_file_atomically(target.string(), "done\n"));
  EXPECT_EQ(test::read_text(target), "done\n");
  EXPECT_TRUE(others(dir.path(), target).empty());
}

TEST(AtomicWrite, AFailedWriteKeepsThePreviousFileAndRemovesItsTemporaryFile) {
  TempDir dir;
  const fs::path target = dir.path() / "out.txt";
  const std::string previous = payload(64 << 10, "old");
  ASSERT_TRUE(write_file_atomically(target.string(), previous));
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // A file size limit makes the write fail part-way (EFBIG), as a full disk would.
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{1 << 20, 1 << 20};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(2);
    const auto written = write_file_atomically(target.string(), payload(4 << 20, "new"));
    ::_exit(written ? 0 : written.error().to_string().find("write failed") != std::string::npos ? 1 : 3);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1) << "0: the write did not fail; 2: no limit; 3: another error";
  EXPECT_TRUE(test::read_text(target) == previous);
  EXPECT_TRUE(others(dir.path(), target).empty()) << "the temporary file was left behind";
}

TEST(OutputCheck, NamesWhatIsWrongBeforeAnythingIsWritten) {
  TempDir dir;
  EXPECT_TRUE(check_output_path((dir.path() / "new.amc").string()));
  EXPECT_TRUE(check_output_path("bare-name-in-the-working-folder.amc"));
  const auto missing = check_output_path((dir.path() / "no_such_dir" / "x.amc").string());
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("the folder '" + (dir.path() / "no_such_dir").string() + "' does not exist"),
            std::string::npos)
      << missing.error().message;
  const auto folder = check_output_path(dir.path().string());
  ASSERT_FALSE(folder);
  EXPECT_NE(folder.error().message.find("is a folder"), std::string::npos) << folder.error().message;
  ASSERT_TRUE(write_file_atomically((dir.path() / "plain").string(), "x"));
  const auto not_folder = check_output_path((dir.path() / "plain" / "x.amc").string());
  ASSERT_FALSE(not_folder);
  EXPECT_NE(not_folder.error().message.find("is not a folder"), std::string::npos) << not_folder.error().message;
  EXPECT_TRUE(others(dir.path(), dir.path() / "plain").empty()) << "a check created something";
}

TEST(AtomicWrite, SeveralFilesAreWrittenAllOrNone) {
  TempDir dir;
  const fs::path a = dir.path() / "a.amc", b = dir.path() / "b.amc";
  ASSERT_TRUE(write_file_atomically(a.string(), "old a\n"));
  // The second output's folder is missing: neither file changes, nothing is left behind.
  const std::vector<OutputFile> broken{{a.string(), "new a\n"}, {(dir.path() / "gone" / "b.amc").string(), "b\n"}};
  const auto failed = write_files_atomically(broken);
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().message.find("gone"), std::string::npos) << failed.error().message;
  EXPECT_EQ(test::read_text(a), "old a\n");
  EXPECT_TRUE(others(dir.path(), a).empty()) << "a temporary file was left behind";
  // The same path twice is refused before anything is written.
  const std::vector<OutputFile> twice{{a.string(), "1"}, {(dir.path() / "." / "a.amc").string(), "2"}};
  EXPECT_FALSE(write_files_atomically(twice));
  EXPECT_EQ(test::read_text(a), "old a\n");
  // Both written.
  const std::vector<OutputFile> good{{a.string(), "new a\n"}, {b.string(), "new b\n"}};
  ASSERT_TRUE(write_files_atomically(good));
  EXPECT_EQ(test::read_text(a), "new a\n");
  EXPECT_EQ(test::read_text(b), "new b\n");
}

fs::path mocap_binary() {
  return fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "tools" / "mocap";
}

// Runs `mocap fk <asf> <amc> -o <output>` (stdout and stderr to /dev/null).
pid_t spawn_fk(const fs::path& binary, const test::ClipFiles& clip, const fs::path& output) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::FILE* null = std::fopen("/dev/null", "w");
    if (null != nullptr) {
      ::dup2(::fileno(null), 1);
      ::dup2(::fileno(null), 2);
    }
    ::execl(binary.c_str(), "mocap", "fk", clip.asf.c_str(), clip.amc.c_str(), "-o", output.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

TEST(AtomicWrite, MocapKilledWhileWritingItsOutputLeavesThePreviousFile) {
  const fs::path binary = mocap_binary();
  if (!fs::exists(binary)) GTEST_SKIP() << binary << " not built: skipped";
  MOCAP_REQUIRE_SHARED_DATA();
  // The longest shared clip: the biggest output.
  auto clips = test::shared_clips();
  ASSERT_FALSE(clips.empty());
  const auto clip = *std::max_element(clips.begin(), clips.end(), [](const auto& a, const auto& b) {
    return fs::file_size(a.amc) < fs::file_size(b.amc);
  });
  TempDir dir;

  // The whole output, from a run left to finish.
  const fs::path full_path = dir.path() / "full.csv";
  int status = 0;
  const pid_t full_pid = spawn_fk(binary, clip, full_path);
  ASSERT_GT(full_pid, 0);
  ASSERT_EQ(::waitpid(full_pid, &status, 0), full_pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "mocap fk failed: status " << status;
  const std::string full = test::read_text(full_path);
  fs::remove(full_path);
  ASSERT_GT(full.size(), 1u << 20);

  const fs::path target = dir.path() / "positions.csv";
  const std::string previous = "frame,bone,x,y,z\nprevious run\n";
  // The kill must land after the temporary file's first bytes and before the
  // rename, at best inside write() (the temporary file holds a strict part of
  // the output), else in the fsync() that follows; a few tries for the former.
  int before_rename = 0;
  std::size_t partial_size = 0;
  int attempt = 0;
  while (attempt < 5 && !(partial_size > 0 && partial_size < full.size())) {
    ++attempt;
    ASSERT_TRUE(write_file_atomically(target.string(), previous));
    for (const fs::path& p : others(dir.path(), target)) fs::remove(p);
    CreateWatch watch(dir.path());
    const pid_t pid = spawn_fk(binary, clip, target);
    ASSERT_GT(pid, 0);
    const Kill k = kill_mid_write(pid, target, watch, 60s);
    // Killed or not, the target is one file or the other, never a part.
    const std::string now = test::read_text(target);
    ASSERT_TRUE(now == previous || now == full) << "a partial target of " << now.size() << " bytes";
    const auto left = others(dir.path(), target);
    if (!k.killed || left.empty()) continue;  // finished first: the rename happened
    ++before_rename;
    EXPECT_TRUE(now == previous) << "killed before the rename, yet the target changed";
    ASSERT_EQ(left.size(), 1u);
    EXPECT_TRUE(is_temp_of(left[0], target)) << left[0];
    const std::string partial = test::read_text(left[0]);
    EXPECT_GT(partial.size(), 0u);
    EXPECT_LE(partial.size(), full.size());
    EXPECT_TRUE(full.compare(0, partial.size(), partial) == 0) << "the temporary file is not a prefix of the output";
    partial_size = partial.size();
    std::printf("mocap fk %s killed (try %d) with %zu of %zu bytes in %s (%ju seen before the kill)\n",
                clip.name.c_str(), attempt, partial.size(), full.size(), left[0].filename().c_str(), k.at_size);
    fs::remove(left[0]);
  }
  ASSERT_GT(before_rename, 0) << "mocap fk finished before it could be killed, " << attempt << " tries";
  if (partial_size == full.size()) std::printf("every kill landed after write(), before the rename\n");

  // Left to finish, it replaces the previous file.
  const pid_t pid = spawn_fk(binary, clip, target);
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_TRUE(test::read_text(target) == full) << "the completed output did not replace the previous file";
  EXPECT_TRUE(others(dir.path(), target).empty());
}

}  // namespace
}  // namespace mocap
