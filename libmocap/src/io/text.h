// Text helpers shared by the parsers and writers (not part of the public API).
#pragma once

#include <mocap/core/error.h>

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
  bool next(std::string_view& line);
  int line_number() const { return line_number_; }
  // Bytes consumed so far, and the input's whole size when known (0 if not).
  std::size_t offset() const { return offset_; }
  std::size_t size_hint() const { return size_hint_; }
  const std::string& name() const { return name_; }
  const std::optional<Error>& error() const { return error_; }

 private:
  LineReader() = default;
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
  std::size_t buffer_size_ = 0;
  bool at_eof_ = true;
  std::size_t offset_ = 0;
  std::size_t size_hint_ = 0;
};

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
const char* parse_number_at(const char* p, const char* end, double& v);

// Appends the shortest text that reads back as exactly `v`.
void append_number(std::string& out, double v);
// Appends the shortest text of a number x with x * scale == stored, so that a
// value converted at load by `scale` is written back in file units and reads
// back to the same stored value.
void append_unscaled(std::string& out, double stored, double scale);

// "a b c" for a word list, quoted for messages: 'word'.
std::string quote(std::string_view word);

}  // namespace mocap::text
