// When a foot is planted on the floor: the frames where a foot joint (the
// ankle) stays near the floor and slow, as intervals, for retargeting
// (retarget/retarget.h pins feet during them), compression and reports.
//
// The method, in order: the floor under the joint is a low percentile of its
// height over the clip (the clip's own floor, whatever its offset); a
// contact starts on a frame where the joint is within `height_on_m` of it
// and moves slower than `speed_on_m_s`, and lasts until it rises above
// `height_off_m` or moves faster than `speed_off_m_s` (hysteresis, so noise
// at a threshold does not split a contact); contacts shorter than
// `min_seconds` are dropped. Speed is the central difference of positions.
#pragma once

#include <Eigen/Core>
#include <span>
#include <vector>

namespace mocap {

struct FootContactOptions {
  double height_on_m = 0.03;       // above the floor, metres: a contact may start below this
  double height_off_m = 0.05;      // a contact ends above this (>= height_on_m)
  double speed_on_m_s = 0.4;       // a contact may start slower than this, m/s
  double speed_off_m_s = 0.7;      // a contact ends faster than this (>= speed_on_m_s)
  double min_seconds = 0.08;       // shorter contacts are dropped
  double floor_percentile = 0.05;  // in [0, 1]: the floor is this quantile of the joint's height
};

struct FootContact {
  int first = 0;  // frame index, inclusive
  int last = 0;   // frame index, inclusive, >= first
};

struct FootContacts {
  double floor_m = 0.0;               // the joint's height when planted (the percentile above), metres
  std::vector<FootContact> contacts;  // in frame order, disjoint
};

// Contacts of one joint's trajectory (one world position per frame, metres,
// `up` the world's up axis, unit) sampled at `fps` (> 0).
FootContacts detect_foot_contacts(std::span<const Eigen::Vector3d> trajectory, double fps,
                                  const Eigen::Vector3d& up = Eigen::Vector3d::UnitY(),
                                  const FootContactOptions& options = {});

}  // namespace mocap
