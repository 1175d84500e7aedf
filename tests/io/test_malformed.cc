// Bad input for the ASF and AMC readers. Every case starts from real CMU text
// (data/09.asf and data/09_06.amc), changes one thing, and checks that the
// error names the file, the 1-based line of the problem and what was
// expected. The quirks real files have (CRLF, "e-015", limits over several
// lines, bones in any order, comments, :RADIANS, '+' signs) must still read.
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

namespace mocap {
namespace {

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
long peak_rss_bytes() {
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

  static std::string asf_text_;
  static std::string amc_text_;
  static Skeleton skeleton_;
  static Motion motion_;
};

std::string Malformed::asf_text_;
std::string Malformed::amc_text_;
Skeleton Malformed::skeleton_;
Motion Malformed::motion_;

// ---------------------------------------------------------------------------
// Empty and truncated input

TEST_F(Malformed, EmptyAmcInMemory) {
  EXPECT_TRUE(IsError(amc_parse(""), kAmcName, 0, {"empty file", "expected an AMC motion"}));
}

TEST_F(Malformed, EmptyAmcFile) {
  const TempFile file("empty.amc", "");
  EXPECT_TRUE(IsError(read_amc(file.path(), skeleton_), file.path(), 0, {"empty file", "expected"}));
}

TEST_F(Malformed, EmptyAsfFile) {
  const TempFile file("empty.asf", "");
  EXPECT_TRUE(IsError(read_asf(file.path()), file.path(), 0, {"empty file", "expected an ASF skeleton"}));
}

TEST_F(Malformed, AmcWithHeaderButNoFrames) {
  Lines lines = amc();
  lines.truncate(kHeaderLines);
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, kHeaderLines, {"no frames", "expected a frame number"}));
}

TEST_F(Malformed, TruncatedLastFrame) {
  // The file ends after rtoes of frame 141: lfemur .. ltoes are missing.
  Lines lines = amc();
  const int rtoes = bone_line(lines, 141, "rtoes");
  ASSERT_GT(rtoes, 0);
  lines.truncate(rtoes);
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, rtoes, {"frame 141", "'lfemur'", "expected every bone"}));
}

TEST_F(Malformed, TruncatedLastFrameInFile) {
  Lines lines = amc();
  const int rtoes = bone_line(lines, 141, "rtoes");
  lines.truncate(rtoes);
  const TempFile file("truncated.amc", lines.text());
  EXPECT_TRUE(IsError(read_amc(file.path(), skeleton_), file.path(), rtoes, {"frame 141", "'lfemur'"}));
}

TEST_F(Malformed, TruncatedInTheMiddleOfALine) {
  // The last line cut after its bone name and one value: "lfoot -18.4" of 2 dofs.
  Lines lines = amc();
  const int lfoot = bone_line(lines, 141, "lfoot");
  lines.truncate(lfoot);
  lines[lfoot] = lines[lfoot].substr(0, lines[lfoot].find(' ') + 6);
  std::string text = lines.text();
  text.pop_back();  // no final line end either
  EXPECT_TRUE(IsError(amc_parse(text), kAmcName, lfoot, {"'lfoot'", "2 dofs", "gives 1 value"}));
}

TEST_F(Malformed, FrameMissingABoneInTheMiddle) {
  // Frame 5 has no lhumerus; the reader finds out at the next frame number.
  Lines lines = amc();
  lines.erase(bone_line(lines, 5, "lhumerus"));
  const int next_frame = frame_line(6) - 1;
  ASSERT_EQ(lines[next_frame], "6");
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, next_frame,
                      {"frame 5", "line " + std::to_string(frame_line(5)), "'lhumerus'"}));
}

// ---------------------------------------------------------------------------
// AMC bone lines

TEST_F(Malformed, UnknownBone) {
  Lines lines = amc();
  const int n = bone_line(lines, 1, "lhumerus");
  lines[n].replace(0, 8, "lhumerous");
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"unknown bone 'lhumerous'", "expected a bone"}));
}

TEST_F(Malformed, UnknownBoneInALaterFrame) {
  Lines lines = amc();
  const int n = bone_line(lines, 77, "head");
  lines[n].replace(0, 4, "Head");
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"unknown bone 'Head'"}));
}

