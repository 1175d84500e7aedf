#include <mocap/skin/skin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace mocap {

Eigen::Affine3d Placement::matrix() const {
  Eigen::Affine3d m = Eigen::Affine3d::Identity();
  m.translate(translation);
  m.rotate(Eigen::AngleAxisd(yaw_radians, Eigen::Vector3d::UnitY()));
  m.scale(scale);
  return m;
}

Placement fit_placement(const Skeleton& skeleton, const Pose& bind_pose, const Mesh& mesh, double yaw_radians) {
  const std::size_t bones = skeleton.bones.size();
  std::vector<Eigen::Vector3d> positions(bones);
  std::vector<Eigen::Quaterniond> rotations(bones);
  forward_kinematics(skeleton, bind_pose, positions, rotations);
  const Eigen::AngleAxisd yaw(yaw_radians, Eigen::Vector3d::UnitY());
  Eigen::AlignedBox3d joints;
  for (const auto& p : positions) joints.extend(yaw * p);
  Eigen::AlignedBox3d body;
  for (const auto& p : mesh.positions) body.extend(p.cast<double>());
  Placement placement;
  placement.yaw_radians = yaw_radians;
  const double height = body.sizes().y();
  const double joint_height = joints.sizes().y();
  placement.scale = joint_height > 0.0 ? (1.0 - kFootRatio - kHeadRatio) * height / joint_height : 1.0;
  placement.translation.y() = body.min().y() + kFootRatio * height - placement.scale * joints.min().y();
  const Eigen::Vector3d root = placement.scale * (yaw * positions[0]);
  const double root_y = root.y() + placement.translation.y();
  Eigen::AlignedBox3d section;
  for (const auto& p : mesh.positions) {
    if (std::abs(p.y() - root_y) <= 0.025 * height && std::abs(p.x() - body.center().x()) <= 0.1 * height) {
      section.extend(p.cast<double>());
    }
  }
  if (section.isEmpty()) section = body;
  placement.translation.x() = section.center().x() - root.x();
  placement.translation.z() = section.center().z() - root.z();

  // Refinement in Z (X is symmetric already): every joint should sit in the middle of the limb or trunk
  // around it. Per joint, the offset to the centre of the mesh's slice at its
  // height (within 0.08 H of it); medians so that a few odd joints (a hand, a
  // toe) do not pull; the joints below the root (legs) and above it (trunk,
  // arms) count as much as each other, because a capture's rest posture
  // rarely matches the mesh's (CMU hips stand ~3.5 cm in front of the spine,
  // MakeHuman's do not) and neither half should end up outside its limbs.
  std::array<std::vector<double>, 2> dz;
  for (std::size_t b = 1; b < bones; ++b) {
    const Eigen::Vector3d joint = placement.scale * (yaw * positions[b]) + placement.translation;
    Eigen::AlignedBox3d slice;
    for (const auto& p : mesh.positions) {
      const Eigen::Vector3d q = p.cast<double>();
      if (std::abs(q.y() - joint.y()) <= 0.02 * height &&
          Eigen::Vector2d(q.x() - joint.x(), q.z() - joint.z()).norm() <= 0.08 * height) {
        slice.extend(q);
      }
    }
    if (slice.isEmpty()) continue;
    const int half = joint.y() < root_y ? 0 : 1;
    dz[half].push_back(slice.center().z() - joint.z());
  }
  auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  double shift = 0.0;
  int halves = 0;
  for (int half = 0; half < 2; ++half) {
    if (dz[half].empty()) continue;
    shift += median(dz[half]);
    ++halves;
  }
  if (halves > 0) placement.translation.z() += shift / halves;
  return placement;
}

