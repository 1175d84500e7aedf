#include <mocap/core/fk.h>

#include <memory>

#include "core/fk_kernels.h"
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

// Forward kinematics of kLanes frames at once, one per vector lane (GCC
// and Clang vector extensions: core/fk_lanes.h): every lane does the
// operations of pose_from_channels and forward_kinematics above, in their
// order, so the results are theirs bit for bit. Frame by frame, each
// quaternion product's result went through memory in a chain per bone. On
// 14_02 (5,423 frames, 31 bones; best of 15 each in Python, two loaded
// cores) world_positions took 5.4 ms frame by frame; in SSE2 pairs 3.2 ms
// with 2 lanes, 2.8 with 4, 2.7 with 8, 3.4 with 16 (registers spill); in
// AVX2 registers, where the CPU has them (asked at run time, as the skin
// and clip_runtime tiers do), 1.7 ms with 4 lanes (one register a value),
// 3.2 with 2 or 8. The helpers are forced inline: the AVX2 lanes took 2.3
// ms with multiply, rotate and sin_cos called.
#if (defined(__GNUC__) || defined(__clang__)) && defined(__SSE2__)
#define MOCAP_FK_LANES 1
#define MOCAP_FK_INLINE [[gnu::always_inline]] inline
// These functions are this file's own: their vector arguments' ABI is no one's.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
#define MOCAP_FK_LANE_COUNT 8  // SSE2 pairs
namespace portable {
#include "core/fk_lanes.h"
}  // namespace portable

#if defined(__x86_64__)
#define MOCAP_FK_AVX2 1
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
#undef MOCAP_FK_LANE_COUNT
#define MOCAP_FK_LANE_COUNT 4  // one AVX2 register a value
namespace avx2 {
#include "core/fk_lanes.h"
}  // namespace avx2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

namespace {
bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
}  // namespace
#endif
#endif

namespace fk_kernels {

bool available(Kernel kernel) {
  switch (kernel) {
    case Kernel::kPortable:
#if MOCAP_FK_LANES
      return true;
#else
      return false;
#endif
    case Kernel::kAvx2:
#if MOCAP_FK_AVX2
      return cpu_has_avx2();
#else
      return false;
#endif
    default: return true;
  }
}

void world_transforms(Kernel kernel, const Skeleton& skeleton, const Motion& motion, int first, int count,
                      std::span<Eigen::Vector3d> positions, std::span<Eigen::Quaterniond> rotations) {
  const std::size_t bones = skeleton.bones.size();
  const int end = first + count;
  int f = first;
#if MOCAP_FK_AVX2
  if (kernel == Kernel::kAuto) kernel = cpu_has_avx2() ? Kernel::kAvx2 : Kernel::kPortable;
  if (kernel == Kernel::kAvx2) f = avx2::lane_blocks(skeleton, motion, first, end, positions, rotations);
#elif MOCAP_FK_LANES
  if (kernel == Kernel::kAuto) kernel = Kernel::kPortable;
#endif
#if MOCAP_FK_LANES
  if (kernel == Kernel::kPortable) f = portable::lane_blocks(skeleton, motion, first, end, positions, rotations);
#endif
  if (f == end) return;
  // The frames left over (or all), one by one through a pose.
  Pose pose = make_pose(skeleton);
  std::vector<Eigen::Quaterniond> scratch(rotations.empty() ? bones : 0);
  for (; f < end; ++f) {
    const std::size_t row = static_cast<std::size_t>(f - first) * bones;
    pose_from_channels(skeleton, motion.frame(f), pose);
    forward_kinematics(skeleton, pose, positions.subspan(row, bones),
                       rotations.empty() ? std::span(scratch) : rotations.subspan(row, bones));
  }
}

}  // namespace fk_kernels

void world_transforms(const Skeleton& skeleton, const Motion& motion, int first, int count,
                      std::span<Eigen::Vector3d> positions, std::span<Eigen::Quaterniond> rotations) {
  fk_kernels::world_transforms(fk_kernels::Kernel::kAuto, skeleton, motion, first, count, positions, rotations);
}

std::vector<Eigen::Vector3d> world_positions(const Skeleton& skeleton, const Motion& motion) {
  std::vector<Eigen::Vector3d> positions(static_cast<std::size_t>(motion.frame_count()) * skeleton.bones.size());
  world_transforms(skeleton, motion, 0, motion.frame_count(), positions, {});
  return positions;
}

void world_transforms(const Skeleton& skeleton, const Motion& motion, std::span<Eigen::Vector3d> positions,
                      std::span<Eigen::Quaterniond> rotations) {
  world_transforms(skeleton, motion, 0, motion.frame_count(), positions, rotations);
}

}  // namespace mocap