TEST_F(Malformed, BoneWithoutDofsGivenValues) {
  // lhipjoint has no dof line in 09.asf, so an AMC line for it can hold no value.
  Lines lines = amc();
  const int n = bone_line(lines, 2, "lfemur");
  lines.insert(n, "lhipjoint 0 0 0");
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"'lhipjoint'", "0 dofs", "gives 3 values"}));
}

TEST_F(Malformed, TooFewValues) {
  Lines lines = amc();
  const int n = bone_line(lines, 3, "lfemur");
  lines[n] = lines[n].substr(0, lines[n].rfind(' '));
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"'lfemur'", "3 dofs (rx ry rz)", "gives 2 values"}));
}

TEST_F(Malformed, NoValuesAtAll) {
  Lines lines = amc();
  const int n = bone_line(lines, 3, "rtibia");
  lines[n] = "rtibia";
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"'rtibia'", "1 dofs (rx)", "gives 0 values"}));
}

TEST_F(Malformed, TooManyValues) {
  Lines lines = amc();
  const int n = bone_line(lines, 3, "root");
  lines[n] += " 1.5";
  EXPECT_TRUE(
      IsError(amc_parse(lines.text()), kAmcName, n, {"'root'", "6 dofs (TX TY TZ RX RY RZ)", "gives 7 values"}));
}

TEST_F(Malformed, FarTooManyValues) {
  Lines lines = amc();
  const int n = bone_line(lines, 3, "rwrist");
  for (int i = 0; i < 50; ++i) lines[n] += " 0";
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"'rwrist'", "1 dofs (ry)", "gives 51 values"}));
}

TEST_F(Malformed, NumberWithTrailingGarbage) {
  Lines lines = amc();
  const int n = bone_line(lines, 4, "lfemur");
  lines[n] = "lfemur -7.00586x -1.73986 -27.8547";
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"'-7.00586x'", "'lfemur'", "expected a finite number"}));
}

TEST_F(Malformed, NumbersThatDoNotParse) {
  for (const char* word : {"abc", "1.2.3", "--5", "1,5", "0x1A", "-", "+", "++5", "1e", "five", "-+5"}) {
    Lines lines = amc();
    const int n = bone_line(lines, 4, "rtibia");
    lines[n] = std::string("rtibia ") + word;
    EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"'rtibia'", "expected a finite number"}))
        << "value " << word;
  }
}

TEST_F(Malformed, PlusThenMinusSign) {
  // "+-27.5": one sign too many, not -27.5.
  Lines lines = amc();
  const int n = bone_line(lines, 2, "lwrist");
  lines[n] = "lwrist +-27.5011";
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"'+-27.5011'", "expected a finite number"}));
}

TEST_F(Malformed, PlusThenMinusSignInAsf) {
  Lines lines = asf();
  const int n = lines.find_prefix("direction", lines.find("name ltibia"));
  lines[n] = "     direction +-0.34202 -0.939693 0";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"direction", "expected three numbers"}));
}

TEST_F(Malformed, NumberOutOfRange) {
  Lines lines = amc();
  const int n = bone_line(lines, 4, "rtibia");
  lines[n] = "rtibia 1e999";
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"'1e999'", "expected a finite number"}));
}

TEST_F(Malformed, NanAndInfValues) {
  for (const char* word : {"nan", "NaN", "-nan", "inf", "-inf", "+inf", "Infinity", "INF"}) {
    Lines lines = amc();
    const int n = bone_line(lines, 9, "lhumerus");
    lines[n] = std::string("lhumerus 1 ") + word + " 2";
    EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"'lhumerus'", "expected a finite number"}))
        << "value " << word;
  }
}

TEST_F(Malformed, NanInTheRootTranslation) {
  Lines lines = amc();
  const int n = bone_line(lines, 100, "root");
  lines[n] = "root nan 17.1113 -36.2281 4.68854 2.37172 2.1196";
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"'nan'", "'root'"}));
}

TEST_F(Malformed, DuplicateBoneInAFrame) {
  Lines lines = amc();
  const int n = bone_line(lines, 7, "lradius");
  lines.insert(n + 1, lines[n]);
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n + 1, {"'lradius'", "twice"}));
}

TEST_F(Malformed, BoneLineBeforeTheFirstFrameNumber) {
  Lines lines = amc();
  lines.insert(kHeaderLines + 1, lines[frame_line(1) + 1]);
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, kHeaderLines + 1,
                      {"before the first frame", "expected a frame number"}));
}