void bone_frames(const Skeleton& skeleton, const Pose& pose, const Placement& placement,
                 std::span<Eigen::Vector3d> positions, std::span<Eigen::Quaterniond> rotations,
                 std::span<Eigen::Affine3d> frames) {
  forward_kinematics(skeleton, pose, positions, rotations);
  const Eigen::Quaterniond yaw(Eigen::AngleAxisd(placement.yaw_radians, Eigen::Vector3d::UnitY()));
  for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
    const int parent = skeleton.bones[b].parent;
    const Eigen::Vector3d& origin = parent < 0 ? positions[b] : positions[parent];
    // Rigid frames: the placement's scale moves the origin, it does not scale
    // the frame, so K_b = M_b B_b^-1 stays a rotation plus translation.
    Eigen::Affine3d& frame = frames[b];
    frame.linear() = (yaw * rotations[b]).toRotationMatrix();
    frame.translation() = placement.scale * (yaw * origin) + placement.translation;
    frame.makeAffine();
  }
}

Pose rest_pose(const Skeleton& skeleton) {
  Pose pose = make_pose(skeleton);
  const std::vector<double> zeros(static_cast<std::size_t>(skeleton.channel_count), 0.0);
  pose_from_channels(skeleton, zeros, pose);
  return pose;
}

SkeletonBind bind_skeleton(const Skeleton& skeleton, const Pose& bind_pose, const Placement& placement) {
  const std::size_t bones = skeleton.bones.size();
  std::vector<Eigen::Vector3d> positions(bones);
  std::vector<Eigen::Quaterniond> rotations(bones);
  std::vector<Eigen::Affine3d> frames(bones);
  bone_frames(skeleton, bind_pose, placement, positions, rotations, frames);
  SkeletonBind bind;
  bind.placement = placement;
  bind.inverse_bind.resize(bones);
  bind.segments.resize(bones);
  const Eigen::Affine3d place = placement.matrix();
  for (std::size_t b = 0; b < bones; ++b) {
    bind.inverse_bind[b] = frames[b].inverse(Eigen::Isometry);
    const int parent = skeleton.bones[b].parent;
    BoneSegment& segment = bind.segments[b];
    segment.start = (place * (parent < 0 ? positions[b] : positions[parent])).cast<float>();
    segment.end = (place * positions[b]).cast<float>();
    segment.parent = parent;
    segment.deforms = parent >= 0 && (segment.end - segment.start).norm() > 0.0f;
  }
  return bind;
}

SkinScratch::SkinScratch(const Skeleton& skeleton)
    : positions(skeleton.bones.size()), rotations(skeleton.bones.size()), frames(skeleton.bones.size()) {}

void skinning_matrices(const Skeleton& skeleton, const Pose& pose, const SkeletonBind& bind, SkinScratch& scratch,
                       std::span<SkinMatrix> matrices) {
  bone_frames(skeleton, pose, bind.placement, scratch.positions, scratch.rotations, scratch.frames);
  for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
    const Eigen::Affine3d k = scratch.frames[b] * bind.inverse_bind[b];
    matrices[b] = k.matrix().topRows<3>().cast<float>();
  }
}

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

std::optional<std::string> SkinJob::validate() const {
  const std::size_t n = positions.size();
  if (out_positions.size() != n)
    return "out_positions has " + std::to_string(out_positions.size()) + " entries, expected " + std::to_string(n);
  if (weights.size() != n)
    return "weights has " + std::to_string(weights.size()) + " entries, expected " + std::to_string(n);
  if (!normals.empty() && normals.size() != n)
    return "normals has " + std::to_string(normals.size()) + " entries, expected " + std::to_string(n);
  if (out_normals.size() != normals.size()) return "out_normals must have as many entries as normals";
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) return "too many vertices";
  const std::size_t bones = method == SkinMethod::kLinear ? matrices.size() : dual_quaternions.size();
  if (bones == 0) return method == SkinMethod::kLinear ? "no skinning matrices" : "no dual quaternions";
  for (std::size_t v = 0; v < n; ++v) {
    for (int k = 0; k < kMaxInfluences; ++k) {
      if (weights[v].bone[k] >= bones) {
        return "vertex " + std::to_string(v) + " refers to bone " + std::to_string(weights[v].bone[k]) + " of " +
               std::to_string(bones);
      }
    }
  }
  return std::nullopt;
}

