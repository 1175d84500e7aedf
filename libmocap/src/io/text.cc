#include "io/text.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <locale.h>
#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace mocap::text {
namespace {

// A block holds at least two maximal lines, so a line never spans more than
// one refill.
constexpr std::size_t kBlockBytes = 4 * kMaxLineBytes;
constexpr std::size_t kScanAheadBytes = 64 * 1024;

// std::from_chars for double, which libc++ has only from version 17 on (the
// fuzzing build uses clang with libc++ 16); the stand-in reads the same
// decimal text with strtod in the C locale.
std::from_chars_result read_double(const char* p, const char* end, double& v) {
#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 170000
  static const locale_t c_locale = ::newlocale(LC_ALL_MASK, "C", nullptr);
  char buf[128];
  const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(end - p), sizeof buf - 1);
  std::memcpy(buf, p, n);
  buf[n] = '\0';
  if (n == 0 || buf[0] == ' ' || buf[0] == '\t') return {p, std::errc::invalid_argument};
  char* stop = nullptr;
  v = ::strtod_l(buf, &stop, c_locale);
  if (stop == buf) return {p, std::errc::invalid_argument};
  return {p + (stop - buf), std::errc()};
#else
  return std::from_chars(p, end, v);
#endif
}

// Bitwise, not short-circuit, so that a loop over it vectorises.
bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return ((u < 0x20) & (u != '\t') & (u != '\n') & (u != '\f') & (u != '\r')) | (u == 0x7f);
}

// The first control byte in [p, end), or end. Whole chunks are tested with no
// early exit inside, so that the compiler vectorises them.
const char* first_control_byte(const char* p, const char* end) {
  constexpr std::size_t kChunk = 64;
  while (static_cast<std::size_t>(end - p) >= kChunk) {
    unsigned control = 0;
    for (std::size_t i = 0; i < kChunk; ++i) control |= is_control(p[i]);
    if (control) break;
    p += kChunk;
  }
  while (p < end && !is_control(*p)) ++p;
  return p;
}

}  // namespace

LineReader::LineReader(std::string_view text, std::string name)
    : name_(std::move(name)),
      begin_(text.data()),
      end_(text.data() + text.size()),
      clean_end_(text.data()),
      size_hint_(text.size()) {}

Result<LineReader> LineReader::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(path, 0, std::string("cannot open: ") + std::strerror(errno));
  LineReader reader;
  reader.name_ = path;
  reader.fd_ = fd;
  reader.fd_closer_ = std::shared_ptr<int>(new int(fd), [](int* p) {
    ::close(*p);
    delete p;
  });
  reader.buffer_ = std::make_unique<char[]>(kBlockBytes);
  reader.buffer_size_ = kBlockBytes;
  reader.begin_ = reader.end_ = reader.clean_end_ = reader.buffer_.get();
  reader.at_eof_ = false;
  struct stat info;
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) reader.size_hint_ = static_cast<std::size_t>(info.st_size);
  return reader;
}

bool LineReader::refill() {
  char* const base = buffer_.get();
  const std::size_t kept = static_cast<std::size_t>(end_ - begin_);
  std::memmove(base, begin_, kept);
  begin_ = base;
  end_ = base + kept;
  clean_end_ = base;  // the kept bytes are scanned again with the new ones
  while (!at_eof_ && static_cast<std::size_t>(end_ - base) < buffer_size_) {
    const ssize_t n = ::read(fd_, base + (end_ - base), buffer_size_ - (end_ - base));
    if (n < 0) {
      if (errno == EINTR) continue;
      error_ = Error{name_, line_number_ + 1, std::string("read failed: ") + std::strerror(errno)};
      return false;
    }
    if (n == 0) at_eof_ = true;
    end_ += n;
  }
  return true;
}

