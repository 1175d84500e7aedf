#include "compress/clip_fit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "compress/runtime/clip_bits.h"
#include "compress/runtime/clip_curve.h"

namespace mocap::clip_fit {
namespace {

constexpr std::array<int, 26> kSpacings = {1,  2,  3,  4,  5,  6,  7,  8,  10,  12,  14,  16,  20,
                                           24, 28, 32, 40, 48, 56, 64, 80, 96, 128, 160, 192, 256};
constexpr std::int64_t kMaxCode = std::int64_t{1} << 28;

std::size_t varint_bytes(std::uint32_t v) {
  std::size_t n = 1;
  while (v >= 0x80) v >>= 7, ++n;
  return n;
}

// Least-squares control points of a uniform B-spline through `x`: the normal
// equations are banded (half-bandwidth = degree), solved by banded Cholesky
// with a tiny ridge so that knots without frames (very short clips) are
// still determined.
std::vector<double> least_squares(std::span<const double> x, int degree, int spacing) {
  const int frames = static_cast<int>(x.size());
  const int segments = clip_curve::gaps(frames, spacing);
  const int m = segments + degree;
  const int band = degree + 1;
  std::vector<double> n(static_cast<std::size_t>(m) * band, 0.0), rhs(static_cast<std::size_t>(m), 0.0);
  const double inv = 1.0 / spacing;
  for (int f = 0; f < frames; ++f) {
    double u = 0.0;
    const int i = clip_curve::uniform_segment(static_cast<double>(f), inv, segments, u);
    double w[4] = {1.0 - u, u, 0.0, 0.0};
    if (degree == 3) clip_curve::cubic_basis(u, w);
    for (int a = 0; a <= degree; ++a) {
      rhs[i + a] += w[a] * x[f];
      for (int b = a; b <= degree; ++b) n[static_cast<std::size_t>(i + a) * band + (b - a)] += w[a] * w[b];
    }
  }
  double diagonal = 0.0;
  for (int r = 0; r < m; ++r) diagonal = std::max(diagonal, n[static_cast<std::size_t>(r) * band]);
  for (int r = 0; r < m; ++r) n[static_cast<std::size_t>(r) * band] += 1e-10 * diagonal + 1e-300;
  // Cholesky L L^T in place: l(r, c) stored at n[c * band + (r - c)] for r >= c.
  for (int c = 0; c < m; ++c) {
    double d = n[static_cast<std::size_t>(c) * band];
    for (int k = std::max(0, c - degree); k < c; ++k) {
      const double l = n[static_cast<std::size_t>(k) * band + (c - k)];
      d -= l * l;
    }
    d = std::sqrt(std::max(d, 1e-300));
    n[static_cast<std::size_t>(c) * band] = d;
    for (int r = c + 1; r <= std::min(m - 1, c + degree); ++r) {
      double v = n[static_cast<std::size_t>(c) * band + (r - c)];
      for (int k = std::max(0, r - degree); k < c; ++k)
        v -= n[static_cast<std::size_t>(k) * band + (r - k)] * n[static_cast<std::size_t>(k) * band + (c - k)];
      n[static_cast<std::size_t>(c) * band + (r - c)] = v / d;
    }
  }
  for (int r = 0; r < m; ++r) {  // L y = rhs
    double v = rhs[r];
    for (int k = std::max(0, r - degree); k < r; ++k) v -= n[static_cast<std::size_t>(k) * band + (r - k)] * rhs[k];
    rhs[r] = v / n[static_cast<std::size_t>(r) * band];
  }
  for (int r = m; r-- > 0;) {  // L^T c = y
    double v = rhs[r];
    for (int k = r + 1; k <= std::min(m - 1, r + degree); ++k) v -= n[static_cast<std::size_t>(r) * band + (k - r)] * rhs[k];
    rhs[r] = v / n[static_cast<std::size_t>(r) * band];
  }
  return rhs;
}

struct Scratch {
  std::vector<double> curve, error;
  std::vector<std::int64_t> residuals;
  std::vector<float> points;
  std::vector<std::int32_t> codes;
};

// The largest share of the tolerance that per-frame errors e use (<= 1: held).
double excess_of(std::span<const double> e, const Tolerance& t) {
  const int frames = static_cast<int>(e.size());
  const bool rate = std::isfinite(t.rate) && frames > 1;
  double worst = 0.0;
  for (int f = 0; f < frames; ++f) {
    const double scale = t.scale.empty() ? 1.0 : t.scale[f];
    worst = std::max(worst, std::abs(e[f]) / (t.value * scale));
    if (rate) {
      const int a = std::max(0, f - 1), c = std::min(frames - 1, f + 1);
      worst = std::max(worst, std::abs(e[c] - e[a]) / (c - a) / (t.rate * scale));
    }
  }
  return worst;
}

// The share of the tolerance the curve of `points` uses (keyed tracks: on their key frames, values only).
double excess(std::span<const double> x, std::span<const float> points, int degree, int spacing,
              std::span<const int> keys, const Tolerance& t, Scratch& s) {
  const int frames = static_cast<int>(x.size());
  if (!keys.empty()) {
    double worst = 0.0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const double scale = t.scale.empty() ? 1.0 : t.scale[keys[i]];
      worst = std::max(worst, std::abs(points[i] - x[keys[i]]) / (t.value * scale));
    }
    return worst;
  }
  s.curve.resize(x.size());
  s.error.resize(x.size());
  clip_curve::uniform_all<float>(points, degree, spacing, frames, s.curve.data(), 1);
  for (int f = 0; f < frames; ++f) s.error[f] = s.curve[f] - x[f];
  return excess_of(s.error, t);
}

// The tightest allowance of the tolerance over frames (channel units).
double tightest(const Tolerance& t) {
  double scale = 1.0;
  for (const double v : t.scale) scale = std::min(scale, v);
  return scale * std::min(t.value, t.rate);
}

// Bytes of a quantised track with codes s.codes, choosing order and parameter.
std::size_t coded_bytes(const FitOptions& options, int spacing, int step_code, Scratch& s, ClipTrack& t) {
  std::size_t best = std::numeric_limits<std::size_t>::max();
  const int max_order = options.delta ? std::min<int>(2, static_cast<int>(s.codes.size())) : 0;
  for (int order = 0; order <= max_order; ++order) {
    clip_bits::residuals(s.codes, order, s.residuals);
    int parameter = 0;
    const std::span<const std::int64_t> coded = std::span(s.residuals).subspan(static_cast<std::size_t>(order));
    const std::uint64_t bits =
        options.entropy ? clip_bits::rice_cost(coded, parameter) : clip_bits::fixed_cost(coded, parameter);
    std::size_t bytes = 2 + varint_bytes(static_cast<std::uint32_t>(spacing)) +
                        varint_bytes(clip_bits::zigzag(step_code)) + (bits + 7) / 8;
    for (int i = 0; i < order; ++i) bytes += varint_bytes(clip_bits::zigzag(s.residuals[i]));
    if (bytes < best) {
      best = bytes;
      t.order = static_cast<std::uint8_t>(order);
      t.parameter = static_cast<std::uint8_t>(parameter);
    }
  }
  return best;
}

// Quantises `c` with step code k into s.codes / s.points; false when a code
// would leave the coded range.
bool quantise(std::span<const double> c, int k, Scratch& s) {
  const double step = step_of(k);
  s.codes.resize(c.size());
  s.points.resize(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) {
    const double q = std::nearbyint(c[i] / step);
    if (!(std::abs(q) <= static_cast<double>(kMaxCode))) return false;
    s.codes[i] = static_cast<std::int32_t>(q);
    s.points[i] = static_cast<float>(q * step);
  }
  return true;
}

// The track for points c (spacing 0: keyed), or bytes = max when no grid holds the tolerance.
Fit quantised_fit(std::span<const double> x, std::span<const double> c, const Tolerance& tolerance,
                  double fit_excess, const FitOptions& options, int spacing, Scratch& s) {
  Fit fit;
  fit.bytes = std::numeric_limits<std::size_t>::max();
  ClipTrack& t = fit.track;
  t.degree = static_cast<std::uint8_t>(options.degree);
  t.spacing = spacing;
  if (!options.quantise) {
    s.points.assign(c.begin(), c.end());
    for (std::size_t i = 0; i < c.size(); ++i) s.points[i] = static_cast<float>(c[i]);
    const double e = excess(x, s.points, options.degree, spacing, options.keys, tolerance, s);
    if (e > 1.0) return fit;
    t.storage = TrackStorage::kFloat;
    t.points = s.points;
    t.codes.resize(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) t.codes[i] = std::bit_cast<std::int32_t>(s.points[i]);
    fit.bytes = 1 + varint_bytes(static_cast<std::uint32_t>(spacing)) + 4 * c.size();
    fit.max_error = e;
    return fit;
  }
  t.storage = options.entropy ? TrackStorage::kRice : TrackStorage::kFixed;
  // Quantising moves the curve by at most half a step (the basis weights sum
  // to 1) and its central difference by as much; search coarser grids above
  // a step of 2 * room, the error being nearly monotonic in the step.
  const double room = (1.0 - fit_excess) * tightest(tolerance);
  if (!(room > 0.0)) return fit;
  int good = static_cast<int>(std::clamp(std::floor(8.0 * std::log2(2.0 * room)) - 1.0, -1000.0, 1000.0));
  double good_error = 0.0;
  while (good > -1000) {
    if (quantise(c, good, s) &&
        (good_error = excess(x, s.points, options.degree, spacing, options.keys, tolerance, s)) <= 1.0)
      break;
    good -= 8;
  }
  int bad = std::min(good + 33, 1001);
  while (bad - good > 1) {
    const int mid = (good + bad) / 2;
    double e = 0.0;
    if (quantise(c, mid, s) && (e = excess(x, s.points, options.degree, spacing, options.keys, tolerance, s)) <= 1.0) {
      good = mid, good_error = e;
    } else {
      bad = mid;
    }
  }
  if (!quantise(c, good, s)) return fit;
  t.step_code = good;
  t.codes = s.codes;
  t.points = s.points;
  fit.bytes = coded_bytes(options, spacing, good, s, t);
  fit.max_error = good_error;
  return fit;
}

}  // namespace

