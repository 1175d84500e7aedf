// Streaming eye frames to two serial eye displays, one per eye. The
// protocol, for the people who build the display side, is docs/eyes.md.
//
// Line format (one line per eye per frame, '\n' only, no '\r'):
//   {"req":"c","d":{"x":0.25,"y":-0.33,"l":0.95}}
// byte for byte the lines of the design the displays were built for (keys in
// this order; a wire key is part of a hardware protocol and is never renamed
// by default: other displays rename them through EyeLineFormat).
//   x, y      the eye's gaze mapped from [-1, 1] to [x_min, x_max] / [y_min, y_max]
//             (default [-1, 1]: (0, 0) the centre, x > 0 toward the character's
//             right, y > 0 up; swap a range's ends to mirror it);
//   l         the lid opening (EyeSample::openness) mapped from [0, 1] to
//             [l_min, l_max] (default [0, 1]);
//   pupil     in [0, 1], only when `pupil_key` is not empty;
//   n         the frame's number (0, 1, 2, ... from the stream's start; a gap
//             is a dropped frame), only when `sequence_key` is not empty.
// The file exports (CSV, JSONL) name the values for people to read (x, y,
// openness, pupil); docs/eyes.md has the one table from those names to the
// wire keys.
// Numbers are written with std::to_chars (never the locale's decimal
// separator), `decimals` places with trailing zeros removed, never NaN,
// never "-0". Key names and the request value are configurable.
//
// Threads: one animation thread asks the caller's source for the frame at
// t = k / fps (k counted from the start, so a stream shows exactly the
// frames an export at the same rate holds) and publishes it; one output
// thread per eye writes the newest frame. They share one slot under a mutex
// held only to copy a frame. A slow port drops frames (latest wins) instead
// of queueing them. A failed write (device unplugged) closes the port and
// reopens it with backoff until the device is back, while the animation clock
// keeps running. After every open, frames are dropped for `settle_s` (an
// Arduino-class board resets when the port opens and is deaf meanwhile).
// stop() ends every thread within about 0.2 s and, where a port is open,
// writes a neutral frame (centre, open) last.
#pragma once

#include <mocap/core/error.h>
#include <mocap/eyes/eyes.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mocap {

struct EyeLineFormat {
  std::string request_key = "req";
  std::string request_value = "c";
  std::string data_key = "d";
  std::string x_key = "x";
  std::string y_key = "y";
  std::string openness_key = "l";  // the design's wire key for the lid opening
  std::string pupil_key;           // empty: no pupil
  std::string sequence_key;        // empty: no frame number
  double x_min = -1.0, x_max = 1.0;
  double y_min = -1.0, y_max = 1.0;
  double l_min = 0.0, l_max = 1.0;
  int decimals = 3;  // [0, 9]

  // Fails (no file) when a key is empty or repeated, a range is empty
  // (lo == hi) or not finite, or decimals is outside [0, 9].
  Result<void> validate() const;
};

// One eye's line, with the trailing '\n'. `sequence` is written under
// `sequence_key` when both are set (sequence >= 0).
std::string format_eye_line(const EyeLineFormat& format, const EyeSample& eye, long sequence = -1);

// The longest line format_eye_line can write with `format` (every value at
// the end of its range, sequence numbers up to 10^12), '\n' included.
std::size_t max_eye_line_length(const EyeLineFormat& format);

// The serial rates open_serial takes: 9600 ... 4000000.
bool is_standard_baud(int baud);

// Opens a serial device for writing, non-blocking, and configures it raw:
// 8 data bits, no parity, 1 stop bit, no flow control (neither RTS/CTS nor
// XON/XOFF), no echo, no canonical mode, no output processing, at `baud`
// (one of the standard rates 9600 ... 4000000). A path that is not a terminal
// (a FIFO, a file) is opened without termios. Returns the descriptor.
Result<int> open_serial(const std::string& path, int baud = 115200);

