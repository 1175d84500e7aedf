// Histograms, frames under thresholds and the worst clips' curves: what a
// report keeps of per-frame errors.
#include <mocap/report/error_aggregate.h>

#include <algorithm>
#include <cmath>

namespace mocap {

int ErrorHistogram::bin(double cm) {
  if (!(cm > kLowestCm)) return 0;  // also NaN
  const double b = std::floor((std::log10(cm) - std::log10(kLowestCm)) * kBinsPerDecade);
  return static_cast<int>(std::clamp(b, 0.0, static_cast<double>(kBins - 1)));
}

double ErrorHistogram::upper_edge(int bin) {
  return kLowestCm * std::pow(10.0, static_cast<double>(bin + 1) / kBinsPerDecade);
}

std::int64_t ErrorHistogram::total() const {
  std::int64_t n = 0;
  for (const std::int64_t c : counts) n += c;
  return n;
}

double ErrorHistogram::quantile(double q) const {
  const std::int64_t n = total();
  if (n == 0) return 0.0;
  const auto rank = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(q * static_cast<double>(n))));
  std::int64_t seen = 0;
  for (int b = 0; b < kBins; ++b) {
    seen += counts[static_cast<std::size_t>(b)];
    if (seen >= rank) return upper_edge(b);
  }
  return upper_edge(kBins - 1);
}

namespace {

// Orders the worst curves: largest max first, then by path.
bool worse(const ErrorCurve& a, const ErrorCurve& b) {
  if (a.max_cm != b.max_cm) return a.max_cm > b.max_cm;
  return a.path < b.path;
}

ErrorCurve thin_curve(const ClipResult& clip, const BudgetResult& b) {
  ErrorCurve curve;
  curve.path = clip.path;
  curve.name = clip.name;
  curve.max_cm = b.position.max;
  curve.fps = clip.fps;
  const auto n = static_cast<int>(b.frame_error_cm.size());
  curve.stride = std::max(1, (n + kCurvePoints - 1) / kCurvePoints);
  for (int i = 0; i < n; i += curve.stride) {
    const auto first = b.frame_error_cm.begin() + i;
    curve.error_cm.push_back(*std::max_element(first, b.frame_error_cm.begin() + std::min(n, i + curve.stride)));
  }
  return curve;
}

void keep_worst(std::vector<ErrorCurve>& worst, ErrorCurve curve, int limit) {
  worst.push_back(std::move(curve));
  std::sort(worst.begin(), worst.end(), worse);
  if (worst.size() > static_cast<std::size_t>(limit)) worst.resize(static_cast<std::size_t>(limit));
}

}  // namespace

std::vector<BudgetAggregate> empty_aggregate(const ReportOptions& options) {
  std::vector<BudgetAggregate> aggregate(options.budgets.size());
  for (BudgetAggregate& a : aggregate) {
    a.under.assign(options.under_cm.size(), 0);
    a.uniform_under.assign(options.under_cm.size(), 0);
  }
  return aggregate;
}

void fold_clip(ClipResult& clip, const ReportOptions& options, std::vector<BudgetAggregate>& aggregate) {
  if (!clip.status) return;
  for (std::size_t i = 0; i < clip.budgets.size() && i < aggregate.size(); ++i) {
    BudgetResult& b = clip.budgets[i];
    BudgetAggregate& a = aggregate[i];
    auto count = [&](const std::vector<double>& errors, ErrorHistogram& histogram, std::vector<std::int64_t>& under) {
      for (const double e : errors) {
        histogram.add(e);
        for (std::size_t u = 0; u < options.under_cm.size(); ++u) under[u] += e < options.under_cm[u] ? 1 : 0;
      }
    };
    count(b.frame_error_cm, a.selection, a.under);
    count(b.uniform_frame_error_cm, a.uniform, a.uniform_under);
    if (options.worst_clips > 0) {
      const bool qualifies = a.worst.size() < static_cast<std::size_t>(options.worst_clips) ||
                             worse(ErrorCurve{clip.path, "", b.position.max, 0, 1, {}}, a.worst.back());
      if (qualifies) keep_worst(a.worst, thin_curve(clip, b), options.worst_clips);
    }
    b.frame_error_cm = {};
    b.uniform_frame_error_cm = {};
  }
}

bool add_aggregate(BudgetAggregate& to, const BudgetAggregate& from, int worst_clips) {
  if (from.selection.counts.size() != to.selection.counts.size() ||
      from.uniform.counts.size() != to.uniform.counts.size() || from.under.size() != to.under.size() ||
      from.uniform_under.size() != to.uniform_under.size()) {
    return false;
  }
  for (std::size_t k = 0; k < to.selection.counts.size(); ++k) to.selection.counts[k] += from.selection.counts[k];
  for (std::size_t k = 0; k < to.uniform.counts.size(); ++k) to.uniform.counts[k] += from.uniform.counts[k];
  for (std::size_t u = 0; u < to.under.size(); ++u) {
    to.under[u] += from.under[u];
    to.uniform_under[u] += from.uniform_under[u];
  }
  for (const ErrorCurve& curve : from.worst) keep_worst(to.worst, curve, worst_clips);
  return true;
}

}  // namespace mocap
