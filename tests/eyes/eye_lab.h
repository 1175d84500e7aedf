// An eye-tracking lab's analysis of exported eye tracks, written apart from
// the generator: it sees only the frames (as a file would hold them), never
// the generator's events or counters.
//
//   - Gaze in degrees: the cyclopean gaze (mean of both eyes, so vergence does
//     not count as motion) times the range (eyes.h: 1 = range_rad).
//   - Velocity: central difference over +-1 sample, deg/s.
//   - A move (saccade or microsaccade) is a run of samples faster than
//     `v_edge` whose peak exceeds `v_peak`; the tracks are noise free, so
//     the thresholds sit low (1 and 5 deg/s) and a move's edges are found
//     where it starts, not where it is already fast. Amplitude: distance from
//     the sample before the run to the one after. Duration: the run's length.
//   - Moves of 1 degree or more are saccades, smaller ones microsaccades (the
//     usual lab cut); a fixation is the time between two saccades, the
//     microsaccades inside it included.
//   - A blink is a run of samples whose openness is below the open level by
//     more than 0.005; closing is from the run's start to its minimum,
//     opening from the minimum to the run's end.
#pragma once

#include <mocap/eyes/eyes.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace mocap::lab {

struct Move {
  double start_s = 0.0;
  double duration_s = 0.0;
  double amplitude_deg = 0.0;
  double peak_deg_s = 0.0;
};
struct Blink {
  double start_s = 0.0;
  double closing_s = 0.0;
  double opening_s = 0.0;
  double depth = 0.0;  // open level minus the minimum
};

struct Analysis {
  double seconds = 0.0;
  std::vector<Move> saccades;       // >= 1 degree
  std::vector<Move> microsaccades;  // < 1 degree
  std::vector<Blink> blinks;
  std::vector<double> fixations_s;
  double peak_velocity_deg_s = 0.0;  // over the whole track, cyclopean
  double largest_step_deg = 0.0;     // largest change between two samples, either eye
  double largest_radius = 0.0;       // largest |(x, y)| of either eye, normalised
  double pupil_min = 1.0, pupil_max = 0.0;

  double saccades_per_s() const { return saccades.size() / seconds; }
  double microsaccades_per_s() const { return microsaccades.size() / seconds; }
  double blinks_per_minute() const { return blinks.size() * 60.0 / seconds; }
  double mean_fixation_s() const {
    double s = 0.0;
    for (double f : fixations_s) s += f;
    return fixations_s.empty() ? 0.0 : s / fixations_s.size();
  }
};

inline Analysis analyse(const std::vector<EyeFrame>& frames, double fps, double range_rad, double v_edge = 1.0,
                        double v_peak = 5.0) {
  Analysis a;
  const std::size_t n = frames.size();
  a.seconds = n / fps;
  if (n < 3) return a;
  const double deg = range_rad * 180.0 / std::numbers::pi;
  std::vector<double> x(n), y(n), speed(n, 0.0);
  double open_level = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const EyeFrame& f = frames[i];
    x[i] = 0.5 * (f.left.x + f.right.x) * deg;
    y[i] = 0.5 * (f.left.y + f.right.y) * deg;
    open_level = std::max(open_level, f.left.openness);
    for (const EyeSample* e : {&f.left, &f.right})
      a.largest_radius = std::max(a.largest_radius, std::hypot(e->x, e->y));
    a.pupil_min = std::min(a.pupil_min, f.left.pupil);
    a.pupil_max = std::max(a.pupil_max, f.left.pupil);
    if (i > 0) {
      const EyeFrame& g = frames[i - 1];
      a.largest_step_deg = std::max({a.largest_step_deg, std::hypot(f.left.x - g.left.x, f.left.y - g.left.y) * deg,
                                     std::hypot(f.right.x - g.right.x, f.right.y - g.right.y) * deg});
    }
  }
  for (std::size_t i = 1; i + 1 < n; ++i) {
    speed[i] = std::hypot(x[i + 1] - x[i - 1], y[i + 1] - y[i - 1]) * fps / 2.0;
    a.peak_velocity_deg_s = std::max(a.peak_velocity_deg_s, speed[i]);
  }
  double last_saccade_end = -1.0;
  for (std::size_t i = 1; i + 1 < n; ++i) {
    if (speed[i] <= v_edge) continue;
    std::size_t j = i;
    double peak = 0.0;
    while (j + 1 < n && speed[j] > v_edge) peak = std::max(peak, speed[j++]);
    // Samples i..j-1 are fast; the eye left x[i-1] and arrived by x[j].
    if (peak > v_peak && j + 2 < n) {  // whole moves only (not cut by the track's end)
      Move m;
      m.start_s = (i - 1) / fps;
      m.duration_s = (j - i) / fps;
      m.amplitude_deg = std::hypot(x[j] - x[i - 1], y[j] - y[i - 1]);
      m.peak_deg_s = peak;
      if (m.amplitude_deg >= 1.0) {
        if (last_saccade_end >= 0.0) a.fixations_s.push_back(m.start_s - last_saccade_end);
        last_saccade_end = j / fps;
        a.saccades.push_back(m);
      } else {
        a.microsaccades.push_back(m);
      }
    }
    i = j;
  }
  const double below = open_level - 0.005;
  for (std::size_t i = 0; i < n; ++i) {
    if (frames[i].left.openness >= below) continue;
    std::size_t j = i, lowest = i;
    while (j < n && frames[j].left.openness < below) {
      if (frames[j].left.openness < frames[lowest].left.openness) lowest = j;
      ++j;
    }
    if (i > 0 && j < n) {  // whole blinks only
      a.blinks.push_back(
          {i / fps, (lowest - i + 0.5) / fps, (j - lowest - 0.5) / fps, open_level - frames[lowest].left.openness});
    }
    i = j;
  }
  return a;
}

}  // namespace mocap::lab
