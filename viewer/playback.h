// Playback of a clip on the wall clock: the state behind the timeline.
//
// The clip's time is accumulated from real elapsed time (times the speed),
// and the frame shown is derived from that time, never counted: a slow
// render skips frames, a fast one shows a frame several times, and after any
// number of renders the clip is where the wall clock says. Frame f covers
// clip time [f / fps, (f + 1) / fps).
//
// Frames are counted from 0 here (an index into the clip); what the user
// sees and types is the file's frame number of a frame (`numbers`, the AMC's
// own, 1-based in CMU files), as in the CLI.
//
// Header-only and free of GL and ImGui so that tests/test_playback.cc checks
// it directly.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace mocap::viewer {

// The speed presets of the timeline.
inline constexpr std::array<double, 7> kSpeedPresets = {0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0};

struct Playback {
  int frame_count = 0;  // frames of the clip; 0: nothing loaded
  double fps = 120.0;   // frames per second of the clip, > 0
  double time_s = 0.0;  // clip time, s, in [0, duration_s())
  double speed = 1.0;   // clip seconds per wall-clock second, > 0
  bool playing = false;
  bool loop = true;          // at the end: wrap around (true) or stop on the last frame
  std::vector<int> numbers;  // the file's number of each frame, increasing; empty: numbered from 0

  double duration_s() const { return frame_count / fps; }

  // The frame at the current clip time, in [0, frame_count - 1] (0 when empty).
  int frame() const {
    if (frame_count <= 0) return 0;
    // The small bias keeps time_s = f / fps on frame f despite rounding.
    const int f = static_cast<int>(std::floor(time_s * fps + 1e-6));
    return std::clamp(f, 0, frame_count - 1);
  }

  // The file's number of frame `f` (clamped), and of the frame shown.
  int number_of(int f) const {
    if (numbers.empty() || frame_count <= 0) return f;
    return numbers[static_cast<std::size_t>(std::clamp(f, 0, frame_count - 1))];
  }
  int number() const { return number_of(frame()); }
  // The frame numbered `number`, or the first after it (the last frame past the end).
  int frame_at(int number) const {
    if (numbers.empty()) return std::clamp(number, 0, std::max(frame_count - 1, 0));
    const auto it = std::lower_bound(numbers.begin(), numbers.end(), number);
    return it == numbers.end() ? frame_count - 1 : static_cast<int>(it - numbers.begin());
  }

  // Advances the clip by `wall_dt_s` seconds of real time when playing.
  void advance(double wall_dt_s) {
    if (!playing || frame_count <= 0 || !(wall_dt_s > 0.0)) return;
    time_s += wall_dt_s * speed;
    const double duration = duration_s();
    if (time_s < duration) return;
    if (loop) {
      time_s = std::fmod(time_s, duration);
    } else {
      seek(frame_count - 1);
      playing = false;
    }
  }

  // Shows frame `f` (clamped), at the start of its time span.
  void seek(int f) {
    if (frame_count <= 0) {
      time_s = 0.0;
      return;
    }
    time_s = std::clamp(f, 0, frame_count - 1) / fps;
  }

  // Pauses and moves `frames` frames (negative: back). With loop on, stepping
  // past an end wraps around; otherwise it stops at the end.
  void step(int frames) {
    playing = false;
    if (frame_count <= 0) return;
    int f = frame() + frames;
    if (loop) {
      f %= frame_count;
      if (f < 0) f += frame_count;
    }
    seek(f);
  }

  void play() {
    // Play from the start when stopped on the last frame without loop.
    if (!loop && frame_count > 0 && frame() == frame_count - 1) seek(0);
    playing = frame_count > 0;
  }
  void pause() { playing = false; }
  void toggle() { playing ? pause() : play(); }
  // Pauses on the first frame.
  void reset() {
    playing = false;
    seek(0);
  }

  // A new clip: first frame, paused, speed and loop kept.
  void load(int frames, double clip_fps) {
    numbers.clear();
    frame_count = std::max(frames, 0);
    fps = clip_fps > 0.0 ? clip_fps : 120.0;
    time_s = 0.0;
    playing = false;
  }
  // The same, the frames numbered as in the file.
  void load(std::vector<int> frame_numbers, double clip_fps) {
    load(static_cast<int>(frame_numbers.size()), clip_fps);
    numbers = std::move(frame_numbers);
  }
};

// "frame 312 / 5423 · 2.600 s @ 120 Hz": the file's number of the frame
// shown, the frame count, the frame's start time in the clip and its rate.
inline std::string readout(const Playback& playback) {
  const int f = playback.frame();
  char text[96];
  std::snprintf(text, sizeof text, "frame %d / %d \xC2\xB7 %.3f s @ %g Hz", playback.number_of(f), playback.frame_count,
                f / playback.fps, playback.fps);
  return text;
}

}  // namespace mocap::viewer
