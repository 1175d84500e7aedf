// Skinner: a mesh skinned frame after frame. It owns what a frame loop
// needs (the skinning matrices, their dual quaternions, the posed positions
// and normals, the worker threads) and allocates nothing after create():
//   auto skinner = Skinner::create(bound.mesh, bound.weights, bones);
//   for each frame: skinner->skin(skeleton, pose, bound.bind);  // or write
//                   matrices() and run()
//                   read positions() / normals()
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/fk.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/mesh.h>
#include <mocap/io/skin_weights.h>
#include <mocap/skin/bind.h>
#include <mocap/skin/packed_weights.h>
#include <mocap/skin/skin_job.h>
#include <mocap/skin/skin_threads.h>

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace mocap {

class Skinner {
 public:
  // Deforms `mesh` (its positions and normals, which must outlive the
  // Skinner and not move) by `weights` (one per vertex, packed here, so
  // they need not outlive it; results within a few float ulps of a SkinJob
  // on the VertexWeights themselves, see packed_weights.h) on `bone_count`
  // bones with `method`, on `threads` threads (0: all cores; see
  // skin_threads.h). Fails, as SkinJob::validate, when the sizes differ or a
  // weight names a bone >= bone_count.
  static Result<Skinner> create(const Mesh& mesh, std::span<const VertexWeights> weights, std::size_t bone_count,
                                SkinMethod method = SkinMethod::kLinear, int threads = 0);

  SkinMethod method() const { return method_; }
  void set_method(SkinMethod method) { method_ = method; }
  int thread_count() const { return threads_->thread_count(); }

  // One skinning matrix per bone (bind.h), for run() to deform with.
  std::span<SkinMatrix> matrices() { return matrices_; }
  // Deforms the mesh by matrices() (their dual quaternions for
  // kDualQuaternion, each vertex choosing their signs: SkinJob).
  void run();
  // As run(), with kDualQuaternion the signs set along `tree` (one entry
  // per bone; align_to_parents, skin_job.h): neighbours blending two bones
  // turned far apart stay together.
  void run(const BoneTree& tree);
  // skinning_matrices of `pose` for `skeleton` (bone_count bones) bound by
  // `bind`, then deforms as run() does; with kDualQuaternion the signs are
  // set along the skeleton (align_to_parents, skin_job.h).
  void skin(const Skeleton& skeleton, const Pose& pose, const SkeletonBind& bind);

  // The posed mesh, mesh space, one per vertex; normals empty when the mesh has none.
  std::span<const Eigen::Vector3f> positions() const { return positions_; }
  std::span<const Eigen::Vector3f> normals() const { return normals_; }
  // Wall-clock seconds of the last skin()/run() and of all of them.
  double last_seconds() const { return last_seconds_; }
  double total_seconds() const { return total_seconds_; }

 private:
  Skinner() = default;
  SkinJob job();
  // run(), the dual quaternions' signs set along `skeleton` or `tree` when given.
  void deform(const Skeleton* skeleton, const BoneTree* tree);

  const Mesh* mesh_ = nullptr;
  PackedWeights weights_;  // packed once here: grouped by count, 2 bytes a rigid vertex (packed_weights.h)
  SkinMethod method_ = SkinMethod::kLinear;
  std::vector<SkinMatrix> matrices_;
  std::vector<DualQuaternion> dual_quaternions_;
  std::vector<Eigen::Vector3f> positions_, normals_;
  std::optional<SkinScratch> scratch_;
  std::unique_ptr<SkinThreads> threads_;
  double last_seconds_ = 0.0, total_seconds_ = 0.0;
};

}  // namespace mocap
