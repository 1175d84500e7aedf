// Text helpers shared by the parsers and writers (not part of the public API).
#pragma once

#include <mocap/core/error.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mocap::text {

// Longest line accepted. Real ASF and AMC lines are under 200 bytes; a longer
// one means the input is not what it claims to be.
inline constexpr std::size_t kMaxLineBytes = 64 * 1024;

// Yields the lines of a file or of text in memory, without line ends (LF or
// CRLF), counting them from 1. Files are read in blocks, so memory stays small
// whatever the file's size. A control byte (NUL, 0x01-0x1f but tab, form
// feed and CR, 0x7f) on any line, a line over kMaxLineBytes, or CR-only line
// ends in the first kilobytes stop the reader with an error. A UTF-8
// byte-order mark is dropped.
class LineReader {
 public:
  LineReader(std::string_view text, std::string name);
  static Result<LineReader> open(const std::string& path);

  // The next line; false at the end of input or on error (see error()).
  // Inline for the common case (a whole line in the block, already known to
  // be free of control bytes); the rest goes through next_slow().
  bool next(std::string_view& line) {
    if (line_number_ > 0 && !error_) {
      const auto* newline =
          static_cast<const char*>(std::memchr(begin_, '\n', static_cast<std::size_t>(end_ - begin_)));
      if (newline && newline <= clean_end_ && static_cast<std::size_t>(newline - begin_) <= kMaxLineBytes) {
        ++line_number_;
        line = std::string_view(begin_, static_cast<std::size_t>(newline - begin_));
        offset_ += line.size() + 1;
        begin_ = newline + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        return true;
      }
    }
    return next_slow(line);
  }
  int line_number() const { return line_number_; }
  // Bytes consumed so far, and the input's whole size when known (0 if not).
  std::size_t offset() const { return offset_; }
  std::size_t size_hint() const { return size_hint_; }
  const std::string& name() const { return name_; }
  // The end of the block holding the line last returned: the bytes from that
  // line's end up to here can be read, the line's own CR or LF first, so a
  // number reader may look past the line's end and still stop at it.
  const char* block_end() const { return end_; }
  const std::optional<Error>& error() const { return error_; }

 private:
  LineReader() = default;
  bool next_slow(std::string_view& line);
  bool refill();
  std::optional<Error> sniff() const;
  Error control_byte_error(std::string_view line) const;  // the first control byte of `line`, named

  std::string name_;
  int line_number_ = 0;
  std::optional<Error> error_;
  int fd_ = -1;  // -1 for text in memory
  std::shared_ptr<int> fd_closer_;
  std::unique_ptr<char[]> buffer_;
  const char* begin_ = nullptr;  // unread part of the current block
  const char* end_ = nullptr;
  // Bytes from begin_ up to clean_end_ hold no control byte (see the class
  // comment; LF aside). Where clean_end_ < end_ and a scan stopped there, it
  // is the first control byte: the block is scanned once, in chunks, not
  // each line on its own.
  const char* clean_end_ = nullptr;
  std::size_t buffer_size_ = 0;
  bool at_eof_ = true;
  std::size_t offset_ = 0;
  std::size_t size_hint_ = 0;
};

// A space or a tab: what separates words on a line of every format read here.
inline bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

// An Acclaim axis order: X, Y and Z once each, in any order and case ("XYZ", "zyx").
bool is_axis_order(std::string_view word);

// Splits off the next whitespace-separated word of `rest`; empty at the end.
std::string_view next_word(std::string_view& rest);
// `s` without leading and trailing spaces and tabs.
std::string_view trim(std::string_view s);

// Parses a whole word as a finite number ("1e-015" and a leading '+' are
// accepted; "nan", "inf" and trailing characters are not).
std::optional<double> parse_number(std::string_view word);
// As parse_number, but "inf", "-inf" and "+inf" are accepted too.
std::optional<double> parse_bound(std::string_view word);
std::optional<int> parse_int(std::string_view word);

// Reads a number starting at `p` (an optional sign, digits, a fraction, an
// exponent) into `v` and returns the end of what it read, or nullptr when
// there is no number there. The result is bit-identical to std::from_chars:
// numbers of up to 15 digits with a power of ten within 1e±22 take an exact
// fast path (an exact integer mantissa times or over an exact power of ten is
// one correctly rounded operation), anything else goes to from_chars.
//
// Inline for the common case (up to 15 digits, an exponent of up to 3 digits,
// the power within 1e±22); the rest goes to parse_number_at_slow, which reads
// the same text from the start.
const char* parse_number_at_slow(const char* p, const char* end, double& v);

