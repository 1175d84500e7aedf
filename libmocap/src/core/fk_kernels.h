// Which code world_transforms (core/fk.h) runs, chosen by hand: for tests,
// so that every kernel is checked against the frame-by-frame code on a
// machine whatever its CPU picks (not part of the public API).
#pragma once

#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <span>

namespace mocap::fk_kernels {

enum class Kernel {
  kAuto,          // what world_transforms runs: AVX2 where the CPU has it, else portable
  kPortable,      // the lanes for baseline x86-64 (SSE2 pairs), where vector extensions are
  kAvx2,          // the lanes in AVX2 registers
  kFrameByFrame,  // pose_from_channels and forward_kinematics, one frame at a time
};

// Whether `kernel` can run here (kAvx2 needs the CPU's AVX2, the lanes a
// GCC or Clang x86-64 build).
bool available(Kernel kernel);

// world_transforms(skeleton, motion, first, count, positions, rotations)
// through `kernel` (available). Frames the lanes do not fill are done
// frame by frame, as world_transforms does.
void world_transforms(Kernel kernel, const Skeleton& skeleton, const Motion& motion, int first, int count,
                      std::span<Eigen::Vector3d> positions, std::span<Eigen::Quaterniond> rotations);

}  // namespace mocap::fk_kernels
