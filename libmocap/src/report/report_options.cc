// Report settings: names of budget kinds and the checks run before any work.
#include <mocap/report/report_options.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace mocap {

std::string_view budget_kind_name(BudgetKind kind) {
  switch (kind) {
    case BudgetKind::kRatio: return "ratio";
    case BudgetKind::kThreshold: return "threshold";
    case BudgetKind::kMaxError: return "max_error";
  }
  return "ratio";
}

Result<BudgetKind> parse_budget_kind(std::string_view name) {
  for (const BudgetKind k : {BudgetKind::kRatio, BudgetKind::kThreshold, BudgetKind::kMaxError}) {
    if (budget_kind_name(k) == name) return k;
  }
  return fail("", 0, "unknown budget kind '" + std::string(name) + "': expected ratio, threshold or max_error");
}

Result<void> validate(const ReportOptions& o) {
  if (o.budgets.empty()) return fail("", 0, "no budgets: give at least one");
  for (const double b : o.budgets) {
    char value[32];
    std::snprintf(value, sizeof value, "%g", b);
    const std::string what = std::string(budget_kind_name(o.kind)) + " " + value;
    if (!std::isfinite(b)) return fail("", 0, "budget is not a finite number");
    if (o.kind == BudgetKind::kRatio && !(b > 0.0 && b <= 1.0)) {
      return fail("", 0, what + ": expected a share of frames in (0, 1]");
    }
    if (o.kind == BudgetKind::kThreshold && b < 0.0) return fail("", 0, what + ": expected a threshold >= 0");
    if (o.kind == BudgetKind::kMaxError && !(b > 0.0)) return fail("", 0, what + ": expected an error > 0 cm");
  }
  if (!(o.fps > 0.0) || !std::isfinite(o.fps)) return fail("", 0, "fps: expected a rate > 0");
  if (!(o.bvh_metres_per_unit > 0.0) || !std::isfinite(o.bvh_metres_per_unit))
    return fail("", 0, "BVH units: expected a positive number of metres");
  for (const double u : o.under_cm) {
    if (!(u > 0.0) || !std::isfinite(u)) return fail("", 0, "under: expected errors > 0 cm");
  }
  if (!(o.error.velocity_weight >= 0.0) || !(o.error.shell_radius >= 0.0)) {
    return fail("", 0, "error options: expected a velocity weight and shell radius >= 0");
  }
  if (o.worst_clips < 0 || o.threads < 0 || o.selection_passes < 0) {
    return fail("", 0, "selection passes, worst clips and threads: expected counts >= 0");
  }
  if (!(o.clip_file_error_cm > 0.0) || !std::isfinite(o.clip_file_error_cm)) {
    return fail("", 0, "clip file bound: expected an error > 0 cm");
  }
  for (const double b : o.track_bounds_cm) {
    if (!(b > 0.0) || !std::isfinite(b)) return fail("", 0, "per-track bounds: expected errors > 0 cm");
  }
  return {};
}

}  // namespace mocap
