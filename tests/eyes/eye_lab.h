// An eye-tracking lab's analysis of exported eye tracks, written apart from
// the generator: it sees only the frames (as a file would hold them), never
// the generator's events or counters. The method, in order:
//
//   1. The tracker (Tracker): a video eye tracker records each eye's gaze
//      with white noise, independent per sample, axis and eye, seeded. Its
//      size is the precision figure trackers are specified and compared by,
//      RMS-S2S: the root mean square of the 2-D distance between successive
//      samples, 2 sigma for white noise of sigma per axis.
//   2. Gaze in degrees: the cyclopean gaze (mean of both eyes, so vergence
//      does not count as motion) times the range (eyes.h: 1 = range_rad).
//      The mean of the two eyes' independent noises is drawn directly, as
//      one normal of sigma / sqrt 2 per axis and sample: the same
//      distribution at half the draws.
//   3. Velocity: Engbert & Kliegl's moving window,
//      v[n] = (x[n+2] + x[n+1] - x[n-1] - x[n-2]) / (6 dt), which averages
//      the noise of 4 samples where a central difference has 2.
//   4. Saccades: a run of samples faster than 30 deg/s (the fixed threshold
//      of video trackers' own parsers) whose amplitude is 1 degree or more.
//   5. Microsaccades (Engbert & Kliegl 2003): per axis the median-based SD
//      of the velocity, sigma = sqrt(median(v^2) - median(v)^2), over the
//      samples slower than the saccade threshold; an elliptic threshold
//      (vx / (lambda sigma_x))^2 + (vy / (lambda sigma_y))^2 > 1 with
//      lambda = 5; a run of at least 6 ms outside the ellipse, not part of a
//      saccade, with an amplitude under 1 degree.
//   6. Onset and offset: a threshold finds a move where it is already fast,
//      so both kinds are extended outward while the speed stays above an
//      onset level of 3 sigma (sigma the mean of both axes'; EK's sigma is
//      0.67 of an SD, so about two SDs of the noise's velocity per axis),
//      the noise-adaptive onset of Nystroem & Holmqvist (2010). Duration:
//      from the first to the last sample above the onset level. The part of a move slower than that level is lost:
//      of a smoothstep move of amplitude A and duration D (peak
//      P = 1.5 A / D) the lab measures D sqrt(1 - onset / P)
//      (Analysis::measured_duration): 1-2 % less for saccades (the velocity
//      window, 2 samples wider at each end, adds more back), up to a fifth
//      less for the smallest microsaccades (peaks of 7-60 deg/s).
//      Amplitude: between the means of the 3 samples before onset and the 3
//      after offset (the eye is still there; 3 samples cut the noise).
//   7. A fixation is the time between two saccades (offset to onset), the
//      microsaccades inside it included.
//   8. A blink is a run of samples whose openness is below the open level by
//      more than 0.005; closing is from the run's start to its minimum,
//      opening from the minimum to the run's end. The openness is read as
//      exported, noise free: a video tracker records no lid opening (in a
//      blink it loses the pupil, a clean on/off signal), so the lid channel
//      stands for the lab's blink signal, and noise on it would test only
//      the threshold.
//
// The largest radius and step are read from the frames as exported (what a
// display receives), not through the tracker.
#pragma once

#include <mocap/eyes/eyes.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <utility>
#include <vector>

namespace mocap::lab {

struct Tracker {
  // Precision, RMS-S2S in degrees; 0: a perfect tracker (the track itself).
  // 0.02 is a tower-mounted video tracker on a person at 1000 Hz (0.01 on an
  // artificial eye), the low end of the 0.02-0.05 of issue 24: at 0.03 and
  // above the generator's smallest microsaccades drown (docs/eyes.md, "Measured
  // as a lab would").
  double rms_s2s_deg = 0.02;
  std::uint64_t seed = 1;
  double saccade_deg_s = 30.0;  // saccade threshold
  double lambda = 5.0;          // EK threshold, in EK sigmas
  double onset_sigmas = 3.0;    // onset level, in EK sigmas
  double min_micro_s = 0.006;   // EK minimum duration
};

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
  double peak_velocity_deg_s = 0.0;  // over the whole track, cyclopean, through the tracker
  double largest_step_deg = 0.0;     // largest change between two samples, either eye, as exported
  double largest_radius = 0.0;       // largest |(x, y)| of either eye, normalised, as exported
  double pupil_min = 1.0, pupil_max = 0.0;
  // The tracker as the lab measures it: RMS-S2S of one eye over the samples
  // clear of moves and blinks (the cyclopean's times sqrt 2), degrees; EK's
  // sigma (mean of both axes), the ellipse's radius (lambda sigma) and the
  // onset level, deg/s.
  double noise_rms_s2s_deg = 0.0;
  double ek_sigma_deg_s = 0.0;
  double ek_threshold_deg_s = 0.0;
  double onset_deg_s = 0.0;

