// SkinJob: validation, the dual quaternions of the skinning matrices and the
// choice of kernel (skin_kernels.h holds the kernels themselves).
#include <mocap/skin/skin_job.h>

#include <limits>
#include <string>

#include "skin_kernels.h"

namespace mocap {
namespace {

// Quaternion product of (x, y, z, w) vectors.
Eigen::Vector4f quaternion_product(const Eigen::Vector4f& a, const Eigen::Vector4f& b) {
  const Eigen::Vector3f av = a.head<3>();
  const Eigen::Vector3f bv = b.head<3>();
  Eigen::Vector4f out;
  out.head<3>() = a.w() * bv + b.w() * av + av.cross(bv);
  out.w() = a.w() * b.w() - av.dot(bv);
  return out;
}

}  // namespace

void dual_quaternions_from(std::span<const SkinMatrix> matrices, std::span<DualQuaternion> out) {
  for (std::size_t b = 0; b < matrices.size(); ++b) {
    const Eigen::Matrix3f linear = matrices[b].leftCols<3>();
    // Nearest rotation, so that a matrix with rounding (or scale) still gives a unit quaternion.
    const Eigen::Quaternionf q = Eigen::Quaternionf(linear).normalized();
    const Eigen::Vector3f t = matrices[b].col(3);
    DualQuaternion& dq = out[b];
    dq.real = Eigen::Vector4f(q.x(), q.y(), q.z(), q.w());
    dq.dual = 0.5f * quaternion_product(Eigen::Vector4f(t.x(), t.y(), t.z(), 0.0f), dq.real);
  }
}

Result<void> SkinJob::validate() const {
  auto bad = [](std::string message) { return fail("", 0, std::move(message)); };
  const std::size_t n = positions.size();
  if (out_positions.size() != n)
    return bad("out_positions has " + std::to_string(out_positions.size()) + " entries, expected " + std::to_string(n));
  if (weights.size() != n)
    return bad("weights has " + std::to_string(weights.size()) + " entries, expected " + std::to_string(n));
  if (!normals.empty() && normals.size() != n)
    return bad("normals has " + std::to_string(normals.size()) + " entries, expected " + std::to_string(n));
  if (out_normals.size() != normals.size()) return bad("out_normals must have as many entries as normals");
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) return bad("too many vertices");
  const std::size_t bones = method == SkinMethod::kLinear ? matrices.size() : dual_quaternions.size();
  if (bones == 0) return bad(method == SkinMethod::kLinear ? "no skinning matrices" : "no dual quaternions");
  for (std::size_t v = 0; v < n; ++v) {
    for (int k = 0; k < kMaxInfluences; ++k) {
      if (weights[v].bone[k] >= bones) {
        return bad("vertex " + std::to_string(v) + " refers to bone " + std::to_string(weights[v].bone[k]) + " of " +
                   std::to_string(bones));
      }
    }
  }
  return {};
}

namespace {

using namespace skin_kernels;

SkinKernel resolve(SkinKernel kernel) {
  if (kernel == SkinKernel::kAuto || kernel == SkinKernel::kAvx2) {
    return cpu_has_avx2() ? SkinKernel::kAvx2 : SkinKernel::kPortable;
  }
  return kernel;
}

void run_linear_packed(const SkinJob& job, int begin, int end, SkinKernel kernel) {
  PackedMatrix packed[kMaxPackedBones];
  pack(job.matrices, packed);
  const Streams s = streams(job, begin);
  const bool with_normals = !job.normals.empty();
  const int count = end - begin;
  if (kernel == SkinKernel::kAvx2) {
    linear_avx2(packed, s, count, with_normals);
  } else {
    linear_portable(packed, s, count, with_normals);
  }
}

}  // namespace

bool skin_kernel_available(SkinKernel kernel) {
  return kernel != SkinKernel::kAvx2 || cpu_has_avx2();
}

const char* skin_kernel_name(SkinKernel kernel) {
  switch (resolve(kernel)) {
    case SkinKernel::kAvx2: return "avx2";
    case SkinKernel::kScalar: return "scalar";
    default: return "portable";
  }
}

void SkinJob::run(int begin, int end, SkinKernel kernel) const {
  if (begin >= end) return;
  kernel = resolve(kernel);
  if (method == SkinMethod::kLinear) {
    if (kernel == SkinKernel::kScalar || matrices.size() > static_cast<std::size_t>(kMaxPackedBones)) {
      run_linear_scalar(*this, begin, end);
    } else {
      run_linear_packed(*this, begin, end, kernel);
    }
    return;
  }
  if (kernel == SkinKernel::kAvx2) {
    dual_quaternion_avx2(dual_quaternions.data(), streams(*this, begin), end - begin, !normals.empty());
    return;
  }
  run_dual_quaternion_scalar(*this, begin, end);
}

}  // namespace mocap