namespace {

// ------------------------------------------------------------------ kScalar

void run_linear_scalar(const SkinJob& job, int begin, int end) {
  const SkinMatrix* matrices = job.matrices.data();
  const bool with_normals = !job.normals.empty();
  for (int v = begin; v < end; ++v) {
    const VertexWeights& w = job.weights[v];
    // Four slots always: unused ones have weight 0 on bone 0, cheaper than a branch.
    const SkinMatrix m = w.weight[0] * matrices[w.bone[0]] + w.weight[1] * matrices[w.bone[1]] +
                         w.weight[2] * matrices[w.bone[2]] + w.weight[3] * matrices[w.bone[3]];
    job.out_positions[v] = m.leftCols<3>() * job.positions[v] + m.col(3);
    if (with_normals) job.out_normals[v] = (m.leftCols<3>() * job.normals[v]).normalized();
  }
}

void run_dual_quaternion_scalar(const SkinJob& job, int begin, int end) {
  const DualQuaternion* dqs = job.dual_quaternions.data();
  const bool with_normals = !job.normals.empty();
  for (int v = begin; v < end; ++v) {
    const VertexWeights& w = job.weights[v];
    const Eigen::Vector4f& pivot = dqs[w.bone[0]].real;
    Eigen::Vector4f real = Eigen::Vector4f::Zero();
    Eigen::Vector4f dual = Eigen::Vector4f::Zero();
    for (int k = 0; k < kMaxInfluences; ++k) {
      const DualQuaternion& dq = dqs[w.bone[k]];
      // q and -q are the same rotation: blend along the shorter arc.
      const float s = dq.real.dot(pivot) < 0.0f ? -w.weight[k] : w.weight[k];
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
  }
}

// ---------------------------------------------------------- packed matrices

// A skinning matrix as its four columns (x, y, z, 0): blending is then four
// (or, 8-wide, two) multiply-adds per influence and the transform three more,
// with no transposition. Row 3 is zero so that a normal's fourth lane is 0.
struct alignas(64) PackedMatrix {
  float c[16];
};

void pack(std::span<const SkinMatrix> matrices, PackedMatrix* packed) {
  for (std::size_t b = 0; b < matrices.size(); ++b) {
    for (int j = 0; j < 4; ++j) {
      for (int i = 0; i < 3; ++i) packed[b].c[4 * j + i] = matrices[b](i, j);
      packed[b].c[4 * j + 3] = 0.0f;
    }
  }
}

// Plain pointers for the kernels: no aliasing between inputs and outputs.
struct Streams {
  const VertexWeights* __restrict weights;
  const float* __restrict positions;
  const float* __restrict normals;
  float* __restrict out_positions;
  float* __restrict out_normals;
};

Streams streams(const SkinJob& job, int begin) {
  const bool with_normals = !job.normals.empty();
  return {job.weights.data() + begin, job.positions[begin].data(), with_normals ? job.normals[begin].data() : nullptr,
          job.out_positions[begin].data(), with_normals ? job.out_normals[begin].data() : nullptr};
}

// ---------------------------------------------------------------- kPortable

template <bool kNormals>
void linear_portable(const PackedMatrix* __restrict packed, const Streams s, int count) {
  using Packet = Eigen::Array4f;
  using Column = Eigen::Map<const Packet, Eigen::Aligned16>;
  for (int v = 0; v < count; ++v) {
    const VertexWeights& w = s.weights[v];
    const float* m0 = packed[w.bone[0]].c;
    const float* m1 = packed[w.bone[1]].c;
    const float* m2 = packed[w.bone[2]].c;
    const float* m3 = packed[w.bone[3]].c;
    const float w0 = w.weight[0], w1 = w.weight[1], w2 = w.weight[2], w3 = w.weight[3];
    auto column = [&](int j) -> Packet {
      return w0 * Column(m0 + 4 * j) + w1 * Column(m1 + 4 * j) + w2 * Column(m2 + 4 * j) + w3 * Column(m3 + 4 * j);
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

// -------------------------------------------------------------------- kAvx2

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MOCAP_SKIN_AVX2 1
#define MOCAP_AVX2 __attribute__((target("avx2,fma")))
#define MOCAP_AVX2_INLINE __attribute__((target("avx2,fma"), always_inline)) inline

// Three floats into a vertex's slot without touching the next one, which may
// be another thread's (a 16-byte store and a 12-byte one on the last vertex
// of a range measured no faster).
MOCAP_AVX2_INLINE void store3(float* out, __m128 r) {
  _mm_storel_pi(reinterpret_cast<__m64*>(out), r);
  _mm_store_ss(out + 2, _mm_movehl_ps(r, r));
}

// Vertex v of a linear blend: writes its position and returns its normal,
// not yet normalised (lane 3 is 0), when kNormals.
template <bool kNormals>
MOCAP_AVX2_INLINE __m128 linear_vertex_avx2(const PackedMatrix* __restrict packed, const Streams& s, int v) {
  const VertexWeights& w = s.weights[v];
  // The four bone indices in one load.
  std::uint64_t bones;
  std::memcpy(&bones, w.bone.data(), sizeof bones);
  const float* m0 = packed[bones & 0xFFFF].c;
  const float* m1 = packed[(bones >> 16) & 0xFFFF].c;
  const float* m2 = packed[(bones >> 32) & 0xFFFF].c;
  const float* m3 = packed[bones >> 48].c;
  const __m256 w0 = _mm256_broadcast_ss(&w.weight[0]);
  const __m256 w1 = _mm256_broadcast_ss(&w.weight[1]);
  const __m256 w2 = _mm256_broadcast_ss(&w.weight[2]);
  const __m256 w3 = _mm256_broadcast_ss(&w.weight[3]);
  // Columns 0|1 and 2|3 of the blended matrix.
  __m256 a = _mm256_mul_ps(w0, _mm256_load_ps(m0));
  __m256 b = _mm256_mul_ps(w0, _mm256_load_ps(m0 + 8));
  a = _mm256_fmadd_ps(w1, _mm256_load_ps(m1), a);
  b = _mm256_fmadd_ps(w1, _mm256_load_ps(m1 + 8), b);
  a = _mm256_fmadd_ps(w2, _mm256_load_ps(m2), a);
  b = _mm256_fmadd_ps(w2, _mm256_load_ps(m2 + 8), b);
  a = _mm256_fmadd_ps(w3, _mm256_load_ps(m3), a);
  b = _mm256_fmadd_ps(w3, _mm256_load_ps(m3 + 8), b);
  // (c0 x + c2 z) + (c1 y + c3): x|y against columns 0|1, z|1 against 2|3.
  const float* p = s.positions + 3 * v;
  const __m256 xy = _mm256_blend_ps(_mm256_broadcast_ss(p), _mm256_broadcast_ss(p + 1), 0xF0);
  const __m256 z1 = _mm256_blend_ps(_mm256_broadcast_ss(p + 2), _mm256_set1_ps(1.0f), 0xF0);
  const __m256 t = _mm256_fmadd_ps(a, xy, _mm256_mul_ps(b, z1));
  __m128 normal = _mm_setzero_ps();
  if constexpr (kNormals) {
    // Read before the position is written: arrays of equal size often start
    // at the same offset in a page, and a load after a store to the same
    // address modulo 4 KiB waits for it (4K aliasing).
    const float* n = s.normals + 3 * v;
    const __m256 nxy = _mm256_blend_ps(_mm256_broadcast_ss(n), _mm256_broadcast_ss(n + 1), 0xF0);
    const __m256 nz0 = _mm256_blend_ps(_mm256_broadcast_ss(n + 2), _mm256_setzero_ps(), 0xF0);
    const __m256 u = _mm256_fmadd_ps(a, nxy, _mm256_mul_ps(b, nz0));
    normal = _mm_add_ps(_mm256_castps256_ps128(u), _mm256_extractf128_ps(u, 1));
  }
  store3(s.out_positions + 3 * v, _mm_add_ps(_mm256_castps256_ps128(t), _mm256_extractf128_ps(t, 1)));
  return normal;
}

// 1 / |m| per lane of `squared` (= |m|^2), 1 where it is 0 so that a zero
// normal stays zero, as Eigen's normalized() leaves it. sqrt and division are
// correctly rounded per lane: a vertex gets the same bits alone or in a group.
MOCAP_AVX2_INLINE __m128 inverse_length(__m128 squared) {
  const __m128 inverse = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(squared));
  return _mm_blendv_ps(_mm_set1_ps(1.0f), inverse, _mm_cmpgt_ps(squared, _mm_setzero_ps()));
}

template <bool kNormals>
MOCAP_AVX2 void linear_avx2(const PackedMatrix* __restrict packed, const Streams s, int count) {
  int v = 0;
  if constexpr (kNormals) {
    // Four normals share one square root and one division.
    for (; v + 4 <= count; v += 4) {
      const __m128 m0 = linear_vertex_avx2<true>(packed, s, v);
      const __m128 m1 = linear_vertex_avx2<true>(packed, s, v + 1);
      const __m128 m2 = linear_vertex_avx2<true>(packed, s, v + 2);
      const __m128 m3 = linear_vertex_avx2<true>(packed, s, v + 3);
      // Lane i: (x^2 + y^2) + (z^2 + 0) of normal i.
      const __m128 squared = _mm_hadd_ps(_mm_hadd_ps(_mm_mul_ps(m0, m0), _mm_mul_ps(m1, m1)),
                                         _mm_hadd_ps(_mm_mul_ps(m2, m2), _mm_mul_ps(m3, m3)));
      const __m128 inverse = inverse_length(squared);
      float* out = s.out_normals + 3 * v;
      store3(out, _mm_mul_ps(m0, _mm_shuffle_ps(inverse, inverse, _MM_SHUFFLE(0, 0, 0, 0))));
      store3(out + 3, _mm_mul_ps(m1, _mm_shuffle_ps(inverse, inverse, _MM_SHUFFLE(1, 1, 1, 1))));
      store3(out + 6, _mm_mul_ps(m2, _mm_shuffle_ps(inverse, inverse, _MM_SHUFFLE(2, 2, 2, 2))));
      store3(out + 9, _mm_mul_ps(m3, _mm_shuffle_ps(inverse, inverse, _MM_SHUFFLE(3, 3, 3, 3))));
    }
  }
  for (; v < count; ++v) {
    const __m128 m = linear_vertex_avx2<kNormals>(packed, s, v);
    if constexpr (kNormals) {
      const __m128 squared = _mm_mul_ps(m, m);
      const __m128 sums = _mm_hadd_ps(squared, squared);
      const __m128 inverse = inverse_length(_mm_hadd_ps(sums, sums));  // the same sums in the same order
      store3(s.out_normals + 3 * v, _mm_mul_ps(m, inverse));
    }
  }
}

// Four 8-float vectors transposed within each 128-bit half: in (a_i | b_i)
// for rows i, out (a_0j a_1j a_2j a_3j | b_0j ... b_3j) for columns j.
MOCAP_AVX2_INLINE void transpose4_halves(__m256& r0, __m256& r1, __m256& r2, __m256& r3) {
  const __m256 t0 = _mm256_unpacklo_ps(r0, r1);
  const __m256 t1 = _mm256_unpackhi_ps(r0, r1);
  const __m256 t2 = _mm256_unpacklo_ps(r2, r3);
  const __m256 t3 = _mm256_unpackhi_ps(r2, r3);
  r0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  r1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  r2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  r3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

MOCAP_AVX2_INLINE __m256 load_halves(const float* low, const float* high) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(low)), _mm_loadu_ps(high), 1);
}

// Four floats at `f(i)` for eight vertices i, as four vectors with lane i = vertex i.
template <class Address>
MOCAP_AVX2_INLINE void load_soa4(Address f, __m256 out[4]) {
  for (int i = 0; i < 4; ++i) out[i] = load_halves(f(i), f(i + 4));
  transpose4_halves(out[0], out[1], out[2], out[3]);
}

// Eight xyz triples (24 floats) to x, y, z vectors and back.
MOCAP_AVX2_INLINE void load_xyz8(const float* p, __m256& x, __m256& y, __m256& z) {
  const __m256 a = load_halves(p, p + 12);                             // x0 y0 z0 x1
  const __m256 b = load_halves(p + 4, p + 16);                         // y1 z1 x2 y2
  const __m256 c = load_halves(p + 8, p + 20);                         // z2 x3 y3 z3
  const __m256 xy = _mm256_shuffle_ps(b, c, _MM_SHUFFLE(2, 1, 3, 2));  // x2 y2 x3 y3
  const __m256 yz = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(1, 0, 2, 1));  // y0 z0 y1 z1
  x = _mm256_shuffle_ps(a, xy, _MM_SHUFFLE(2, 0, 3, 0));
  y = _mm256_shuffle_ps(yz, xy, _MM_SHUFFLE(3, 1, 2, 0));
  z = _mm256_shuffle_ps(yz, c, _MM_SHUFFLE(3, 0, 3, 1));
}

MOCAP_AVX2_INLINE void store_xyz8(float* p, __m256 x, __m256 y, __m256 z) {
  const __m256 xy = _mm256_shuffle_ps(x, y, _MM_SHUFFLE(2, 0, 2, 0));  // x0 x2 y0 y2
  const __m256 yz = _mm256_shuffle_ps(y, z, _MM_SHUFFLE(3, 1, 3, 1));  // y1 y3 z1 z3
  const __m256 zx = _mm256_shuffle_ps(z, x, _MM_SHUFFLE(3, 1, 2, 0));  // z0 z2 x1 x3
  const __m256 a = _mm256_shuffle_ps(xy, zx, _MM_SHUFFLE(2, 0, 2, 0));
  const __m256 b = _mm256_shuffle_ps(yz, xy, _MM_SHUFFLE(3, 1, 2, 0));
  const __m256 c = _mm256_shuffle_ps(zx, yz, _MM_SHUFFLE(3, 1, 3, 1));
  _mm_storeu_ps(p, _mm256_castps256_ps128(a));
  _mm_storeu_ps(p + 4, _mm256_castps256_ps128(b));
  _mm_storeu_ps(p + 8, _mm256_castps256_ps128(c));
  _mm_storeu_ps(p + 12, _mm256_extractf128_ps(a, 1));
  _mm_storeu_ps(p + 16, _mm256_extractf128_ps(b, 1));
  _mm_storeu_ps(p + 20, _mm256_extractf128_ps(c, 1));
}

// (x, y, z) / |(x, y, z)|, left as it is where it is zero.
MOCAP_AVX2_INLINE void normalize8(__m256& x, __m256& y, __m256& z) {
  const __m256 squared = _mm256_fmadd_ps(z, z, _mm256_fmadd_ps(y, y, _mm256_mul_ps(x, x)));
  const __m256 inverse = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(squared));
  const __m256 scale =
      _mm256_blendv_ps(_mm256_set1_ps(1.0f), inverse, _mm256_cmp_ps(squared, _mm256_setzero_ps(), _CMP_GT_OQ));
  x = _mm256_mul_ps(x, scale);
  y = _mm256_mul_ps(y, scale);
  z = _mm256_mul_ps(z, scale);
}