  double saccades_per_s() const { return saccades.size() / seconds; }
  double microsaccades_per_s() const { return microsaccades.size() / seconds; }
  double blinks_per_minute() const { return blinks.size() * 60.0 / seconds; }
  double mean_fixation_s() const {
    double s = 0.0;
    for (double f : fixations_s) s += f;
    return fixations_s.empty() ? 0.0 : s / fixations_s.size();
  }
  // What step 6 measures of a smoothstep move lasting `model_s` over
  // `amplitude_deg`: the time its speed is above the onset level.
  double measured_duration(double amplitude_deg, double model_s) const {
    const double peak = 1.5 * amplitude_deg / model_s;
    return peak > onset_deg_s ? model_s * std::sqrt(1.0 - onset_deg_s / peak) : 0.0;
  }
};

namespace detail {

// Two independent standard normals (Marsaglia's polar method): one sample's
// noise on both axes. std::normal_distribution gives the same distribution,
// but through generate_canonical it took a third of this test's time.
inline std::pair<double, double> normal_pair(std::mt19937_64& rng) {
  for (;;) {
    const std::uint64_t r = rng();  // 32 bits per coordinate are plenty
    const double u = static_cast<double>(r >> 32) * 0x1.0p-31 - 1.0;
    const double v = static_cast<double>(r & 0xffffffffu) * 0x1.0p-31 - 1.0;
    const double s = u * u + v * v;
    if (s >= 1.0 || s == 0.0) continue;
    const double f = std::sqrt(-2.0 * std::log(s) / s);
    return {u * f, v * f};
  }
}

// EK's median-based SD, sqrt(median(v^2) - median(v)^2), of `v` (reordered).
// median(v^2) is median(|v|)^2, so both come from selections on `v`, in
// float: twice as many values per cache line (selection was a tenth of the
// test's time), 7 digits where 2 matter.
inline double ek_sigma(std::vector<float>& v) {
  if (v.empty()) return 0.0;
  const auto mid = v.begin() + v.size() / 2;
  std::nth_element(v.begin(), mid, v.end());
  const double m = *mid;
  for (float& e : v) e = std::abs(e);
  std::nth_element(v.begin(), mid, v.end());
  const double abs_m = *mid;
  return std::sqrt(std::max(0.0, abs_m * abs_m - m * m));
}

}  // namespace detail

