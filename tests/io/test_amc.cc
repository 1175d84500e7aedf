// AMC reading and writing on every real CMU clip, plus the format's corners.
#include <gtest/gtest.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>

#include <charconv>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>

#include "test_data.h"

namespace mocap {
namespace {

using test::read_text;

using test::kDegree;

// Frame counts from ../shared/data/cmu/clips.tsv, written by another program.
std::map<std::string, int> expected_frame_counts() {
  std::map<std::string, int> counts;
  std::ifstream in(test::shared_data_dir() / "cmu" / "clips.tsv");
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string file, skeleton, frames;
    std::getline(fields, file, '\t');
    std::getline(fields, skeleton, '\t');
    std::getline(fields, frames, '\t');
    if (file.ends_with(".amc")) counts[file.substr(0, file.size() - 4)] = std::stoi(frames);
  }
  return counts;
}

TEST(Amc, CountsFramesOfEveryRealClipFromFrameLines) {
  MOCAP_REQUIRE_SHARED_DATA();
  const auto counts = expected_frame_counts();
  const auto clips = test::shared_clips();
  ASSERT_EQ(clips.size(), 18u);
  for (const auto& clip : clips) {
    SCOPED_TRACE(clip.name);
    Skeleton skeleton;
    Motion motion;
    ASSERT_TRUE(test::load(clip, skeleton, motion));
    ASSERT_TRUE(counts.count(clip.name));
    EXPECT_EQ(motion.frame_count(), counts.at(clip.name));
    EXPECT_EQ(motion.values.size(), static_cast<std::size_t>(motion.frame_count()) * 62);
    for (int f = 0; f < motion.frame_count(); ++f) ASSERT_EQ(motion.frame_numbers[f], f + 1);
    EXPECT_DOUBLE_EQ(motion.duration_seconds(), motion.frame_count() / 120.0);
  }
}

TEST(Amc, ConvertsDegreesAndLengthsAtLoad) {
  Skeleton skeleton;
  Motion motion;
  ASSERT_TRUE(test::load({"09_06", test::bundled_data_dir() / "09.asf", test::bundled_data_dir() / "09_06.amc"},
                         skeleton, motion));
  // 09_06.amc frame 1: root 0.0917792 17.1113 -36.2281 4.68854 2.37172 2.1196
  const auto root = motion.frame(0).subspan(0, 6);
  const double m = 0.0254 / 0.45;
  EXPECT_NEAR(root[0], 0.0917792 * m, 1e-12);
  EXPECT_NEAR(root[1], 17.1113 * m, 1e-12);
  EXPECT_NEAR(root[3], 4.68854 * kDegree, 1e-15);
  EXPECT_NEAR(root[5], 2.1196 * kDegree, 1e-15);
  const auto file = read_amc_file((test::bundled_data_dir() / "09_06.amc").string(), skeleton);
  ASSERT_TRUE(file) << file.error().to_string();
  EXPECT_TRUE(file->layout.degrees);
  EXPECT_EQ(file->motion.values, motion.values);
}

TEST(Amc, WriteThenReadGivesTheSameValuesOnEveryRealClip) {
  for (const auto& clip : test::all_real_clips()) {
    SCOPED_TRACE(clip.name);
    const auto skeleton = read_asf(clip.asf.string());
    ASSERT_TRUE(skeleton) << skeleton.error().to_string();
    const auto file = read_amc_file(clip.amc.string(), *skeleton);
    ASSERT_TRUE(file) << file.error().to_string();
    const Motion& motion = file->motion;
    const std::string text = format_amc(motion, *skeleton, file->layout);
    const auto again = parse_amc_file(text, "written.amc", *skeleton);
    ASSERT_TRUE(again) << again.error().to_string();
    EXPECT_EQ(again->motion.frame_numbers, motion.frame_numbers);
    ASSERT_EQ(again->motion.values.size(), motion.values.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < motion.values.size(); ++i) differ += again->motion.values[i] != motion.values[i];
    EXPECT_EQ(differ, 0u) << "values not bit-identical after a round trip";
    EXPECT_EQ(again->layout.header, file->layout.header);
    EXPECT_EQ(again->layout.line_order, file->layout.line_order);
    EXPECT_EQ(again->layout.degrees, file->layout.degrees);
    EXPECT_EQ(format_amc(again->motion, *skeleton, again->layout), text);
    // The default layout (CMU style, skeleton order) keeps the values too.
    const auto plain = parse_amc_file(format_amc(motion, *skeleton), "plain.amc", *skeleton);
    ASSERT_TRUE(plain) << plain.error().to_string();
    EXPECT_EQ(plain->motion.values, motion.values);
    EXPECT_EQ(plain->layout.header, (std::vector<std::string>{":FULLY-SPECIFIED", ":DEGREES"}));
  }
}

// Every value of every real clip equals std::from_chars of its word, scaled
// to SI: the parser's word-at-a-time number reading changes no bit, from
// memory, from a file, and with CRLF line ends.
TEST(Amc, ReadsEveryValueOfEveryRealClipAsFromChars) {
  for (const auto& clip : test::all_real_clips()) {
    SCOPED_TRACE(clip.name);
    const auto skeleton = read_asf(clip.asf.string());
    ASSERT_TRUE(skeleton) << skeleton.error().to_string();
    const std::string text = read_text(clip.amc);
    std::map<std::string, const Bone*> bones;
    for (const Bone& bone : skeleton->bones) bones[bone.name] = &bone;
    std::vector<double> expected;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty() || line[0] == '#' || line[0] == ':') continue;
      std::istringstream words(line);
      std::string word;
      words >> word;
      if (word[0] >= '0' && word[0] <= '9') {
        expected.resize(expected.size() + skeleton->channel_count, 0.0);
        continue;
      }
      const Bone& bone = *bones.at(word);
      for (std::size_t k = 0; words >> word; ++k) {
        double v = 0.0;
        ASSERT_EQ(std::from_chars(word.data(), word.data() + word.size(), v).ptr, word.data() + word.size()) << word;
        const double scale =
            is_rotation(bone.dofs[k]) ? kDegree : skeleton->metres_per_unit();  // real clips are :DEGREES
        expected[expected.size() - skeleton->channel_count + bone.first_channel + k] = v * scale;
      }
    }
    std::string crlf;
    for (const char c : text) {
      if (c != '\r') (c == '\n' ? crlf += "\r\n" : crlf += c);  // some clips are CRLF already
    }
    for (const auto& motion : {parse_amc(text, "memory.amc", *skeleton), read_amc(clip.amc.string(), *skeleton),
                               parse_amc(crlf, "crlf.amc", *skeleton)}) {
      ASSERT_TRUE(motion) << motion.error().to_string();
      ASSERT_EQ(motion->values.size(), expected.size());
      std::size_t differ = 0;
      for (std::size_t i = 0; i < expected.size(); ++i) differ += motion->values[i] != expected[i];
      EXPECT_EQ(differ, 0u);
    }
  }
}

