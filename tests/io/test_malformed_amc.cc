// Bad AMC motions (malformed.h): empty and truncated files, bone lines,
// numbers, frame numbers, binary input and huge lines; the quirks of real
// files that must read.
#include "io/malformed.h"

namespace mocap::test {
namespace {

TEST_F(Malformed, EmptyAmcInMemory) {
  EXPECT_TRUE(IsError(amc_parse(""), kAmcName, 0, {"empty file", "expected an AMC motion"}));
}

TEST_F(Malformed, EmptyAmcFile) {
  const TempFile file("empty.amc", "");
  EXPECT_TRUE(IsError(read_amc(file.path(), skeleton_), file.path(), 0, {"empty file", "expected"}));
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

TEST_F(Malformed, ElfAsAmc) {
  const TempFile file("elf.amc", kElfBytes);
  EXPECT_TRUE(IsError(read_amc(file.path(), skeleton_), file.path(), 1, {"control byte 0x7f"}));
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

TEST_F(Malformed, CrlfErrorsCountLinesTheSame) {
  Lines lines = amc();
  const int n = bone_line(lines, 20, "lthumb");
  lines[n] = "lthumb 1";
  EXPECT_TRUE(IsError(amc_parse(lines.text("\r\n")), kAmcName, n, {"'lthumb'", "gives 1 value"}));
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
}  // namespace mocap::test
