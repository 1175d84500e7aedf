// The kAvx2 kernels: x86-64 AVX2 + FMA intrinsics, compiled for those
// instructions function by function (target attributes), so the default
// build stays portable x86-64 and the CPU is asked at run time. Elsewhere,
// cpu_has_avx2() is false and these are never called.
#include "skin_kernels.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace mocap::skin_kernels {
namespace {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MOCAP_AVX2 __attribute__((target("avx2,fma")))
#define MOCAP_AVX2_INLINE __attribute__((target("avx2,fma"), always_inline)) inline

// Three floats into a vertex's slot without touching the next one, which may
// be another thread's (a 16-byte store and a 12-byte one on the last vertex
// of a range measured no faster).
MOCAP_AVX2_INLINE void store3(float* out, __m128 r) {
  _mm_storel_pi(reinterpret_cast<__m64*>(out), r);
  _mm_store_ss(out + 2, _mm_movehl_ps(r, r));
}

// Four vertices' (x, y, z, _) as twelve consecutive floats: three 16-byte
// stores where four store3 take eight narrow ones.
MOCAP_AVX2_INLINE void store3x4(float* out, __m128 r0, __m128 r1, __m128 r2, __m128 r3) {
  const __m128 a = _mm_blend_ps(r0, _mm_permute_ps(r1, _MM_SHUFFLE(0, 0, 0, 0)), 0x8);  // x0 y0 z0 x1
  const __m128 b = _mm_shuffle_ps(r1, r2, _MM_SHUFFLE(1, 0, 2, 1));                     // y1 z1 x2 y2
  const __m128 c =
      _mm_blend_ps(_mm_permute_ps(r3, _MM_SHUFFLE(2, 1, 0, 0)), _mm_movehl_ps(r2, r2), 0x1);  // z2 x3 y3 z3
  _mm_storeu_ps(out, a);
  _mm_storeu_ps(out + 4, b);
  _mm_storeu_ps(out + 8, c);
}

// Vertex v of a linear blend through its first kSlots slots: its position
// and, when kNormals, its normal, not yet normalised (lane 3 is 0). The sums
// run in the four-slot order, cut short.
// The weights of vertex v's kSlots slots, each in all lanes: VertexWeights,
// or packed (kPacked), where the last slot's is 1 - the others' in
// last_weight's order (packed_weights.h), formed in vector registers.
template <int kSlots, bool kPacked>
MOCAP_AVX2_INLINE void weights_avx2(const Streams& s, int v, __m256 (&w)[4]) {
  if constexpr (!kPacked) {
    const float* f = s.weights[v].weight.data();
    w[0] = _mm256_broadcast_ss(f);
    if constexpr (kSlots > 1) w[1] = _mm256_broadcast_ss(f + 1);
    if constexpr (kSlots > 2) w[2] = _mm256_broadcast_ss(f + 2);
    if constexpr (kSlots > 3) w[3] = _mm256_broadcast_ss(f + 3);
  } else {
    // Written out, not looped: a loop here kept w[] on the stack (4-slot packed LBS ran 6x slower).
    const float* f = s.packed_weights + (kSlots - 1) * v;
    const __m256 one = _mm256_set1_ps(1.0f);
    if constexpr (kSlots == 1) w[0] = one;
    if constexpr (kSlots == 2) {
      w[0] = _mm256_broadcast_ss(f);
      w[1] = _mm256_sub_ps(one, w[0]);
    }
    if constexpr (kSlots == 3) {
      w[0] = _mm256_broadcast_ss(f);
      w[1] = _mm256_broadcast_ss(f + 1);
      w[2] = _mm256_sub_ps(one, _mm256_add_ps(w[0], w[1]));
    }
    if constexpr (kSlots == 4) {
      w[0] = _mm256_broadcast_ss(f);
      w[1] = _mm256_broadcast_ss(f + 1);
      w[2] = _mm256_broadcast_ss(f + 2);
      w[3] = _mm256_sub_ps(one, _mm256_add_ps(_mm256_add_ps(w[0], w[1]), w[2]));
    }
  }
}

template <int kSlots, bool kNormals, bool kPacked>
MOCAP_AVX2_INLINE void linear_vertex_avx2(const PackedMatrix* __restrict packed, const Streams& s, int v,
                                          __m128& position, __m128& normal) {
  // The bone indices in one load.
  std::uint64_t bones = 0;
  if constexpr (kPacked) {
    std::memcpy(&bones, s.bones + kSlots * v, kSlots * sizeof(std::uint16_t));
  } else {
    std::memcpy(&bones, s.weights[v].bone.data(), sizeof bones);
  }
  // Columns 0|1 and 2|3 of the blended matrix.
  const float* m0 = packed[bones & 0xFFFF].c;
  __m256 w[4];
  weights_avx2<kSlots, kPacked>(s, v, w);
  __m256 a, b;
  if constexpr (kPacked && kSlots == 1) {
    // Weight 1: the matrix itself, the bits 1 * m gives.
    a = _mm256_load_ps(m0);
    b = _mm256_load_ps(m0 + 8);
  } else {
    a = _mm256_mul_ps(w[0], _mm256_load_ps(m0));
    b = _mm256_mul_ps(w[0], _mm256_load_ps(m0 + 8));
  }
  if constexpr (kSlots > 1) {
    const float* m1 = packed[(bones >> 16) & 0xFFFF].c;
    a = _mm256_fmadd_ps(w[1], _mm256_load_ps(m1), a);
    b = _mm256_fmadd_ps(w[1], _mm256_load_ps(m1 + 8), b);
  }
  if constexpr (kSlots > 2) {
    const float* m2 = packed[(bones >> 32) & 0xFFFF].c;
    a = _mm256_fmadd_ps(w[2], _mm256_load_ps(m2), a);
    b = _mm256_fmadd_ps(w[2], _mm256_load_ps(m2 + 8), b);
  }
  if constexpr (kSlots > 3) {
    const float* m3 = packed[bones >> 48].c;
    a = _mm256_fmadd_ps(w[3], _mm256_load_ps(m3), a);
    b = _mm256_fmadd_ps(w[3], _mm256_load_ps(m3 + 8), b);
  }
  // (c0 x + c2 z) + (c1 y + c3): x|y against columns 0|1, z|1 against 2|3.
  const float* p = s.positions + 3 * v;
  const __m256 xy = _mm256_blend_ps(_mm256_broadcast_ss(p), _mm256_broadcast_ss(p + 1), 0xF0);
  const __m256 z1 = _mm256_blend_ps(_mm256_broadcast_ss(p + 2), _mm256_set1_ps(1.0f), 0xF0);
  const __m256 t = _mm256_fmadd_ps(a, xy, _mm256_mul_ps(b, z1));
  position = _mm_add_ps(_mm256_castps256_ps128(t), _mm256_extractf128_ps(t, 1));
  if constexpr (kNormals) {
    const float* n = s.normals + 3 * v;
    const __m256 nxy = _mm256_blend_ps(_mm256_broadcast_ss(n), _mm256_broadcast_ss(n + 1), 0xF0);
    const __m256 nz0 = _mm256_blend_ps(_mm256_broadcast_ss(n + 2), _mm256_setzero_ps(), 0xF0);
    const __m256 u = _mm256_fmadd_ps(a, nxy, _mm256_mul_ps(b, nz0));
    normal = _mm_add_ps(_mm256_castps256_ps128(u), _mm256_extractf128_ps(u, 1));
  } else {
    normal = _mm_setzero_ps();
  }
}

// 1 / |m| per lane of `squared` (= |m|^2), 1 where it is 0 so that a zero
// normal stays zero, as Eigen's normalized() leaves it. sqrt and division are
// correctly rounded per lane: a vertex gets the same bits alone or in a group.
MOCAP_AVX2_INLINE __m128 inverse_length(__m128 squared) {
  const __m128 inverse = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(squared));
  return _mm_blendv_ps(_mm_set1_ps(1.0f), inverse, _mm_cmpgt_ps(squared, _mm_setzero_ps()));
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

// Lane i of the result all ones where bit i of `bits` is set.
MOCAP_AVX2_INLINE __m256 lane_mask8(unsigned bits) {
  const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  return _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(bits)), bit), bit));
}