// p + 2 r x (r x p + rw p) for a unit quaternion r = (rx, ry, rz, rw): p
// rotated, as the scalar kernel's rotate().
MOCAP_AVX2_INLINE void rotate8(const __m256 (&r)[4], __m256& px, __m256& py, __m256& pz) {
  const __m256 rx = r[0], ry = r[1], rz = r[2], rw = r[3];
  const __m256 ux = _mm256_fmadd_ps(rw, px, _mm256_fmsub_ps(ry, pz, _mm256_mul_ps(rz, py)));
  const __m256 uy = _mm256_fmadd_ps(rw, py, _mm256_fmsub_ps(rz, px, _mm256_mul_ps(rx, pz)));
  const __m256 uz = _mm256_fmadd_ps(rw, pz, _mm256_fmsub_ps(rx, py, _mm256_mul_ps(ry, px)));
  const __m256 two = _mm256_set1_ps(2.0f);
  px = _mm256_fmadd_ps(two, _mm256_fmsub_ps(ry, uz, _mm256_mul_ps(rz, uy)), px);
  py = _mm256_fmadd_ps(two, _mm256_fmsub_ps(rz, ux, _mm256_mul_ps(rx, uz)), py);
  pz = _mm256_fmadd_ps(two, _mm256_fmsub_ps(rx, uy, _mm256_mul_ps(ry, ux)), pz);
}