std::optional<Error> LineReader::sniff() const {
  // Like git and file(1), judge by the first few kilobytes: control bytes
  // mean a binary file, a CR not followed by LF means old Mac line ends.
  constexpr std::size_t kSniffBytes = 8000;
  const std::size_t n = std::min<std::size_t>(kSniffBytes, static_cast<std::size_t>(end_ - begin_));
  // Most files hold neither: say so in one vectorised pass and one memchr.
  if (first_control_byte(begin_, begin_ + n) == begin_ + n && !std::memchr(begin_, '\r', n)) return std::nullopt;
  int line = 1;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = begin_[i];
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      ++line;
    } else if (c == '\r') {
      if (i + 1 < n && begin_[i + 1] != '\n') {
        return Error{name_, line, "carriage return inside a line: expected LF or CRLF line ends"};
      }
    } else if ((u < 0x20 && c != '\t' && c != '\f') || u == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      const std::string what = c == '\0' ? "NUL byte" : std::string("control byte 0x") + kHex[u >> 4] + kHex[u & 15];
      return Error{name_, line, what + ": expected a text file, this looks binary"};
    }
  }
  return std::nullopt;
}

bool LineReader::next_slow(std::string_view& line) {
  if (error_) return false;
  const char* newline = nullptr;
  for (;;) {
    newline = static_cast<const char*>(std::memchr(begin_, '\n', end_ - begin_));
    if (newline || at_eof_) break;
    if (static_cast<std::size_t>(end_ - begin_) > kMaxLineBytes) break;
    if (!refill()) return false;
  }
  const char* line_end = newline ? newline : end_;
  if (!newline && begin_ == end_) return false;
  if (line_number_ == 0) {
    error_ = sniff();
    if (error_) return false;
  }
  ++line_number_;
  if (static_cast<std::size_t>(line_end - begin_) > kMaxLineBytes) {
    error_ = Error{name_, line_number_,
                   "line longer than " + std::to_string(kMaxLineBytes) + " bytes: expected a text line"};
    return false;
  }
  line = std::string_view(begin_, line_end - begin_);
  const char* const next_begin = newline ? newline + 1 : end_;
  offset_ += static_cast<std::size_t>(next_begin - begin_);
  begin_ = next_begin;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line_number_ == 1 && line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);  // UTF-8 byte-order mark
  // Control bytes anywhere, not only in the sniffed start: a comment line
  // that mocap reads must be one its writers can give back and read again.
  // The block is scanned ahead in large chunks (at least 64 KiB, or to this
  // line's end) so that next() can trust the lines before clean_end_.
  if (clean_end_ < line_end) {
    const char* const scan_end = std::max(
        line_end, clean_end_ + std::min<std::size_t>(kScanAheadBytes, static_cast<std::size_t>(end_ - clean_end_)));
    clean_end_ = first_control_byte(clean_end_, scan_end);
    if (clean_end_ < line_end) {
      error_ = control_byte_error(line);
      return false;
    }
  }
  return true;
}

Error LineReader::control_byte_error(std::string_view line) const {
  for (const char c : line) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t' && c != '\f' && c != '\r') || u == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      const std::string what = c == '\0' ? "NUL byte" : std::string("control byte 0x") + kHex[u >> 4] + kHex[u & 15];
      return Error{name_, line_number_, what + ": expected a text file, this looks binary"};
    }
  }
  return Error{name_, line_number_, "expected a text file"};
}

std::string_view next_word(std::string_view& rest) {
  std::size_t i = 0;
  while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t' || rest[i] == '\r')) ++i;
  std::size_t j = i;
  while (j < rest.size() && rest[j] != ' ' && rest[j] != '\t' && rest[j] != '\r') ++j;
  const std::string_view word = rest.substr(i, j - i);
  rest.remove_prefix(j);
  return word;
}

