#include <mocap/fk.h>

#include "rotation.h"

namespace mocap {

Pose make_pose(const Skeleton& skeleton) {
  Pose pose;
  pose.rotation.assign(skeleton.bones.size(), Eigen::Quaterniond::Identity());
  pose.offset.assign(skeleton.bones.size(), Eigen::Vector3d::Zero());
  return pose;
}

void pose_from_channels(const Skeleton& skeleton, std::span<const double> channels,
                        std::span<Eigen::Quaterniond> rotation, std::span<Eigen::Vector3d> offset) {
  for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
    const Bone& bone = skeleton.bones[b];
    Eigen::Quaterniond m = Eigen::Quaterniond::Identity();
    Eigen::Vector3d translation = Eigen::Vector3d::Zero();
    double stretch = 0.0;
    const double* values = channels.data() + bone.first_channel;
    for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
      const double v = values[k];
      switch (bone.dofs[k]) {
        case Channel::RX: m = rotation::turn(0, v, m); break;
        case Channel::RY: m = rotation::turn(1, v, m); break;
        case Channel::RZ: m = rotation::turn(2, v, m); break;
        case Channel::TX: translation.x() = v; break;
        case Channel::TY: translation.y() = v; break;
        case Channel::TZ: translation.z() = v; break;
        case Channel::L: stretch = v; break;
      }
    }
    const Eigen::Quaterniond& c = bone.axis_rotation;
    if (bone.parent < 0) {
      rotation[b] = c * m;
      offset[b] = skeleton.root_position + translation;
    } else {
      rotation[b] = c * m * c.conjugate();
      offset[b] = (bone.length + stretch) * bone.direction + c * translation;
    }
  }
}

void pose_from_channels(const Skeleton& skeleton, std::span<const double> channels, Pose& pose) {
  pose_from_channels(skeleton, channels, pose.rotation, pose.offset);
}

void forward_kinematics(const Skeleton& skeleton, std::span<const Eigen::Quaterniond> local_rotation,
                        std::span<const Eigen::Vector3d> offset, std::span<Eigen::Vector3d> positions,
                        std::span<Eigen::Quaterniond> rotations) {
  for (const int b : skeleton.eval_order) {
    const int parent = skeleton.bones[b].parent;
    if (parent < 0) {
      rotations[b] = local_rotation[b];
      positions[b] = offset[b];
    } else {
      rotations[b] = rotations[parent] * local_rotation[b];
      positions[b] = positions[parent] + rotations[b] * offset[b];
    }
  }
}

void forward_kinematics(const Skeleton& skeleton, const Pose& pose, std::span<Eigen::Vector3d> positions,
                        std::span<Eigen::Quaterniond> rotations) {
  forward_kinematics(skeleton, pose.rotation, pose.offset, positions, rotations);
}

std::vector<Eigen::Vector3d> world_positions(const Skeleton& skeleton, const Motion& motion) {
  const std::size_t bones = skeleton.bones.size();
  std::vector<Eigen::Vector3d> positions(static_cast<std::size_t>(motion.frame_count()) * bones);
  std::vector<Eigen::Quaterniond> rotations(bones);
  Pose pose = make_pose(skeleton);
  for (int f = 0; f < motion.frame_count(); ++f) {
    pose_from_channels(skeleton, motion.frame(f), pose);
    forward_kinematics(skeleton, pose, std::span(positions).subspan(f * bones, bones), rotations);
  }
  return positions;
}

}  // namespace mocap
