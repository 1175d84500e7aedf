// Reports as one self-contained HTML page: styles, plots (inline SVG drawn
// here) and the table sorter are all in the file, so it opens offline and
// can be mailed or archived as is.
#include <mocap/batch/report_format.h>
#include <mocap/batch/report_summary.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace mocap {
namespace {

constexpr const char* kSelectionColour = "#2563eb";
constexpr const char* kUniformColour = "#ea580c";
constexpr const char* kTrackColour = "#16a34a";
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

std::string budget_label(BudgetKind kind, double budget) {
  switch (kind) {
    case BudgetKind::kRatio: return printf_string("%g%% keys", 100.0 * budget);
    case BudgetKind::kThreshold: return "threshold " + printf_string("%g", budget);
    case BudgetKind::kMaxError: return "max error " + printf_string("%g", budget) + " cm";
  }
  return "";
}

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

// ---------------------------------------------------------------------------
// The plots

std::string plot_error_vs_ratio(const Report& report, const ReportSummary& summary) {
  Frame f(660, 400);
  f.open("Position error against key ratio");
  std::vector<double> ys;
  double max_ratio = 0.0;
  for (const BudgetSummary& b : summary.budgets) {
    ys.insert(ys.end(), {b.position.mean, b.position.p99, b.uniform_position.mean, b.uniform_position.p99});
    max_ratio = std::max(max_ratio, b.key_ratio);
  }
  for (const ClipResult& c : report.clips) {
    for (const BudgetResult& b : c.budgets) {
      ys.push_back(b.position.mean);
      ys.push_back(b.uniform_position.mean);
      max_ratio = std::max(max_ratio, b.key_ratio);
    }
  }
  double lo, hi;
  log_domain(ys, lo, hi);
  f.set_x(0.0, std::max(max_ratio * 1.1, 0.01), false);
  f.set_y(lo, hi, true);
  f.axes("keys / frames", "position error (cm)", true);
  for (const ClipResult& c : report.clips) {
    for (const BudgetResult& b : c.budgets) {
      const std::string tip = c.name + ": " + fmt(100 * b.key_ratio) + "% keys, mean ";
      f.dot(b.key_ratio, b.uniform_position.mean, 2.2, kUniformColour, 0.25,
            tip + fmt(b.uniform_position.mean) + " cm (uniform)");
      f.dot(b.key_ratio, b.position.mean, 2.2, kSelectionColour, 0.25, tip + fmt(b.position.mean) + " cm (selection)");
    }
  }
  std::vector<BudgetSummary> sorted = summary.budgets;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.key_ratio < b.key_ratio; });
  auto curve = [&](auto get) {
    std::vector<std::pair<double, double>> points;
    for (const BudgetSummary& b : sorted) points.emplace_back(b.key_ratio, get(b));
    return points;
  };
  f.polyline(curve([](const BudgetSummary& b) { return b.uniform_position.p99; }), kUniformColour, true);
  f.polyline(curve([](const BudgetSummary& b) { return b.position.p99; }), kSelectionColour, true);
  f.polyline(curve([](const BudgetSummary& b) { return b.uniform_position.mean; }), kUniformColour, false, 2.5);
  f.polyline(curve([](const BudgetSummary& b) { return b.position.mean; }), kSelectionColour, false, 2.5);
  for (const BudgetSummary& b : sorted) {
    f.dot(b.key_ratio, b.uniform_position.mean, 4, kUniformColour, 1.0,
          "uniform: mean " + fmt(b.uniform_position.mean) + " cm, p99 " + fmt(b.uniform_position.p99) + " cm");
    f.dot(b.key_ratio, b.position.mean, 4, kSelectionColour, 1.0,
          "selection: mean " + fmt(b.position.mean) + " cm, p99 " + fmt(b.position.p99) + " cm");
  }
  f.legend({{"selection, mean", kSelectionColour, false},
            {"selection, p99", kSelectionColour, true},
            {"uniform, mean", kUniformColour, false},
            {"uniform, p99", kUniformColour, true}});
  return f.close();
}

std::string plot_max_distribution(const Report& report) {
  Frame f(660, 400);
  f.open("Distribution of per-clip max position error");
  std::vector<double> all;
  for (const ClipResult& c : report.clips) {
    for (const BudgetResult& b : c.budgets) all.push_back(b.position.max);
  }
  double lo, hi;
  log_domain(all, lo, hi);
  const int per_decade = 4;
  const int bins = std::max(1, static_cast<int>(std::lround((std::log10(hi) - std::log10(lo)) * per_decade)));
  std::vector<std::vector<int>> counts(report.options.budgets.size(),
                                       std::vector<int>(static_cast<std::size_t>(bins), 0));
  int most = 1;
  for (const ClipResult& c : report.clips) {
    for (std::size_t i = 0; i < c.budgets.size() && i < counts.size(); ++i) {
      const double v = std::max(c.budgets[i].position.max, lo);
      const int b = std::clamp(static_cast<int>((std::log10(v) - std::log10(lo)) * per_decade), 0, bins - 1);
      most = std::max(most, ++counts[i][static_cast<std::size_t>(b)]);
    }
  }
  f.set_x(lo, hi, true);
  f.set_y(0, most * 1.15, false);
  f.axes("max position error of a clip (cm)", "clips");
  std::vector<std::tuple<std::string, const char*, bool>> legend;
  const double group = (f.x(std::pow(10.0, std::log10(lo) + 1.0 / per_decade)) - f.x(lo));
  const double bar = std::max(2.0, (group - 4) / static_cast<double>(counts.size()));
  for (std::size_t i = 0; i < counts.size(); ++i) {
    for (int b = 0; b < bins; ++b) {
      const int n = counts[i][static_cast<std::size_t>(b)];
      if (n == 0) continue;
      const double from = std::pow(10.0, std::log10(lo) + static_cast<double>(b) / per_decade);
      const double x0 = f.x(from) + 2 + bar * static_cast<double>(i);
      f.svg += "<rect x=\"" + px(x0) + "\" y=\"" + px(f.y(n)) + "\" width=\"" + px(bar - 1) + "\" height=\"" +
               px(f.y(0) - f.y(n)) + "\" fill=\"" + palette(i) + "\"><title>" +
               escape(budget_label(report.options.kind, report.options.budgets[i])) + ": " + std::to_string(n) +
               (n == 1 ? " clip" : " clips") + " with max in " + fmt(from) + "–" +
               fmt(from * std::pow(10.0, 1.0 / per_decade)) + " cm</title></rect>";
    }
    legend.emplace_back(budget_label(report.options.kind, report.options.budgets[i]), palette(i), false);
  }
  f.legend(legend);
  return f.close();
}