struct EyeStreamOptions {
  std::string left_path;    // device of the left eye's display
  std::string right_path;   // device of the right eye's display
  double fps = 40.0;        // frames per second, (0, 1000]
  double duration_s = 0.0;  // stop publishing after this much time; 0: until stop()
  int baud = 115200;
  bool swap = false;  // send the left eye's data to the right device and vice versa
  EyeLineFormat format;
  double reconnect_min_s = 0.05;  // first retry after a failure, then doubling
  double reconnect_max_s = 1.0;
  double write_timeout_s = 0.5;  // a line not written in this time counts as a failed write
  double settle_s = 0.0;         // after each open, drop frames this long (board reset on DTR), [0, 10]

  // Fails (no file) when a path is empty, fps is outside (0, 1000],
  // duration_s < 0, baud is not a rate open_serial takes, the reconnect
  // delays are not 0 < min <= max, write_timeout_s <= 0, settle_s is outside
  // [0, 10], or the format is
  // invalid. (EyeStreamer still runs invalid options, with fps 40 outside
  // its range, as it always has: call this first.)
  Result<void> validate() const;
};

// Per device: what happened over the stream.
struct EyePortStats {
  std::string path;
  long lines = 0;         // lines written whole
  long dropped = 0;       // frames never written (port slow, closed or reconnecting)
  long write_errors = 0;  // failed writes (each closes the port)
  long reconnects = 0;    // successful opens after the first
  bool connected = false;
  std::string last_error;
  // Lateness of each written line: end of write minus the frame's due time, s.
  double lateness_p50_s = 0.0;
  double lateness_p99_s = 0.0;
  double lateness_max_s = 0.0;
};
struct EyeStreamStats {
  long frames = 0;  // frames published by the animation thread
  EyePortStats left;
  EyePortStats right;
};

class EyeStreamer {
 public:
  // The source is called from the animation thread only, with t = k / fps.
  using Source = std::function<EyeFrame(double time_s)>;

  EyeStreamer(EyeStreamOptions options, Source source);
  ~EyeStreamer();  // stop()
  EyeStreamer(const EyeStreamer&) = delete;
  EyeStreamer& operator=(const EyeStreamer&) = delete;

  // Starts the threads. Ports that cannot be opened yet are retried.
  void start();
  // Stops every thread, writes a neutral frame to the open ports, joins.
  void stop();
  // True once the animation thread has published its last frame (duration
  // reached) or stop() was called.
  bool finished() const;
  // Waits until finished() or `timeout` passes; true when finished.
  bool wait_finished(std::chrono::milliseconds timeout);
  EyeStreamStats stats() const;

 private:
  struct Port;
  void animate();
  void output(int eye);

  EyeStreamOptions options_;
  Source source_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool stopping_ = false;
  bool finished_ = false;
  bool started_ = false;
  EyeFrame frame_;                               // the newest frame
  long sequence_ = -1;                           // its number; -1 before the first
  std::chrono::steady_clock::time_point due_{};  // when it was due
  long published_ = 0;
  std::vector<Port> ports_;
  std::vector<std::thread> threads_;
};

// The eye display `device` shows (0: the left one, 1: the right one): the
// left eye's on 0 and the right's on 1, the other way round when `swap`.
const EyeSample& device_eye(const EyeFrame& frame, int device, bool swap);

// The lines each display reads from a stream that drops nothing (a port fast
// enough, never unplugged, settle_s 0), each ending in '\n': frame k =
// source(k / fps) for k = 0, 1, ... while k / fps < duration_s, as the
// animation thread publishes them, its device_eye formatted as the output
// threads write it (format_eye_line, numbered k), then the neutral frame
// numbered after the last, the stream's last word. Fails (no file) for a
// format that does not validate, fps outside (0, 1000] or a duration_s that
// is not > 0 (a stream until stop() has no last line).
struct EyeStreamLines {
  std::vector<std::string> left;
  std::vector<std::string> right;
};
Result<EyeStreamLines> eye_stream_lines(const EyeStreamOptions& options, const EyeStreamer::Source& source);

}  // namespace mocap