// Dual quaternion skinning of eight vertices at once, lane i = vertex i: the
// quaternions are transposed on load, so the blend, the normalisation and
// the rotation are plain arithmetic with no shuffles, and one square root
// and one division serve eight vertices.
template <bool kNormals>
MOCAP_AVX2_INLINE void dual_quaternion_batch_avx2(const DualQuaternion* __restrict dqs,
                                                  const VertexWeights* __restrict weights,
                                                  const float* __restrict positions, const float* __restrict normals,
                                                  float* __restrict out_positions, float* __restrict out_normals) {
  __m256 w[4];
  load_soa4([&](int i) { return weights[i].weight.data(); }, w);
  __m256 pivot[4];
  load_soa4([&](int i) { return dqs[weights[i].bone[0]].real.data(); }, pivot);
  __m256 real[4], dual[4], q[4];
  for (int c = 0; c < 4; ++c) real[c] = _mm256_mul_ps(w[0], pivot[c]);
  const __m256 sign_bit = _mm256_set1_ps(-0.0f);
  for (int k = 1; k < kMaxInfluences; ++k) {
    load_soa4([&](int i) { return dqs[weights[i].bone[k]].real.data(); }, q);
    // q and -q are the same rotation: blend along the shorter arc from the first bone.
    const __m256 dot = _mm256_fmadd_ps(
        q[3], pivot[3],
        _mm256_fmadd_ps(q[2], pivot[2], _mm256_fmadd_ps(q[1], pivot[1], _mm256_mul_ps(q[0], pivot[0]))));
    w[k] = _mm256_xor_ps(w[k], _mm256_and_ps(_mm256_cmp_ps(dot, _mm256_setzero_ps(), _CMP_LT_OQ), sign_bit));
    for (int c = 0; c < 4; ++c) real[c] = _mm256_fmadd_ps(w[k], q[c], real[c]);
  }
  load_soa4([&](int i) { return dqs[weights[i].bone[0]].dual.data(); }, q);
  for (int c = 0; c < 4; ++c) dual[c] = _mm256_mul_ps(w[0], q[c]);
  for (int k = 1; k < kMaxInfluences; ++k) {
    load_soa4([&](int i) { return dqs[weights[i].bone[k]].dual.data(); }, q);
    for (int c = 0; c < 4; ++c) dual[c] = _mm256_fmadd_ps(w[k], q[c], dual[c]);
  }
  const __m256 norm = _mm256_sqrt_ps(_mm256_fmadd_ps(
      real[3], real[3],
      _mm256_fmadd_ps(real[2], real[2], _mm256_fmadd_ps(real[1], real[1], _mm256_mul_ps(real[0], real[0])))));
  const __m256 inverse_norm = _mm256_div_ps(_mm256_set1_ps(1.0f), norm);
  for (int c = 0; c < 4; ++c) {
    real[c] = _mm256_mul_ps(real[c], inverse_norm);
    dual[c] = _mm256_mul_ps(dual[c], inverse_norm);
  }
  const __m256 rx = real[0], ry = real[1], rz = real[2], rw = real[3];
  const __m256 dx = dual[0], dy = dual[1], dz = dual[2], dw = dual[3];
  __m256 px, py, pz, nx, ny, nz;
  load_xyz8(positions, px, py, pz);
  if constexpr (kNormals) load_xyz8(normals, nx, ny, nz);  // before any store: see linear_vertex_avx2
  rotate8(real, px, py, pz);
  // Translation 2 (rw d - dw r + r x d).
  const __m256 two = _mm256_set1_ps(2.0f);
  const __m256 tx = _mm256_fmsub_ps(rw, dx, _mm256_fmsub_ps(dw, rx, _mm256_fmsub_ps(ry, dz, _mm256_mul_ps(rz, dy))));
  const __m256 ty = _mm256_fmsub_ps(rw, dy, _mm256_fmsub_ps(dw, ry, _mm256_fmsub_ps(rz, dx, _mm256_mul_ps(rx, dz))));
  const __m256 tz = _mm256_fmsub_ps(rw, dz, _mm256_fmsub_ps(dw, rz, _mm256_fmsub_ps(rx, dy, _mm256_mul_ps(ry, dx))));
  store_xyz8(out_positions, _mm256_fmadd_ps(two, tx, px), _mm256_fmadd_ps(two, ty, py), _mm256_fmadd_ps(two, tz, pz));
  if constexpr (kNormals) {
    rotate8(real, nx, ny, nz);
    normalize8(nx, ny, nz);
    store_xyz8(out_normals, nx, ny, nz);
  }
}

