#include <mocap/eyes/eye_stream.h>

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

namespace mocap {
namespace {

using Clock = std::chrono::steady_clock;

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      const int n = std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out.append(buf, static_cast<std::size_t>(n));
    } else {
      out += c;
    }
  }
  out += '"';
}

void append_number(std::string& out, double v, int decimals) {
  if (!std::isfinite(v)) v = 0.0;
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
  std::string_view s(buf, ec == std::errc() ? static_cast<std::size_t>(end - buf) : 0);
  if (s.empty()) s = "0";
  if (s.find('.') != std::string_view::npos) {
    while (s.back() == '0') s.remove_suffix(1);
    if (s.back() == '.') s.remove_suffix(1);
  }
  if (s == "-0") s = "0";
  out += s;
}

bool finite_range(double lo, double hi) {
  return std::isfinite(lo) && std::isfinite(hi) && lo != hi;
}

// [-1, 1] or [0, 1] mapped onto [lo, hi].
double map_range(double v, double from_lo, double from_hi, double lo, double hi) {
  return lo + (v - from_lo) / (from_hi - from_lo) * (hi - lo);
}

speed_t baud_constant(int baud) {
  switch (baud) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 500000: return B500000;
    case 921600: return B921600;
    case 1000000: return B1000000;
    case 2000000: return B2000000;
    case 3000000: return B3000000;
    case 4000000: return B4000000;
    default: return B0;
  }
}

double seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

enum class WriteResult { kWritten, kNothingWritten, kFailed };

// Writes the whole line within `timeout_s`. Nothing written in time is a
// dropped frame; a part written and then a timeout is a failure (the receiver
// holds half a line).
WriteResult write_line(int fd, std::string_view line, double timeout_s, std::string& error, bool& cut) {
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  std::size_t written = 0;
  cut = false;
  while (written < line.size()) {
    const ssize_t n = ::write(fd, line.data() + written, line.size() - written);
    if (n > 0) {
      written += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
      error = std::strerror(errno);
      cut = written > 0;
      return WriteResult::kFailed;
    }
    const auto left = deadline - Clock::now();
    if (left <= Clock::duration::zero()) {
      if (written == 0) return WriteResult::kNothingWritten;
      error = "write timed out in the middle of a line";
      cut = true;
      return WriteResult::kFailed;
    }
    pollfd p{fd, POLLOUT, 0};
    const int ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(left).count()) + 1;
    const int r = ::poll(&p, 1, std::min(ms, 50));
    if (r < 0 && errno != EINTR) {
      error = std::strerror(errno);
      cut = written > 0;
      return WriteResult::kFailed;
    }
  }
  return WriteResult::kWritten;
}

}  // namespace

bool is_standard_baud(int baud) {
  return baud_constant(baud) != B0;
}

