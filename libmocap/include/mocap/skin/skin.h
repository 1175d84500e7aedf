// Skinning: binding a skeleton to a mesh and deforming the mesh with it.
//
// A bone's frame is rigid: its origin is the joint where the bone starts (the
// parent's end point; the root's position for the root) and its orientation
// the bone's world rotation from forward kinematics (fk.h). With B_b the
// frame in the bind pose and M_b the frame in a posed frame, both in mesh
// space, linear blend skinning moves a vertex v with weights w_i on bones b_i
// to
//   v' = sum_i w_i * M_bi * B_bi^-1 * v,
// and its normal by the same blended 3x3 part, renormalised. K_b = M_b B_b^-1
// is the bone's skinning matrix (3x4, float: mesh metres in, metres out).
//
// Dual quaternion skinning (Kavan et al. 2007) blends the rigid K_b as unit
// dual quaternions instead, which keeps volume where a bone twists; it needs
// rigid K_b (rotation + translation, no scale).
//
// A skeleton is placed in the mesh by a similarity (scale, yaw about +Y,
// translation). The same placement is applied to every animated frame, so a
// clip's root motion is scaled with the skeleton and the mesh walks as far as
// its own legs carry it.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/fk.h>
#include <mocap/io/mesh.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/skin_weights.h>
#include <mocap/skin/auto_weights.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace mocap {

using SkinMatrix = Eigen::Matrix<float, 3, 4, Eigen::RowMajor>;

// p_mesh = scale * Ry(yaw) * p_skeleton + translation; metres.
struct Placement {
  double scale = 1.0;
  double yaw_radians = 0.0;
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();

  Eigen::Affine3d matrix() const;
};

// The placement that stands the skeleton, posed by `bind_pose`, in `mesh`
// (Y-up, H its height), after a yaw of `yaw_radians`:
//  - scale: the skeleton's joint height (highest minus lowest joint, Y)
//    becomes (1 - kFootRatio - kHeadRatio) * H. CMU skeletons end at the
//    ankle/toe joints and at the middle of the head, not at the sole and the
//    crown: about 0.04 H each (anthropometric ankle height 0.039 H; on the
//    MakeHuman mesh the ankle is 0.044 H up and the CMU head end would sit
//    0.039 H below the crown);
//  - Y: the lowest joint at kFootRatio * H above the mesh's lowest point
//    (feet on the ground);
//  - X, Z: the root over the centre of the mesh's cross-section at the root's
//    height (vertices within 0.025 H of it and within 0.1 H of the mesh's
//    centre line in X, so that hands hanging beside the hips are ignored),
//    then moved in Z by the offset from joints to the centre of the mesh's slice
//    at their height (vertices within 0.02 H in Y and 0.08 H across): the
//    mean of the median over joints below the root and the median over
//    joints above it, so that legs and trunk both run inside the mesh's.
inline constexpr double kFootRatio = 0.04;
inline constexpr double kHeadRatio = 0.04;
Placement fit_placement(const Skeleton& skeleton, const Pose& bind_pose, const Mesh& mesh, double yaw_radians = 0.0);

// The frame of every bone in mesh space, as described above, written to
// `frames` (one per bone). `positions` and `rotations` are scratch with one
// entry per bone. No allocation.
void bone_frames(const Skeleton& skeleton, const Pose& pose, const Placement& placement,
                 std::span<Eigen::Vector3d> positions, std::span<Eigen::Quaterniond> rotations,
                 std::span<Eigen::Affine3d> frames);

// The skeleton's rest pose (every channel 0): the ASF's own pose, a T-pose
// for CMU skeletons.
Pose rest_pose(const Skeleton& skeleton);

// What a skeleton bound to a mesh keeps from its bind pose.
struct SkeletonBind {
  Placement placement;
  std::vector<Eigen::Affine3d> inverse_bind;  // B_b^-1 per bone: mesh space to bone frame
  std::vector<BoneSegment> segments;          // per bone, in mesh space; the root and zero-length bones do not deform
};

// Binds `skeleton` posed by `bind_pose` and placed by `placement`.
SkeletonBind bind_skeleton(const Skeleton& skeleton, const Pose& bind_pose, const Placement& placement);