template <bool kNormals>
MOCAP_AVX2 void dual_quaternion_avx2(const DualQuaternion* __restrict dqs, const Streams s, int count) {
  int v = 0;
  for (; v + 8 <= count; v += 8) {
    dual_quaternion_batch_avx2<kNormals>(dqs, s.weights + v, s.positions + 3 * v,
                                         kNormals ? s.normals + 3 * v : nullptr, s.out_positions + 3 * v,
                                         kNormals ? s.out_normals + 3 * v : nullptr);
  }
  if (v == count) return;
  // The last 1..7 vertices through the same batch, padded with copies of the
  // last one: lanes do not mix, so each vertex gets the bits it would get in
  // a full batch (threads split ranges anywhere).
  const int rest = count - v;
  VertexWeights weights[8];
  float positions[24], normals[24], out_positions[24], out_normals[24];
  for (int i = 0; i < 8; ++i) {
    const int from = v + std::min(i, rest - 1);
    weights[i] = s.weights[from];
    for (int c = 0; c < 3; ++c) {
      positions[3 * i + c] = s.positions[3 * from + c];
      normals[3 * i + c] = kNormals ? s.normals[3 * from + c] : 0.0f;
    }
  }
  dual_quaternion_batch_avx2<kNormals>(dqs, weights, positions, normals, out_positions, out_normals);
  std::copy_n(out_positions, 3 * rest, s.out_positions + 3 * v);
  if constexpr (kNormals) std::copy_n(out_normals, 3 * rest, s.out_normals + 3 * v);
}

bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}
#else
bool cpu_has_avx2() {
  return false;
}
#endif

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
#ifdef MOCAP_SKIN_AVX2
  if (kernel == SkinKernel::kAvx2) {
    with_normals ? linear_avx2<true>(packed, s, count) : linear_avx2<false>(packed, s, count);
    return;
  }
#endif
  with_normals ? linear_portable<true>(packed, s, count) : linear_portable<false>(packed, s, count);
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
#ifdef MOCAP_SKIN_AVX2
  if (kernel == SkinKernel::kAvx2) {
    const Streams s = streams(*this, begin);
    if (normals.empty()) {
      dual_quaternion_avx2<false>(dual_quaternions.data(), s, end - begin);
    } else {
      dual_quaternion_avx2<true>(dual_quaternions.data(), s, end - begin);
    }
    return;
  }
#endif
  run_dual_quaternion_scalar(*this, begin, end);
}

SkinThreads::SkinThreads(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  workers_.reserve(static_cast<std::size_t>(threads - 1));
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

SkinThreads::~SkinThreads() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void SkinThreads::work() {
  for (;;) {
    const int chunk = next_chunk_.fetch_add(1, std::memory_order_relaxed);
    if (chunk >= chunk_count_) return;
    const int begin = chunk * chunk_size_;
    const int end = std::min(begin + chunk_size_, static_cast<int>(job_->positions.size()));
    job_->run(begin, end);
  }
}

void SkinThreads::worker_loop() {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    work();
    {
      std::lock_guard lock(mutex_);
      if (--busy_ == 0) done_.notify_one();
    }
  }
}

void SkinThreads::run(const SkinJob& job) {
  const int n = static_cast<int>(job.positions.size());
  if (workers_.empty() || n < 4096) {
    job.run();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    job_ = &job;
    // A few chunks per thread balance the load without much contention on the
    // counter; multiples of 8 vertices keep the 8-wide kernels off their tail path.
    chunk_size_ = (std::max(1024, n / (thread_count() * 8)) + 7) / 8 * 8;
    chunk_count_ = (n + chunk_size_ - 1) / chunk_size_;
    next_chunk_.store(0, std::memory_order_relaxed);
    busy_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  work();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
  job_ = nullptr;
}

}  // namespace mocap
