#include <mocap/core/fk.h>

#include "core/rotation.h"

namespace mocap {

Pose make_pose(const Skeleton& skeleton) {
  Pose pose;
  pose.rotation.assign(skeleton.bones.size(), Eigen::Quaterniond::Identity());
  pose.offset.assign(skeleton.bones.size(), Eigen::Vector3d::Zero());
  return pose;
}

Pose rest_pose(const Skeleton& skeleton) {
  Pose pose = make_pose(skeleton);
  const std::vector<double> zeros(static_cast<std::size_t>(skeleton.channel_count), 0.0);
  pose_from_channels(skeleton, zeros, pose);
  return pose;
}

void pose_from_channels(const Skeleton& skeleton, std::span<const double> channels,
                        std::span<Eigen::Quaterniond> rotation, std::span<Eigen::Vector3d> offset) {
  for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
    const Bone& bone = skeleton.bones[b];
    // C * M * C^-1 is the product of turns about the axes C * e_k, so a bone
    // never multiplies by C at all; the root's O * M starts from O instead.
    const bool root = bone.parent < 0;
    Eigen::Quaterniond q = root ? bone.axis_rotation : Eigen::Quaterniond::Identity();
    bool identity = !root;
    Eigen::Vector3d translation = Eigen::Vector3d::Zero();
    bool translated = false;
    double stretch = 0.0;
    const double* values = channels.data() + bone.first_channel;
    for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
      const double v = values[k];
      const Channel c = bone.dofs[k];
      if (is_rotation(c)) {
        double s = 0.0, w = 0.0;
        rotation::sin_cos(0.5 * v, s, w);
        const Eigen::Quaterniond turn(w, s * bone.dof_axes[k].x(), s * bone.dof_axes[k].y(), s * bone.dof_axes[k].z());
        q = identity ? turn : turn * q;
        identity = false;
      } else if (c == Channel::L) {
        stretch = v;
      } else {
        translation[static_cast<int>(c) - static_cast<int>(Channel::TX)] = v;
        translated = true;
      }
    }
    rotation[b] = q;
    if (root) {
      offset[b] = skeleton.root_position + translation;
    } else {
      offset[b] = (bone.length + stretch) * bone.direction;
      if (translated) offset[b] += bone.axis_rotation * translation;
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
      // BVH: the offset hangs from the parent joint, which carries the turn.
      const Eigen::Quaterniond& frame = skeleton.offsets_in_parent_frame ? rotations[parent] : rotations[b];
      positions[b] = positions[parent] + frame * offset[b];
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

void world_transforms(const Skeleton& skeleton, const Motion& motion, std::span<Eigen::Vector3d> positions,
                      std::span<Eigen::Quaterniond> rotations) {
  const std::size_t bones = skeleton.bones.size();
  // A pose on the stack would allocate; callers on a hot path use the pose
  // track instead (keyframes.h). One allocation per motion is fine here.
  Pose pose = make_pose(skeleton);
  for (int f = 0; f < motion.frame_count(); ++f) {
    pose_from_channels(skeleton, motion.frame(f), pose);
    forward_kinematics(skeleton, pose, positions.subspan(f * bones, bones), rotations.subspan(f * bones, bones));
  }
}

}  // namespace mocap
