// SkinJob: validation, the dual quaternions of the skinning matrices and the
// choice of kernel (skin_kernels.h holds the kernels themselves).
#include <mocap/core/parse_name.h>
#include <mocap/skin/skin_job.h>

#include <algorithm>
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

// SkinJob::validate for packed weights on `n` vertices and `bones` bones.
Result<void> validate_packed(const PackedWeights& packed, std::size_t n, std::size_t bones) {
  auto bad = [](std::string message) { return fail("", 0, std::move(message)); };
  if (static_cast<std::size_t>(packed.vertex_count()) != n)
    return bad("packed weights hold " + std::to_string(packed.vertex_count()) + " vertices, expected " +
               std::to_string(n));
  int next = 0;
  std::size_t bone_offset = 0, weight_offset = 0;
  for (std::size_t r = 0; r < packed.runs.size(); ++r) {
    const PackedRun& run = packed.runs[r];
    const std::string name = "packed run " + std::to_string(r);
    if (run.begin != next || run.end <= run.begin)
      return bad(name + " is [" + std::to_string(run.begin) + ", " + std::to_string(run.end) + "), expected [" +
                 std::to_string(next) + ", ...)");
    if (run.influences < 1 || run.influences > kMaxInfluences)
      return bad(name + " has " + std::to_string(run.influences) + " influences, expected 1 to 4");
    const std::size_t count = static_cast<std::size_t>(run.end - run.begin);
    if (run.bone_offset != bone_offset || run.weight_offset != weight_offset)
      return bad(name + " does not start where the run before it ends in the bone and weight arrays");
    bone_offset += count * static_cast<std::size_t>(run.influences);
    weight_offset += count * static_cast<std::size_t>(run.influences - 1);
    next = run.end;
  }
  if (bone_offset != packed.bones.size() || weight_offset != packed.weights.size())
    return bad("packed weights have " + std::to_string(packed.bones.size()) + " bone indices and " +
               std::to_string(packed.weights.size()) + " weights, their runs " + std::to_string(bone_offset) + " and " +
               std::to_string(weight_offset));
  for (const PackedRun& run : packed.runs) {
    for (std::size_t i = run.bone_offset; i < run.bone_offset + (run.end - run.begin) * run.influences; ++i) {
      if (packed.bones[i] >= bones) {
        const std::size_t v = static_cast<std::size_t>(run.begin) + (i - run.bone_offset) / run.influences;
        return bad("vertex " + std::to_string(v) + " refers to bone " + std::to_string(packed.bones[i]) + " of " +
                   std::to_string(bones));
      }
    }
  }
  return {};
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

namespace {

template <class ParentOf>
void align_along(std::span<const int> order, ParentOf parent_of, std::span<DualQuaternion> dual_quaternions) {
  for (const int b : order) {
    if (b < 0 || static_cast<std::size_t>(b) >= dual_quaternions.size()) continue;
    const int parent = parent_of(b);
    if (parent < 0 || static_cast<std::size_t>(parent) >= dual_quaternions.size()) continue;
    DualQuaternion& dq = dual_quaternions[b];
    if (dq.real.dot(dual_quaternions[parent].real) < 0.0f) dq.real = -dq.real, dq.dual = -dq.dual;
  }
}

}  // namespace

void align_to_parents(const Skeleton& skeleton, std::span<DualQuaternion> dual_quaternions) {
  align_along(
      skeleton.eval_order, [&](int b) { return skeleton.bones[b].parent; }, dual_quaternions);
}

void align_to_parents(const BoneTree& tree, std::span<DualQuaternion> dual_quaternions) {
  align_along(
      tree.order, [&](int b) { return static_cast<std::size_t>(b) < tree.parent.size() ? tree.parent[b] : -1; },
      dual_quaternions);
}

Result<void> SkinJob::validate() const {
  auto bad = [](std::string message) { return fail("", 0, std::move(message)); };
  const std::size_t n = positions.size();
  if (out_positions.size() != n)
    return bad("out_positions has " + std::to_string(out_positions.size()) + " entries, expected " + std::to_string(n));
  if (!packed && weights.size() != n)
    return bad("weights has " + std::to_string(weights.size()) + " entries, expected " + std::to_string(n));
  if (!normals.empty() && normals.size() != n)
    return bad("normals has " + std::to_string(normals.size()) + " entries, expected " + std::to_string(n));
  if (out_normals.size() != normals.size()) return bad("out_normals must have as many entries as normals");
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) return bad("too many vertices");
  const std::size_t bones = method == SkinMethod::kLinear ? matrices.size() : dual_quaternions.size();
  if (bones == 0) return bad(method == SkinMethod::kLinear ? "no skinning matrices" : "no dual quaternions");
  if (packed) return validate_packed(*packed, n, bones);
  for (std::size_t v = 0; v < n; ++v) {
    for (int k = 0; k < kMaxInfluences; ++k) {
      if (weights[v].bone[k] >= bones) {
        return bad("vertex " + std::to_string(v) + " refers to bone " + std::to_string(weights[v].bone[k]) + " of " +
                   std::to_string(bones));
      }
    }
  }
  int next = 0;
  for (std::size_t r = 0; r < influence_runs.size(); ++r) {
    const InfluenceRun& run = influence_runs[r];
    const std::string name = "influence run " + std::to_string(r);
    if (run.begin != next || run.end <= run.begin || static_cast<std::size_t>(run.end) > n) {
      return bad(name + " is [" + std::to_string(run.begin) + ", " + std::to_string(run.end) + "), expected [" +
                 std::to_string(next) + ", ...) within " + std::to_string(n) + " vertices");
    }
    if (run.influences < 1 || run.influences > kMaxInfluences)
      return bad(name + " has " + std::to_string(run.influences) + " influences, expected 1 to 4");
    for (int v = run.begin; v < run.end; ++v) {
      if (influences_used(weights[v]) > run.influences) {
        return bad("vertex " + std::to_string(v) + " uses " + std::to_string(influences_used(weights[v])) +
                   " influences, its " + name + " " + std::to_string(run.influences));
      }
    }
    next = run.end;
  }
  if (!influence_runs.empty() && static_cast<std::size_t>(next) != n)
    return bad("influence runs end at vertex " + std::to_string(next) + " of " + std::to_string(n));
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

// Calls piece(streams, count, influences) for the parts of [begin, end) in
// each packed or influence run, or once with 4 influences when the job has
// neither.
template <class Piece>
void for_each_run(const SkinJob& job, int begin, int end, Piece piece) {
  if (job.packed) {
    const std::span<const PackedRun> runs = job.packed->runs;
    // The first run that ends after `begin`.
    for (auto run = std::ranges::upper_bound(runs, begin, {}, &PackedRun::end); run != runs.end() && run->begin < end;
         ++run) {
      const int from = std::max(begin, run->begin);
      piece(streams(job, from, &*run), std::min(end, run->end) - from, run->influences);
    }
    return;
  }
  if (job.influence_runs.empty()) {
    piece(streams(job, begin, nullptr), end - begin, kMaxInfluences);
    return;
  }
  const std::span<const InfluenceRun> runs = job.influence_runs;
  auto run = std::ranges::upper_bound(runs, begin, {}, &InfluenceRun::end);
  for (; run != runs.end() && run->begin < end; ++run) {
    const int from = std::max(begin, run->begin);
    piece(streams(job, from, nullptr), std::min(end, run->end) - from, run->influences);
  }
}

void run_linear_packed(const SkinJob& job, int begin, int end, SkinKernel kernel) {
  PackedMatrix packed[kMaxPackedBones];
  pack(job.matrices, packed);
  const bool with_normals = !job.normals.empty();
  // Per run, not per job: the matrices change between runs, and 31 bones cost ~0.1 us.
  Rotations rotations;
  if (with_normals && job.packed) find_rotations(job.matrices, rotations);
  for_each_run(job, begin, end, [&](const Streams& s, int count, int influences) {
    if (kernel == SkinKernel::kAvx2) {
      linear_avx2(packed, rotations, s, count, with_normals, influences);
    } else {
      linear_portable(packed, rotations, s, count, with_normals, influences);
    }
  });
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
    for_each_run(*this, begin, end, [&](const Streams& s, int count, int influences) {
      dual_quaternion_avx2(dual_quaternions.data(), s, count, !normals.empty(), influences, !dual_quaternion_signs_set);
    });
    return;
  }
  run_dual_quaternion_scalar(*this, begin, end);
}

Result<SkinMethod> parse_skin_method(std::string_view name) {
  return parse_name<SkinMethod>(name, {{"lbs", SkinMethod::kLinear}, {"dqs", SkinMethod::kDualQuaternion}});
}

}  // namespace mocap