std::size_t max_eye_line_length(const EyeLineFormat& format) {
  std::size_t longest = 0;
  // The longest numbers sit at the ends of the ranges (or at -0.333...).
  for (double x : {-1.0, 1.0, -1.0 / 3.0}) {
    for (double y : {-1.0, 1.0, -1.0 / 3.0}) {
      for (double l : {0.0, 1.0, 1.0 / 3.0}) {
        for (double p : {0.0, 1.0, 1.0 / 3.0}) {
          longest = std::max(longest, format_eye_line(format, {x, y, l, p}, 999'999'999'999).size());
        }
      }
    }
  }
  return longest;
}

std::string format_eye_line(const EyeLineFormat& format, const EyeSample& in, long sequence) {
  EyeFrame f;
  f.left = in;
  const EyeSample eye = clamped(f).left;
  const int decimals = std::clamp(format.decimals, 0, 9);
  std::string out;
  out.reserve(64);
  out += '{';
  append_json_string(out, format.request_key);
  out += ':';
  append_json_string(out, format.request_value);
  out += ',';
  append_json_string(out, format.data_key);
  out += ":{";
  append_json_string(out, format.x_key);
  out += ':';
  append_number(out, map_range(eye.x, -1.0, 1.0, format.x_min, format.x_max), decimals);
  out += ',';
  append_json_string(out, format.y_key);
  out += ':';
  append_number(out, map_range(eye.y, -1.0, 1.0, format.y_min, format.y_max), decimals);
  out += ',';
  append_json_string(out, format.openness_key);
  out += ':';
  append_number(out, map_range(eye.openness, 0.0, 1.0, format.l_min, format.l_max), decimals);
  if (!format.pupil_key.empty()) {
    out += ',';
    append_json_string(out, format.pupil_key);
    out += ':';
    append_number(out, eye.pupil, decimals);
  }
  if (!format.sequence_key.empty() && sequence >= 0) {
    out += ',';
    append_json_string(out, format.sequence_key);
    out += ':';
    out += std::to_string(sequence);
  }
  out += "}}\n";
  return out;
}

Result<void> EyeLineFormat::validate() const {
  const std::string* keys[] = {&request_key, &data_key, &x_key, &y_key, &openness_key};
  for (const std::string* key : keys) {
    if (key->empty()) return fail("", 0, "an empty key in the eye line format");
  }
  const std::string* values[] = {&x_key, &y_key, &openness_key, &pupil_key, &sequence_key};
  for (std::size_t i = 0; i < 5; ++i) {
    for (std::size_t j = i + 1; j < 5; ++j) {
      if (!values[i]->empty() && *values[i] == *values[j]) return fail("", 0, "key '" + *values[i] + "' used twice");
    }
  }
  if (!finite_range(x_min, x_max) || !finite_range(y_min, y_max) || !finite_range(l_min, l_max)) {
    return fail("", 0, "an output range lo,hi with lo == hi or not finite");
  }
  if (decimals < 0 || decimals > 9) return fail("", 0, "decimals " + std::to_string(decimals) + ": expected 0 to 9");
  return {};
}

Result<void> EyeStreamOptions::validate() const {
  if (left_path.empty() || right_path.empty()) return fail("", 0, "expected a device for each eye");
  if (!(fps > 0.0 && fps <= 1000.0)) return fail("", 0, "rate " + std::to_string(fps) + " Hz: expected (0, 1000]");
  if (!(duration_s >= 0.0)) return fail("", 0, "duration: expected >= 0 s");
  if (baud_constant(baud) == B0) return fail("", 0, "unsupported baud rate " + std::to_string(baud));
  if (!(reconnect_min_s > 0.0 && reconnect_min_s <= reconnect_max_s)) {
    return fail("", 0, "reconnect delays: expected 0 < min <= max");
  }
  if (!(write_timeout_s > 0.0)) return fail("", 0, "write timeout: expected > 0 s");
  if (!(settle_s >= 0.0 && settle_s <= 10.0)) return fail("", 0, "settle time: expected 0 to 10 s");
  return format.validate();
}

Result<int> open_serial(const std::string& path, int baud) {
  const speed_t speed = baud_constant(baud);
  if (speed == B0) return fail(path, 0, "unsupported baud rate " + std::to_string(baud));
  const int fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return fail(path, 0, std::string("cannot open: ") + std::strerror(errno));
  if (!::isatty(fd)) return fd;
  termios tio{};
  if (::tcgetattr(fd, &tio) != 0) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    return fail(path, 0, "cannot read the terminal settings: " + reason);
  }
  ::cfmakeraw(&tio);  // no echo, no canonical mode, no signals, no output processing
  tio.c_cflag &= ~static_cast<tcflag_t>(CSIZE | PARENB | CSTOPB | CRTSCTS);
  tio.c_cflag |= CS8 | CLOCAL | CREAD;
  tio.c_iflag &= ~static_cast<tcflag_t>(IXON | IXOFF | IXANY);
  tio.c_cc[VMIN] = 0;
  tio.c_cc[VTIME] = 0;
  ::cfsetispeed(&tio, speed);
  ::cfsetospeed(&tio, speed);
  if (::tcsetattr(fd, TCSANOW, &tio) != 0) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    return fail(path, 0, "cannot configure the terminal: " + reason);
  }
  return fd;
}

struct EyeStreamer::Port {
  EyePortStats stats;
  std::vector<double> lateness_s;  // bounded; see record()
  bool opened_once = false;
};