bool is_axis_order(std::string_view word) {
  if (word.size() != 3) return false;
  unsigned seen = 0;
  for (const char c : word) {
    const int k = (c == 'X' || c == 'x') ? 0 : (c == 'Y' || c == 'y') ? 1 : (c == 'Z' || c == 'z') ? 2 : -1;
    if (k < 0) return false;
    seen |= 1u << k;
  }
  return seen == 7u;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::optional<double> parse_number(std::string_view word) {
  double v = 0.0;
  const char* const end = word.data() + word.size();
  if (parse_number_at(word.data(), end, v) != end || word.empty() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<double> parse_bound(std::string_view word) {
  if (word == "inf" || word == "+inf") return HUGE_VAL;
  if (word == "-inf") return -HUGE_VAL;
  return parse_number(word);
}

std::optional<int> parse_int(std::string_view word) {
  int v = 0;
  const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (ec != std::errc() || ptr != word.data() + word.size() || word.empty()) return std::nullopt;
  return v;
}

const char* parse_number_at_slow(const char* p, const char* end, double& v) {
  static constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                            1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  bool negative = false;
  if (p < end && (*p == '-' || *p == '+')) {
    negative = *p == '-';
    ++p;
  }
  const char* const digits_start = p;
  std::uint64_t mantissa = 0;
  int digits = 0;
  while (p < end && *p >= '0' && *p <= '9') {
    mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
    ++digits;
    ++p;
  }
  int power = 0;
  if (p < end && *p == '.') {
    ++p;
    while (p < end && *p >= '0' && *p <= '9') {
      mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
      ++digits;
      --power;
      ++p;
    }
  }
  const char* number_end = p;
  if (p < end && (*p == 'e' || *p == 'E') && digits > 0) {
    const char* q = p + 1;
    bool negative_exponent = false;
    if (q < end && (*q == '-' || *q == '+')) negative_exponent = *q++ == '-';
    int exponent = 0;
    const char* const exponent_start = q;
    while (q < end && *q >= '0' && *q <= '9' && exponent < 10000) exponent = exponent * 10 + (*q++ - '0');
    if (q == exponent_start || (q < end && *q >= '0' && *q <= '9')) {
      digits = 0;  // let from_chars judge it
    } else {
      power += negative_exponent ? -exponent : exponent;
      number_end = q;
    }
  }
  // Clinger's fast path: both operands exact, so one correctly rounded step.
  if (digits > 0 && digits <= 15 && power >= -22 && power <= 22) {
    const double m = static_cast<double>(mantissa);
    const double magnitude = power < 0 ? m / kPowersOfTen[-power] : m * kPowersOfTen[power];
    v = negative ? -magnitude : magnitude;
    return number_end;
  }
  // Exponents, long mantissas, and words that are no plain number at all.
  if (digits_start < end && (*digits_start == '-' || *digits_start == '+')) return nullptr;
  const auto [next, ec] = read_double(digits_start, end, v);
  if (ec != std::errc()) return nullptr;
  if (negative) v = -v;  // round-to-nearest is symmetric, so this equals parsing the sign
  return next;
}

void append_number(std::string& out, double v) {
  std::array<char, 32> buf;
  const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  out.append(buf.data(), ptr);
}

void append_unscaled(std::string& out, double stored, double scale) {
  if (scale == 1.0 || !std::isfinite(stored)) return append_number(out, stored);
  // stored / scale is within an ulp or two of the file's number; of the
  // neighbours that convert back to `stored`, the shortest is the file's text.
  const double guess = stored / scale;
  std::array<char, 32> best;
  std::size_t best_len = 0;
  double x = guess;
  for (int i = 0; i < 2; ++i) x = std::nextafter(x, -HUGE_VAL);
  for (int i = 0; i < 5; ++i, x = std::nextafter(x, HUGE_VAL)) {
    if (x * scale != stored) continue;
    std::array<char, 32> buf;
    const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), x);
    const std::size_t len = static_cast<std::size_t>(ptr - buf.data());
    if (best_len == 0 || len < best_len) {
      best = buf;
      best_len = len;
    }
  }
  if (best_len == 0) return append_number(out, guess);
  out.append(best.data(), best_len);
}

std::string quote(std::string_view word) {
  constexpr std::size_t kShown = 40;
  std::string q = "'";
  for (const char c : word.substr(0, kShown)) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      q += c;
    } else {
      // Messages stay printable whatever the input holds.
      static constexpr char kHex[] = "0123456789abcdef";
      q += "\\x";
      q += kHex[u >> 4];
      q += kHex[u & 15];
    }
  }
  if (word.size() > kShown) q += "...";
  q += "'";
  return q;
}

}  // namespace mocap::text
