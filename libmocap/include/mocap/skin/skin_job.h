// SkinJob: one deformation of a mesh by skinning matrices (bind.h), linear
// blend or dual quaternion, through a kernel chosen at run time.
#pragma once

#include <mocap/core/error.h>
#include <mocap/io/skin_weights.h>
#include <mocap/skin/bind.h>
#include <mocap/skin/packed_weights.h>

#include <Eigen/Core>
#include <span>
#include <string_view>
#include <vector>

namespace mocap {

// A unit dual quaternion: real part (rotation) and dual part (translation),
// each as (x, y, z, w).
struct DualQuaternion {
  Eigen::Vector4f real = Eigen::Vector4f(0, 0, 0, 1);
  Eigen::Vector4f dual = Eigen::Vector4f::Zero();
};

// The rigid part of each matrix as a dual quaternion (scale, if any, is
// dropped: its rotation is orthonormalised). No allocation.
void dual_quaternions_from(std::span<const SkinMatrix> matrices, std::span<DualQuaternion> out);

// Each of `skeleton`'s bones' dual quaternions (one per bone) negated where
// its rotation lies in the other hemisphere from its parent's (a negative
// dot product of the real parts), parents first: the same rotations, signed
// so that a SkinJob with dual_quaternion_signs_set blends them as they are.
// No allocation.
void align_to_parents(const Skeleton& skeleton, std::span<DualQuaternion> dual_quaternions);

// A hierarchy of skinning bones that is not a Skeleton (a rigged model's
// joints, rigged_model.h): `order` lists every bone after its parent,
// `parent` holds each bone's parent (-1: none).
struct BoneTree {
  std::vector<int> order;
  std::vector<int> parent;
};

// As above, along `tree`; entries naming a bone past the dual quaternions
// are skipped. No allocation.
void align_to_parents(const BoneTree& tree, std::span<DualQuaternion> dual_quaternions);

enum class SkinMethod { kLinear, kDualQuaternion };

// "lbs" (kLinear) or "dqs" (kDualQuaternion), the names `mocap skin
// --method` and the Python module take; fails (no file) on any other.
Result<SkinMethod> parse_skin_method(std::string_view name);

// The code SkinJob::run deforms vertices with. Every kernel gives the same
// results within float rounding (a few units in the last place: FMA and the
// order of sums differ); a given kernel gives bit-identical results for a
// vertex whatever range it is run in, so threads change nothing.
enum class SkinKernel {
  kAuto,      // the fastest this CPU runs: kAvx2 where it has AVX2 and FMA, else kPortable
  kAvx2,      // x86-64 AVX2 + FMA intrinsics (kPortable where the CPU or compiler lacks them)
  kPortable,  // kLinear: 4-wide SIMD through Eigen (SSE2 on any x86-64, NEON on ARM); kDualQuaternion: kScalar
  kScalar,    // the formulas of bind.h one vertex at a time, the reference the others are tested against
};
// Whether `kernel` runs as itself on this CPU (kAuto, kPortable, kScalar always do).
bool skin_kernel_available(SkinKernel kernel);
// "avx2", "portable" or "scalar": what kAuto (or `kernel`) runs as here.
const char* skin_kernel_name(SkinKernel kernel = SkinKernel::kAuto);

// The kLinear SIMD kernels read the skinning matrices repacked as 4x4
// columns (64 bytes per bone, 32 KiB at most) on the stack of each run()
// call; a job with more matrices than this runs kScalar.
inline constexpr int kMaxPackedBones = 512;

// One deformation of a mesh: inputs and outputs are plain spans the caller
// owns; Run() allocates nothing, so a frame loop allocates nothing. Outputs
// must not overlap inputs. Output normals are unit: each is the blended
// matrix's 3x3 times the bind normal, renormalised, but for a vertex of a
// 1-influence packed run whose bone's 3x3 is a rotation (M^T M within 5e-7
// of I: no scale, no shear), whose normal keeps its length, unit within
// float rounding since the bind normal is (the SIMD kernels skip the square
// root there, as ozz-animation's SkinningJob does everywhere; kScalar does not).
// The weights come in one of two layouts:
// `packed` (packed_weights.h: 2 bytes per influence and 4 per weight but the
// last, grouped by count, what a Skinner uses), or else `weights`, 24 bytes
// of VertexWeights per vertex, with optional `influence_runs`.
struct SkinJob {
  SkinMethod method = SkinMethod::kLinear;
  std::span<const SkinMatrix> matrices;              // kLinear: one per bone
  std::span<const DualQuaternion> dual_quaternions;  // kDualQuaternion: one per bone
  std::span<const VertexWeights> weights;            // one per vertex, bone indices < bone count; unused with packed
  std::span<const Eigen::Vector3f> positions;        // bind pose, metres
  std::span<const Eigen::Vector3f> normals;          // bind pose, unit; empty: positions only
  std::span<Eigen::Vector3f> out_positions;          // same size as positions
  std::span<Eigen::Vector3f> out_normals;            // same size as normals (may be empty)
  // make_influence_runs(weights), kept beside the weights; empty: every
  // vertex through four slots (the same bits, slower for 1-3 influences).
  std::span<const InfluenceRun> influence_runs;
  // The weights packed (pack_weights), owned by the caller; null: `weights`.
  // With it, `weights` and `influence_runs` are ignored and may be empty.
  const PackedWeights* packed = nullptr;
  // kDualQuaternion. False: each vertex signs its influences against its
  // first slot's (q and -q are one rotation; the shorter arc from that bone).
  // Where the bones' rotations are near 180 degrees apart, two neighbouring
  // vertices listing the same bones in another order then blend with
  // opposite signs and tear apart (a wrist between a hand bent back and a
  // thumb turned the other way: 1 mm edges 81x). True: the signs were set
  // along the hierarchy (align_to_parents) and are blended as they are, a
  // blend continuous in the weights that passes through the parent's
  // rotation.
  bool dual_quaternion_signs_set = false;

  // Fails (no file) with what is wrong: sizes that differ, no matrices or
  // dual quaternions for the method, a weight naming a bone past them,
  // influence runs that do not tile the vertices in order or leave out a
  // slot a vertex uses; packed weights for another vertex count, whose runs
  // do not tile it or whose arrays do not hold their runs.
  Result<void> validate() const;
  // Deforms vertices [begin, end). Concurrent calls on disjoint ranges are safe.
  void run(int begin, int end) const { run(begin, end, SkinKernel::kAuto); }
  void run() const { run(0, static_cast<int>(positions.size())); }
  // The same with a chosen kernel (tests and benchmarks compare them).
  void run(int begin, int end, SkinKernel kernel) const;
};
}  // namespace mocap