TEST_F(Malformed, FrameNumbersGoingBack) {
  Lines lines = amc();
  const int n = frame_line(3);
  lines[n] = "2";
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"frame number 2 after frame 2", "expected increasing"}));
}

TEST_F(Malformed, FrameNumberRepeated) {
  Lines lines = amc();
  const int n = frame_line(51);
  lines[n] = "50";
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"50 after frame 50", "expected increasing"}));
}

TEST_F(Malformed, FrameNumberNotWhole) {
  for (const char* word : {"3.5", "3 4", "3x", "99999999999"}) {
    Lines lines = amc();
    const int n = frame_line(3);
    lines[n] = word;
    EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"frame number", "expected a whole number"}))
        << "frame line " << word;
  }
}

TEST_F(Malformed, KeywordAfterTheFirstFrame) {
  Lines lines = amc();
  const int n = frame_line(2);
  lines.insert(n, ":RADIANS");
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"':RADIANS'", "after the first frame"}));
}

TEST_F(Malformed, UnknownHeaderKeyword) {
  Lines lines = amc();
  lines[2] = ":PARTIALLY-SPECIFIED";
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, 2, {"':PARTIALLY-SPECIFIED'", "expected :FULLY-SPECIFIED"}));
}

// ---------------------------------------------------------------------------
// ASF

TEST_F(Malformed, EmptyAsfInMemory) {
  EXPECT_TRUE(IsError(asf_parse(""), kAsfName, 0, {"empty file"}));
  EXPECT_TRUE(IsError(asf_parse("\n  \n\t\n"), kAsfName, 0, {"empty file"}));
}

TEST_F(Malformed, DuplicateBone) {
  // The second bone block renamed to the first one's name.
  Lines lines = asf();
  const int n = lines.find("name ltibia");
  lines[n] = "     name lfemur";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"duplicate bone 'lfemur'"}));
}

TEST_F(Malformed, BoneNamedRoot) {
  Lines lines = asf();
  const int n = lines.find("name lhipjoint");
  lines[n] = "     name root";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"duplicate bone 'root'"}));
}

TEST_F(Malformed, HierarchyCycle) {
  // lfemur hangs under ltibia and ltibia under lfemur: a loop with no way to
  // the root. The line that closes the loop is the one to blame.
  Lines lines = asf();
  const int first = lines.find("lhipjoint lfemur");
  const int closing = lines.find("lfemur ltibia");
  ASSERT_EQ(closing, first + 1);
  lines[first] = "    ltibia lfemur";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, closing, {"cycle"}));
}

TEST_F(Malformed, HierarchyCycleOfThree) {
  // lfemur -> ltibia -> lfoot already; adding lfoot -> lfemur (in place of
  // lhipjoint -> lfemur) closes a loop of three on the line of lfoot.
  Lines lines = asf();
  const int first = lines.find("lhipjoint lfemur");
  lines[first] = "    lhipjoint";
  const int closing = lines.find("lfoot ltoes");
  lines[closing] = "    lfoot ltoes lfemur";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, closing, {"cycle"}));
}

TEST_F(Malformed, BoneIsItsOwnParent) {
  Lines lines = asf();
  const int n = lines.find("lfemur ltibia");
  lines[n] = "    lfemur lfemur ltibia";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"'lfemur'", "cycle"}));
}

TEST_F(Malformed, UnknownParent) {
  Lines lines = asf();
  const int n = lines.find("lfemur ltibia");
  lines[n] = "    lfemurr ltibia";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"unknown parent bone 'lfemurr'"}));
}

TEST_F(Malformed, UnknownChild) {
  Lines lines = asf();
  const int n = lines.find("thorax lowerneck lclavicle rclavicle");
  lines[n] = "    thorax lowerneck lclavicle rclavicel";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"unknown bone 'rclavicel'"}));
}

TEST_F(Malformed, SecondParent) {
  Lines lines = asf();
  const int first = lines.find("lhipjoint lfemur");
  lines[first] = "    lhipjoint lfemur ltibia";
  const int second = lines.find("lfemur ltibia");
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, second, {"'ltibia'", "second parent"}));
}

TEST_F(Malformed, RootAsAChild) {
  Lines lines = asf();
  const int n = lines.find("lfemur ltibia");
  lines[n] = "    lfemur ltibia root";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"root", "child"}));
}

TEST_F(Malformed, MissingBonedataKeyword) {
  // Without ":bonedata" the first "begin" lands in :root.
  Lines lines = asf();
  const int n = lines.find(":bonedata");
  lines.erase(n);
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"'begin'"}));
}