std::string plot_joints(const Report& report, const ReportSummary& summary) {
  if (summary.budgets.empty() || summary.budgets.front().joints.empty()) return "";
  const std::vector<std::string>& joints = summary.budgets.front().joints;
  const std::size_t groups = summary.budgets.size();
  Frame f(1320, 310);
  f.bottom = 62;
  f.top = 34;
  f.open("Mean position error per joint");
  double most = 0.0;
  for (const BudgetSummary& b : summary.budgets) {
    for (const double e : b.joint_error_cm) most = std::max(most, e);
  }
  f.set_y(0, most > 0 ? most * 1.05 : 1.0, false);
  f.set_x(0, static_cast<double>(joints.size()), false);
  // Vertical bars: the x axis holds names, so draw it by hand.
  const double x0 = f.left, x1 = f.width - f.right, y0 = f.height - f.bottom, y1 = f.top;
  for (const double t : linear_ticks(f.y.lo, f.y.hi)) {
    f.svg += "<line class=\"grid\" x1=\"" + px(x0) + "\" x2=\"" + px(x1) + "\" y1=\"" + px(f.y(t)) + "\" y2=\"" +
             px(f.y(t)) + "\"/><text class=\"tick\" x=\"" + px(x0 - 6) + "\" y=\"" + px(f.y(t) + 4) +
             "\" text-anchor=\"end\">" + tick(t) + "</text>";
  }
  f.svg += "<rect class=\"plotarea\" x=\"" + px(x0) + "\" y=\"" + px(y1) + "\" width=\"" + px(x1 - x0) +
           "\" height=\"" + px(y0 - y1) + "\"/>";
  f.svg += "<text class=\"axis\" transform=\"translate(14 " + px((y0 + y1) / 2) +
           ") rotate(-90)\" text-anchor=\"middle\">position error (cm)</text>";
  const double pitch = (x1 - x0) / static_cast<double>(joints.size());
  const double bar = std::min(12.0, (pitch - 6) / static_cast<double>(groups));
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const double centre = x0 + pitch * (static_cast<double>(j) + 0.5);
    f.svg += "<text class=\"tick\" transform=\"translate(" + px(centre + 3) + " " + px(y0 + 10) +
             ") rotate(-45)\" text-anchor=\"end\">" + escape(joints[j]) + "</text>";
    const double first = centre - bar * static_cast<double>(groups) / 2;
    for (std::size_t i = 0; i < groups; ++i) {
      const BudgetSummary& b = summary.budgets[i];
      // Joint names may differ between skeletons: look the name up.
      const auto it = std::find(b.joints.begin(), b.joints.end(), joints[j]);
      if (it == b.joints.end()) continue;
      const double e = b.joint_error_cm[static_cast<std::size_t>(it - b.joints.begin())];
      f.svg += "<rect x=\"" + px(first + bar * static_cast<double>(i)) + "\" y=\"" + px(f.y(e)) + "\" width=\"" +
               px(bar - 1) + "\" height=\"" + px(std::max(0.5, y0 - f.y(e))) + "\" fill=\"" + palette(i) +
               "\"><title>" + escape(joints[j]) + ", " + escape(budget_label(report.options.kind, b.budget)) + ": " +
               fmt(e) + " cm</title></rect>";
    }
  }
  std::vector<std::tuple<std::string, const char*, bool>> legend;
  for (std::size_t i = 0; i < groups; ++i) {
    legend.emplace_back(budget_label(report.options.kind, summary.budgets[i].budget), palette(i), false);
  }
  f.top = 4;
  f.legend(legend);
  return f.close();
}