TEST(Amc, WritesTheFileNumbersBack) {
  // The writer gives each number back in its shortest exact form, so a CMU
  // line such as "ltibia 26.832" comes back as written.
  const auto dir = test::bundled_data_dir();
  const auto skeleton = read_asf((dir / "16.asf").string());
  ASSERT_TRUE(skeleton) << skeleton.error().to_string();
  const auto file = read_amc_file((dir / "16_05.amc").string(), *skeleton);
  ASSERT_TRUE(file) << file.error().to_string();
  const std::string written = format_amc(file->motion, *skeleton, file->layout);
  std::istringstream original(read_text(dir / "16_05.amc"));
  std::istringstream again(written);
  std::string a, b;
  int lines = 0, same = 0;
  while (std::getline(original, a) && std::getline(again, b)) {
    ++lines;
    if (!a.empty() && a.back() == '\r') a.pop_back();
    // Exponents are written e-15 where the file says e-015.
    std::istringstream wa(a), wb(b);
    std::string x, y;
    bool equal = true;
    while (wa >> x) {
      if (!(wb >> y)) {
        equal = false;
        break;
      }
      equal = equal && (x == y || std::stod(x) == std::stod(y));
    }
    same += equal;
  }
  EXPECT_EQ(lines, 3 + 295 * 30);  // header, then 295 frames of a number and 29 bones
  EXPECT_EQ(same, lines);
}

