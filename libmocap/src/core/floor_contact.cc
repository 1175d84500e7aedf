#include <mocap/core/floor_contact.h>

#include <mocap/core/fk.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <vector>

namespace mocap {

FloorContact floor_contact(const Skeleton& skeleton, const Motion& motion) {
  FloorContact contact;
  const std::size_t bones = skeleton.bones.size();
  if (bones == 0) return contact;
  std::vector<Eigen::Vector3d> positions(bones);
  std::vector<Eigen::Quaterniond> rotations(bones);

  forward_kinematics(skeleton, rest_pose(skeleton), positions, rotations);
  double rest_low = std::numeric_limits<double>::infinity(), rest_high = -rest_low;
  for (const auto& p : positions) {
    rest_low = std::min(rest_low, p.y());
    rest_high = std::max(rest_high, p.y());
  }
  contact.hip_height_m = positions[0].y() - rest_low;
  contact.rest_height_m = rest_high - rest_low;

  // Blocks of frames through world_transforms (several frames at once),
  // the frames and bones in order as one by one.
  constexpr int kBlock = 256;
  positions.resize(static_cast<std::size_t>(std::min(kBlock, motion.frame_count())) * bones);
  contact.lowest_m = std::numeric_limits<double>::infinity();
  for (int first = 0; first < motion.frame_count(); first += kBlock) {
    const int count = std::min(kBlock, motion.frame_count() - first);
    world_transforms(skeleton, motion, first, count, positions, {});
    for (int i = 0; i < count; ++i) {
      const int f = first + i;
      for (std::size_t b = 0; b < bones; ++b) {
        const double y = positions[static_cast<std::size_t>(i) * bones + b].y();
        if (y < contact.lowest_m) {
          contact.lowest_m = y;
          contact.lowest_frame = f;
          contact.lowest_frame_number = motion.frame_numbers[static_cast<std::size_t>(f)];
          contact.lowest_bone = static_cast<int>(b);
        }
      }
    }
  }
  if (contact.lowest_frame < 0) contact.lowest_m = 0.0;
  return contact;
}

std::string implausible_floor_contact(const Skeleton& skeleton, const FloorContact& contact) {
  char text[320];
  if (contact.rest_height_m < 0.3 || contact.rest_height_m > 3.0) {
    std::snprintf(text, sizeof text,
                  "the skeleton's rest pose is %.3g m tall, outside 0.3-3 m: is its length unit right?",
                  contact.rest_height_m);
    return text;
  }
  if (contact.lowest_frame < 0 || contact.hip_height_m <= 0.0) return "";
  const double off_floor = contact.lowest_m;
  if (off_floor > contact.hip_height_m || off_floor < -contact.hip_height_m) {
    std::snprintf(text, sizeof text,
                  "the lowest joint over the whole motion (%s, frame %d) is %.2f m %s the floor (y = 0), "
                  "more than the skeleton's hip height (%.2f m): is the motion this skeleton's, in its units?",
                  skeleton.bones[static_cast<std::size_t>(contact.lowest_bone)].name.c_str(),
                  contact.lowest_frame_number, off_floor > 0 ? off_floor : -off_floor,
                  off_floor > 0 ? "above" : "below", contact.hip_height_m);
    return text;
  }
  return "";
}

}  // namespace mocap