TEST_F(Malformed, MissingBonedataSection) {
  // The whole section gone: the hierarchy names bones never defined.
  Lines lines = asf();
  const int first = lines.find(":bonedata");
  const int hierarchy = lines.find(":hierarchy");
  lines.erase(first, hierarchy - first);
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, first, {":hierarchy before :bonedata", "expected"}));
}

TEST_F(Malformed, MissingBonedataAndHierarchy) {
  Lines lines = asf();
  lines.truncate(lines.find(":bonedata") - 1);
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, 0, {"no :bonedata", "expected"}));
}

TEST_F(Malformed, MissingHierarchy) {
  Lines lines = asf();
  lines.truncate(lines.find(":hierarchy") - 1);
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, 0, {"no :hierarchy", "expected"}));
}

TEST_F(Malformed, BoneMissingFromHierarchy) {
  // lfingers is never given a parent: reported at :hierarchy, naming the bone.
  Lines lines = asf();
  const int n = lines.find("lhand lfingers");
  lines.erase(n);
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, lines.find(":hierarchy"), {"'lfingers'", "no parent"}));
}

TEST_F(Malformed, HierarchyNotClosed) {
  Lines lines = asf();
  lines.truncate(lines.size() - 1);
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, lines.size(), {"hierarchy not closed", "'end'"}));
}

TEST_F(Malformed, TruncatedInsideABone) {
  Lines lines = asf();
  const int n = lines.find("name lhumerus");
  lines.truncate(n + 2);
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n + 2, {"bone block not closed", "'end'"}));
}

TEST_F(Malformed, BoneBlockWithoutEnd) {
  // lfemur's "end" deleted: the next "begin" is read inside it.
  Lines lines = asf();
  const int name = lines.find("name lfemur");
  const int end = lines.find("end", name);
  lines.erase(end);
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, end, {"'begin'", "expected"}));
}

TEST_F(Malformed, LimitsFewerThanDofs) {
  // lfemur has dof rx ry rz; its third limit pair removed.
  Lines lines = asf();
  const int name = lines.find("name lfemur");
  const int third = lines.find("(-60.0 70.0)", name);
  ASSERT_GT(third, 0);
  lines.erase(third);
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, third, {"'lfemur'", "3 dofs but 2 limit pairs"}));
}

TEST_F(Malformed, LimitsMoreThanDofs) {
  Lines lines = asf();
  const int name = lines.find("name ltibia");
  const int limits = lines.find_prefix("limits", name);
  lines.insert(limits + 1, "           (-10.0 10.0)");
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, limits + 2, {"'ltibia'", "1 dofs but 2 limit pairs"}));
}

TEST_F(Malformed, LimitPairBroken) {
  Lines lines = asf();
  const int name = lines.find("name lfemur");
  const int second = lines.find("(-70.0 70.0)", name);
  lines[second] = "           (-70.0 70.0";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, second, {"expected ')'"}));
}

TEST_F(Malformed, LimitWithNan) {
  Lines lines = asf();
  const int name = lines.find("name ltibia");
  const int limits = lines.find_prefix("limits", name);
  lines[limits] = "    limits (nan 170.0)";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, limits, {"expected two numbers"}));
}

TEST_F(Malformed, NanDirection) {
  Lines lines = asf();
  const int name = lines.find("name lhumerus");
  const int n = lines.find_prefix("direction", name);
  lines[n] = "     direction nan 0 0";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"direction", "expected three numbers"}));
}

TEST_F(Malformed, InfLength) {
  Lines lines = asf();
  const int name = lines.find("name lhumerus");
  const int n = lines.find_prefix("length", name);
  lines[n] = "     length inf";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"length", "expected a number"}));
}

TEST_F(Malformed, LengthThatDoesNotParse) {
  Lines lines = asf();
  const int name = lines.find("name lhumerus");
  const int n = lines.find_prefix("length", name);
  lines[n] = "     length 5.3o2";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"length", "expected a number"}));
}

TEST_F(Malformed, UnknownDof) {
  Lines lines = asf();
  const int name = lines.find("name lfemur");
  const int n = lines.find_prefix("dof", name);
  lines[n] = "    dof rx ry rw";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"'rw'", "expected rx"}));
}