TEST(Amc, AcceptsBonesInAnyOrderCrlfAndRadians) {
  const auto dir = test::bundled_data_dir();
  const auto skeleton = read_asf((dir / "09.asf").string());
  ASSERT_TRUE(skeleton);
  const auto reference = parse_amc(
      "#comment\n:FULLY-SPECIFIED\n:DEGREES\n7\n"
      "root 1 2 3 10 20 30\nlowerback 1 2 3\nupperback 1 2 3\nthorax 1 2 3\nlowerneck 1 2 3\n"
      "upperneck 1 2 3\nhead 1 2 3\nrclavicle 1 2\nrhumerus 1 2 3\nrradius 1\nrwrist 1\nrhand 1 2\n"
      "rfingers 1\nrthumb 1 2\nlclavicle 1 2\nlhumerus 1 2 3\nlradius 1\nlwrist 1\nlhand 1 2\nlfingers 1\n"
      "lthumb 1 2\nrfemur 1 2 3\nrtibia 1\nrfoot 1 2\nrtoes 1\nlfemur 1 2 3\nltibia 1\nlfoot 1 2\nltoes 1\n",
      "ref.amc", *skeleton);
  ASSERT_TRUE(reference) << reference.error().to_string();
  std::string shuffled =
      ":RADIANS\r\n  7\r\n"
      "ltoes 0.0174532925199432958\r\nroot 1 2 3 0.174532925199432958 +0.349065850398865915 5.23598775598298873e-1\r\n";
  const char* rest[] = {"lowerback", "upperback", "thorax",   "lowerneck", "upperneck",
                        "head",      "rhumerus",  "lhumerus", "rfemur",    "lfemur"};
  for (const char* bone : rest) {
    shuffled += std::string(bone) + " 0.0174532925199432958 0.0349065850398865915 0.0523598775598298873\r\n";
  }
  for (const char* bone : {"rclavicle", "rhand", "rthumb", "lclavicle", "lhand", "lthumb", "rfoot", "lfoot"}) {
    shuffled += std::string(bone) + " 1.74532925199432958e-2 0.0349065850398865915\r\n";
  }
  for (const char* bone :
       {"rradius", "rwrist", "rfingers", "lradius", "lwrist", "lfingers", "rtibia", "ltibia", "rtoes"}) {
    shuffled += std::string(bone) + " 0.0174532925199432958\r\n";
  }
  const auto file = parse_amc_file(shuffled, "shuffled.amc", *skeleton);
  ASSERT_TRUE(file) << file.error().to_string();
  EXPECT_FALSE(file->layout.degrees);
  const Motion* motion = &file->motion;
  EXPECT_EQ(motion->frame_numbers, std::vector<int>{7});
  ASSERT_EQ(motion->values.size(), reference->values.size());
  for (std::size_t i = 0; i < motion->values.size(); ++i) {
    EXPECT_NEAR(motion->values[i], reference->values[i], 1e-15) << "channel " << i;
  }
  // Written back in radians, read back identically.
  const auto again = parse_amc_file(format_amc(*motion, *skeleton, file->layout), "again.amc", *skeleton);
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(again->motion.values, motion->values);
  EXPECT_FALSE(again->layout.degrees);
}

TEST(Amc, KeepsTheRequestedFrameRate) {
  const auto dir = test::bundled_data_dir();
  const auto skeleton = read_asf((dir / "49.asf").string());
  ASSERT_TRUE(skeleton);
  const auto motion = read_amc((dir / "49_06.amc").string(), *skeleton, 60.0);
  ASSERT_TRUE(motion) << motion.error().to_string();
  EXPECT_EQ(motion->fps, 60.0);
  EXPECT_DOUBLE_EQ(motion->duration_seconds(), motion->frame_count() / 60.0);
  EXPECT_FALSE(read_amc((dir / "49_06.amc").string(), *skeleton, 0.0));
}

}  // namespace
}  // namespace mocap