EyeStreamer::EyeStreamer(EyeStreamOptions options, Source source)
    : options_(std::move(options)), source_(std::move(source)), ports_(2) {
  if (!(options_.fps > 0.0 && options_.fps <= 1000.0)) options_.fps = 40.0;
  ports_[0].stats.path = options_.left_path;
  ports_[1].stats.path = options_.right_path;
}

EyeStreamer::~EyeStreamer() {
  stop();
}

void EyeStreamer::start() {
  std::lock_guard lock(mutex_);
  if (started_) return;
  started_ = true;
  threads_.emplace_back(&EyeStreamer::animate, this);
  threads_.emplace_back(&EyeStreamer::output, this, 0);
  threads_.emplace_back(&EyeStreamer::output, this, 1);
}

void EyeStreamer::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
  std::lock_guard lock(mutex_);
  finished_ = true;
}

bool EyeStreamer::finished() const {
  std::lock_guard lock(mutex_);
  return finished_;
}

bool EyeStreamer::wait_finished(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [this] { return finished_; });
}

EyeStreamStats EyeStreamer::stats() const {
  std::vector<double> lateness[2];
  EyeStreamStats out;
  {
    std::lock_guard lock(mutex_);
    out.frames = published_;
    out.left = ports_[0].stats;
    out.right = ports_[1].stats;
    lateness[0] = ports_[0].lateness_s;
    lateness[1] = ports_[1].lateness_s;
  }
  for (int i = 0; i < 2; ++i) {
    EyePortStats& s = i == 0 ? out.left : out.right;
    std::vector<double>& v = lateness[i];
    if (v.empty()) continue;
    std::sort(v.begin(), v.end());
    auto rank = [&](double q) { return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))]; };
    s.lateness_p50_s = rank(0.5);
    s.lateness_p99_s = rank(0.99);
    s.lateness_max_s = v.back();
  }
  return out;
}

void EyeStreamer::animate() {
  const auto start = Clock::now();
  const double fps = options_.fps;
  auto due_of = [&](long k) {
    return start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(k / fps));
  };
  for (long k = 0;; ++k) {
    if (options_.duration_s > 0.0 && k / fps >= options_.duration_s) break;
    const auto due = due_of(k);
    {
      std::unique_lock lock(mutex_);
      if (changed_.wait_until(lock, due, [this] { return stopping_; })) break;
    }
    // Behind by more than a frame (the machine stalled): skip to the present,
    // so the eyes show the time it is, not a backlog.
    const long now_k = static_cast<long>(seconds(Clock::now() - start) * fps);
    if (now_k > k + 1) {
      k = now_k;
      if (options_.duration_s > 0.0 && k / fps >= options_.duration_s) break;
    }
    const EyeFrame frame = source_(k / fps);
    {
      std::lock_guard lock(mutex_);
      frame_ = frame;
      sequence_ = k;
      due_ = due_of(k);
      ++published_;
    }
    changed_.notify_all();
  }
  {
    std::lock_guard lock(mutex_);
    finished_ = true;
  }
  changed_.notify_all();
}

