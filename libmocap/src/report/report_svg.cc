// The SVG chart kit of the HTML report and its text formatting
// (report_svg.h).
#include "report/report_svg.h"

#include <cstdio>
#include <limits>

namespace mocap::html {

constexpr const char* kPalette[] = {"#2563eb", "#ea580c", "#16a34a", "#dc2626", "#9333ea", "#0891b2", "#ca8a04"};
const char* palette(std::size_t i) {
  return kPalette[i % (sizeof kPalette / sizeof kPalette[0])];
}

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string printf_string(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// A value for people: about three significant digits, no exponent for the
// range errors live in.
std::string fmt(double v) {
  if (!std::isfinite(v)) return "–";
  const double a = std::abs(v);
  if (a == 0.0) return "0";
  if (a >= 1000.0) return printf_string("%.0f", v);
  if (a >= 100.0) return printf_string("%.1f", v);
  if (a >= 10.0) return printf_string("%.2f", v);
  if (a >= 1.0) return printf_string("%.3f", v);
  if (a >= 0.001) return printf_string("%.4f", v);
  return printf_string("%.2e", v);
}
// Axis ticks are round numbers: %g shows them as written.
std::string tick(double v) {
  return printf_string("%g", v);
}
std::string percent(double share) {
  return printf_string(share >= 0.9995 || share < 0.0995 ? "%.2f%%" : "%.1f%%", 100 * share);
}
// Coordinates in SVG: one decimal is plenty.
std::string px(double v) {
  return printf_string("%.1f", v);
}

std::vector<double> linear_ticks(double lo, double hi) {
  const double range = hi - lo;
  if (!(range > 0)) return {lo};
  const double rough = range / 5.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
  double step = magnitude;
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * magnitude;
    if (step >= rough) break;
  }
  std::vector<double> ticks;
  for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
    ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
  return ticks;
}

std::vector<double> log_ticks(double lo, double hi) {
  std::vector<double> ticks;
  const int first = static_cast<int>(std::floor(std::log10(lo))), last = static_cast<int>(std::ceil(std::log10(hi)));
  const bool fine = last - first <= 3;
  for (int e = first; e <= last; ++e) {
    for (const double m : {1.0, 2.0, 5.0}) {
      if (m != 1.0 && !fine) continue;
      const double t = m * std::pow(10.0, e);
      if (t >= lo * 0.999 && t <= hi * 1.001) ticks.push_back(t);
    }
  }
  return ticks;
}

// A log domain around the positive values of `values`, padded a little.
void log_domain(const std::vector<double>& values, double& lo, double& hi) {
  lo = std::numeric_limits<double>::infinity();
  hi = 0.0;
  for (const double v : values) {
    if (v > 0 && std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (!(hi > 0)) {
    lo = 0.01;
    hi = 1.0;
    return;
  }
  lo = std::pow(10.0, std::floor(std::log10(lo) * 4) / 4);
  hi = std::pow(10.0, std::ceil(std::log10(hi) * 4) / 4);
  if (hi <= lo * 1.5) hi = lo * 10;
}

// Log axes when the values span a decade or more, else linear from 0: a
// log axis over 55..130 cm shows one tick. The y axis leaves room above the
// points for the legend.
void set_domain(Frame& f, const std::vector<double>& xs, const std::vector<double>& ys) {
  auto set = [](const std::vector<double>& values, double& lo, double& hi) {
    log_domain(values, lo, hi);
    double top = 0.0, bottom = std::numeric_limits<double>::infinity();
    for (const double v : values) {
      if (v > 0 && std::isfinite(v)) top = std::max(top, v), bottom = std::min(bottom, v);
    }
    if (top > 0 && top < 10 * bottom) {
      lo = 0.0;
      hi = top * 1.1;
      return false;
    }
    return true;
  };
  double lo, hi;
  const bool x_log = set(xs, lo, hi);
  f.set_x(lo, hi, x_log);
  const bool y_log = set(ys, lo, hi);
  f.set_y(lo, y_log ? hi * 3.0 : hi * 1.2, y_log);
}

}  // namespace mocap::html
