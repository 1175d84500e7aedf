// Hysteresis on height and speed (foot_contacts.h).
#include <mocap/core/fk.h>
#include <mocap/core/foot_contacts.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace mocap {
namespace {

double quantile(std::vector<double> values, double q) {
  const auto k = static_cast<std::size_t>(std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}

// One point's per-frame state: may a contact start here, may it go on.
struct PointState {
  double floor_m = 0.0;
  std::vector<char> may_start, holds;
};

PointState point_state(std::span<const Eigen::Vector3d> trajectory, double fps, const Eigen::Vector3d& up,
                       const FootContactOptions& options) {
  PointState out;
  const int n = static_cast<int>(trajectory.size());
  std::vector<double> heights(static_cast<std::size_t>(n)), speeds(static_cast<std::size_t>(n));
  for (int f = 0; f < n; ++f) {
    heights[static_cast<std::size_t>(f)] = trajectory[static_cast<std::size_t>(f)].dot(up);
    const int a = std::max(0, f - 1), b = std::min(n - 1, f + 1);
    speeds[static_cast<std::size_t>(f)] =
        a == b ? 0.0
               : (trajectory[static_cast<std::size_t>(b)] - trajectory[static_cast<std::size_t>(a)]).norm() * fps /
                     (b - a);
  }
  out.floor_m = quantile(heights, options.floor_percentile);
  const double scale = options.speed_on_m_s > 0.0
                           ? std::max(1.0, options.speed_median_ratio * quantile(speeds, 0.5) / options.speed_on_m_s)
                           : 1.0;
  const double speed_on = options.speed_on_m_s * scale, speed_off = options.speed_off_m_s * scale;
  out.may_start.resize(static_cast<std::size_t>(n));
  out.holds.resize(static_cast<std::size_t>(n));
  for (std::size_t f = 0; f < static_cast<std::size_t>(n); ++f) {
    const double h = heights[f] - out.floor_m, v = speeds[f];
    out.may_start[f] = h < options.height_on_m && v < speed_on;
    out.holds[f] = h <= options.height_off_m && v <= speed_off;
  }
  return out;
}

}  // namespace

FootContacts detect_foot_contacts_of_points(std::span<const std::vector<Eigen::Vector3d>> points, double fps,
                                            const Eigen::Vector3d& up, const FootContactOptions& options) {
  FootContacts out;
  if (points.empty() || fps <= 0.0) return out;
  const int n = static_cast<int>(points[0].size());
  if (n == 0) return out;
  std::vector<PointState> states;
  out.floor_m = std::numeric_limits<double>::max();
  for (const auto& p : points) {
    if (static_cast<int>(p.size()) != n) return FootContacts{};
    states.push_back(point_state(p, fps, up, options));
    out.floor_m = std::min(out.floor_m, states.back().floor_m);
  }
  const int min_frames = std::max(1, static_cast<int>(std::ceil(options.min_seconds * fps)));
  bool on = false;
  int start = 0;
  auto close = [&](int last) {
    if (last - start + 1 >= min_frames) out.contacts.push_back({start, last});
  };
  for (int f = 0; f < n; ++f) {
    bool may_start = false, holds = false;
    for (const PointState& s : states) {
      may_start = may_start || s.may_start[static_cast<std::size_t>(f)];
      holds = holds || s.holds[static_cast<std::size_t>(f)];
    }
    if (!on && may_start) {
      on = true;
      start = f;
    } else if (on && !holds) {
      on = false;
      close(f - 1);
    }
  }
  if (on) close(n - 1);
  return out;
}

std::vector<FootContact> planted_by_rule(std::span<const Eigen::Vector3d> trajectory, double fps,
                                         const Eigen::Vector3d& up, const PlantedRule& rule) {
  std::vector<FootContact> out;
  const int frames = static_cast<int>(trajectory.size());
  if (frames == 0 || !(fps > 0.0)) return out;
  double lowest = std::numeric_limits<double>::max();
  for (const Eigen::Vector3d& p : trajectory) lowest = std::min(lowest, p.dot(up));
  const int needed = std::max(1, static_cast<int>(std::ceil(rule.min_seconds * fps - 1e-9)));
  auto planted = [&](int f) {
    if (trajectory[static_cast<std::size_t>(f)].dot(up) > lowest + rule.height_m) return false;
    if (frames < 2) return true;
    const int a = std::min(f, frames - 2);
    Eigen::Vector3d step = trajectory[static_cast<std::size_t>(a) + 1] - trajectory[static_cast<std::size_t>(a)];
    step -= step.dot(up) * up;
    return step.norm() * fps < rule.speed_m_s;
  };
  for (int f = 0; f < frames;) {
    if (!planted(f)) {
      ++f;
      continue;
    }
    int last = f;
    while (last + 1 < frames && planted(last + 1)) ++last;
    if (last - f + 1 >= needed) out.push_back({f, last});
    f = last + 1;
  }
  return out;
}

std::vector<FootContact> merge_contacts(std::span<const FootContact> a, std::span<const FootContact> b) {
  std::vector<FootContact> all(a.begin(), a.end());
  all.insert(all.end(), b.begin(), b.end());
  std::sort(all.begin(), all.end(), [](const FootContact& x, const FootContact& y) { return x.first < y.first; });
  std::vector<FootContact> out;
  for (const FootContact& c : all) {
    if (!out.empty() && c.first <= out.back().last + 1) {
      out.back().last = std::max(out.back().last, c.last);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

FootContacts detect_foot_contacts(std::span<const Eigen::Vector3d> trajectory, double fps, const Eigen::Vector3d& up,
                                  const FootContactOptions& options) {
  const std::vector<Eigen::Vector3d> one(trajectory.begin(), trajectory.end());
  return detect_foot_contacts_of_points(std::span<const std::vector<Eigen::Vector3d>>(&one, 1), fps, up, options);
}

Result<std::array<Foot, 2>> find_feet(const Skeleton& skeleton, const std::string& what) {
  std::array<Foot, 2> feet{Foot{"left"}, Foot{"right"}};
  const char* sides = "lr";
  bool cmu = true;
  for (std::size_t s = 0; s < 2; ++s) {
    const std::string p(1, sides[s]);
    feet[s].heel = skeleton.find_bone(p + "tibia");
    feet[s].ball = skeleton.find_bone(p + "foot");
    feet[s].toe = skeleton.find_bone(p + "toes");
    cmu = cmu && feet[s].heel >= 0 && feet[s].ball >= 0 && feet[s].toe >= 0;
  }
  // A BVH bone is a joint (core/fk.h): its CMU name's position is the bone's
  // start, so the ends are found by topology there.
  if (cmu && !skeleton.offsets_in_parent_frame) return feet;
  // By topology, in the rest pose.
  const std::size_t bones = skeleton.bones.size();
  std::vector<Eigen::Vector3d> positions(bones);
  std::vector<Eigen::Quaterniond> rotations(bones);
  forward_kinematics(skeleton, rest_pose(skeleton), positions, rotations);
  double low = std::numeric_limits<double>::max(), high = std::numeric_limits<double>::lowest();
  for (const auto& p : positions) {
    low = std::min(low, p.y());
    high = std::max(high, p.y());
  }
  auto depth = [&](int b) {
    int d = 0;
    while (b > 0) {
      b = skeleton.bones[static_cast<std::size_t>(b)].parent;
      ++d;
    }
    return d;
  };
  std::vector<int> toes;
  for (std::size_t b = 1; b < bones; ++b) {
    if (!skeleton.children(static_cast<int>(b)).empty() || depth(static_cast<int>(b)) < 3) continue;
    if (positions[b].y() - low <= 0.1 * (high - low)) toes.push_back(static_cast<int>(b));
  }
  std::sort(toes.begin(), toes.end(), [&](int a, int b) {
    return positions[static_cast<std::size_t>(a)].y() < positions[static_cast<std::size_t>(b)].y();
  });
  if (toes.size() < 2) {
    return fail(what, 0,
                "no feet: expected CMU foot bones (ltibia, lfoot, ltoes, r...) or two leaf bones near the floor "
                "of the rest pose, found " +
                    std::to_string(toes.size()));
  }
  auto left_named = [&](int b) {
    for (int x = b; x > 0; x = skeleton.bones[static_cast<std::size_t>(x)].parent) {
      const std::string& n = skeleton.bones[static_cast<std::size_t>(x)].name;
      if (n.starts_with("Left") || n.starts_with("left") || (n.size() > 1 && n[0] == 'L' && std::isupper(n[1])))
        return true;
    }
    return false;
  };
  int a = toes[0], b = toes[1];
  const bool by_name = left_named(a) != left_named(b);
  const bool a_left =
      by_name ? left_named(a) : positions[static_cast<std::size_t>(a)].x() > positions[static_cast<std::size_t>(b)].x();
  if (!a_left) std::swap(a, b);
  for (std::size_t s = 0; s < 2; ++s) {
    const int toe = s == 0 ? a : b;
    feet[s].toe = toe;
    feet[s].ball = skeleton.bones[static_cast<std::size_t>(toe)].parent;
    feet[s].heel = skeleton.bones[static_cast<std::size_t>(feet[s].ball)].parent;
  }
  return feet;
}

Result<ClipFootContacts> clip_foot_contacts(const Skeleton& skeleton, const Motion& motion, const std::string& what,
                                            const FootContactOptions& options) {
  auto feet = find_feet(skeleton, what);
  if (!feet) return std::unexpected(feet.error());
  ClipFootContacts out;
  out.feet = *feet;
  const auto positions = world_positions(skeleton, motion);
  const std::size_t bones = skeleton.bones.size();
  out.floor_m = std::numeric_limits<double>::max();
  for (std::size_t s = 0; s < 2; ++s) {
    std::vector<std::vector<Eigen::Vector3d>> points(3);
    for (int f = 0; f < motion.frame_count(); ++f) {
      const std::size_t row = static_cast<std::size_t>(f) * bones;
      points[0].push_back(positions[row + static_cast<std::size_t>(out.feet[s].heel)]);
      points[1].push_back(positions[row + static_cast<std::size_t>(out.feet[s].ball)]);
      points[2].push_back(positions[row + static_cast<std::size_t>(out.feet[s].toe)]);
    }
    out.contacts[s] = detect_foot_contacts_of_points(points, motion.fps, Eigen::Vector3d::UnitY(), options);
    out.floor_m = std::min(out.floor_m, out.contacts[s].floor_m);
  }
  if (motion.frame_count() == 0) out.floor_m = 0.0;
  return out;
}

}  // namespace mocap
