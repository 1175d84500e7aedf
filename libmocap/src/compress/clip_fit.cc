#include "compress/clip_fit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "compress/runtime/clip_bits.h"
#include "compress/runtime/clip_curve.h"

namespace mocap::clip_fit {
namespace {

constexpr std::array<int, 26> kSpacings = {1,  2,  3,  4,  5,  6,  7,  8,  10, 12,  14,  16,  20,
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
    for (int k = r + 1; k <= std::min(m - 1, r + degree); ++k)
      v -= n[static_cast<std::size_t>(r) * band + (k - r)] * rhs[k];
    rhs[r] = v / n[static_cast<std::size_t>(r) * band];
  }
  return rhs;
}

// A tolerance's allowance on each frame, computed once per fit_channel:
// held() runs for every candidate spacing and grid step (most of an
// encode's time), and the per-frame products are the same for all of them.
struct Allowance {
  std::vector<double> value;  // value * scale(f)
  std::vector<double> rate;   // rate * scale(f); empty: the rate is unbounded
};

void allowance_of(const Tolerance& t, std::size_t frames, Allowance& a) {
  a.value.resize(frames);
  for (std::size_t f = 0; f < frames; ++f) a.value[f] = t.value * (t.scale.empty() ? 1.0 : t.scale[f]);
  a.rate.clear();
  if (std::isfinite(t.rate) && frames > 1) {
    a.rate.resize(frames);
    for (std::size_t f = 0; f < frames; ++f) a.rate[f] = t.rate * (t.scale.empty() ? 1.0 : t.scale[f]);
  }
}

// One spacing's and degree's curve basis on every frame, computed as
// clip_curve::uniform_at computes it (so the curve is the decoder's to the
// bit): the grid search evaluates the same spacing's curve for each step it
// tries, and only the points change.
struct Basis {
  int degree = 0, spacing = 0;
  std::vector<int> segment;    // per frame
  std::vector<double> weight;  // per frame: the 4 cubic weights, or u (degree 1) first
};

void basis_of(int degree, int spacing, int frames, Basis& b) {
  if (b.degree == degree && b.spacing == spacing && static_cast<int>(b.segment.size()) == frames) return;
  b.degree = degree, b.spacing = spacing;
  b.segment.resize(static_cast<std::size_t>(frames));
  b.weight.resize(static_cast<std::size_t>(frames) * 4);
  const int segments = clip_curve::gaps(frames, spacing);
  const double inv = 1.0 / spacing;
  for (int f = 0; f < frames; ++f) {
    double u = 0.0;
    b.segment[f] = clip_curve::uniform_segment(static_cast<double>(f), inv, segments, u);
    double* w = &b.weight[static_cast<std::size_t>(f) * 4];
    if (degree == 1) {
      w[0] = u;
    } else {
      clip_curve::cubic_basis(u, w);
    }
  }
}

struct Scratch {
  std::vector<double> error;
  Basis basis;
  std::vector<std::int64_t> residuals;
  std::vector<float> points;
  std::vector<std::int32_t> codes;
  Allowance allowance;
};

// The largest share of the allowance that per-frame errors e use (<= 1: held).
double excess_of(std::span<const double> e, const Allowance& t) {
  const int frames = static_cast<int>(e.size());
  double worst = 0.0;
  for (int f = 0; f < frames; ++f) worst = std::max(worst, std::abs(e[f]) / t.value[f]);
  if (t.rate.empty()) return worst;
  // Central differences (one-sided at the ends; halving is exact).
  worst = std::max(worst, std::abs(e[1] - e[0]) / t.rate[0]);
  for (int f = 1; f + 1 < frames; ++f) worst = std::max(worst, std::abs(e[f + 1] - e[f - 1]) / 2 / t.rate[f]);
  return std::max(worst, std::abs(e[frames - 1] - e[frames - 2]) / t.rate[frames - 1]);
}

// excess_of(e, t) <= 1, the grid search's only question, without its
// divisions, in blocks that stop at the first one breaking the allowance.
bool holds(std::span<const double> e, const Allowance& t) {
  const int frames = static_cast<int>(e.size());
  constexpr int kBlock = 64;
  for (int begin = 0; begin < frames; begin += kBlock) {
    const int end = std::min(frames, begin + kBlock);
    bool broken = false;
    for (int f = begin; f < end; ++f) broken |= std::abs(e[f]) > t.value[f];
    if (broken) return false;
  }
  if (t.rate.empty()) return true;
  if (std::abs(e[1] - e[0]) > t.rate[0] || std::abs(e[frames - 1] - e[frames - 2]) > t.rate[frames - 1]) return false;
  for (int begin = 1; begin + 1 < frames; begin += kBlock) {
    const int end = std::min(frames - 1, begin + kBlock);
    bool broken = false;
    for (int f = begin; f < end; ++f) broken |= std::abs(e[f + 1] - e[f - 1]) * 0.5 > t.rate[f];
    if (broken) return false;
  }
  return true;
}

// Per-frame errors of the curve of `points` into s.error.
void curve_errors(std::span<const double> x, std::span<const float> points, int degree, int spacing, Scratch& s) {
  const int frames = static_cast<int>(x.size());
  basis_of(degree, spacing, frames, s.basis);
  s.error.resize(x.size());
  const int* segment = s.basis.segment.data();
  const double* w = s.basis.weight.data();
  if (degree == 1) {
    for (int f = 0; f < frames; ++f, w += 4) {
      const float* q = points.data() + segment[f];
      const double curve = static_cast<double>(q[0]) + (static_cast<double>(q[1]) - static_cast<double>(q[0])) * w[0];
      s.error[f] = curve - x[f];
    }
  } else {
    for (int f = 0; f < frames; ++f, w += 4) {
      const float* q = points.data() + segment[f];
      const double curve = w[0] * static_cast<double>(q[0]) + w[1] * static_cast<double>(q[1]) +
                           w[2] * static_cast<double>(q[2]) + w[3] * static_cast<double>(q[3]);
      s.error[f] = curve - x[f];
    }
  }
}

// The share of the tolerance the curve of `points` uses, s.allowance
// holding the tolerance's.
double excess(std::span<const double> x, std::span<const float> points, int degree, int spacing, Scratch& s) {
  curve_errors(x, points, degree, spacing, s);
  return excess_of(s.error, s.allowance);
}

// Whether the curve of `points` holds the tolerance (keyed tracks: on their
// key frames, values only).
bool held(std::span<const double> x, std::span<const float> points, int degree, int spacing, std::span<const int> keys,
          Scratch& s) {
  if (!keys.empty()) {
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (std::abs(points[i] - x[keys[i]]) > s.allowance.value[keys[i]]) return false;
    return true;
  }
  curve_errors(x, points, degree, spacing, s);
  return holds(s.error, s.allowance);
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
Fit quantised_fit(std::span<const double> x, std::span<const double> c, const Tolerance& tolerance, double fit_excess,
                  const FitOptions& options, int spacing, Scratch& s) {
  Fit fit;
  fit.bytes = std::numeric_limits<std::size_t>::max();
  ClipTrack& t = fit.track;
  t.degree = static_cast<std::uint8_t>(options.degree);
  t.spacing = spacing;
  if (!options.quantise) {
    s.points.assign(c.begin(), c.end());
    for (std::size_t i = 0; i < c.size(); ++i) s.points[i] = static_cast<float>(c[i]);
    if (!held(x, s.points, options.degree, spacing, options.keys, s)) return fit;
    t.storage = TrackStorage::kFloat;
    t.points = s.points;
    t.codes.resize(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) t.codes[i] = std::bit_cast<std::int32_t>(s.points[i]);
    fit.bytes = 1 + varint_bytes(static_cast<std::uint32_t>(spacing)) + 4 * c.size();
    return fit;
  }
  t.storage = options.entropy ? TrackStorage::kRice : TrackStorage::kFixed;
  // Quantising moves the curve by at most half a step (the basis weights sum
  // to 1) and its central difference by as much; search coarser grids above
  // a step of 2 * room, the error being nearly monotonic in the step.
  const double room = (1.0 - fit_excess) * tightest(tolerance);
  if (!(room > 0.0)) return fit;
  int good = static_cast<int>(std::clamp(std::floor(8.0 * std::log2(2.0 * room)) - 1.0, -1000.0, 1000.0));
  while (good > -1000) {
    if (quantise(c, good, s) && held(x, s.points, options.degree, spacing, options.keys, s)) break;
    good -= 8;
  }
  int bad = std::min(good + 33, 1001);
  while (bad - good > 1) {
    const int mid = (good + bad) / 2;
    if (quantise(c, mid, s) && held(x, s.points, options.degree, spacing, options.keys, s)) {
      good = mid;
    } else {
      bad = mid;
    }
  }
  if (!quantise(c, good, s)) return fit;
  t.step_code = good;
  t.codes = s.codes;
  t.points = s.points;
  fit.bytes = coded_bytes(options, spacing, good, s, t);
  return fit;
}

}  // namespace

std::span<const int> spacings() {
  return kSpacings;
}

Fit fit_channel(std::span<const double> x, const Tolerance& tolerance, const FitOptions& options, int first, int last,
                ChannelCache* cache) {
  const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
  const float middle = static_cast<float>(0.5 * (*lo + *hi));
  Scratch s;
  allowance_of(tolerance, x.size(), s.allowance);
  s.error.resize(x.size());
  for (std::size_t f = 0; f < x.size(); ++f) s.error[f] = middle - x[f];
  const double constant_error = options.keys.empty() ? excess_of(s.error, s.allowance) : [&] {
    double worst = 0.0;
    for (const int k : options.keys) worst = std::max(worst, std::abs(s.error[k]) / s.allowance.value[k]);
    return worst;
  }();
  if (constant_error <= 1.0) {
    Fit fit;
    fit.track.storage = TrackStorage::kConstant;
    fit.track.constant = middle;
    fit.bytes = 5;
    return fit;
  }
  if (!options.keys.empty()) {
    std::vector<double> c(options.keys.size());
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = x[options.keys[i]];
    Fit fit = quantised_fit(x, c, tolerance, 0.0, options, 0, s);
    if (fit.bytes == std::numeric_limits<std::size_t>::max()) {  // below float precision: the finest grid
      const Tolerance any{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), {}};
      allowance_of(any, x.size(), s.allowance);
      fit = quantised_fit(x, c, any, 0.0, options, 0, s);
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
      const double fit_error = excess(x, s.points, degree, spacing, s);
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
    const Tolerance any{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), {}};
    allowance_of(any, x.size(), s.allowance);
    best = quantised_fit(x, c, any, 0.0, exact, 1, s);
    best.spacing_index = 0;
  }
  return best;
}

}  // namespace mocap::clip_fit
