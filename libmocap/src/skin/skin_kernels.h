// Internal to the skin tier: the kernels SkinJob::run dispatches to, each
// deforming a range of vertices. skin_kernels_portable.cc holds kScalar and
// kPortable, skin_kernels_avx2.cc kAvx2.
#pragma once

#include <mocap/skin/skin_job.h>

#include <cstdint>
#include <span>

namespace mocap::skin_kernels {

// kScalar: the formulas of skin_job.h one vertex at a time, vertices [begin, end).
void run_linear_scalar(const SkinJob& job, int begin, int end);
void run_dual_quaternion_scalar(const SkinJob& job, int begin, int end);

// A skinning matrix as its four columns (x, y, z, 0): blending is then four
// (or, 8-wide, two) multiply-adds per influence and the transform three more,
// with no transposition. Row 3 is zero so that a normal's fourth lane is 0.
struct alignas(64) PackedMatrix {
  float c[16];
};

// `matrices` into `packed` (as many entries, at most kMaxPackedBones).
void pack(std::span<const SkinMatrix> matrices, PackedMatrix* packed);

// Whether the 3x3 part of `m` is a rotation closely enough that it turns a
// unit normal into one within float rounding: every row of M^T M - I, in
// double from the float entries, sums in absolute value to at most 5e-7,
// so |M n|^2 is within that of 1 for a unit n (Gershgorin) and |M n| within
// 2.5e-7 (two float ulps above 1). Rotations made in float pass (their rows
// sum to 3.3e-7 at worst over 10,000 random ones); a matrix with scale or
// shear does not.
bool is_rotation(const SkinMatrix& m);

// The packed kernels do not renormalise the normal of a vertex of a
// 1-influence packed run whose bone is a rotation: its weight is 1, its
// normal matrix the bone's, and a unit bind normal stays unit
// (ozz-animation's SkinningJob renormalises no normal). Every other normal
// is renormalised.
struct Rotations {
  bool all = false;            // every matrix is one: no need to look
  bool each[kMaxPackedBones];  // is_rotation of matrix b
};

// is_rotation of each of `matrices` (at most kMaxPackedBones) into `out`.
void find_rotations(std::span<const SkinMatrix> matrices, Rotations& out);

// Plain pointers for the kernels: no aliasing between inputs and outputs.
// The weights are either `weights` (VertexWeights) or, when that is null,
// packed (packed_weights.h): `bones` with the run's count of indices per
// vertex and `packed_weights` with one fewer weight per vertex.
struct Streams {
  const VertexWeights* __restrict weights;
  const std::uint16_t* __restrict bones;
  const float* __restrict packed_weights;
  const float* __restrict positions;
  const float* __restrict normals;  // null without normals
  float* __restrict out_positions;
  float* __restrict out_normals;  // null without normals
};

// The job's streams from vertex `begin` on, `run` the packed run holding it
// (null when the job has VertexWeights).
Streams streams(const SkinJob& job, int begin, const PackedRun* run);

// Vertex v of `s` (packed in a run of `slots` influences, or not) as
// VertexWeights, for kernels that blend from that form.
inline VertexWeights weights_at(const Streams& s, int slots, int v) {
  if (s.weights) return s.weights[v];
  VertexWeights w;
  const std::uint16_t* b = s.bones + slots * v;
  const float* f = s.packed_weights + (slots - 1) * v;
  for (int k = 0; k < slots; ++k) w.bone[k] = b[k];
  for (int k = 0; k + 1 < slots; ++k) w.weight[k] = f[k];
  w.weight[slots - 1] = last_weight(f, slots - 1);
  return w;
}

// Calls f.template operator()<kSlots, kNormals>() with kSlots the run's
// `influences` (1..4; anything else: 4) and kNormals `normals`: each kernel's
// one instantiation per influence count, chosen in one place.
template <class F>
inline void for_run(int influences, bool normals, F&& f) {
  switch (influences * 2 + normals) {
    case 2: f.template operator()<1, false>(); break;
    case 3: f.template operator()<1, true>(); break;
    case 4: f.template operator()<2, false>(); break;
    case 5: f.template operator()<2, true>(); break;
    case 6: f.template operator()<3, false>(); break;
    case 7: f.template operator()<3, true>(); break;
    case 9: f.template operator()<4, true>(); break;
    default: f.template operator()<4, false>(); break;
  }
}

// for_run for the linear kernels, with the weights' layout as well:
// f.template operator()<kSlots, kNormals, kPacked>(), kPacked where `s`
// holds packed weights (no VertexWeights).
template <class F>
inline void for_linear_run(const Streams& s, int influences, bool normals, F&& f) {
  for_run(influences, normals, [&]<int kSlots, bool kNormals>() {
    if (s.weights) {
      f.template operator()<kSlots, kNormals, false>();
    } else {
      f.template operator()<kSlots, kNormals, true>();
    }
  });
}

// The packed and 8-wide kernels over `count` vertices of `s`, each blended
// through its first `influences` slots (1..4; an InfluenceRun's). The loop
// for 4 is the one every vertex took before runs existed. `rotations`:
// find_rotations of the matrices, read with normals and packed weights.
void linear_portable(const PackedMatrix* packed, const Rotations& rotations, const Streams& s, int count, bool normals,
                     int influences);
void linear_avx2(const PackedMatrix* packed, const Rotations& rotations, const Streams& s, int count, bool normals,
                 int influences);
// `choose_signs`: each vertex signs its influences against its first slot's
// (SkinJob::dual_quaternion_signs_set false).
void dual_quaternion_avx2(const DualQuaternion* dqs, const Streams& s, int count, bool normals, int influences,
                          bool choose_signs);

// Whether this CPU runs AVX2 and FMA (false where the compiler cannot target them).
bool cpu_has_avx2();

}  // namespace mocap::skin_kernels