// One of the worst clips at one budget: its position error over its own
// time. `y_max` is shared by a budget's plots so that they compare.
std::string plot_worst_curve(const ErrorCurve& c, double y_max, const char* colour) {
  Frame f(430, 190);
  f.left = 52;
  f.right = 10;
  f.top = 26;
  f.bottom = 40;
  f.open("Position error over time of " + c.name);
  const double duration = static_cast<double>(c.error_cm.size() * static_cast<std::size_t>(c.stride)) / c.fps;
  f.set_x(0, duration > 0 ? duration : 1.0, false);
  f.set_y(0, y_max > 0 ? y_max * 1.05 : 1.0, false);
  f.axes("time (s)", "cm");
  std::vector<std::pair<double, double>> points;
  for (std::size_t i = 0; i < c.error_cm.size(); ++i) {
    points.emplace_back((static_cast<double>(i) + 0.5) * c.stride / c.fps, c.error_cm[i]);
  }
  f.polyline(points, colour, false, 1.2);
  f.svg += "<text class=\"legend\" x=\"" + px(f.left) + "\" y=\"16\"><tspan font-weight=\"600\">" + escape(c.name) +
           "</tspan>  max " + fmt(c.max_cm) + " cm</text>";
  return f.close();
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

// The .mkc files: for each budget one point per key set at (total KB per
// second of motion, worst joint error of any decoded file), joined in order
// of size, so that the curve reads as error against storage.
std::string plot_error_vs_bytes(const Report& report, const ReportSummary& summary) {
  Frame f(660, 400);
  f.open("Worst joint error against bytes per second");
  const ReportOptions& o = report.options;
  std::vector<double> xs, ys;
  if (o.clip_files) {
    for (const BudgetSummary& b : summary.budgets) {
      xs.insert(xs.end(), {b.file.kb_per_second, b.uniform_file.kb_per_second});
      ys.insert(ys.end(), {b.file.joint_max_cm, b.uniform_file.joint_max_cm});
    }
  }
  for (const FileSummary& t : summary.track_files) {
    xs.push_back(t.kb_per_second);
    ys.push_back(t.joint_max_cm);
  }
  set_domain(f, xs, ys);
  f.axes("KB per second of motion (all clips)", "worst joint error (cm)");
  auto line = [&](auto get, const char* colour, const char* cls, const char* name) {
    std::vector<std::pair<double, double>> points;
    std::vector<std::size_t> order(summary.budgets.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return get(summary.budgets[a]).kb_per_second < get(summary.budgets[b]).kb_per_second;
    });
    for (const std::size_t i : order)
      points.emplace_back(get(summary.budgets[i]).kb_per_second, get(summary.budgets[i]).joint_max_cm);
    f.polyline(points, colour, false, 2.5);
    for (const std::size_t i : order) {
      const FileSummary& fs = get(summary.budgets[i]);
      f.dot(fs.kb_per_second, fs.joint_max_cm, 4.5, colour, 1.0,
            std::string(name) + ", " + budget_label(report.options.kind, summary.budgets[i].budget) + ": " +
                fmt(fs.kb_per_second) + " KB/s, worst joint " + fmt(fs.joint_max_cm) + " cm (" + fs.joint_max_clip +
                " " + fs.joint_max_joint + " frame " + std::to_string(fs.joint_max_frame) + ")",
            cls);
    }
  };
  std::vector<std::tuple<std::string, const char*, bool>> legend;
  if (o.clip_files) {
    line([](const BudgetSummary& b) -> const FileSummary& { return b.uniform_file; }, kUniformColour, "bytes-uniform",
         "uniform keys");
    line([](const BudgetSummary& b) -> const FileSummary& { return b.file; }, kSelectionColour, "bytes-ours",
         "selected keys");
    legend = {{"selected keys (whole-pose .mkc)", kSelectionColour, false},
              {"uniform keys (whole-pose .mkc)", kUniformColour, false}};
  }
  if (!summary.track_files.empty()) {
    // Bounds in order of size, as the key sets.
    std::vector<std::pair<double, double>> points;
    for (const FileSummary& t : summary.track_files) points.emplace_back(t.kb_per_second, t.joint_max_cm);
    std::sort(points.begin(), points.end());
    f.polyline(points, kTrackColour, false, 2.5);
    for (std::size_t i = 0; i < summary.track_files.size(); ++i) {
      const FileSummary& t = summary.track_files[i];
      f.dot(t.kb_per_second, t.joint_max_cm, 4.5, kTrackColour, 1.0,
            "per-track keys within " + tick(o.track_bounds_cm[i]) + " cm: " + fmt(t.kb_per_second) +
                " KB/s, worst joint " + fmt(t.joint_max_cm) + " cm (" + t.joint_max_clip + " " + t.joint_max_joint +
                " frame " + std::to_string(t.joint_max_frame) + ")",
            "bytes-track");
    }
    legend.emplace_back("per-track keys (.mkc, per bound)", kTrackColour, false);
  }
  f.legend(legend);
  return f.close();
}

// Per clip and budget, the selected keys' file: compression ratio against
// the worst joint error of the decoded file, as ACL's CMU report plots it.
std::string plot_ratio_scatter(const Report& report) {
  Frame f(660, 400);
  f.open("Compression ratio against worst joint error, per clip");
  const ReportOptions& o = report.options;
  std::vector<double> xs, ys;
  for (const ClipResult& c : report.clips) {
    for (const BudgetResult& b : c.budgets) {
      if (!o.clip_files) break;
      xs.push_back(b.file.ratio);
      ys.push_back(b.file.joint_max_cm);
    }
    for (const ClipFileResult& t : c.track_files) {
      xs.push_back(t.ratio);
      ys.push_back(t.joint_max_cm);
    }
  }
  set_domain(f, xs, ys);
  f.axes("compression ratio (float32 channels / .mkc bytes)", "worst joint error of the clip (cm)");
  std::vector<std::tuple<std::string, const char*, bool>> legend;
  for (std::size_t i = 0; o.clip_files && i < o.budgets.size(); ++i) {
    for (const ClipResult& c : report.clips) {
      if (!c.ok || i >= c.budgets.size()) continue;
      const ClipFileResult& file = c.budgets[i].file;
      f.dot(file.ratio, file.joint_max_cm, 3.5, palette(i), 0.75,
            c.name + ", " + budget_label(report.options.kind, report.options.budgets[i]) + ": " + fmt(file.ratio) +
                ":1, worst joint " + fmt(file.joint_max_cm) + " cm (" + file.joint_max_joint + " frame " +
                std::to_string(file.joint_max_frame) + ")",
            "ratio-point");
    }
    legend.emplace_back(budget_label(report.options.kind, report.options.budgets[i]), palette(i), false);
  }
  // Per-track files: squares, coloured after the budgets'.
  for (std::size_t i = 0; i < o.track_bounds_cm.size(); ++i) {
    const char* colour = palette(o.budgets.size() + i);
    for (const ClipResult& c : report.clips) {
      if (!c.ok || i >= c.track_files.size()) continue;
      const ClipFileResult& t = c.track_files[i];
      const double x = f.x(t.ratio), y = f.y(t.joint_max_cm);
      f.svg += "<rect class=\"track-point\" x=\"" + px(x - 3.5) + "\" y=\"" + px(y - 3.5) +
               "\" width=\"7\" height=\"7\" fill=\"" + colour + "\" fill-opacity=\"0.8\"><title>" +
               escape(c.name + ", per-track within " + tick(o.track_bounds_cm[i]) + " cm: " + fmt(t.ratio) +
                      ":1, worst joint " + fmt(t.joint_max_cm) + " cm (" + t.joint_max_joint + " frame " +
                      std::to_string(t.joint_max_frame) + ")") +
               "</title></rect>";
    }
    legend.emplace_back("per-track " + tick(o.track_bounds_cm[i]) + " cm", colour, false);
  }
  f.legend(legend);
  return f.close();
}

