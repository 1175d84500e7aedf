// What a batch report keeps of per-frame errors once a clip is done: counts
// in a log-spaced histogram, frames under thresholds, and the error curves
// of the worst clips. Counts add and the worst clips are a sorted choice, so
// clips can be folded in any order and shards merged exactly.
#pragma once

#include <mocap/report/clip_job.h>
#include <mocap/report/report_options.h>

#include <cstdint>
#include <string>
#include <vector>

namespace mocap {

// Per-frame position errors of many clips, counted in log-spaced bins
// (kBinsPerDecade per factor of 10, from 1e-5 cm; smaller values fall in
// bin 0, larger ones in the last bin).
struct ErrorHistogram {
  static constexpr int kBinsPerDecade = 200;  // bins are 1.2 % wide
  static constexpr double kLowestCm = 1e-5;
  static constexpr int kBins = 10 * kBinsPerDecade;  // up to 1e5 cm
  std::vector<std::int64_t> counts = std::vector<std::int64_t>(kBins, 0);

  static int bin(double cm);
  static double upper_edge(int bin);  // cm
  void add(double cm) { ++counts[static_cast<std::size_t>(bin(cm))]; }
  std::int64_t total() const;
  // The upper edge of the bin holding the nearest-rank q-quantile (0 < q <=
  // 1), so within 1.2 % above the exact value; 0 when empty.
  double quantile(double q) const;
};

// The per-frame error of one clip at one budget over time, kept for the
// clips with the largest max error. Point i is the max over frames [i *
// stride, (i + 1) * stride), so peaks survive the thinning.
struct ErrorCurve {
  std::string path, name;
  double max_cm = 0.0;  // the clip's max position error at this budget
  double fps = 120.0;
  int stride = 1;
  std::vector<double> error_cm;
};
// At most kCurvePoints points.
inline constexpr int kCurvePoints = 600;

// What is kept of per-frame errors, per budget.
struct BudgetAggregate {
  ErrorHistogram selection, uniform;
  std::vector<std::int64_t> under, uniform_under;  // frames under each ReportOptions::under_cm
  std::vector<ErrorCurve> worst;                   // largest max first (then by path), at most worst_clips
};

// One empty aggregate per budget of `options`.
std::vector<BudgetAggregate> empty_aggregate(const ReportOptions& options);

// Folds `clip`'s per-frame errors into `aggregate` (one per budget) and
// clears them. A failed clip adds nothing.
void fold_clip(ClipResult& clip, const ReportOptions& options, std::vector<BudgetAggregate>& aggregate);

// Adds `from` to `to` (counts add, worst curves are chosen again, at most
// `worst_clips`). False when their shapes differ (histogram bins, under
// thresholds), `to` unchanged.
bool add_aggregate(BudgetAggregate& to, const BudgetAggregate& from, int worst_clips);

}  // namespace mocap
