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
//
// The speed thresholds follow the clip: each is at least its option, and at
// least `speed_median_ratio` times the joint's median speed over the clip
// (speed_off scaled by the same factor). A walk's foot moves little more than
// half the time, so its median is low and the options hold; a run's stance
// is short and its planted foot rolls at 0.5-0.7 m/s (CMU 09_06), under a
// fifth of its median speed, so the thresholds rise with it.
//
// A foot has several points (heel, ball, toe): detect_foot_contacts_of_points starts a contact where any point may
// start one and ends it where none still holds it, each point against its own floor and speed thresholds.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <array>
#include <span>
#include <string>
#include <vector>

namespace mocap {

struct FootContactOptions {
  double height_on_m = 0.03;         // above the floor, metres: a contact may start below this
  double height_off_m = 0.05;        // a contact ends above this (>= height_on_m)
  double speed_on_m_s = 0.4;         // a contact may start slower than this, m/s
  double speed_off_m_s = 0.7;        // a contact ends faster than this (>= speed_on_m_s)
  double min_seconds = 0.08;         // shorter contacts are dropped
  double speed_median_ratio = 0.15;  // speed_on is at least this times the joint's median speed (0: off)
  double floor_percentile = 0.05;    // in [0, 1]: the floor is this quantile of the joint's height
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

// Contacts of one foot with several points, each one trajectory of the same
// length (see above). floor_m is the lowest of the points' floors.
FootContacts detect_foot_contacts_of_points(std::span<const std::vector<Eigen::Vector3d>> points, double fps,
                                            const Eigen::Vector3d& up = Eigen::Vector3d::UnitY(),
                                            const FootContactOptions& options = {});

// Planted as an animator's eye sees it (issues 48 and 49 state the rule):
// every interval of at least `min_seconds` (6 frames at 120 Hz) where the
// point (the ball of the foot) lies within `height_m` of its lowest height
// over the clip and moves slower than `speed_m_s` across the ground, speed
// by forward differences (the last frame takes the one before it).
struct PlantedRule {
  double height_m = 0.04;
  double speed_m_s = 0.25;
  double min_seconds = 0.05;
};
std::vector<FootContact> planted_by_rule(std::span<const Eigen::Vector3d> trajectory, double fps,
                                         const Eigen::Vector3d& up = Eigen::Vector3d::UnitY(),
                                         const PlantedRule& rule = {});
// The union of two lists of contacts (each in frame order and disjoint),
// overlapping or adjacent intervals made one.
std::vector<FootContact> merge_contacts(std::span<const FootContact> a, std::span<const FootContact> b);

// A foot of a skeleton: the bones whose world positions (core/fk.h) are its
// heel (the ankle), ball and toe tip.
struct Foot {
  std::string name;  // "left" or "right"
  int heel = -1, ball = -1, toe = -1;
};

// The two feet, left first: CMU's bones (ltibia, lfoot, ltoes and r...) when
// an ASF skeleton has them; otherwise by topology, the two leaf bones lowest in
// the rest pose (within a tenth of the figure's height of its lowest joint,
// at least three bones below the root) as toes, their parents as balls and
// grandparents as heels, the left one on the figure's +X side (CMU's and
// BVH's left) or named "Left..."/"L...". An error naming `what` (the file)
// when there are not two such feet.
Result<std::array<Foot, 2>> find_feet(const Skeleton& skeleton, const std::string& what);

struct ClipFootContacts {
  std::array<Foot, 2> feet;
  std::array<FootContacts, 2> contacts;  // of each foot's heel, ball and toe, world +Y up
  double floor_m = 0.0;                  // the lower of the feet's floors, metres
};

// Forward kinematics over the clip and each foot's contacts (frame indices).
Result<ClipFootContacts> clip_foot_contacts(const Skeleton& skeleton, const Motion& motion, const std::string& what,
                                            const FootContactOptions& options = {});

}  // namespace mocap
