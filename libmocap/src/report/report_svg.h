// Internal to the report tier: the SVG chart kit of the HTML report (axes,
// ticks, lines, dots, legends drawn as inline SVG text) and the number and
// text formatting the report's plots and page share.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace mocap::html {

// Text with &, <, >, " and ' as entities: safe in elements and attributes.
std::string escape(std::string_view s);
// `v` through snprintf's `format` (one double).
std::string printf_string(const char* format, double v);
// A value for people: about three significant digits, no exponent for the
// range errors live in.
std::string fmt(double v);
// Axis ticks are round numbers: %g shows them as written.
std::string tick(double v);
// A share (0..1) as a percentage with one or two decimals.
std::string percent(double share);
// Coordinates in SVG: one decimal is plenty.
std::string px(double v);

// The i-th colour of a seven-colour palette, repeating.
const char* palette(std::size_t i);

// ---------------------------------------------------------------------------
// Plot frames

struct Scale {
  double lo = 0.0, hi = 1.0;    // domain
  double from = 0.0, to = 1.0;  // pixels
  bool log = false;
  double operator()(double v) const {
    double t;
    if (log) {
      v = std::max(v, lo);
      t = (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
    } else {
      t = (v - lo) / (hi - lo);
    }
    return from + std::clamp(t, -0.02, 1.02) * (to - from);
  }
};

// Round ticks (1, 2 or 5 times a power of ten, about five) over [lo, hi].
std::vector<double> linear_ticks(double lo, double hi);
// Ticks at the powers of ten in [lo, hi], with 2 and 5 between them when
// the range spans at most three decades.
std::vector<double> log_ticks(double lo, double hi);
// A log domain around the positive values of `values`, padded a little.
void log_domain(const std::vector<double>& values, double& lo, double& hi);

struct Frame {
  double width = 640, height = 360;
  double left = 64, right = 16, top = 16, bottom = 48;
  Scale x, y;
  std::string svg;

  Frame(double w, double h) : width(w), height(h) {}
  void set_x(double lo, double hi, bool log) { x = {lo, hi, left, width - right, log}; }
  void set_y(double lo, double hi, bool log) { y = {lo, hi, height - bottom, top, log}; }

  void open(const std::string& label) {
    svg += "<svg viewBox=\"0 0 " + px(width) + " " + px(height) + "\" width=\"" + px(width) + "\" height=\"" +
           px(height) + "\" role=\"img\" aria-label=\"" + escape(label) + "\">";
  }
  void axes(const std::string& x_title, const std::string& y_title, bool x_percent = false) {
    const double x0 = left, x1 = width - right, y0 = height - bottom, y1 = top;
    const auto xt = x.log ? log_ticks(x.lo, x.hi) : linear_ticks(x.lo, x.hi);
    const auto yt = y.log ? log_ticks(y.lo, y.hi) : linear_ticks(y.lo, y.hi);
    for (const double t : yt) {
      const double py = y(t);
      svg += "<line class=\"grid\" x1=\"" + px(x0) + "\" x2=\"" + px(x1) + "\" y1=\"" + px(py) + "\" y2=\"" + px(py) +
             "\"/><text class=\"tick\" x=\"" + px(x0 - 6) + "\" y=\"" + px(py + 4) + "\" text-anchor=\"end\">" +
             tick(t) + "</text>";
    }
    for (const double t : xt) {
      const double qx = x(t);
      svg += "<line class=\"grid\" x1=\"" + px(qx) + "\" x2=\"" + px(qx) + "\" y1=\"" + px(y0) + "\" y2=\"" + px(y1) +
             "\"/><text class=\"tick\" x=\"" + px(qx) + "\" y=\"" + px(y0 + 16) + "\" text-anchor=\"middle\">" +
             (x_percent ? tick(100 * t) + "%" : tick(t)) + "</text>";
    }
    svg += "<rect class=\"plotarea\" x=\"" + px(x0) + "\" y=\"" + px(y1) + "\" width=\"" + px(x1 - x0) +
           "\" height=\"" + px(y0 - y1) + "\"/>";
    svg += "<text class=\"axis\" x=\"" + px((x0 + x1) / 2) + "\" y=\"" + px(height - 10) +
           "\" text-anchor=\"middle\">" + escape(x_title) + "</text>";
    svg += "<text class=\"axis\" transform=\"translate(14 " + px((y0 + y1) / 2) +
           ") rotate(-90)\" text-anchor=\"middle\">" + escape(y_title) + "</text>";
  }
  void polyline(const std::vector<std::pair<double, double>>& points, const char* colour, bool dashed,
                double width_px = 2.0) {
    if (points.empty()) return;
    svg += "<polyline fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"" + px(width_px) + "\"";
    if (dashed) svg += " stroke-dasharray=\"6 4\"";
    svg += " stroke-linejoin=\"round\" points=\"";
    for (const auto& [a, b] : points) svg += px(x(a)) + "," + px(y(b)) + " ";
    svg += "\"/>";
  }
  void dot(double a, double b, double r, const char* colour, double opacity, const std::string& title = "",
           const char* cls = nullptr) {
    svg += "<circle";
    if (cls) svg += std::string(" class=\"") + cls + "\"";
    svg += " cx=\"" + px(x(a)) + "\" cy=\"" + px(y(b)) + "\" r=\"" + px(r) + "\" fill=\"" + colour +
           "\" fill-opacity=\"" + px(opacity) + "\">";
    if (!title.empty()) svg += "<title>" + escape(title) + "</title>";
    svg += "</circle>";
  }
  // Legend entries in a row from the top left of the plot area.
  void legend(const std::vector<std::tuple<std::string, const char*, bool>>& entries) {
    double lx = left + 10, ly = top + 14;
    for (const auto& [label, colour, dashed] : entries) {
      const double w = 34 + 6.6 * static_cast<double>(label.size());
      if (lx + w > width - right) {
        lx = left + 10;
        ly += 18;
      }
      svg += "<line x1=\"" + px(lx) + "\" x2=\"" + px(lx + 22) + "\" y1=\"" + px(ly - 4) + "\" y2=\"" + px(ly - 4) +
             "\" stroke=\"" + colour + "\" stroke-width=\"3\"" + (dashed ? " stroke-dasharray=\"6 4\"" : "") +
             "/><text class=\"legend\" x=\"" + px(lx + 28) + "\" y=\"" + px(ly) + "\">" + escape(label) + "</text>";
      lx += w;
    }
  }
  std::string close() { return svg + "</svg>"; }
};
// Log axes when the values span a decade or more, else linear from 0: a
// log axis over 55..130 cm shows one tick. The y axis leaves room above the
// points for the legend.
void set_domain(Frame& f, const std::vector<double>& xs, const std::vector<double>& ys);

}  // namespace mocap::html
