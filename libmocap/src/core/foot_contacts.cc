// Hysteresis on height and speed (foot_contacts.h).
#include <mocap/core/foot_contacts.h>

#include <algorithm>
#include <cmath>

namespace mocap {

FootContacts detect_foot_contacts(std::span<const Eigen::Vector3d> trajectory, double fps, const Eigen::Vector3d& up,
                                  const FootContactOptions& options) {
  FootContacts out;
  const int n = static_cast<int>(trajectory.size());
  if (n == 0 || fps <= 0.0) return out;
  std::vector<double> heights(static_cast<std::size_t>(n));
  for (int f = 0; f < n; ++f) heights[static_cast<std::size_t>(f)] = trajectory[static_cast<std::size_t>(f)].dot(up);
  std::vector<double> sorted = heights;
  const auto k = static_cast<std::size_t>(std::clamp(options.floor_percentile, 0.0, 1.0) * (n - 1));
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(k), sorted.end());
  out.floor_m = sorted[k];
  auto speed = [&](int f) {
    const int a = std::max(0, f - 1), b = std::min(n - 1, f + 1);
    if (a == b) return 0.0;
    return (trajectory[static_cast<std::size_t>(b)] - trajectory[static_cast<std::size_t>(a)]).norm() * fps / (b - a);
  };
  const int min_frames = std::max(1, static_cast<int>(std::ceil(options.min_seconds * fps)));
  bool on = false;
  int start = 0;
  auto close = [&](int last) {
    if (last - start + 1 >= min_frames) out.contacts.push_back({start, last});
  };
  for (int f = 0; f < n; ++f) {
    const double h = heights[static_cast<std::size_t>(f)] - out.floor_m;
    const double v = speed(f);
    if (!on && h < options.height_on_m && v < options.speed_on_m_s) {
      on = true;
      start = f;
    } else if (on && (h > options.height_off_m || v > options.speed_off_m_s)) {
      on = false;
      close(f - 1);
    }
  }
  if (on) close(n - 1);
  return out;
}

}  // namespace mocap