namespace detail {

inline constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                          1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
inline constexpr std::uint64_t kIntPowersOfTen[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};

// How many of the 8 bytes in `w` (first byte lowest) are digits before the
// first one that is not. Carries and borrows run only towards later bytes, so
// the lowest flagged byte is the first non-digit whatever follows it.
inline int leading_digits(std::uint64_t w) {
  const std::uint64_t flags = ((w + 0x4646464646464646) | (w - 0x3030303030303030)) & 0x8080808080808080;
  return flags == 0 ? 8 : std::countr_zero(flags) >> 3;
}

// The value of the first n (1-8) digits in `w`, eight at once: the digits are
// moved to the top bytes behind zeros, then pairs, quads and the halves are
// combined by multiplication (as simdjson and fast_float do).
inline std::uint64_t digits_value(std::uint64_t w, int n) {
  std::uint64_t t = (w - 0x3030303030303030) << (8 * (8 - n));
  t = t * 10 + (t >> 8);
  t = (((t & 0x000000FF000000FF) * 0x000F424000000064) + (((t >> 16) & 0x000000FF000000FF) * 0x0000271000000001)) >> 32;
  return t;
}

}  // namespace detail

inline const char* parse_number_at(const char* p, const char* end, double& v) {
  const char* const start = p;
  const bool negative = p < end && *p == '-';
  if (p < end && (*p == '-' || *p == '+')) ++p;
  std::uint64_t mantissa = 0;
  std::size_t digits = 0;
  std::size_t fraction = 0;
  if (std::endian::native == std::endian::little && end - p >= 17) {
    // Room for 8 bytes of digits, a point and 8 more: read words, not bytes.
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    const int whole = detail::leading_digits(w);
    if (whole == 8) return parse_number_at_slow(start, end, v);
    if (whole > 0) mantissa = detail::digits_value(w, whole);
    p += whole;
    digits = static_cast<std::size_t>(whole);
    if (*p == '.') {
      ++p;
      std::memcpy(&w, p, 8);
      const int after = detail::leading_digits(w);
      if (after == 8) return parse_number_at_slow(start, end, v);
      if (after > 0) mantissa = mantissa * detail::kIntPowersOfTen[after] + detail::digits_value(w, after);
      p += after;
      digits += static_cast<std::size_t>(after);
      fraction = static_cast<std::size_t>(after);
    }
  } else {
    const char* const digits_start = p;
    while (p < end && static_cast<unsigned>(*p - '0') < 10)
      mantissa = mantissa * 10 + static_cast<unsigned>(*p++ - '0');
    const char* const point = p;
    if (p < end && *p == '.') {
      ++p;
      while (p < end && static_cast<unsigned>(*p - '0') < 10)
        mantissa = mantissa * 10 + static_cast<unsigned>(*p++ - '0');
    }
    fraction = p > point ? static_cast<std::size_t>(p - point - 1) : 0;
    digits = static_cast<std::size_t>(p - digits_start) - (p > point ? 1 : 0);
  }
  if (digits == 0 || digits > 15) return parse_number_at_slow(start, end, v);
  int power = -static_cast<int>(fraction);
  if (p < end && (*p == 'e' || *p == 'E')) {
    // Exponents of up to 3 digits ("-9.54166e-015", as CMU files write
    // values near zero); anything else is left to the slow path.
    const char* q = p + 1;
    const bool negative_exponent = q < end && *q == '-';
    if (q < end && (*q == '-' || *q == '+')) ++q;
    const char* const exponent_start = q;
    int exponent = 0;
    while (q < end && q - exponent_start < 3 && static_cast<unsigned>(*q - '0') < 10)
      exponent = exponent * 10 + (*q++ - '0');
    if (q == exponent_start || (q < end && static_cast<unsigned>(*q - '0') < 10))
      return parse_number_at_slow(start, end, v);
    power += negative_exponent ? -exponent : exponent;
    if (power < -22 || power > 22) return parse_number_at_slow(start, end, v);
    p = q;
  }
  // Clinger's fast path: both operands exact, so one correctly rounded step.
  const double m = static_cast<double>(mantissa);
  const double magnitude = power < 0 ? m / detail::kPowersOfTen[-power] : m * detail::kPowersOfTen[power];
  v = negative ? -magnitude : magnitude;
  return p;
}

// Appends the shortest text that reads back as exactly `v`.
void append_number(std::string& out, double v);
// Appends the shortest text of a number x with x * scale == stored, so that a
// value converted at load by `scale` is written back in file units and reads
// back to the same stored value.
void append_unscaled(std::string& out, double stored, double scale);

// "a b c" for a word list, quoted for messages: 'word'.
std::string quote(std::string_view word);

}  // namespace mocap::text
