// What the ASF and AMC readers share (malformed.h): binary and NUL bytes,
// missing files, CRLF, Windows exponents, comments and '+' signs read the
// same way in both.
#include "io/malformed.h"

namespace mocap::test {
namespace {

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

TEST_F(Malformed, MissingFiles) {
  const std::string missing = (std::filesystem::temp_directory_path() / "mocap_no_such_file.amc").string();
  EXPECT_TRUE(IsError(read_amc(missing, skeleton_), missing, 0, {"cannot open"}));
  EXPECT_TRUE(IsError(read_asf(missing), missing, 0, {"cannot open"}));
}

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

}  // namespace
}  // namespace mocap::test
