// Internal to the skin tier: the kernels SkinJob::run dispatches to, each
// deforming a range of vertices. skin_kernels_portable.cc holds kScalar and
// kPortable, skin_kernels_avx2.cc kAvx2.
#pragma once

#include <mocap/skin/skin_job.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// Plain pointers for the kernels: no aliasing between inputs and outputs.
// Loops take it by value: through a reference, every store to an output
// might change the struct, and the pointers are reloaded after each (4
// influences ran 1.35x slower).
struct Streams {
  const VertexWeights* __restrict weights;
  const float* __restrict positions;
  const float* __restrict normals;  // null without normals
  float* __restrict out_positions;
  float* __restrict out_normals;  // null without normals
  int first = 0;                  // the job's index of vertex 0 of these streams
  int total = 0;                  // the job's vertex count: weights[-first, total - first) may be read
};

// The job's streams from vertex `begin` on.
Streams streams(const SkinJob& job, int begin);

// Influence counts. The SIMD kernels blend a vertex through `slots` slots,
// 1..4, the same for every vertex of a block of kBlock vertices at fixed
// indices of the job (multiples of kBlock from vertex 0): as many as the
// block's last slot with a nonzero weight (NaN counts as nonzero). A slot
// left out adds w m = +-0 to every sum in the full blend, so the results are
// those of the four-slot blend but for the sign of an exact zero (and a NaN
// or infinite matrix on a zero-weight slot, which the full blend would
// spread); as blocks sit at fixed indices, a vertex gets the same bits
// whatever range it is run in. Meshes whose vertices come grouped by influence
// count (as a bind-time sort leaves them) gain the most; a block of mixed
// counts costs what its widest vertex does, as every vertex did before.
inline constexpr int kBlock = 8;

// The slots the `count` vertices at `w` need (1..4).
inline int slots_used(const VertexWeights* w, int count) {
  static_assert(sizeof(float) == 4 && std::endian::native == std::endian::little);
  // Weight bits ORed per slot, the sign bit masked off: -0 counts as 0.
  // (The dispatch costs a load and an OR a vertex: a scalar loop with a
  // branch per slot took a quarter of the four-influence kernel's time.)
#if defined(__SSE2__)
  __m128i bits = _mm_setzero_si128();
  for (int i = 0; i < count; ++i)
    bits = _mm_or_si128(bits, _mm_loadu_si128(reinterpret_cast<const __m128i*>(w[i].weight.data())));
  bits = _mm_and_si128(bits, _mm_set1_epi32(0x7FFFFFFF));
  const unsigned used =
      static_cast<unsigned>(~_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(bits, _mm_setzero_si128()))) & 0xE);
#else
  std::uint32_t bits[kMaxInfluences] = {};
  for (int i = 0; i < count; ++i) {
    for (int k = 1; k < kMaxInfluences; ++k) bits[k] |= std::bit_cast<std::uint32_t>(w[i].weight[k]);
  }
  unsigned used = 0;
  for (int k = 1; k < kMaxInfluences; ++k) used |= (bits[k] & 0x7FFFFFFFu) != 0 ? 1u << k : 0u;
#endif
  return std::max(1, static_cast<int>(std::bit_width(used)));
}

// The end of the block (from vertex 0 of `s`) that vertex v of `s` is in,
// cut at `count`, and the slots that block needs. Kernels dispatch on the
// slots block by block inside one loop, so that the out-of-order core reads
// the next block's weights while it blends this one (a run of blocks
// scanned first, then blended, left the scan's loads exposed: 4 influences
// ran 1.25x slower).
inline int block_end(const Streams& s, int v, int count) {
  return std::min(count, (s.first + v) / kBlock * kBlock + kBlock - s.first);
}
inline int block_slots(const Streams& s, int v) {
  const int block = (s.first + v) / kBlock * kBlock;
  const VertexWeights* w = s.weights + (block - s.first);
  // A constant count for whole blocks: the loop unrolls.
  return s.total - block >= kBlock ? slots_used(w, kBlock) : slots_used(w, s.total - block);
}

// The packed and 8-wide kernels over `count` vertices of `s`.
void linear_portable(const PackedMatrix* packed, const Streams& s, int count, bool normals);
void linear_avx2(const PackedMatrix* packed, const Streams& s, int count, bool normals);
void dual_quaternion_avx2(const DualQuaternion* dqs, const Streams& s, int count, bool normals);

// Whether this CPU runs AVX2 and FMA (false where the compiler cannot target them).
bool cpu_has_avx2();

}  // namespace mocap::skin_kernels