void EyeStreamer::output(int device) {
  const std::string path = device == 0 ? options_.left_path : options_.right_path;
  int fd = -1;
  // A line was cut off part-way on a port that failed: the next line starts
  // with '\n' so the receiver's half line ends there (a receiver skips the
  // line it cannot parse). A device that vanished holds no half line.
  bool broken_line = false;
  double backoff = options_.reconnect_min_s;
  auto next_try = Clock::now();
  long last = -1;
  auto settled = Clock::now();  // frames are written from this time on

  auto try_open = [&] {
    auto opened = open_serial(path, options_.baud);
    std::lock_guard lock(mutex_);
    Port& port = ports_[device];
    if (!opened) {
      port.stats.last_error = opened.error().to_string();
      next_try = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(backoff));
      backoff = std::min(2.0 * backoff, options_.reconnect_max_s);
      return;
    }
    fd = *opened;
    settled = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(std::clamp(options_.settle_s, 0.0, 10.0)));
    backoff = options_.reconnect_min_s;
    if (port.opened_once) ++port.stats.reconnects;
    port.opened_once = true;
    port.stats.connected = true;
  };
  auto close_port = [&](const std::string& error, bool cut) {
    ::close(fd);
    fd = -1;
    broken_line = cut;
    std::lock_guard lock(mutex_);
    Port& port = ports_[device];
    ++port.stats.write_errors;
    port.stats.connected = false;
    port.stats.last_error = path + ": " + error;
  };
  auto line_of = [&](const EyeFrame& f, long sequence) {
    std::string line = broken_line ? "\n" : "";
    line += format_eye_line(options_.format, device_eye(f, device, options_.swap), sequence);
    return line;
  };

  try_open();
  // A frame published before stop() is written (or counted dropped) before
  // the neutral one: a finished stream stops the moment its last frame is
  // published, and a loaded machine may not have written it yet.
  for (bool stopping = false; !stopping;) {
    EyeFrame frame;
    Clock::time_point due;
    long sequence = -1;
    {
      std::unique_lock lock(mutex_);
      auto ready = [&] { return stopping_ || sequence_ != last; };
      if (fd < 0) {
        changed_.wait_until(lock, next_try, ready);
      } else {
        changed_.wait(lock, ready);
      }
      stopping = stopping_;
      if (sequence_ != last) {
        frame = frame_;
        sequence = sequence_;
        due = due_;
        ports_[device].stats.dropped += sequence - last - 1;
        last = sequence;
      }
    }
    if (stopping && sequence < 0) break;
    if (fd < 0 && !stopping && Clock::now() >= next_try) try_open();
    if (sequence < 0) continue;
    // Closed, or the board is still starting after its reset on open.
    if (fd < 0 || Clock::now() < settled) {
      std::lock_guard lock(mutex_);
      ++ports_[device].stats.dropped;
      continue;
    }
    const std::string line = line_of(frame, sequence);
    std::string error;
    bool cut = false;
    const WriteResult result = write_line(fd, line, options_.write_timeout_s, error, cut);
    const auto done = Clock::now();
    if (result == WriteResult::kFailed) {
      close_port(error, cut);
      std::lock_guard lock(mutex_);
      ++ports_[device].stats.dropped;
      continue;
    }
    broken_line = broken_line && result != WriteResult::kWritten;
    std::lock_guard lock(mutex_);
    Port& port = ports_[device];
    if (result == WriteResult::kNothingWritten) {
      ++port.stats.dropped;
    } else {
      ++port.stats.lines;
      if (port.lateness_s.size() < (1u << 20)) port.lateness_s.push_back(seconds(done - due));
    }
  }
  // The last word is a neutral frame, so the displays do not freeze mid-blink.
  if (fd < 0) try_open();
  if (fd >= 0) {
    std::string error;
    bool cut = false;
    const WriteResult result = write_line(fd, line_of(neutral_eye_frame(), last + 1), 0.1, error, cut);
    ::close(fd);
    std::lock_guard lock(mutex_);
    Port& port = ports_[device];
    if (result == WriteResult::kWritten) ++port.stats.lines;
    port.stats.connected = false;
  }
}

const EyeSample& device_eye(const EyeFrame& frame, int device, bool swap) {
  return (device == 0) != swap ? frame.left : frame.right;
}

Result<EyeStreamLines> eye_stream_lines(const EyeStreamOptions& options, const EyeStreamer::Source& source) {
  const double fps = options.fps;
  if (!(fps > 0.0 && fps <= 1000.0)) return fail("", 0, "rate " + std::to_string(fps) + " Hz: expected (0, 1000]");
  if (!(options.duration_s > 0.0)) return fail("", 0, "duration: expected > 0 s (a stream's lines end)");
  if (auto valid = options.format.validate(); !valid) return std::unexpected(valid.error());
  EyeStreamLines lines;
  long k = 0;
  auto add = [&](const EyeFrame& frame) {
    lines.left.push_back(format_eye_line(options.format, device_eye(frame, 0, options.swap), k));
    lines.right.push_back(format_eye_line(options.format, device_eye(frame, 1, options.swap), k));
  };
  for (; !(k / fps >= options.duration_s); ++k) add(source(k / fps));  // animate()'s end
  add(neutral_eye_frame());
  return lines;
}

}  // namespace mocap
