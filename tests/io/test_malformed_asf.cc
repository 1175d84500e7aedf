// Bad ASF skeletons (malformed.h): sections, bones, the hierarchy, limits,
// dofs and units, binary input and huge lines; the quirks of real files
// that must read.
#include "io/malformed.h"

namespace mocap::test {
namespace {

TEST_F(Malformed, EmptyAsfFile) {
  const TempFile file("empty.asf", "");
  EXPECT_TRUE(IsError(read_asf(file.path()), file.path(), 0, {"empty file", "expected an ASF skeleton"}));
}

TEST_F(Malformed, PlusThenMinusSignInAsf) {
  Lines lines = asf();
  const int n = lines.find_prefix("direction", lines.find("name ltibia"));
  lines[n] = "     direction +-0.34202 -0.939693 0";
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"direction", "expected three numbers"}));
}

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

TEST_F(Malformed, ElfAsAsf) {
  EXPECT_TRUE(IsError(asf_parse(kElfBytes), kAsfName, 1, {"control byte 0x7f", "expected a text file"}));
  const TempFile file("elf.asf", kElfBytes);
  EXPECT_TRUE(IsError(read_asf(file.path()), file.path(), 1, {"control byte 0x7f"}));
}

TEST_F(Malformed, LineOfMegabytesInAsf) {
  Lines lines = asf();
  const int n = lines.find(":documentation") + 1;
  lines[n] = std::string(3 * 1024 * 1024, 'x');
  EXPECT_TRUE(IsError(asf_parse(lines.text()), kAsfName, n, {"line longer than"}));
}

TEST_F(Malformed, DirectoryGivenAsAFile) {
  const std::string dir = std::filesystem::temp_directory_path().string();
  const auto result = read_asf(dir);
  ASSERT_FALSE(result) << "a directory read as an ASF";
  EXPECT_EQ(result.error().file, dir);
  EXPECT_NE(result.error().message.find("irectory"), std::string::npos) << result.error().to_string();
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

}  // namespace
}  // namespace mocap::test
