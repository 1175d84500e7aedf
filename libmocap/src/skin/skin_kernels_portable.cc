// The kernels that run on any CPU: kScalar, the reference, and kPortable,
// 4-wide through Eigen's packets (SSE2 on any x86-64, NEON on ARM).
#include "skin_kernels.h"

#include <algorithm>
#include <cmath>

namespace mocap::skin_kernels {

// ------------------------------------------------------------------ kScalar

namespace {

// f(v, weights of v) for v in [begin, end), from either layout.
template <class F>
void for_each_vertex(const SkinJob& job, int begin, int end, F f) {
  if (!job.packed) {
    for (int v = begin; v < end; ++v) f(v, job.weights[v]);
    return;
  }
  const std::span<const PackedRun> runs = job.packed->runs;
  for (auto run = std::ranges::upper_bound(runs, begin, {}, &PackedRun::end); run != runs.end() && run->begin < end;
       ++run) {
    const Streams s = streams(job, run->begin, &*run);
    for (int v = std::max(begin, run->begin); v < std::min(end, run->end); ++v) {
      f(v, weights_at(s, run->influences, v - run->begin));
    }
  }
}

}  // namespace

void run_linear_scalar(const SkinJob& job, int begin, int end) {
  const SkinMatrix* matrices = job.matrices.data();
  const bool with_normals = !job.normals.empty();
  for_each_vertex(job, begin, end, [&](int v, const VertexWeights& w) {
    // Four slots always: unused ones have weight 0 on bone 0, cheaper than a branch.
    const SkinMatrix m = w.weight[0] * matrices[w.bone[0]] + w.weight[1] * matrices[w.bone[1]] +
                         w.weight[2] * matrices[w.bone[2]] + w.weight[3] * matrices[w.bone[3]];
    job.out_positions[v] = m.leftCols<3>() * job.positions[v] + m.col(3);
    if (with_normals) job.out_normals[v] = (m.leftCols<3>() * job.normals[v]).normalized();
  });
}

void run_dual_quaternion_scalar(const SkinJob& job, int begin, int end) {
  const DualQuaternion* dqs = job.dual_quaternions.data();
  const bool with_normals = !job.normals.empty();
  for_each_vertex(job, begin, end, [&](int v, const VertexWeights& w) {
    const Eigen::Vector4f& pivot = dqs[w.bone[0]].real;
    Eigen::Vector4f real = Eigen::Vector4f::Zero();
    Eigen::Vector4f dual = Eigen::Vector4f::Zero();
    for (int k = 0; k < kMaxInfluences; ++k) {
      const DualQuaternion& dq = dqs[w.bone[k]];
      // q and -q are the same rotation: blend along the shorter arc, unless
      // the signs were set along the hierarchy.
      const float s = !job.dual_quaternion_signs_set && dq.real.dot(pivot) < 0.0f ? -w.weight[k] : w.weight[k];
      real += s * dq.real;
      dual += s * dq.dual;
    }
    const float inverse_norm = 1.0f / real.norm();
    real *= inverse_norm;
    dual *= inverse_norm;
    const Eigen::Vector3f r = real.head<3>();
    const Eigen::Vector3f d = dual.head<3>();
    const Eigen::Vector3f t = 2.0f * (real.w() * d - dual.w() * r + r.cross(d));
    auto rotate = [&](const Eigen::Vector3f& p) -> Eigen::Vector3f {
      return p + 2.0f * r.cross(r.cross(p) + real.w() * p);
    };
    job.out_positions[v] = rotate(job.positions[v]) + t;
    if (with_normals) job.out_normals[v] = rotate(job.normals[v]).normalized();
  });
}

void pack(std::span<const SkinMatrix> matrices, PackedMatrix* packed) {
  for (std::size_t b = 0; b < matrices.size(); ++b) {
    for (int j = 0; j < 4; ++j) {
      for (int i = 0; i < 3; ++i) packed[b].c[4 * j + i] = matrices[b](i, j);
      packed[b].c[4 * j + 3] = 0.0f;
    }
  }
}

bool is_rotation(const SkinMatrix& m) {
  const Eigen::Matrix3d linear = m.leftCols<3>().cast<double>();
  const Eigen::Matrix3d error = linear.transpose() * linear - Eigen::Matrix3d::Identity();
  // Not `<=` on a NaN: a matrix with one is no rotation.
  return error.cwiseAbs().rowwise().sum().maxCoeff() <= 5e-7;
}

void find_rotations(std::span<const SkinMatrix> matrices, Rotations& out) {
  out.all = true;
  for (std::size_t b = 0; b < matrices.size(); ++b) {
    out.each[b] = is_rotation(matrices[b]);
    out.all = out.all && out.each[b];
  }
}

Streams streams(const SkinJob& job, int begin, const PackedRun* run) {
  const bool with_normals = !job.normals.empty();
  Streams s{nullptr,
            nullptr,
            nullptr,
            job.positions[begin].data(),
            with_normals ? job.normals[begin].data() : nullptr,
            job.out_positions[begin].data(),
            with_normals ? job.out_normals[begin].data() : nullptr};
  if (run) {
    const std::size_t i = static_cast<std::size_t>(begin - run->begin);
    s.bones = job.packed->bones.data() + run->bone_offset + i * run->influences;
    s.packed_weights = job.packed->weights.data() + run->weight_offset + i * (run->influences - 1);
  } else {
    s.weights = job.weights.data() + begin;
  }
  return s;
}

namespace {

// ---------------------------------------------------------------- kPortable

// Each vertex blended through its first kSlots slots.
// kPacked: the weights packed (packed_weights.h), else VertexWeights.
template <int kSlots, bool kNormals, bool kPacked>
void linear_portable(const PackedMatrix* __restrict packed, const Rotations& rotations, const Streams s, int count) {
  using Packet = Eigen::Array4f;
  using Column = Eigen::Map<const Packet, Eigen::Aligned16>;
  for (int v = 0; v < count; ++v) {
    float weight[kSlots];
    int bone[kSlots];
    if constexpr (kPacked) {
      const std::uint16_t* b = s.bones + kSlots * v;
      const float* f = s.packed_weights + (kSlots - 1) * v;
      for (int k = 0; k < kSlots; ++k) bone[k] = b[k];
      for (int k = 0; k + 1 < kSlots; ++k) weight[k] = f[k];
      weight[kSlots - 1] = last_weight(f, kSlots - 1);
    } else {
      const VertexWeights& w = s.weights[v];
      for (int k = 0; k < kSlots; ++k) {
        bone[k] = w.bone[k];
        weight[k] = w.weight[k];
      }
    }
    // The sum in the four-slot order, (((w0 m0 + w1 m1) + w2 m2) + w3 m3), cut short.
    auto column = [&](int j) -> Packet {
      Packet c = weight[0] * Column(packed[bone[0]].c + 4 * j);
      if constexpr (kSlots > 1) c += weight[1] * Column(packed[bone[1]].c + 4 * j);
      if constexpr (kSlots > 2) c += weight[2] * Column(packed[bone[2]].c + 4 * j);
      if constexpr (kSlots > 3) c += weight[3] * Column(packed[bone[3]].c + 4 * j);
      return c;
    };
    const Packet c0 = column(0), c1 = column(1), c2 = column(2), c3 = column(3);
    const float* p = s.positions + 3 * v;
    const Packet r = c0 * p[0] + c1 * p[1] + c2 * p[2] + c3;
    Packet m = Packet::Zero();
    // The normal is read before the position is written (4K aliasing: see linear_vertex_avx2).
    if constexpr (kNormals) {
      const float* n = s.normals + 3 * v;
      m = c0 * n[0] + c1 * n[1] + c2 * n[2];  // lane 3 is 0
    }
    float* o = s.out_positions + 3 * v;
    o[0] = r[0];
    o[1] = r[1];
    o[2] = r[2];
    if constexpr (kNormals && kPacked && kSlots == 1) {
      if (rotations.all || rotations.each[bone[0]]) {  // a unit normal stays unit (find_rotations)
        float* on = s.out_normals + 3 * v;
        on[0] = m[0];
        on[1] = m[1];
        on[2] = m[2];
        continue;
      }
    }
    if constexpr (kNormals) {
      const float squared = (m * m).sum();
      // A zero normal stays zero, as Eigen's normalized() leaves it.
      const Packet unit = squared > 0.0f ? Packet(m / std::sqrt(squared)) : m;
      float* on = s.out_normals + 3 * v;
      on[0] = unit[0];
      on[1] = unit[1];
      on[2] = unit[2];
    }
  }
}

}  // namespace

void linear_portable(const PackedMatrix* packed, const Rotations& rotations, const Streams& s, int count, bool normals,
                     int influences) {
  for_linear_run(s, influences, normals, [&]<int kSlots, bool kNormals, bool kPacked>() {
    linear_portable<kSlots, kNormals, kPacked>(packed, rotations, s, count);
  });
}

}  // namespace mocap::skin_kernels