// ---------------------------------------------------------------------------
// The page

constexpr const char* kStyle = R"(
:root{--fg:#1f2937;--muted:#6b7280;--line:#e5e7eb;--bg:#f8fafc;--card:#fff;--accent:#2563eb}
*{box-sizing:border-box}
body{margin:0;padding:24px 32px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 10px}h3{font-size:14px;margin:0 0 6px}
.sub{color:var(--muted);margin:0 0 18px}
.cards{display:flex;flex-wrap:wrap;gap:12px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 16px;min-width:140px}
.card .v{font-size:22px;font-weight:600}.card .k{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.card.bad .v{color:#dc2626}
.plots{display:grid;grid-template-columns:repeat(auto-fit,minmax(660px,1fr));gap:16px}
.plot{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px}
.plot p{color:var(--muted);margin:4px 0 0;font-size:12px}
.plot.wide{grid-column:1/-1}.timegrid{display:grid;gap:4px 12px}.timegrid h3{margin:4px 0 0}
svg{max-width:100%;height:auto;display:block}
svg text{font-family:inherit;fill:#374151}
svg .tick{font-size:11px;fill:#6b7280}svg .axis{font-size:12px}svg .legend{font-size:12px}
svg .grid{stroke:#eef0f3;stroke-width:1}svg .plotarea{fill:none;stroke:#d1d5db}
table{border-collapse:collapse;background:var(--card);border:1px solid var(--line);font-variant-numeric:tabular-nums}
th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th{background:#f1f5f9;font-weight:600;position:sticky;top:0}
td.t,th.t{text-align:left}
thead tr.group th{background:#e2e8f0;text-align:center;border-left:1px solid #cbd5e1}
table.sortable thead tr:last-child th{cursor:pointer;user-select:none}
table.sortable th[data-dir=asc]::after{content:" \25B2";font-size:9px}
table.sortable th[data-dir=desc]::after{content:" \25BC";font-size:9px}
tbody tr:hover{background:#f8fafc}
td.sel{color:#1d4ed8}td.uni{color:#c2410c}
.fail td{color:#b91c1c}
.wrap{overflow-x:auto}
.notes{color:var(--muted);font-size:12px;max-width:900px}
)";

// Click a header of the last header row to sort by it; numbers sort as numbers
// (from data-v when the cell shows something else).
constexpr const char* kScript = R"(
document.querySelectorAll('table.sortable').forEach(function (table) {
  var heads = table.tHead.rows[table.tHead.rows.length - 1].cells;
  Array.prototype.forEach.call(heads, function (th, column) {
    th.addEventListener('click', function () {
      var dir = th.getAttribute('data-dir') === 'asc' ? 'desc' : 'asc';
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('data-dir'); });
      th.setAttribute('data-dir', dir);
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      var key = function (row) {
        var cell = row.cells[column], v = cell.getAttribute('data-v');
        if (v === null) v = cell.textContent;
        var n = parseFloat(v);
        return isNaN(n) ? v.toLowerCase() : n;
      };
      rows.sort(function (a, b) {
        var x = key(a), y = key(b), c = (typeof x === typeof y) ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === 'number' ? -1 : 1);
        return dir === 'asc' ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
)";

std::string card(const std::string& key, const std::string& value, bool bad = false) {
  return std::string("<div class=\"card") + (bad ? " bad" : "") + "\"><div class=\"k\">" + escape(key) +
         "</div><div class=\"v\">" + escape(value) + "</div></div>";
}

std::string cell(double v, const char* cls = nullptr) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return std::string("<td") + (cls ? std::string(" class=\"") + cls + "\"" : "") + " data-v=\"" + buf + "\">" + fmt(v) +
         "</td>";
}

std::string duration_text(double seconds) {
  if (seconds < 120) return printf_string("%.1f s", seconds);
  if (seconds < 7200) return printf_string("%.1f min", seconds / 60);
  return printf_string("%.2f h", seconds / 3600);
}

// One row of the jitter summary: the velocity error and the planted feet of
// one kind of motion over every clip.
std::string jitter_row(const std::string& what, const JitterSummary& j, const char* cls) {
  std::string h = "<tr><td class=\"t\">" + escape(what) + "</td>";
  h += cell(j.velocity_mean_cm_s, cls) + cell(j.velocity_p99_cm_s, cls) + "<td class=\"t\">" +
       escape(j.velocity_p99_clip) + "</td>" + cell(j.velocity_max_cm_s, cls) + "<td class=\"t\">" +
       escape(j.velocity_max_clip + " " + j.velocity_max_joint + " frame " + std::to_string(j.velocity_max_frame)) +
       "</td>";
  h += "<td>" + std::to_string(j.planted_frames) + "</td>" + cell(j.planted_capture_cm_s, cls) +
       cell(j.planted_cm_s, cls) + cell(j.planted_difference_cm_s, cls) + cell(j.planted_worst_difference_cm_s, cls) +
       "<td class=\"t\">" + escape(j.planted_worst_clip) + "</td></tr>";
  return h;
}

// A clip's jitter in two sortable cells: the velocity error's p99 and the
// planted feet's difference, the rest in their tooltips.
std::string jitter_cells(const JitterResult& j, const char* cls) {
  std::string h = "<td class=\"" + std::string(cls) + "\" data-v=\"" + printf_string("%.17g", j.velocity.p99) +
                  "\" title=\"mean " + fmt(j.velocity.mean) + ", max " + fmt(j.velocity.max) + " cm/s (" +
                  escape(j.velocity_max_joint) + ", frame " + std::to_string(j.velocity_max_frame) + ")\">" +
                  fmt(j.velocity.p99) + "</td>";
  if (!j.feet) return h + "<td class=\"" + std::string(cls) + "\" data-v=\"\" title=\"no feet found\">–</td>";
  return h + "<td class=\"" + std::string(cls) + "\" data-v=\"" + printf_string("%.17g", j.planted_difference_cm_s) +
         "\" title=\"" + std::to_string(j.planted_frames) + " contact frames: ball speed original " +
         fmt(j.planted_capture_cm_s) + ", this " + fmt(j.planted_cm_s) + " cm/s\">" +
         printf_string("%+.2f", j.planted_difference_cm_s) + "</td>";
}

}  // namespace

std::string format_html(const Report& report) {
  const ReportSummary s = summarise(report);
  const ReportOptions& o = report.options;
  std::string h;
  h.reserve(1 << 20);
  h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
       "<title>Keyframe compression report</title><style>";
  h += kStyle;
  h += "</style></head><body>\n";
  h += "<h1>Keyframe compression report</h1><p class=\"sub\">";
  h += std::to_string(s.clips) + " clips at " + std::to_string(o.budgets.size()) + " budgets (";
  for (std::size_t i = 0; i < o.budgets.size(); ++i) {
    h += (i ? ", " : "") + escape(budget_label(o.kind, o.budgets[i]));
  }
  h += "); error is the world position error of the rebuilt motion, mean over joints per frame, in cm. ";
  h += "Ran on " + std::to_string(report.threads) + " thread" + (report.threads == 1 ? "" : "s") + " in " +
       duration_text(report.wall_seconds);
  if (report.shard_count > 1) {
    h += " (shard " + std::to_string(report.shard_index) + " of " + std::to_string(report.shard_count) + ": every " +
         std::to_string(report.shard_count) + "th clip)";
  }
  h += ".</p>\n<div class=\"cards\">";
  h += card("clips", std::to_string(s.ok) + (s.failed ? " ok" : ""));
  if (s.failed) h += card("failed", std::to_string(s.failed), true);
  h += card("frames", std::to_string(s.frames));
  h += card("motion", printf_string(s.hours < 1 ? "%.1f min" : "%.2f h", s.hours < 1 ? s.hours * 60 : s.hours));
  h += card("wall time", duration_text(report.wall_seconds));
  if (report.wall_seconds > 0) {
    h += card("throughput", printf_string("%.0f frames/s", static_cast<double>(s.frames) / report.wall_seconds));
  }
  h += "</div>\n";

  // How it was made: enough to run it again.
  h += "<h2>Run</h2><div class=\"wrap\"><table class=\"settings\"><tbody>";
  auto row = [&](const std::string& key, const std::string& value) {
    h += "<tr><th class=\"t\">" + escape(key) + "</th><td class=\"t\">" + escape(value) + "</td></tr>";
  };
  auto list = [](const std::vector<double>& values, const char* unit) {
    std::string text;
    for (std::size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + tick(values[i]);
    return text + unit;
  };
  row("tool",
      "mocap " + (report.run.tool_version.empty() ? std::string("(version not recorded)") : report.run.tool_version));
  row("date (UTC)", report.run.date_utc.empty() ? "(not recorded)" : report.run.date_utc);
  row("command line", report.run.command_line.empty() ? "(not recorded)" : report.run.command_line);
  row("budget kind", std::string(budget_kind_name(o.kind)));
  row("budgets", list(o.budgets, o.kind == BudgetKind::kMaxError ? " cm" : ""));
  row("frame rate", tick(o.fps) + " frames/s");
  row("selection passes", std::to_string(o.selection_passes));
  row("velocity weight (lambda)", tick(o.error.velocity_weight));
  row("shell radius", tick(o.error.shell_radius * 100) + " cm");
  row("frames counted under", list(o.under_cm, " cm"));
  row("worst clips plotted", std::to_string(o.worst_clips));
  row("threads", std::to_string(report.threads) +
                     (o.threads == 0 ? " (every core)" : " (asked " + std::to_string(o.threads) + ")"));
  row("shard", std::to_string(report.shard_index) + " of " + std::to_string(report.shard_count));
  row(".mkc files", o.clip_files ? "whole-pose keys, values quantised within " + tick(o.clip_file_error_cm) + " cm"
                                 : "off (--no-mkc)");
  row("per-track .mkc bounds",
      o.track_bounds_cm.empty() ? std::string("none (--bounds)") : list(o.track_bounds_cm, " cm"));
  h += "</tbody></table></div>\n";

  // Summary per budget.
  h += "<h2>Summary</h2><div class=\"wrap\"><table><thead><tr class=\"group\"><th></th><th></th>"
       "<th colspan=\"3\">selection: position error (cm)</th><th colspan=\"3\">uniform keys: position error (cm)</th>"
       "<th colspan=\"3\">worst joint (cm)</th><th colspan=\"2\">shell max (cm)</th>";
  if (!o.under_cm.empty()) {
    h += "<th colspan=\"" + std::to_string(2 * o.under_cm.size()) + "\">frames under</th>";
  }
  h += "<th></th><th></th></tr><tr><th class=\"t\">budget</th><th>keys</th><th>mean</th><th>p99</th><th>max</th>"
       "<th>mean</th><th>p99</th><th>max</th><th>selection</th><th class=\"t\">where</th><th>uniform</th>"
       "<th>selection</th><th>uniform</th>";
  for (const double u : o.under_cm) {
    h += "<th>" + tick(u) + " cm</th><th>uniform</th>";
  }
  h += "<th class=\"t\">best clip</th><th class=\"t\">worst clip</th></tr></thead><tbody>";
  for (const BudgetSummary& b : s.budgets) {
    h += "<tr><td class=\"t\">" + escape(budget_label(o.kind, b.budget)) + "</td><td>" + std::to_string(b.keys) + " (" +
         percent(b.key_ratio) + ")</td>";
    h += cell(b.position.mean, "sel") + cell(b.position.p99, "sel") + cell(b.position.max, "sel");
    h += cell(b.uniform_position.mean, "uni") + cell(b.uniform_position.p99, "uni") +
         cell(b.uniform_position.max, "uni");
    h += cell(b.joint_max, "sel") + "<td class=\"t\">" +
         escape(b.joint_max_clip + " " + b.joint_max_joint + " frame " + std::to_string(b.joint_max_frame)) + "</td>" +
         cell(b.uniform_joint_max, "uni");
    h += cell(b.shell_max, "sel") + cell(b.uniform_shell_max, "uni");
    for (std::size_t u = 0; u < o.under_cm.size(); ++u) {
      h += "<td class=\"sel\">" + percent(u < b.share_under.size() ? b.share_under[u] : 0.0) + "</td>";
      h += "<td class=\"uni\">" + percent(u < b.uniform_share_under.size() ? b.uniform_share_under[u] : 0.0) + "</td>";
    }
    auto rank = [](const std::vector<ClipRank>& r) {
      return r.empty() ? std::string("–") : escape(r.front().name) + " (" + fmt(r.front().max_cm) + ")";
    };
    h += "<td class=\"t\">" + rank(b.best) + "</td><td class=\"t\">" + rank(b.worst) + "</td></tr>";
  }
  h += "</tbody></table></div>\n";
  h += "<p class=\"notes\">p99 is the 99th percentile over every frame of every clip (from a histogram of 1.2 % wide "
       "bins, so at most 1.2 % high); max is the largest single frame. The uniform baseline rebuilds each clip from "
       "the same number of keys spaced evenly. Best and worst clip by max position error, in cm.</p>\n";

  // The .mkc files per budget.
  if (o.clip_files) {
    h += "<h2>Compressed clip files (.mkc)</h2><div class=\"wrap\"><table class=\"mkc\"><thead><tr class=\"group\">"
         "<th></th><th colspan=\"6\">selected keys</th><th colspan=\"6\">uniform keys, the same count</th></tr><tr>"
         "<th class=\"t\">budget</th>";
    for (int k = 0; k < 2; ++k) {
      h += "<th>bytes</th><th>KB/s</th><th>ratio</th><th>worst joint (cm)</th><th class=\"t\">where</th>"
           "<th>mean joint (cm)</th>";
    }
    h += "</tr></thead><tbody>";
    for (const BudgetSummary& b : s.budgets) {
      h += "<tr><td class=\"t\">" + escape(budget_label(o.kind, b.budget)) + "</td>";
      for (const FileSummary* f : {&b.file, &b.uniform_file}) {
        const char* cls = f == &b.file ? "sel" : "uni";
        h += "<td class=\"" + std::string(cls) + "\">" + std::to_string(f->bytes) + "</td>" +
             cell(f->kb_per_second, cls) + cell(f->ratio, cls) + cell(f->joint_max_cm, cls) + "<td class=\"t\">" +
             escape(f->joint_max_clip + " " + f->joint_max_joint + " frame " + std::to_string(f->joint_max_frame)) +
             "</td>" + cell(f->joint_mean_cm, cls);
      }
      h += "</tr>";
    }
    h += "</tbody></table></div>\n<p class=\"notes\">Each clip's keys stored as a .mkc file in whole-pose mode "
         "(every channel keyed at the key frames, values quantised within " +
         tick(o.clip_file_error_cm) +
         " cm, Hermite between keys), as <code>mocap compress --ratio R -o clip.mkc</code> writes it. KB/s: the "
         "files' bytes summed over all clips / 1000 / the clips' seconds of motion summed (" +
         fmt(s.motion_seconds) + " s); ratio: float32 channels (" + std::to_string(s.raw_bytes) +
         " bytes) / file bytes. Worst joint: the decoded file against the original, every joint on every frame of "
         "every clip; where: clip, bone, AMC frame number.</p>\n";
  }

  if (!o.track_bounds_cm.empty()) {
    h += "<h2>Per-track keys (.mkc)</h2><div class=\"wrap\"><table class=\"mkc-track\"><thead><tr>"
         "<th class=\"t\">bound</th><th>bytes</th><th>KB/s</th><th>ratio</th><th>worst joint (cm)</th>"
         "<th class=\"t\">where</th><th>mean joint (cm)</th></tr></thead><tbody>";
    for (std::size_t i = 0; i < s.track_files.size(); ++i) {
      const FileSummary& f = s.track_files[i];
      h += "<tr><td class=\"t\">" + tick(o.track_bounds_cm[i]) + " cm</td><td>" + std::to_string(f.bytes) + "</td>" +
           cell(f.kb_per_second) + cell(f.ratio) + cell(f.joint_max_cm) + "<td class=\"t\">" +
           escape(f.joint_max_clip + " " + f.joint_max_joint + " frame " + std::to_string(f.joint_max_frame)) +
           "</td>" + cell(f.joint_mean_cm) + "</tr>";
    }
    h += "</tbody></table></div>\n<p class=\"notes\">Each clip encoded as <code>mocap compress --max-error B -o "
         "clip.mkc</code> encodes it: every channel its own B-spline keys, refined until the decoded file holds every "
         "joint on every frame within the bound. KB/s, ratio and worst joint as above.</p>\n";
  }

  // Jitter and planted feet.
  h += "<h2>Jitter and planted feet</h2><div class=\"wrap\"><table class=\"jitter\"><thead><tr class=\"group\">"
       "<th></th><th colspan=\"5\">joint velocity error (cm/s)</th><th colspan=\"6\">planted feet: ball speed (cm/s)"
       "</th></tr><tr><th class=\"t\">motion</th><th>mean</th><th>p99</th><th class=\"t\">worst p99</th><th>max</th>"
       "<th class=\"t\">where</th><th>contact frames</th><th>original</th><th>this</th><th>difference</th>"
       "<th>worst clip</th><th class=\"t\">which</th></tr></thead><tbody>";
  for (const BudgetSummary& b : s.budgets) {
    const std::string label = budget_label(o.kind, b.budget);
    h += jitter_row(label + ": rebuild from the keys", b.jitter, "sel");
    if (o.clip_files) {
      h += jitter_row(label + ": selected keys' .mkc", b.file.jitter, "sel");
      h += jitter_row(label + ": uniform keys' .mkc", b.uniform_file.jitter, "uni");
    }
  }
  for (std::size_t i = 0; i < s.track_files.size(); ++i) {
    h += jitter_row("per-track .mkc within " + tick(o.track_bounds_cm[i]) + " cm", s.track_files[i].jitter, "sel");
  }
  h += "</tbody></table></div>\n<p class=\"notes\">What a position error misses (compress/jitter.h). Joint velocity "
       "error: per joint and frame |v' - v|, velocities the central differences of world positions (cm/s); mean over "
       "every joint and frame of every clip; p99: the largest clip's 99th percentile (the clip named), an upper bound "
       "on the 99th percentile of all clips' joint-frames together; max: the largest single joint and frame. Planted "
       "feet: on the original's foot contacts (core/foot_contacts.h), the mean speed of the ball of the foot in the "
       "original and in this motion over every contact frame of every clip, their difference (&gt; 0: the feet "
       "slide), and the clip with the largest difference.";
  {
    const int without = s.budgets.empty() ? 0 : s.budgets.front().jitter.clips_without_feet;
    if (without > 0)
      h += " " + std::to_string(without) + " clip" + (without == 1 ? " has" : "s have") +
           " no two feet: not in the planted figures.";
  }
  h += "</p>\n";

  // Plots.
  h += "<h2>Plots</h2><div class=\"plots\">";
  if (o.clip_files || !o.track_bounds_cm.empty()) {
    h += "<div class=\"plot\"><h3>Error against bytes</h3>" + plot_error_vs_bytes(report, s) +
         "<p>One point per budget (and one per --bounds bound): the .mkc files' KB per second of motion over all clips "
         "against the worst joint error of any decoded file.</p></div>";
    h += "<div class=\"plot\"><h3>Compression ratio against error, per clip</h3>" + plot_ratio_scatter(report) +
         "<p>One point per clip and budget (selected keys; squares: per-track bounds): float32 size / .mkc size "
         "against the clip's worst joint error as decoded.</p></div>";
  }
  h += "<div class=\"plot\"><h3>Error against key ratio</h3>" + plot_error_vs_ratio(report, s) +
       "<p>Lines: mean and p99 over all frames; dots: each clip's mean.</p></div>";
  h += "<div class=\"plot\"><h3>Distribution of per-clip max error</h3>" + plot_max_distribution(report) +
       "<p>How many clips have their worst frame in each band, per budget.</p></div>";
  h += "<div class=\"plot wide\"><h3>Error per joint</h3>" + plot_joints(report, s) +
       "<p>Mean over all frames of each joint's position error (the joint's end point; root: its position).</p></div>";
  h += "<div class=\"plot wide\"><h3>Error over time, worst clips</h3><div class=\"timegrid\" "
       "style=\"grid-template-columns:repeat(" +
       std::to_string(std::max<std::size_t>(1, report.aggregate.size())) + ",minmax(0,1fr))\">";
  std::size_t rows = 0;
  for (std::size_t i = 0; i < report.aggregate.size(); ++i) {
    h += "<h3>" + escape(budget_label(o.kind, o.budgets[i])) + "</h3>";
    rows = std::max(rows, report.aggregate[i].worst.size());
  }
  for (std::size_t k = 0; k < rows; ++k) {
    for (std::size_t i = 0; i < report.aggregate.size(); ++i) {
      const auto& worst = report.aggregate[i].worst;
      h += "<div>";
      if (k < worst.size()) h += plot_worst_curve(worst[k], worst.front().max_cm, palette(i));
      h += "</div>";
    }
  }
  h += "</div><p>The clips with the largest max position error at each budget, each on its own time axis; "
       "a budget's plots share their error axis. On long clips each point is the max over a few frames.</p></div>";
  h += "</div>\n";

  // Failures.
  if (s.failed) {
    h += "<h2>Failed clips (" + std::to_string(s.failed) +
         ")</h2><div class=\"wrap\"><table class=\"sortable\"><thead><tr><th class=\"t\">clip</th>"
         "<th class=\"t\">skeleton</th><th class=\"t\">error</th></tr></thead><tbody>";
    for (const ClipResult& c : report.clips) {
      if (c.ok) continue;
      h += "<tr class=\"fail\"><td class=\"t\">" + escape(c.path) + "</td><td class=\"t\">" + escape(c.asf) +
           "</td><td class=\"t\">" + escape(c.error) + "</td></tr>";
    }
    h += "</tbody></table></div>\n";
  }

  // Clips.
  h += "<h2>Clips</h2><p class=\"sub\">Click a column to sort. Errors in cm; uniform: evenly spaced keys, the same "
       "count.</p><div class=\"wrap\"><table class=\"sortable\"><thead><tr class=\"group\"><th></th><th></th><th>"
       "</th>";
  const int per_budget = o.clip_files ? 7 : 5;
  for (const double b : o.budgets) {
    h += "<th colspan=\"" + std::to_string(per_budget) + "\">" + escape(budget_label(o.kind, b)) + "</th>";
  }
  for (const double bound : o.track_bounds_cm) h += "<th colspan=\"2\">per-track " + tick(bound) + " cm</th>";
  h += "<th></th></tr><tr><th class=\"t\">clip</th><th>frames</th><th>seconds</th>";
  for (std::size_t i = 0; i < o.budgets.size(); ++i) {
    h += "<th>keys</th><th>mean</th><th>p99</th><th>max</th><th>uniform max</th>";
    if (o.clip_files) h += "<th>.mkc B/s</th><th>.mkc worst joint</th>";
  }
  for (std::size_t i = 0; i < o.track_bounds_cm.size(); ++i) h += "<th>B/s</th><th>worst joint</th>";
  h += "<th>time (s)</th></tr></thead><tbody>";
  for (const ClipResult& c : report.clips) {
    if (!c.ok) continue;
    h += "<tr><td class=\"t\" title=\"" + escape(c.path) + "\">" + escape(c.name) + "</td><td>" +
         std::to_string(c.frames) + "</td>" + cell(c.duration_seconds());
    for (const BudgetResult& b : c.budgets) {
      char keys[64];
      std::snprintf(keys, sizeof keys, "%.17g", b.key_ratio);
      h += "<td data-v=\"" + std::string(keys) + "\" title=\"" + std::to_string(b.keys) + " keys\">" +
           percent(b.key_ratio) + "</td>";
      h += cell(b.position.mean, "sel") + cell(b.position.p99, "sel");
      h += "<td class=\"sel\" data-v=\"" + printf_string("%.17g", b.position.max) +
           "\" title=\"worst: " + escape(b.worst_joint) + ", frame " + std::to_string(b.worst_frame) + "\">" +
           fmt(b.position.max) + "</td>";
      h += cell(b.uniform_position.max, "uni");
      if (o.clip_files) {
        h += cell(b.file.bytes_per_second, "sel");
        h += "<td class=\"sel\" data-v=\"" + printf_string("%.17g", b.file.joint_max_cm) + "\" title=\"" +
             escape(b.file.joint_max_joint) + ", frame " + std::to_string(b.file.joint_max_frame) + "; ratio " +
             fmt(b.file.ratio) + ":1\">" + fmt(b.file.joint_max_cm) + "</td>";
      }
    }
    for (const ClipFileResult& t : c.track_files) {
      h += cell(t.bytes_per_second) + "<td data-v=\"" + printf_string("%.17g", t.joint_max_cm) + "\" title=\"" +
           escape(t.joint_max_joint) + ", frame " + std::to_string(t.joint_max_frame) + "; ratio " + fmt(t.ratio) +
           ":1\">" + fmt(t.joint_max_cm) + "</td>";
    }
    h += cell(c.seconds) + "</tr>";
  }
  h += "</tbody></table></div>\n";

  // Clips: jitter.
  h += "<h2>Clips: jitter and planted feet</h2><p class=\"sub\">Per clip: the joint velocity error's p99 (cm/s) and "
       "the planted feet's ball speed minus the original's (cm/s); the rest in each cell's tooltip.</p><div "
       "class=\"wrap\"><table class=\"sortable jitter-clips\"><thead><tr class=\"group\"><th></th>";
  const int jitter_per_budget = o.clip_files ? 4 : 2;
  for (const double b : o.budgets) {
    h += "<th colspan=\"" + std::to_string(jitter_per_budget) + "\">" + escape(budget_label(o.kind, b)) + "</th>";
  }
  for (const double bound : o.track_bounds_cm) h += "<th colspan=\"2\">per-track " + tick(bound) + " cm</th>";
  h += "</tr><tr><th class=\"t\">clip</th>";
  for (std::size_t i = 0; i < o.budgets.size(); ++i) {
    h += "<th>rebuild p99</th><th>rebuild feet</th>";
    if (o.clip_files) h += "<th>.mkc p99</th><th>.mkc feet</th>";
  }
  for (std::size_t i = 0; i < o.track_bounds_cm.size(); ++i) h += "<th>p99</th><th>feet</th>";
  h += "</tr></thead><tbody>";
  for (const ClipResult& c : report.clips) {
    if (!c.ok) continue;
    h += "<tr><td class=\"t\" title=\"" + escape(c.path) + "\">" + escape(c.name) + "</td>";
    for (const BudgetResult& b : c.budgets) {
      h += jitter_cells(b.jitter, "sel");
      if (o.clip_files) h += jitter_cells(b.file.jitter, "sel");
    }
    for (const ClipFileResult& t : c.track_files) h += jitter_cells(t.jitter, "sel");
    h += "</tr>";
  }
  h += "</tbody></table></div>\n";
  h += "<p class=\"notes\">Position error: for each frame, the mean over joints of the distance between original and "
       "rebuilt world positions (forward kinematics through the whole hierarchy). Shell error: the largest distance "
       "of points " +
       tick(o.error.shell_radius * 100) +
       " cm from each joint. Keys are chosen by mocap's selection (keyframes.h); the rebuild slerps "
       "rotations between keys. Written by mocap report.</p>\n";
  h += "<script>";
  h += kScript;
  h += "</script></body></html>\n";
  return h;
}

}  // namespace mocap
