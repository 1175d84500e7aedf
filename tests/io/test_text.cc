// The number reader and writer under the parsers: bit-identical to the
// standard library, and exact through a unit conversion and back.
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <numbers>
#include <random>
#include <string>
#include <vector>

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

// With room to spare after the number (a line inside a block), the reader
// takes words of 8 bytes at a time: the same values and ends as from_chars.
TEST(Text, ReadsNumbersInsideLongerTextExactlyAsFromChars) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> value(-2000.0, 2000.0);
  std::uniform_int_distribution<int> precision(1, 17);
  std::uniform_int_distribution<int> digit(0, 9);
  const char* const tails[] = {
      " 12.5 -3 0.25\n",   "\r\nrfemur 1 2 3\n", "\nlhumerus -10.0203 -20.6355 82.8192\n", "e", "e+",
      "x1234567890123456", " .5 7 7 7 7 7 7 7"};
  const std::vector<std::string> written = {
      "-9.54166e-015", "1e0005", "1e-0022", "1e-022",  "5e22",  "5e23",   "1.5e-7", "12345678.5e-10",
      "0.000001e-16",  "1E+000", "-0e-0",   "123e-25", "9e-22", "7.5e21", "1e300",  "1e-300"};
  for (const std::string& number : written) {
    const std::string text = number + " 1 2 3 4 5 6 7 8 9\n";
    double v = 0.0;
    const char* end = parse_number_at(text.data(), text.data() + text.size(), v);
    ASSERT_EQ(end, text.data() + number.size()) << number;
    const double expected = standard(number);
    EXPECT_EQ(std::signbit(v), std::signbit(expected)) << number;
    EXPECT_EQ(v, expected) << number;
  }
  char buf[64];
  for (int i = 0; i < 300000; ++i) {
    std::string number;
    if (i % 4 == 3) {  // digit strings of every length around the 8-byte words, with leading zeros
      const int whole = i % 11, after = (i / 11) % 11;
      for (int k = 0; k < whole; ++k) number += static_cast<char>('0' + digit(random));
      if (after > 0 || i % 2) number += '.';
      for (int k = 0; k < after; ++k) number += static_cast<char>('0' + digit(random));
      if (number.empty() || number == ".") continue;
      if (i % 3 == 0) number.insert(number.begin(), '-');
    } else {
      number.assign(buf, std::snprintf(buf, sizeof buf, i % 3 ? "%.*g" : "%.*e", precision(random), value(random)));
    }
    const std::string text = number + tails[i % std::size(tails)];
    double v = 0.0;
    const char* end = parse_number_at(text.data(), text.data() + text.size(), v);
    ASSERT_EQ(end, text.data() + number.size()) << text;
    const double expected = standard(number);
    EXPECT_EQ(std::signbit(v), std::signbit(expected)) << text;
    EXPECT_EQ(v, expected) << text;
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

// Lines of printable text, tabs, form feeds and inner CRs, some with CRLF
// ends (inner CRs only past the first kilobytes), about 300 KB in all: more than one block of a file and more than one
// scan-ahead chunk of the control-byte check.
std::string many_lines(std::vector<std::string>& lines) {
  std::mt19937_64 random(3);
  std::uniform_int_distribution<int> length(0, 300);
  std::uniform_int_distribution<int> byte(0x20, 0x7e);
  std::string text;
  while (text.size() < 300000) {
    std::string line(static_cast<std::size_t>(length(random)), ' ');
    for (char& c : line) c = static_cast<char>(byte(random));
    if (line.size() > 2) line[1] = '\t', line[2] = '\f';
    if (line.size() > 4 && text.size() > 10000) line[3] = '\r';  // refused by the sniff of the first 8000 bytes
    text += line;
    text += lines.size() % 5 == 0 ? "\r\n" : "\n";
    lines.push_back(line);
  }
  return text;
}

// Every line up to the one holding a control byte comes back as written, and
// the reader stops on exactly that line, naming the byte.
void expect_stops_at(LineReader& in, const std::vector<std::string>& lines, int bad_line, const std::string& what) {
  std::string_view line;
  int n = 0;
  while (in.next(line)) {
    ASSERT_LT(n, static_cast<int>(lines.size()));
    ASSERT_EQ(line, lines[n]) << "line " << n + 1;
    ++n;
  }
  if (bad_line == 0) {
    EXPECT_FALSE(in.error());
    EXPECT_EQ(n, static_cast<int>(lines.size()));
    return;
  }
  ASSERT_TRUE(in.error());
  EXPECT_EQ(in.error()->line, bad_line);
  EXPECT_NE(in.error()->to_string().find(what), std::string::npos) << in.error()->to_string();
  EXPECT_EQ(n, bad_line - 1);
}

TEST(Text, LineReaderRefusesAControlByteOnTheLineItIsOn) {
  std::vector<std::string> lines;
  const std::string clean = many_lines(lines);
  {
    LineReader in(clean, "clean");
    expect_stops_at(in, lines, 0, "");
  }
  // Offsets past the sniffed start, around the 64 KiB scan-ahead, the 256 KiB
  // block of a file, and the last bytes.
  std::vector<std::size_t> offsets = {8191, 8192, 8193, 9000, 65535, 65536, 65537, 131072, 262143, 262144, 262145};
  offsets.push_back(clean.size() - 2);
  for (const std::size_t at : offsets) {
    std::size_t offset = at;
    while (clean[offset] == '\n' || clean[offset] == '\r') --offset;
    const int bad_line = 1 + static_cast<int>(std::count(clean.begin(), clean.begin() + offset, '\n'));
    for (const auto& [byte, what] : {std::pair{'\0', std::string("NUL byte")}, std::pair{'\x1b', std::string("0x1b")},
                                     std::pair{'\x7f', std::string("0x7f")}}) {
      std::string text = clean;
      text[offset] = byte;
      LineReader in(text, "memory");
      expect_stops_at(in, lines, bad_line, what);
      const std::string path = testing::TempDir() + "text_control_byte.txt";
      std::ofstream(path, std::ios::binary) << text;
      auto file = LineReader::open(path);
      ASSERT_TRUE(file);
      expect_stops_at(*file, lines, bad_line, what);
      std::remove(path.c_str());
    }
  }
}

}  // namespace
}  // namespace mocap::text