TEST_F(Malformed, RepeatedDof) {
  Lines lines = asf();
  const int name = lines.find("name lfemur");
  const int n = lines.find_prefix("dof", name);
  lines[n] = "    dof rx ry rx";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"'rx'", "twice"}));
}

TEST_F(Malformed, BoneWithoutDirection) {
  Lines lines = asf();
  const int name = lines.find("name ltibia");
  lines.erase(lines.find_prefix("direction", name));
  const int end = lines.find("end", name);
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, end, {"'ltibia'", "no direction"}));
}

TEST_F(Malformed, UnknownSection) {
  Lines lines = asf();
  const int n = lines.find(":hierarchy");
  lines.insert(n, ":skinning");
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"':skinning'", "expected :version"}));
}

TEST_F(Malformed, BadLengthUnit) {
  Lines lines = asf();
  const int n = lines.find("length 0.45");
  lines[n] = "  length 0";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"expected a positive number"}));
}

TEST_F(Malformed, BadRootOrder) {
  Lines lines = asf();
  const int n = lines.find("order TX TY TZ RX RY RZ");
  lines[n] = "   order TX TY TZ RX RY RQ";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"'RQ'", "expected TX"}));
}

// ---------------------------------------------------------------------------
// Binary input and huge lines

// The first bytes of a PNG (signature and IHDR chunk) and of an x86-64 ELF.
const std::string kPngBytes("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0\0\0\x01\0\x08\x06\0\0\0\x5c\x72\xa8\x66", 33);
const std::string kElfBytes(
    "\x7f"
    "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0\x3e\0\x01\0\0\0\x60\x10\0\0\0\0\0\0",
    32);

TEST_F(Malformed, ElfAsAsf) {
  EXPECT_TRUE(IsError(asf_parse(kElfBytes), kAsfName, 1, {"control byte 0x7f", "expected a text file"}));
  const TempFile file("elf.asf", kElfBytes);
  EXPECT_TRUE(IsError(read_asf(file.path()), file.path(), 1, {"control byte 0x7f"}));
}

TEST_F(Malformed, ElfAsAmc) {
  const TempFile file("elf.amc", kElfBytes);
  EXPECT_TRUE(IsError(read_amc(file.path(), skeleton_), file.path(), 1, {"control byte 0x7f"}));
}

TEST_F(Malformed, PngAsAsfAndAmc) {
  // The PNG signature's first line ("\x89PNG\r\n") is no text but holds no
  // control byte; the 0x1a on its second line gives the file away.
  EXPECT_TRUE(IsError(asf_parse(kPngBytes), kAsfName, 2, {"control byte 0x1a", "expected a text file"}));
  EXPECT_TRUE(IsError(amc_parse(kPngBytes), kAmcName, 2, {"control byte 0x1a", "expected a text file"}));
}

TEST_F(Malformed, NulBytesInsideRealText) {
  // A real file with a run of zeros written over the middle of a line, as a
  // crash during a copy leaves it.
  Lines lines = amc();
  const int n = bone_line(lines, 60, "upperback");
  lines[n].replace(12, 4, std::string(4, '\0'));
  EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"NUL byte"}));
  const TempFile file("nul.amc", lines.text());
  EXPECT_TRUE(IsError(read_amc(file.path(), skeleton_), file.path(), n, {"NUL byte"}));

  Lines skeleton = asf();
  const int m = skeleton.find("name lhumerus");
  skeleton[m] += std::string(3, '\0');
  EXPECT_TRUE(IsError(asf_parse(skeleton.text()), kAsfName, m, {"NUL byte"}));
}

TEST_F(Malformed, LineOfMegabytesInMemory) {
  Lines lines = amc();
  const int n = bone_line(lines, 2, "lowerneck");
  std::string huge = "lowerneck";
  for (int i = 0; i < 2 * 1024 * 1024; ++i) huge += " 1";  // 4 MB
  lines[n] = std::move(huge);
  // Refused at the line, whatever the machine's speed (a reader that went
  // quadratic on it would hit the test's timeout, not a timed assertion).
  const auto result = amc_parse(lines.text());
  EXPECT_TRUE(IsError(result, kAmcName, n, {"line longer than", "expected a text line"}));
}

TEST_F(Malformed, LineOfMegabytesInAsf) {
  Lines lines = asf();
  const int n = lines.find(":documentation") + 1;
  lines[n] = std::string(3 * 1024 * 1024, 'x');
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"line longer than"}));
}

