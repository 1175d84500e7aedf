// The number reader and writer under the parsers: bit-identical to the
// standard library, and exact through a unit conversion and back.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <numbers>
#include <random>

#include "io/text.h"

namespace mocap::text {
namespace {

double standard(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0.0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

void expect_like_from_chars(const std::string& s) {
  double v = 0.0;
  const char* end = parse_number_at(s.data(), s.data() + s.size(), v);
  ASSERT_NE(end, nullptr) << s;
  EXPECT_EQ(end, s.data() + s.size()) << s;
  const double expected = standard(s);
  EXPECT_EQ(std::signbit(v), std::signbit(expected)) << s;
  EXPECT_EQ(v, expected) << s;
}

TEST(Text, ReadsNumbersExactlyAsFromChars) {
  for (const char* s : {"0",
                        "-0",
                        "+1.5",
                        "-12.4902",
                        "7.12502",
                        "1251.0",
                        "-9.54166e-015",
                        "6.20697e-015",
                        "-4.48963e-11",
                        "-6.48352e-28",
                        "1e22",
                        "1e23",
                        "123456789012345",
                        "1234567890123456789",
                        "0.1",
                        "1.",
                        ".5",
                        "9007199254740993",
                        "2.2250738585072014e-308",
                        "1E5",
                        "3e+2"}) {
    expect_like_from_chars(s);
  }
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> value(-2000.0, 2000.0);
  std::uniform_int_distribution<int> precision(1, 17);
  char buf[64];
  for (int i = 0; i < 200000; ++i) {
    const int n = std::snprintf(buf, sizeof buf, i % 3 ? "%.*g" : "%.*e", precision(random), value(random));
    expect_like_from_chars(std::string(buf, n));
  }
}

TEST(Text, RefusesWhatIsNoNumber) {
  for (const char* s : {"", "-", "+", ".", "+-1", "--1", "abc", "e5"}) {
    double v = 0.0;
    EXPECT_EQ(parse_number_at(s, s + std::strlen(s), v), nullptr) << s;
  }
  EXPECT_FALSE(parse_number("nan"));
  EXPECT_FALSE(parse_number("inf"));
  EXPECT_FALSE(parse_number("1.5x"));
  EXPECT_TRUE(parse_bound("-inf"));
}

TEST(Text, WritesBackTheNumberBeforeAUnitConversion) {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> value(-2000.0, 2000.0);
  const double scales[] = {std::numbers::pi / 180.0, 0.0254 / 0.45, 0.0254};
  char buf[64];
  for (const double scale : scales) {
    for (int i = 0; i < 100000; ++i) {
      const int n = std::snprintf(buf, sizeof buf, "%.6g", value(random));
      const double file_value = standard(std::string_view(buf, n));
      const double stored = file_value * scale;
      std::string out;
      append_unscaled(out, stored, scale);
      ASSERT_EQ(standard(out) * scale, stored) << buf << " came back as " << out;
      EXPECT_EQ(standard(out), file_value) << buf << " came back as " << out;
    }
  }
}

}  // namespace
}  // namespace mocap::text