MOCAP_AVX2_INLINE __m128 lane_mask4(unsigned bits) {
  return _mm256_castps256_ps128(lane_mask8(bits));
}

// Bit i set where vertex v + i (i < kCount) keeps its normal's length: a
// vertex of a 1-influence packed run on a rotation (find_rotations). 0 for
// every other kind of run.
template <int kCount, int kSlots, bool kNormals, bool kPacked>
MOCAP_AVX2_INLINE unsigned kept_lengths(const Rotations& rotations, const Streams& s, int v) {
  unsigned bits = 0;
  if constexpr (kNormals && kPacked && kSlots == 1) {
    // Every bone a rotation (an animated skeleton without scale): no look-ups, 1.25x not 1.13x ozz (issue 26).
    if (rotations.all) return (1u << kCount) - 1;
    for (int i = 0; i < kCount; ++i) bits |= static_cast<unsigned>(rotations.each[s.bones[v + i]]) << i;
  }
  return bits;
}

// Four vertices at a time (their loads before their stores: arrays of equal
// size often start at the same offset in a page, and a load after a store to
// the same address modulo 4 KiB waits for it, 4K aliasing), then one by one.
// A normal that keeps its length (kept_lengths) is multiplied by 1 where the
// others are by their inverse length, so it has the same bits in every loop.
template <int kSlots, bool kNormals, bool kPacked>
MOCAP_AVX2 void linear_avx2(const PackedMatrix* __restrict packed, const Rotations& rotations, const Streams s,
                            int count) {
  int v = 0;
  if constexpr (kNormals && kSlots <= 2) {
    // Eight normals share one square root and one division, lane i = vertex i
    // (measured slower at 3 and 4 slots, where the blend holds more registers).
    for (; v + 8 <= count; v += 8) {
      __m128 p[8], m[8];
      for (int i = 0; i < 8; ++i) linear_vertex_avx2<kSlots, true, kPacked>(packed, s, v + i, p[i], m[i]);
      const unsigned kept = kept_lengths<8, kSlots, kNormals, kPacked>(rotations, s, v);
      store3x4(s.out_positions + 3 * v, p[0], p[1], p[2], p[3]);
      store3x4(s.out_positions + 3 * v + 12, p[4], p[5], p[6], p[7]);
      if (kept == 0xFF) {  // eight rigid vertices on rotations: no square root
        store3x4(s.out_normals + 3 * v, m[0], m[1], m[2], m[3]);
        store3x4(s.out_normals + 3 * v + 12, m[4], m[5], m[6], m[7]);
        continue;
      }
      __m256 x = _mm256_set_m128(m[4], m[0]), y = _mm256_set_m128(m[5], m[1]);
      __m256 z = _mm256_set_m128(m[6], m[2]), w = _mm256_set_m128(m[7], m[3]);
      transpose4_halves(x, y, z, w);  // w: the normals' lane 3, 0
      // (x^2 + y^2) + z^2, as the four-normal loop's horizontal adds sum (its + 0 changes no bit). No
      // product may be left bare before an add: the compiler would fuse the two (-ffp-contract=fast)
      // and round once where the other loops round twice, so each square is an FMA with + 0.
      const __m256 zero = _mm256_setzero_ps();
      const __m256 one = _mm256_set1_ps(1.0f);
      const __m256 squared = _mm256_add_ps(_mm256_add_ps(_mm256_fmadd_ps(x, x, zero), _mm256_fmadd_ps(y, y, zero)),
                                           _mm256_fmadd_ps(z, z, zero));
      __m256 inverse =
          _mm256_blendv_ps(one, _mm256_div_ps(one, _mm256_sqrt_ps(squared)), _mm256_cmp_ps(squared, zero, _CMP_GT_OQ));
      if (kept != 0) inverse = _mm256_blendv_ps(inverse, one, lane_mask8(kept));
      store_xyz8(s.out_normals + 3 * v, _mm256_mul_ps(x, inverse), _mm256_mul_ps(y, inverse),
                 _mm256_mul_ps(z, inverse));
    }
  }
  for (; v + 4 <= count; v += 4) {
    __m128 p0, p1, p2, p3, m0, m1, m2, m3;
    linear_vertex_avx2<kSlots, kNormals, kPacked>(packed, s, v, p0, m0);
    linear_vertex_avx2<kSlots, kNormals, kPacked>(packed, s, v + 1, p1, m1);
    linear_vertex_avx2<kSlots, kNormals, kPacked>(packed, s, v + 2, p2, m2);
    linear_vertex_avx2<kSlots, kNormals, kPacked>(packed, s, v + 3, p3, m3);
    store3x4(s.out_positions + 3 * v, p0, p1, p2, p3);
    if constexpr (kNormals) {
      // Four normals share one square root and one division. Lane i: (x^2 + y^2) + (z^2 + 0) of normal i.
      const __m128 squared = _mm_hadd_ps(_mm_hadd_ps(_mm_mul_ps(m0, m0), _mm_mul_ps(m1, m1)),
                                         _mm_hadd_ps(_mm_mul_ps(m2, m2), _mm_mul_ps(m3, m3)));
      const unsigned kept = kept_lengths<4, kSlots, kNormals, kPacked>(rotations, s, v);
      __m128 inverse = inverse_length(squared);
      if (kept != 0) inverse = _mm_blendv_ps(inverse, _mm_set1_ps(1.0f), lane_mask4(kept));
      store3x4(s.out_normals + 3 * v, _mm_mul_ps(m0, _mm_shuffle_ps(inverse, inverse, _MM_SHUFFLE(0, 0, 0, 0))),
               _mm_mul_ps(m1, _mm_shuffle_ps(inverse, inverse, _MM_SHUFFLE(1, 1, 1, 1))),
               _mm_mul_ps(m2, _mm_shuffle_ps(inverse, inverse, _MM_SHUFFLE(2, 2, 2, 2))),
               _mm_mul_ps(m3, _mm_shuffle_ps(inverse, inverse, _MM_SHUFFLE(3, 3, 3, 3))));
    }
  }
  for (; v < count; ++v) {
    __m128 p, m;
    linear_vertex_avx2<kSlots, kNormals, kPacked>(packed, s, v, p, m);
    store3(s.out_positions + 3 * v, p);
    if constexpr (kNormals) {
      if (kept_lengths<1, kSlots, kNormals, kPacked>(rotations, s, v) != 0) {
        store3(s.out_normals + 3 * v, m);
        continue;
      }
      const __m128 squared = _mm_mul_ps(m, m);
      const __m128 sums = _mm_hadd_ps(squared, squared);
      const __m128 inverse = inverse_length(_mm_hadd_ps(sums, sums));  // the same sums in the same order
      store3(s.out_normals + 3 * v, _mm_mul_ps(m, inverse));
    }
  }
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
// and one division serve eight vertices. Each is blended through its first
// kSlots slots.
// `weights`: lane i the weights of vertex i's slots; bone(i, k) its bone in slot k.
template <int kSlots, bool kNormals, class Bone>
MOCAP_AVX2_INLINE void dual_quaternion_batch_avx2(const DualQuaternion* __restrict dqs, const __m256 (&weights)[4],
                                                  Bone bone, bool choose_signs, const float* __restrict positions,
                                                  const float* __restrict normals, float* __restrict out_positions,
                                                  float* __restrict out_normals) {
  __m256 w[4] = {weights[0], weights[1], weights[2], weights[3]};
  __m256 pivot[4];
  load_soa4([&](int i) { return dqs[bone(i, 0)].real.data(); }, pivot);
  __m256 real[4], dual[4], q[4];
  for (int c = 0; c < 4; ++c) real[c] = _mm256_mul_ps(w[0], pivot[c]);
  const __m256 sign_bit = _mm256_set1_ps(-0.0f);
  for (int k = 1; k < kSlots; ++k) {
    load_soa4([&](int i) { return dqs[bone(i, k)].real.data(); }, q);
    if (choose_signs) {
      // q and -q are the same rotation: blend along the shorter arc from the first bone.
      const __m256 dot = _mm256_fmadd_ps(
          q[3], pivot[3],
          _mm256_fmadd_ps(q[2], pivot[2], _mm256_fmadd_ps(q[1], pivot[1], _mm256_mul_ps(q[0], pivot[0]))));
      w[k] = _mm256_xor_ps(w[k], _mm256_and_ps(_mm256_cmp_ps(dot, _mm256_setzero_ps(), _CMP_LT_OQ), sign_bit));
    }
    for (int c = 0; c < 4; ++c) real[c] = _mm256_fmadd_ps(w[k], q[c], real[c]);
  }
  load_soa4([&](int i) { return dqs[bone(i, 0)].dual.data(); }, q);
  for (int c = 0; c < 4; ++c) dual[c] = _mm256_mul_ps(w[0], q[c]);
  for (int k = 1; k < kSlots; ++k) {
    load_soa4([&](int i) { return dqs[bone(i, k)].dual.data(); }, q);
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

template <int kSlots, bool kNormals>
MOCAP_AVX2_INLINE void dual_quaternion_batch_avx2(const DualQuaternion* __restrict dqs,
                                                  const VertexWeights* __restrict weights, bool choose_signs,
                                                  const float* __restrict positions, const float* __restrict normals,
                                                  float* __restrict out_positions, float* __restrict out_normals) {
  __m256 w[4];
  load_soa4([&](int i) { return weights[i].weight.data(); }, w);
  dual_quaternion_batch_avx2<kSlots, kNormals>(
      dqs, w, [&](int i, int k) { return weights[i].bone[k]; }, choose_signs, positions, normals, out_positions,
      out_normals);
}

// f[0], f[stride], ..., f[7 stride] as one vector.
MOCAP_AVX2_INLINE __m256 strided8(const float* f, int stride) {
  return _mm256_setr_ps(f[0], f[stride], f[2 * stride], f[3 * stride], f[4 * stride], f[5 * stride], f[6 * stride],
                        f[7 * stride]);
}

// The same from packed weights (packed_weights.h): `bones` kSlots a
// vertex, `packed` kSlots - 1, the last weight 1 - the others in
// last_weight's order, so the lanes hold what the unpacked batch's would.
template <int kSlots, bool kNormals>
MOCAP_AVX2_INLINE void dual_quaternion_packed_batch_avx2(
    const DualQuaternion* __restrict dqs, const std::uint16_t* __restrict bones, const float* __restrict packed,
    bool choose_signs, const float* __restrict positions, const float* __restrict normals,
    float* __restrict out_positions, float* __restrict out_normals) {
  constexpr int n = kSlots - 1;
  const __m256 one = _mm256_set1_ps(1.0f);
  __m256 w[4] = {one, one, one, one};
  if constexpr (n > 0) {
    w[0] = strided8(packed, n);
    __m256 sum = w[0];
    if constexpr (n > 1) {
      w[1] = strided8(packed + 1, n);
      sum = _mm256_add_ps(sum, w[1]);
    }
    if constexpr (n > 2) {
      w[2] = strided8(packed + 2, n);
      sum = _mm256_add_ps(sum, w[2]);
    }
    w[n] = _mm256_sub_ps(one, sum);
  }
  dual_quaternion_batch_avx2<kSlots, kNormals>(
      dqs, w, [&](int i, int k) { return bones[kSlots * i + k]; }, choose_signs, positions, normals, out_positions,
      out_normals);
}

template <int kSlots, bool kNormals>
MOCAP_AVX2 void dual_quaternion_avx2(const DualQuaternion* __restrict dqs, const Streams s, int count,
                                     bool choose_signs) {
  int v = 0;
  for (; v + 8 <= count; v += 8) {
    const float* normals = kNormals ? s.normals + 3 * v : nullptr;
    float* out_normals = kNormals ? s.out_normals + 3 * v : nullptr;
    if (s.weights) {
      dual_quaternion_batch_avx2<kSlots, kNormals>(dqs, s.weights + v, choose_signs, s.positions + 3 * v, normals,
                                                   s.out_positions + 3 * v, out_normals);
    } else {
      dual_quaternion_packed_batch_avx2<kSlots, kNormals>(
          dqs, s.bones + kSlots * v, s.packed_weights + (kSlots - 1) * v, choose_signs, s.positions + 3 * v, normals,
          s.out_positions + 3 * v, out_normals);
    }
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
    weights[i] = weights_at(s, kSlots, from);
    for (int c = 0; c < 3; ++c) {
      positions[3 * i + c] = s.positions[3 * from + c];
      normals[3 * i + c] = kNormals ? s.normals[3 * from + c] : 0.0f;
    }
  }
  dual_quaternion_batch_avx2<kSlots, kNormals>(dqs, weights, choose_signs, positions, normals, out_positions,
                                               out_normals);
  std::copy_n(out_positions, 3 * rest, s.out_positions + 3 * v);
  if constexpr (kNormals) std::copy_n(out_normals, 3 * rest, s.out_normals + 3 * v);
}

}  // namespace

bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}

void linear_avx2(const PackedMatrix* packed, const Rotations& rotations, const Streams& s, int count, bool normals,
                 int influences) {
  for_linear_run(s, influences, normals, [&]<int kSlots, bool kNormals, bool kPacked>() {
    linear_avx2<kSlots, kNormals, kPacked>(packed, rotations, s, count);
  });
}

void dual_quaternion_avx2(const DualQuaternion* dqs, const Streams& s, int count, bool normals, int influences,
                          bool choose_signs) {
  for_run(influences, normals,
          [&]<int kSlots, bool kNormals>() { dual_quaternion_avx2<kSlots, kNormals>(dqs, s, count, choose_signs); });
}

#else
}  // namespace

bool cpu_has_avx2() {
  return false;
}
void linear_avx2(const PackedMatrix* packed, const Rotations& rotations, const Streams& s, int count, bool normals,
                 int influences) {
  linear_portable(packed, rotations, s, count, normals, influences);
}
void dual_quaternion_avx2(const DualQuaternion*, const Streams&, int, bool, int, bool) {}
#endif

}  // namespace mocap::skin_kernels