TEST_F(Malformed, LineOfMegabytesInAFile) {
  // 48 MB on line 10 of real text, written in pieces so that this test's own
  // memory stays small; the reader must stop early, in little time and memory.
  constexpr std::size_t kChunk = 1 << 20;
  constexpr int kChunks = 48;
  Lines lines = amc();
  const int n = bone_line(lines, 1, "upperneck");
  std::string head;
  for (int i = 1; i < n; ++i) (head += lines[i]) += '\n';
  const TempFile file("long_line.amc", head + "upperneck");
  {
    std::ofstream out(file.path(), std::ios::binary | std::ios::app);
    const std::string chunk(kChunk, '7');
    for (int i = 0; i < kChunks; ++i) out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    out << "\n" << lines[n + 1] << "\n";
  }
  const long peak_before = peak_rss_bytes();
  const auto result = read_amc(file.path(), skeleton_);
  EXPECT_TRUE(IsError(result, file.path(), n, {"line longer than"}));
  EXPECT_LT(peak_rss_bytes() - peak_before, 16L << 20) << "the reader held the long line in memory";
}

TEST_F(Malformed, WholeFileWithoutLineEnds) {
  // 09_06.amc with every line end replaced by a blank: one 100 kB line.
  std::string text = amc_text_;
  std::replace(text.begin(), text.end(), '\n', ' ');
  EXPECT_TRUE(IsError(amc_parse(text), kAmcName, 1, {"line longer than"}));
  const TempFile file("one_line.amc", text);
  EXPECT_TRUE(IsError(read_amc(file.path(), skeleton_), file.path(), 1, {"line longer than"}));
}

TEST_F(Malformed, LongestAcceptedLineAndOneMore) {
  // A comment of exactly 64 KiB is a line like any other; one byte more is not.
  // Put at different offsets so that it straddles the file reader's blocks.
  constexpr std::size_t kMax = 64 * 1024;
  for (const int frame : {1, 40, 120}) {
    Lines lines = amc();
    const int n = frame_line(frame) + 1;
    lines.insert(n, "#" + std::string(kMax - 1, 'c'));
    const TempFile ok("max_line.amc", lines.text());
    const auto motion = read_amc(ok.path(), skeleton_);
    ASSERT_TRUE(motion) << motion.error().to_string();
    EXPECT_EQ(motion->values, motion_.values);
    lines[n] += 'c';
    const TempFile bad("max_line_plus_one.amc", lines.text());
    EXPECT_TRUE(IsError(read_amc(bad.path(), skeleton_), bad.path(), n, {"line longer than"})) << "frame " << frame;
    EXPECT_TRUE(IsError(amc_parse(lines.text()), kAmcName, n, {"line longer than"})) << "frame " << frame;
  }
}

TEST_F(Malformed, MissingFiles) {
  const std::string missing = (std::filesystem::temp_directory_path() / "mocap_no_such_file.amc").string();
  EXPECT_TRUE(IsError(read_amc(missing, skeleton_), missing, 0, {"cannot open"}));
  EXPECT_TRUE(IsError(read_asf(missing), missing, 0, {"cannot open"}));
}

TEST_F(Malformed, DirectoryGivenAsAFile) {
  const std::string dir = std::filesystem::temp_directory_path().string();
  const auto result = read_asf(dir);
  ASSERT_FALSE(result) << "a directory read as an ASF";
  EXPECT_EQ(result.error().file, dir);
  EXPECT_NE(result.error().message.find("irectory"), std::string::npos) << result.error().to_string();
}

// ---------------------------------------------------------------------------
// Quirks of real files that must read

TEST_F(Malformed, CrlfReadsTheSame) {
  const auto skeleton = asf_parse(asf().text("\r\n"));
  ASSERT_TRUE(skeleton) << skeleton.error().to_string();
  EXPECT_EQ(skeleton->bones.size(), skeleton_.bones.size());
  EXPECT_EQ(skeleton->channel_count, skeleton_.channel_count);
  for (std::size_t b = 0; b < skeleton_.bones.size(); ++b) {
    EXPECT_EQ(skeleton->bones[b].name, skeleton_.bones[b].name);
    EXPECT_EQ(skeleton->bones[b].length, skeleton_.bones[b].length);
    EXPECT_EQ(skeleton->bones[b].direction, skeleton_.bones[b].direction);
  }
  const std::string crlf = amc().text("\r\n");
  const auto motion = amc_parse(crlf);
  ASSERT_TRUE(motion) << motion.error().to_string();
  EXPECT_EQ(motion->values, motion_.values);
  EXPECT_EQ(motion->frame_numbers, motion_.frame_numbers);
  const TempFile file("crlf.amc", crlf);
  const auto from_file = read_amc(file.path(), skeleton_);
  ASSERT_TRUE(from_file) << from_file.error().to_string();
  EXPECT_EQ(from_file->values, motion_.values);
}

