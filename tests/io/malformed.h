// Bad input for the ASF and AMC readers (test_malformed_asf.cc,
// test_malformed_amc.cc, and test_malformed_text.cc for the text layer both
// share). Every case starts from real CMU text (data/09.asf and
// data/09_06.amc), changes one thing, and checks that the error names the
// file, the 1-based line of the problem and what was expected. The quirks
// real files have (CRLF, "e-015", limits over several lines, bones in any
// order, comments, :RADIANS, '+' signs) must still read.
#pragma once

#include <gtest/gtest.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <numbers>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "test_data.h"

namespace mocap::test {

constexpr std::string_view kAsfName = "09.asf";
constexpr std::string_view kAmcName = "09_06_bad.amc";
// Lines in one frame of 09_06.amc: the frame number and 29 bone lines.
constexpr int kLinesPerFrame = 30;
constexpr int kHeaderLines = 3;

// Real text as editable lines (1-based, like the errors), joined back with LF
// or CRLF.
class Lines {
 public:
  explicit Lines(std::string_view text) {
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      lines_.emplace_back(text.substr(start, end - start));
      start = end + 1;
    }
  }

  int size() const { return static_cast<int>(lines_.size()); }
  std::string& operator[](int line) { return lines_.at(static_cast<std::size_t>(line - 1)); }

  // The first line at or after `from` whose text without surrounding blanks
  // is `trimmed`, or the first line that starts (after blanks) with
  // `trimmed` followed by a blank when `prefix` is set; 0 when none.
  int find(std::string_view trimmed, int from = 1, bool prefix = false) const {
    for (int n = from; n <= size(); ++n) {
      std::string_view s = lines_[static_cast<std::size_t>(n - 1)];
      while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
      while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
      if (s == trimmed) return n;
      if (prefix && s.size() > trimmed.size() && s.substr(0, trimmed.size()) == trimmed &&
          (s[trimmed.size()] == ' ' || s[trimmed.size()] == '\t')) {
        return n;
      }
    }
    return 0;
  }
  int find_prefix(std::string_view word, int from = 1) const { return find(word, from, true); }

  void erase(int line, int count = 1) {
    const auto first = lines_.begin() + (line - 1);
    lines_.erase(first, first + count);
  }
  // The new line gets number `line`; the line that had it moves down.
  void insert(int line, std::string text) { lines_.insert(lines_.begin() + (line - 1), std::move(text)); }
  void truncate(int count) { lines_.resize(static_cast<std::size_t>(count)); }

  std::string text(std::string_view eol = "\n") const {
    std::string out;
    for (const std::string& line : lines_) (out += line) += eol;
    return out;
  }

 private:
  std::vector<std::string> lines_;
};

// A file under the temporary directory, removed when the test ends.
class TempFile {
 public:
  TempFile(std::string_view stem, std::string_view content) {
    static std::atomic<int> counter{0};
    path_ = (std::filesystem::temp_directory_path() / ("mocap_malformed_" + std::to_string(::getpid()) + "_" +
                                                       std::to_string(counter++) + "_" + std::string(stem)))
                .string();
    std::ofstream out(path_, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// `result` is an error of `file` at `line` whose message holds every one of
// `words` (the thing found and what was expected).
template <class T>
::testing::AssertionResult IsError(const Result<T>& result, std::string_view file, int line,
                                   std::initializer_list<std::string_view> words) {
  if (result) return ::testing::AssertionFailure() << "accepted: expected an error at " << file << ":" << line;
  const Error& e = result.error();
  if (e.file != file || e.line != line) {
    return ::testing::AssertionFailure() << "error at " << e.file << ":" << e.line << ", expected " << file << ":"
                                         << line << " (" << e.to_string() << ")";
  }
  for (std::string_view word : words) {
    if (e.message.find(word) == std::string::npos) {
      return ::testing::AssertionFailure() << "message lacks '" << word << "': " << e.to_string();
    }
  }
  if (e.message.find('\n') != std::string::npos) {
    return ::testing::AssertionFailure() << "message spans lines: " << e.to_string();
  }
  return ::testing::AssertionSuccess();
}

// Peak resident size of this process so far, in bytes.
inline long peak_rss_bytes() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss * 1024L;
}

class Malformed : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    asf_text_ = test::read_text(test::bundled_data_dir() / "09.asf");
    amc_text_ = test::read_text(test::bundled_data_dir() / "09_06.amc");
    auto skeleton = parse_asf(asf_text_, std::string(kAsfName));
    ASSERT_TRUE(skeleton) << skeleton.error().to_string();
    skeleton_ = std::move(*skeleton);
    auto motion = parse_amc(amc_text_, "09_06.amc", skeleton_);
    ASSERT_TRUE(motion) << motion.error().to_string();
    motion_ = std::move(*motion);
  }

  void SetUp() override {
    ASSERT_GT(asf_text_.size(), 1000u) << "data/09.asf missing";
    ASSERT_EQ(motion_.frame_count(), 141) << "data/09_06.amc missing";
  }

  static Lines asf() { return Lines(asf_text_); }
  static Lines amc() { return Lines(amc_text_); }
  static Result<Skeleton> asf_parse(const std::string& text) { return parse_asf(text, std::string(kAsfName)); }
  static Result<Motion> amc_parse(const std::string& text) { return parse_amc(text, std::string(kAmcName), skeleton_); }

  // Line of frame `frame` (1-based, as numbered in 09_06.amc) and of bone
  // `bone`'s line in it.
  static int frame_line(int frame) { return kHeaderLines + 1 + (frame - 1) * kLinesPerFrame; }
  static int bone_line(const Lines& lines, int frame, std::string_view bone) {
    return lines.find_prefix(bone, frame_line(frame));
  }

  inline static std::string asf_text_;
  inline static std::string amc_text_;
  inline static Skeleton skeleton_;
  inline static Motion motion_;
};

// The first bytes of a PNG (signature and IHDR chunk) and of an x86-64 ELF.
inline const std::string kPngBytes("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0\0\0\x01\0\x08\x06\0\0\0\x5c\x72\xa8\x66",
                                   33);
inline const std::string kElfBytes(
    "\x7f"
    "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0\x3e\0\x01\0\0\0\x60\x10\0\0\0\0\0\0",
    32);

}  // namespace mocap::test
