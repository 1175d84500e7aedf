// The HTML report's plots (report_html_plots.h), drawn with report_svg.h.
#include "report/report_html_plots.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "report/report_svg.h"

namespace mocap::html {
namespace {

constexpr const char* kSelectionColour = "#2563eb";
constexpr const char* kUniformColour = "#ea580c";
constexpr const char* kTrackColour = "#16a34a";

}  // namespace

std::string budget_label(BudgetKind kind, double budget) {
  switch (kind) {
    case BudgetKind::kRatio: return printf_string("%g%% keys", 100.0 * budget);
    case BudgetKind::kThreshold: return "threshold " + printf_string("%g", budget);
    case BudgetKind::kMaxError: return "max error " + printf_string("%g", budget) + " cm";
  }
  return "";
}

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
      if (!c.status || i >= c.budgets.size()) continue;
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
      if (!c.status || i >= c.track_files.size()) continue;
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

}  // namespace mocap::html
