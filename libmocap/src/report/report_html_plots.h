// Internal to the report tier: the HTML report's plots, each one inline SVG
// (report_svg.h's chart kit) drawn from a report and its summary.
#pragma once

#include <mocap/report/report.h>
#include <mocap/report/report_summary.h>

#include <string>

namespace mocap::html {

// "10% keys", "threshold 0.5", "max error 1 cm": a budget as the report names it.
std::string budget_label(BudgetKind kind, double budget);

// Mean and p99 position error against the key ratio, per clip and per budget.
std::string plot_error_vs_ratio(const Report& report, const ReportSummary& summary);
// Histogram of each clip's max position error, per budget, on a log axis.
std::string plot_max_distribution(const Report& report);
// Mean position error per joint, one bar per budget; "" without joints.
std::string plot_joints(const Report& report, const ReportSummary& summary);
// One of the worst clips at one budget: its position error over its own
// time. `y_max` is shared by a budget's plots so that they compare.
std::string plot_worst_curve(const ErrorCurve& c, double y_max, const char* colour);
// The .mkc files: for each budget one point per key set at (total KB per
// second of motion, worst joint error of any decoded file), joined in order
// of size, so that the curve reads as error against storage.
std::string plot_error_vs_bytes(const Report& report, const ReportSummary& summary);
// Per clip and budget, the selected keys' file: compression ratio against
// the worst joint error of the decoded file, as ACL's CMU report plots it.
std::string plot_ratio_scatter(const Report& report);

}  // namespace mocap::html