std::span<const int> spacings() { return kSpacings; }

Fit fit_channel(std::span<const double> x, const Tolerance& tolerance, const FitOptions& options, int first,
                int last, ChannelCache* cache) {
  const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
  const float middle = static_cast<float>(0.5 * (*lo + *hi));
  Scratch s;
  s.error.resize(x.size());
  for (std::size_t f = 0; f < x.size(); ++f) s.error[f] = middle - x[f];
  const double constant_error = options.keys.empty() ? excess_of(s.error, tolerance) : [&] {
    double worst = 0.0;
    for (const int k : options.keys) {
      const double scale = tolerance.scale.empty() ? 1.0 : tolerance.scale[k];
      worst = std::max(worst, std::abs(s.error[k]) / (tolerance.value * scale));
    }
    return worst;
  }();
  if (constant_error <= 1.0) {
    Fit fit;
    fit.track.storage = TrackStorage::kConstant;
    fit.track.constant = middle;
    fit.bytes = 5;
    fit.max_error = constant_error;
    return fit;
  }
  if (!options.keys.empty()) {
    std::vector<double> c(options.keys.size());
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = x[options.keys[i]];
    Fit fit = quantised_fit(x, c, tolerance, 0.0, options, 0, s);
    if (fit.bytes == std::numeric_limits<std::size_t>::max()) {  // below float precision: the finest grid
      FitOptions finest = options;
      fit = quantised_fit(x, c, Tolerance{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), {}}, 0.0, finest, 0, s);
    }
    return fit;
  }
  Fit best;
  best.bytes = std::numeric_limits<std::size_t>::max();
  first = std::clamp(first, 0, static_cast<int>(kSpacings.size()) - 1);
  last = std::clamp(last, first, static_cast<int>(kSpacings.size()) - 1);
  // Degree 0 asks for both: each track takes the cheaper of cubic and linear.
  const int degrees[2] = {options.degree == 0 ? 3 : options.degree, options.degree == 0 ? 1 : 0};
  const std::size_t slots = kSpacings.size();
  for (const int degree : degrees) {
    if (degree == 0) continue;
    FitOptions with = options;
    with.degree = degree;
    int failures = 0;
    for (int i = first; i <= last; ++i) {
      const int spacing = kSpacings[i];
      if (i > first && spacing >= 2 * static_cast<int>(x.size())) break;  // one segment already covers the clip
      const std::size_t slot = static_cast<std::size_t>(i) + (degree == 1 ? slots : 0);
      std::vector<double> fitted;
      if (!cache || cache->points.size() != 2 * slots || cache->points[slot].empty()) {
        fitted = least_squares(x, degree, spacing);
        if (cache) {
          cache->points.resize(2 * slots);
          cache->points[slot] = std::move(fitted);
        }
      }
      const std::vector<double>& c = cache ? cache->points[slot] : fitted;
      s.points.assign(c.begin(), c.end());
      const double fit_error = excess(x, s.points, degree, spacing, {}, tolerance, s);
      if (fit_error >= 1.0) {
        if (++failures >= 3 && best.bytes != std::numeric_limits<std::size_t>::max()) break;
        continue;
      }
      failures = 0;
      Fit fit = quantised_fit(x, c, tolerance, fit_error, with, spacing, s);
      if (fit.bytes < best.bytes) {
        best = std::move(fit);
        best.spacing_index = i;
      }
    }
  }
  if (best.bytes == std::numeric_limits<std::size_t>::max()) {
    // Not even the densest spacing holds it (a tolerance below float precision): spacing 1, float points.
    FitOptions exact = options;
    exact.quantise = false;
    exact.degree = options.degree == 0 ? 3 : options.degree;
    const std::vector<double> c = least_squares(x, exact.degree, 1);
    best = quantised_fit(x, c, Tolerance{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), {}}, 0.0, exact, 1, s);
    best.spacing_index = 0;
  }
  return best;
}

}  // namespace mocap::clip_fit