TEST_F(Malformed, CrlfErrorsCountLinesTheSame) {
  Lines lines = amc();
  const int n = bone_line(lines, 20, "lthumb");
  lines[n] = "lthumb 1";
  EXPECT_TRUE(IsError(amc_parse(lines.text("\r\n")), kAmcName, n, {"'lthumb'", "gives 1 value"}));
}

TEST_F(Malformed, WindowsExponents) {
  // rclavicle -9.54166e-015 -7.15625e-015 in frame 1; and a few more spellings.
  const Bone& rclavicle = skeleton_.bones[skeleton_.find_bone("rclavicle")];
  const double degrees = std::numbers::pi / 180.0;
  EXPECT_DOUBLE_EQ(motion_.frame(0)[rclavicle.first_channel], -9.54166e-15 * degrees);
  EXPECT_DOUBLE_EQ(motion_.frame(0)[rclavicle.first_channel + 1], -7.15625e-15 * degrees);
  Lines lines = amc();
  const int n = bone_line(lines, 1, "rclavicle");
  lines[n] = "rclavicle 1.5E+002 -2.5e+000";
  const auto motion = amc_parse(lines.text());
  ASSERT_TRUE(motion) << motion.error().to_string();
  EXPECT_DOUBLE_EQ(motion->frame(0)[rclavicle.first_channel], 150.0 * degrees);
  EXPECT_DOUBLE_EQ(motion->frame(0)[rclavicle.first_channel + 1], -2.5 * degrees);
  const auto raw = parse_asf_file(asf_text_, std::string(kAsfName));
  ASSERT_TRUE(raw) << raw.error().to_string();
  EXPECT_DOUBLE_EQ(raw->bones[raw->find_bone("lfoot")].axis.y(), 7.62852e-16);
}

TEST_F(Malformed, LimitsOverSeveralLinesOrOne) {
  const auto raw = parse_asf_file(asf_text_, std::string(kAsfName));
  ASSERT_TRUE(raw) << raw.error().to_string();
  const AsfBone& lfemur = raw->bones[raw->find_bone("lfemur")];
  ASSERT_EQ(lfemur.limits.size(), 3u);
  EXPECT_DOUBLE_EQ(lfemur.limits[0].min, -160.0);  // the file's degrees
  EXPECT_DOUBLE_EQ(lfemur.limits[2].max, 70.0);
  Lines lines = asf();
  const int name = lines.find("name lfemur");
  const int limits = lines.find_prefix("limits", name);
  lines[limits] = "    limits (-160.0 20.0) (-70.0 70.0)";
  lines.erase(limits + 1);
  const auto skeleton = parse_asf_file(lines.text(), std::string(kAsfName));
  ASSERT_TRUE(skeleton) << skeleton.error().to_string();
  const AsfBone& joined = skeleton->bones[skeleton->find_bone("lfemur")];
  ASSERT_EQ(joined.limits.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(joined.limits[k].min, lfemur.limits[k].min);
    EXPECT_EQ(joined.limits[k].max, lfemur.limits[k].max);
  }
}

TEST_F(Malformed, InfiniteLimitsAreKept) {
  Lines lines = asf();
  const int name = lines.find("name ltibia");
  const int limits = lines.find_prefix("limits", name);
  lines[limits] = "    limits (-inf inf)";
  const auto skeleton = parse_asf_file(lines.text(), std::string(kAsfName));
  ASSERT_TRUE(skeleton) << skeleton.error().to_string();
  const AsfBone& ltibia = skeleton->bones[skeleton->find_bone("ltibia")];
  EXPECT_TRUE(std::isinf(ltibia.limits[0].min) && ltibia.limits[0].min < 0);
  EXPECT_TRUE(std::isinf(ltibia.limits[0].max) && ltibia.limits[0].max > 0);
}

