#include <mocap/skin/skinner.h>

#include <chrono>
#include <string>

namespace mocap {

Result<Skinner> Skinner::create(const Mesh& mesh, std::span<const VertexWeights> weights, std::size_t bone_count,
                                SkinMethod method, int threads) {
  Skinner skinner;
  skinner.mesh_ = &mesh;
  if (weights.size() != mesh.positions.size()) {
    return fail("", 0,
                "weights has " + std::to_string(weights.size()) + " entries, expected " +
                    std::to_string(mesh.positions.size()));
  }
  skinner.weights_ = pack_weights(weights);
  skinner.method_ = method;
  skinner.matrices_.assign(bone_count, SkinMatrix::Zero());
  skinner.dual_quaternions_.assign(bone_count, DualQuaternion{});
  skinner.positions_.assign(mesh.positions.size(), Eigen::Vector3f::Zero());
  skinner.normals_.assign(mesh.normals.size(), Eigen::Vector3f::UnitY());
  // Both methods once: bone indices and sizes do not change between frames,
  // so run() need not check them again.
  for (const SkinMethod m : {SkinMethod::kLinear, SkinMethod::kDualQuaternion}) {
    SkinJob job = skinner.job();
    job.method = m;
    if (auto valid = job.validate(); !valid) return std::unexpected(valid.error());
  }
  skinner.scratch_.emplace(bone_count);
  skinner.threads_ = std::make_unique<SkinThreads>(threads);
  return skinner;
}

SkinJob Skinner::job() {
  SkinJob job;
  job.method = method_;
  job.matrices = matrices_;
  job.dual_quaternions = dual_quaternions_;
  job.packed = &weights_;
  job.positions = mesh_->positions;
  job.normals = mesh_->normals;
  job.out_positions = positions_;
  job.out_normals = normals_;
  return job;
}

void Skinner::run() {
  deform(nullptr, nullptr);
}

void Skinner::run(const BoneTree& tree) {
  deform(nullptr, &tree);
}

void Skinner::deform(const Skeleton* skeleton, const BoneTree* tree) {
  const auto start = std::chrono::steady_clock::now();
  SkinJob skin_job = job();
  if (method_ == SkinMethod::kDualQuaternion) {
    dual_quaternions_from(matrices_, dual_quaternions_);
    if (skeleton) align_to_parents(*skeleton, dual_quaternions_);
    if (tree) align_to_parents(*tree, dual_quaternions_);
    skin_job.dual_quaternion_signs_set = skeleton || tree;
  }
  threads_->run(skin_job);
  last_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  total_seconds_ += last_seconds_;
}

void Skinner::skin(const Skeleton& skeleton, const Pose& pose, const SkeletonBind& bind) {
  const auto start = std::chrono::steady_clock::now();
  skinning_matrices(skeleton, pose, bind, *scratch_, matrices_);
  deform(&skeleton, nullptr);
  // The matrices count with the deformation, as a frame's cost.
  total_seconds_ -= last_seconds_;
  last_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  total_seconds_ += last_seconds_;
}

}  // namespace mocap
