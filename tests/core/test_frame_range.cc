// The one frame-range syntax of every front end: a:b[:step] in file frame numbers.
#include <gtest/gtest.h>
#include <mocap/core/frame_range.h>

#include <numeric>
#include <vector>

namespace mocap {
namespace {

TEST(FrameRangeValidity, BadTextIsAnErrorQuotingIt) {
  for (const char* text : {"5", "a:b", "5:1", "1:5:0", "1:5:-2", "1:5:", "1:5:x", "1:2:3:4", ":x", "1.5:3"}) {
    const auto range = parse_frame_range(text);
    ASSERT_FALSE(range) << text;
    EXPECT_EQ(range.error().message.rfind(text, 0), 0u) << range.error().message;
    EXPECT_NE(range.error().message.find("a:b[:step]"), std::string::npos) << range.error().message;
    EXPECT_TRUE(range.error().file.empty());
  }
}

TEST(FrameRange, Parses) {
  auto r = parse_frame_range("10:20:5");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->first, 10);
  EXPECT_EQ(r->last, 20);
  EXPECT_EQ(r->step, 5);
  r = parse_frame_range("10:");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->first, 10);
  EXPECT_TRUE(r->contains(1 << 30));
  EXPECT_FALSE(r->contains(9));
  r = parse_frame_range(":20");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->contains(-5));
  EXPECT_FALSE(r->contains(21));
  r = parse_frame_range("");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->step, 1);
  r = parse_frame_range("::2");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->step, 2);
  r = parse_frame_range("7:7");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->contains(7));
}

// Numbers, not indices: a CMU clip starts at 1, so 1:141:70 is indices 0, 70, 140.
TEST(FrameRange, SelectsByFileNumbers) {
  std::vector<int> numbers(141);
  std::iota(numbers.begin(), numbers.end(), 1);
  EXPECT_EQ(select_frames(*parse_frame_range("1:141:70"), numbers), (std::vector<int>{0, 70, 140}));
  EXPECT_EQ(select_frames(*parse_frame_range("98:98"), numbers), (std::vector<int>{97}));
  EXPECT_TRUE(select_frames(*parse_frame_range("0:0"), numbers).empty());
  EXPECT_EQ(select_frames(*parse_frame_range(""), numbers).size(), 141u);
  // The step counts frames in the range, from its first, also across gaps.
  const std::vector<int> gaps = {2, 4, 6, 7, 8, 20};
  EXPECT_EQ(select_frames(*parse_frame_range("3::2"), gaps), (std::vector<int>{1, 3, 5}));
}

}  // namespace
}  // namespace mocap