TEST_F(Malformed, BonesInAnotherOrderWithinAFrame) {
  // Frame 2 listed backwards, frame 3 with root last: the same values.
  Lines lines = amc();
  std::reverse(&lines[frame_line(2) + 1], &lines[frame_line(2) + kLinesPerFrame - 1] + 1);
  std::rotate(&lines[frame_line(3) + 1], &lines[frame_line(3) + 2], &lines[frame_line(3) + kLinesPerFrame - 1] + 1);
  ASSERT_EQ(lines[frame_line(3) + kLinesPerFrame - 1].substr(0, 5), "root ");
  const auto motion = amc_parse(lines.text());
  ASSERT_TRUE(motion) << motion.error().to_string();
  EXPECT_EQ(motion->values, motion_.values);
}

TEST_F(Malformed, CommentsAnywhere) {
  Lines lines = amc();
  lines.insert(frame_line(70) + 5, "# a comment inside frame 70");
  lines.insert(frame_line(2), "   # an indented comment between frames");
  lines.insert(1, "# a comment before the header");
  const auto motion = amc_parse(lines.text());
  ASSERT_TRUE(motion) << motion.error().to_string();
  EXPECT_EQ(motion->values, motion_.values);

  Lines skeleton = asf();
  skeleton.insert(skeleton.find("lfemur ltibia"), "  # a comment in :hierarchy");
  skeleton.insert(skeleton.find("name ltibia"), "     # a comment in a bone");
  skeleton.insert(skeleton.find(":root"), "# a comment between sections");
  const auto parsed = asf_parse(skeleton.text());
  ASSERT_TRUE(parsed) << parsed.error().to_string();
  EXPECT_EQ(parsed->bones.size(), skeleton_.bones.size());
  EXPECT_EQ(parsed->eval_order, skeleton_.eval_order);
}

TEST_F(Malformed, RadiansAmc) {
  // The same numbers under :RADIANS are taken as radians; lengths are unchanged.
  Lines lines = amc();
  ASSERT_EQ(lines[3], ":DEGREES");
  lines[3] = ":RADIANS";
  const auto file = parse_amc_file(lines.text(), std::string(kAmcName), skeleton_);
  ASSERT_TRUE(file) << file.error().to_string();
  EXPECT_FALSE(file->layout.degrees);
  const Motion* motion = &file->motion;
  const Bone& rtibia = skeleton_.bones[skeleton_.find_bone("rtibia")];
  EXPECT_DOUBLE_EQ(motion->frame(0)[rtibia.first_channel], 108.236);
  EXPECT_DOUBLE_EQ(motion_.frame(0)[rtibia.first_channel], 108.236 * std::numbers::pi / 180.0);
  EXPECT_EQ(motion->frame(0)[0], motion_.frame(0)[0]);  // root TX, a length
}

TEST_F(Malformed, PlusSigns) {
  Lines lines = amc();
  const int n = bone_line(lines, 1, "lowerback");
  ASSERT_EQ(lines[n], "lowerback 19.257 -1.22373 -5.06989");
  lines[n] = "lowerback +19.257 -1.22373 -5.06989";
  const auto motion = amc_parse(lines.text());
  ASSERT_TRUE(motion) << motion.error().to_string();
  EXPECT_EQ(motion->values, motion_.values);

  Lines skeleton = asf();
  const int length = skeleton.find_prefix("length", skeleton.find("name lfemur"));
  skeleton[length] = "     length +7.54288";
  const auto parsed = asf_parse(skeleton.text());
  ASSERT_TRUE(parsed) << parsed.error().to_string();
  const int lfemur = skeleton_.find_bone("lfemur");
  EXPECT_EQ(parsed->bones[lfemur].length, skeleton_.bones[lfemur].length);
}

TEST_F(Malformed, TabsAndTrailingBlanks) {
  Lines lines = amc();
  const int n = bone_line(lines, 1, "lfemur");
  lines[n] = "lfemur\t-7.00586 \t-1.73986   -27.8547 \t ";
  const auto motion = amc_parse(lines.text());
  ASSERT_TRUE(motion) << motion.error().to_string();
  EXPECT_EQ(motion->values, motion_.values);
}

TEST_F(Malformed, NoFinalLineEnd) {
  std::string text = amc_text_;
  ASSERT_EQ(text.back(), '\n');
  text.pop_back();
  const auto motion = amc_parse(text);
  ASSERT_TRUE(motion) << motion.error().to_string();
  EXPECT_EQ(motion->values, motion_.values);
}

}  // namespace
}  // namespace mocap