// Scratch for skinning_matrices, sized once per skeleton.
struct SkinScratch {
  std::vector<Eigen::Vector3d> positions;
  std::vector<Eigen::Quaterniond> rotations;
  std::vector<Eigen::Affine3d> frames;
  explicit SkinScratch(const Skeleton& skeleton);
};

// K_b = M_b B_b^-1 for every bone of `pose`, into `matrices` (one per bone).
// No allocation.
void skinning_matrices(const Skeleton& skeleton, const Pose& pose, const SkeletonBind& bind, SkinScratch& scratch,
                       std::span<SkinMatrix> matrices);

// A unit dual quaternion: real part (rotation) and dual part (translation),
// each as (x, y, z, w).
struct DualQuaternion {
  Eigen::Vector4f real = Eigen::Vector4f(0, 0, 0, 1);
  Eigen::Vector4f dual = Eigen::Vector4f::Zero();
};

// The rigid part of each matrix as a dual quaternion (scale, if any, is
// dropped: its rotation is orthonormalised). No allocation.
void dual_quaternions_from(std::span<const SkinMatrix> matrices, std::span<DualQuaternion> out);

enum class SkinMethod { kLinear, kDualQuaternion };

// The code SkinJob::run deforms vertices with. Every kernel gives the same
// results within float rounding (a few units in the last place: FMA and the
// order of sums differ); a given kernel gives bit-identical results for a
// vertex whatever range it is run in, so threads change nothing.
enum class SkinKernel {
  kAuto,      // the fastest this CPU runs: kAvx2 where it has AVX2 and FMA, else kPortable
  kAvx2,      // x86-64 AVX2 + FMA intrinsics (kPortable where the CPU or compiler lacks them)
  kPortable,  // kLinear: 4-wide SIMD through Eigen (SSE2 on any x86-64, NEON on ARM); kDualQuaternion: kScalar
  kScalar,    // the formulas above one vertex at a time, the reference the others are tested against
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
// must not overlap inputs. Memory per vertex beyond positions and normals:
// the 24-byte VertexWeights.
struct SkinJob {
  SkinMethod method = SkinMethod::kLinear;
  std::span<const SkinMatrix> matrices;              // kLinear: one per bone
  std::span<const DualQuaternion> dual_quaternions;  // kDualQuaternion: one per bone
  std::span<const VertexWeights> weights;            // one per vertex; bone indices < bone count
  std::span<const Eigen::Vector3f> positions;        // bind pose, metres
  std::span<const Eigen::Vector3f> normals;          // bind pose, unit; empty: positions only
  std::span<Eigen::Vector3f> out_positions;          // same size as positions
  std::span<Eigen::Vector3f> out_normals;            // same size as normals (may be empty)

  // Empty when the job can run, else what is wrong (sizes, bone indices).
  std::optional<std::string> validate() const;
  // Deforms vertices [begin, end). Concurrent calls on disjoint ranges are safe.
  void run(int begin, int end) const { run(begin, end, SkinKernel::kAuto); }
  void run() const { run(0, static_cast<int>(positions.size())); }
  // The same with a chosen kernel (tests and benchmarks compare them).
  void run(int begin, int end, SkinKernel kernel) const;
};

// Persistent worker threads that split a SkinJob's vertices between them and
// the calling thread. Running a job allocates nothing and starts no thread.
class SkinThreads {
 public:
  // `threads` in all, counting the caller; 0 means std::thread::hardware_concurrency().
  explicit SkinThreads(int threads = 0);
  ~SkinThreads();
  SkinThreads(const SkinThreads&) = delete;
  SkinThreads& operator=(const SkinThreads&) = delete;

  int thread_count() const { return static_cast<int>(workers_.size()) + 1; }
  // Runs `job` over all its vertices (job.validate() must have passed) and
  // returns when every vertex is done.
  void run(const SkinJob& job);

 private:
  void worker_loop();
  void work();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const SkinJob* job_ = nullptr;
  std::uint64_t generation_ = 0;
  int busy_ = 0;
  bool stop_ = false;
  std::atomic<int> next_chunk_{0};
  int chunk_count_ = 0;
  int chunk_size_ = 0;
};

}  // namespace mocap