inline Analysis analyse(const std::vector<EyeFrame>& frames, double fps, double range_rad,
                        const Tracker& tracker = {}) {
  Analysis a;
  const std::size_t n = frames.size();
  a.seconds = n / fps;
  if (n < 16) return a;
  const double deg = range_rad * 180.0 / std::numbers::pi;
  const bool noisy = tracker.rms_s2s_deg > 0.0;
  const double sigma = 0.5 * tracker.rms_s2s_deg / std::numbers::sqrt2;  // per axis, cyclopean
  std::mt19937_64 rng(tracker.seed);
  // The lids apart: the blink pass reads them 8 bytes a sample, not 80.
  std::vector<double> x(n), y(n), lid(n);
  double open_level = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const EyeFrame& f = frames[i];
    x[i] = 0.5 * (f.left.x + f.right.x) * deg;
    y[i] = 0.5 * (f.left.y + f.right.y) * deg;
    if (noisy) {
      const auto [nx, ny] = detail::normal_pair(rng);
      x[i] += sigma * nx, y[i] += sigma * ny;
    }
    lid[i] = f.left.openness;
    open_level = std::max(open_level, f.left.openness);
    a.largest_radius = std::max(
        {a.largest_radius, f.left.x * f.left.x + f.left.y * f.left.y, f.right.x * f.right.x + f.right.y * f.right.y});
    a.pupil_min = std::min(a.pupil_min, f.left.pupil);
    a.pupil_max = std::max(a.pupil_max, f.left.pupil);
    if (i > 0) {
      const EyeFrame& g = frames[i - 1];
      const double l2 = (f.left.x - g.left.x) * (f.left.x - g.left.x) + (f.left.y - g.left.y) * (f.left.y - g.left.y);
      const double r2 =
          (f.right.x - g.right.x) * (f.right.x - g.right.x) + (f.right.y - g.right.y) * (f.right.y - g.right.y);
      a.largest_step_deg = std::max({a.largest_step_deg, l2, r2});
    }
  }
  a.largest_radius = std::sqrt(a.largest_radius);
  a.largest_step_deg = std::sqrt(a.largest_step_deg) * deg;
  // Velocity on [lo, hi); the ends hold no move. Only the speed is kept
  // (the components are 4 additions away), as the test's time goes mostly
  // to touching memory.
  const std::size_t lo = 2, hi = n - 2;
  auto velocity = [&](const std::vector<double>& p, std::size_t i) {
    return (p[i + 2] + p[i + 1] - p[i - 1] - p[i - 2]) * fps / 6.0;
  };
  std::vector<double> speed(n, 0.0);
  for (std::size_t i = lo; i < hi; ++i) {
    const double vx = velocity(x, i), vy = velocity(y, i);
    speed[i] = std::sqrt(vx * vx + vy * vy);
    a.peak_velocity_deg_s = std::max(a.peak_velocity_deg_s, speed[i]);
  }
  // EK's trials were fixations; a free-viewing track spends up to a fifth
  // of its samples in saccades, which inflate sigma by a quarter and hide
  // the smaller microsaccades, so sigma is taken over the samples slower
  // than the saccade threshold (the slow flanks of saccades left in are a
  // few ms each). Every 4th of them: the window makes neighbours share 3 of
  // their 4 points, so the others add little but selection time.
  std::vector<float> slow_x, slow_y;
  slow_x.reserve(n / 4 + 1), slow_y.reserve(n / 4 + 1);
  for (std::size_t i = lo; i < hi; i += 4) {
    if (speed[i] > tracker.saccade_deg_s) continue;
    slow_x.push_back(static_cast<float>(velocity(x, i)));
    slow_y.push_back(static_cast<float>(velocity(y, i)));
  }
  const double sx = detail::ek_sigma(slow_x), sy = detail::ek_sigma(slow_y);
  slow_x = {}, slow_y = {};
  a.ek_sigma_deg_s = 0.5 * (sx + sy);
  a.ek_threshold_deg_s = tracker.lambda * a.ek_sigma_deg_s;
  // A noise-free track has sigma 0: any motion at all is a move.
  a.onset_deg_s = tracker.onset_sigmas * a.ek_sigma_deg_s;
  const double to_x = sx > 0 ? 1.0 / (tracker.lambda * sx) : 0.0, to_y = sy > 0 ? 1.0 / (tracker.lambda * sy) : 0.0;
  auto outside_ellipse = [&](std::size_t i) {
    const double vx = velocity(x, i), vy = velocity(y, i);
    const double u = to_x > 0 ? vx * to_x : (vx != 0 ? 2.0 : 0.0);
    const double w = to_y > 0 ? vy * to_y : (vy != 0 ? 2.0 : 0.0);
    return u * u + w * w > 1.0;
  };
  // 0: still, 1: inside a saccade, 2: inside a microsaccade.
  std::vector<std::uint8_t> taken(n, 0);
  // Extends the fast run [i, j) outward to the onset level and measures it
  // into `m` over samples [on, off]; false when the track's ends cut it (only
  // whole moves count).
  auto measure = [&](std::size_t i, std::size_t j, std::size_t& on, std::size_t& off, Move& m) {
    on = i, off = j - 1;
    while (on > lo && speed[on - 1] > a.onset_deg_s) --on;
    while (off + 1 < hi && speed[off + 1] > a.onset_deg_s) ++off;
    if (on < lo + 3 || off + 4 > hi) return false;
    const double bx = (x[on - 1] + x[on - 2] + x[on - 3]) / 3.0, by = (y[on - 1] + y[on - 2] + y[on - 3]) / 3.0;
    const double fx = (x[off + 1] + x[off + 2] + x[off + 3]) / 3.0, fy = (y[off + 1] + y[off + 2] + y[off + 3]) / 3.0;
    m.start_s = on / fps;
    m.duration_s = (off - on + 1) / fps;
    m.amplitude_deg = std::sqrt((fx - bx) * (fx - bx) + (fy - by) * (fy - by));
    m.peak_deg_s = *std::max_element(speed.begin() + on, speed.begin() + off + 1);
    return true;
  };
  std::vector<std::pair<std::size_t, std::size_t>> saccade_span;
  for (std::size_t i = lo; i < hi; ++i) {
    if (speed[i] <= tracker.saccade_deg_s) continue;
    std::size_t j = i;
    while (j < hi && speed[j] > tracker.saccade_deg_s) ++j;
    std::size_t on, off;
    Move m;
    if (measure(i, j, on, off, m) && m.amplitude_deg >= 1.0) {
      std::fill(taken.begin() + on, taken.begin() + off + 1, 1);
      saccade_span.emplace_back(on, off);
      a.saccades.push_back(m);
      i = off;
    } else {
      i = j;
    }
  }
  for (std::size_t k = 1; k < saccade_span.size(); ++k) {
    a.fixations_s.push_back((saccade_span[k].first - saccade_span[k - 1].second - 1) / fps);
  }
  const auto min_run = static_cast<std::size_t>(std::lround(tracker.min_micro_s * fps));
  for (std::size_t i = lo; i < hi; ++i) {
    if (taken[i] || !outside_ellipse(i)) continue;
    std::size_t j = i;
    while (j < hi && !taken[j] && outside_ellipse(j)) ++j;
    std::size_t on, off;
    Move m;
    if (j - i >= min_run && measure(i, j, on, off, m) && m.amplitude_deg < 1.0 &&
        std::none_of(taken.begin() + on, taken.begin() + off + 1, [](std::uint8_t t) { return t == 1; })) {
      std::fill(taken.begin() + on, taken.begin() + off + 1, 2);
      a.microsaccades.push_back(m);
      i = off;
    } else {
      i = j;
    }
  }
  const double below = open_level - 0.005;
  for (std::size_t i = 0; i < n; ++i) {
    if (lid[i] >= below) continue;
    std::size_t j = i, lowest = i;
    while (j < n && lid[j] < below) {
      if (lid[j] < lid[lowest]) lowest = j;
      taken[j] = 3;  // for the precision below
      ++j;
    }
    if (i > 0 && j < n) {  // whole blinks only
      a.blinks.push_back({i / fps, (lowest - i + 0.5) / fps, (j - lowest - 0.5) / fps, open_level - lid[lowest]});
    }
    i = j;
  }
  // Precision as a lab reports it: successive samples while the eye is
  // still, here both of a pair 4 samples clear of any move or blink found
  // (the velocity window reaches 2 past a move's edge). Both axes of the
  // cyclopean gaze, times sqrt 2 for one eye's.
  double sum = 0.0;
  long count = 0;
  int near = 0;  // taken samples in [k - 5, k + 4]
  for (std::size_t k = 0; k < 4; ++k) near += taken[k] != 0;
  for (std::size_t k = 0; k + 4 < n; ++k) {
    near += taken[k + 4] != 0;
    if (k >= 6) near -= taken[k - 6] != 0;
    if (k < 5 || near > 0) continue;
    const double dx = x[k] - x[k - 1], dy = y[k] - y[k - 1];
    sum += dx * dx + dy * dy, ++count;
  }
  a.noise_rms_s2s_deg = count > 0 ? std::sqrt(2.0 * sum / count) : 0.0;
  return a;
}

}  // namespace mocap::lab
