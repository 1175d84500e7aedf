// The sampler's kernels (clip_sampler.h), written once with GCC/Clang vector
// extensions 8 floats wide and compiled twice: clip_sampler_portable.cc for
// the baseline CPU (two SSE registers per vector) and clip_sampler_avx2.cc
// under target("avx2,fma") (one YMM register). No include guard on purpose:
// each includer wraps it in its own namespace.
//
// Everything here has internal linkage and calls no inline function from a
// header, so that no AVX2-compiled copy of a shared inline function can be
// picked by the linker for the portable path.

// 32-byte vectors by value between internal functions only; GCC reports
// it at the end of the file, so this stays in force for the includer.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#endif
#pragma GCC diagnostic ignored "-Wpsabi"

namespace {

using V = float __attribute__((vector_size(32)));
using VI = int __attribute__((vector_size(32)));

inline V load(const float* p) {
  V v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, const V& v) {
  __builtin_memcpy(p, &v, sizeof v);
}
inline V splat(float x) {
  return V{} + x;
}

void curves(const float* rows, int n, int first, int taps, const float* w, float* out) {
  const float* r0 = rows + static_cast<long>(first) * n;
  const float* r1 = r0 + n;
  int k = 0;
  if (taps == 2) {
    const V w0 = splat(w[0]), w1 = splat(w[1]);
    for (; k + 8 <= n; k += 8) store(out + k, w0 * load(r0 + k) + w1 * load(r1 + k));
    for (; k < n; ++k) out[k] = w[0] * r0[k] + w[1] * r1[k];
    return;
  }
  const float* r2 = r1 + n;
  const float* r3 = r2 + n;
  const V w0 = splat(w[0]), w1 = splat(w[1]), w2 = splat(w[2]), w3 = splat(w[3]);
  for (; k + 8 <= n; k += 8)
    store(out + k, w0 * load(r0 + k) + w1 * load(r1 + k) + w2 * load(r2 + k) + w3 * load(r3 + k));
  for (; k < n; ++k) out[k] = w[0] * r0[k] + w[1] * r1[k] + w[2] * r2[k] + w[3] * r3[k];
}

// The scalar sampler's sin/cos (clip_decoder.cc), lane by lane: quadrant
// reduction, then Taylor polynomials on [-pi/4, pi/4], the quadrant chosen
// by bit operations instead of a switch.
void sin_cos(const float* angles, int count, float* s, float* c) {
  constexpr float kTwoOverPi = 0.636619772f;
  constexpr float kPiOver2Hi = 1.5703125f;
  constexpr float kPiOver2Lo = 4.83826794897e-4f;
  constexpr int kSign = static_cast<int>(0x80000000u);
  for (int i = 0; i < count; i += 8) {
    const V x = load(angles + i) * 0.5f;
    const V y = x * kTwoOverPi;
    // y + copysign(0.5, y), truncated: round half away from 0.
    const VI ni = __builtin_convertvector(y + (V)(((VI)y & kSign) | (VI)splat(0.5f)), VI);
    const V n = __builtin_convertvector(ni, V);
    const V r = (x - n * kPiOver2Hi) - n * kPiOver2Lo;
    const V r2 = r * r;
    const V sr = r * (1.0f + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040 + r2 * (1.0f / 362880)))));
    const V cr = 1.0f + r2 * (-0.5f + r2 * (1.0f / 24 + r2 * (-1.0f / 720 + r2 * (1.0f / 40320))));
    // Quadrant q: odd ones swap sin and cos; sin is negative in 2, 3, cos
    // in 1, 2. Bit operations, not selects, which SSE2 lacks.
    const VI q = ni & 3;
    const VI swap = -(q & 1);  // all ones where odd
    const VI sv = ((VI)cr & swap) | ((VI)sr & ~swap);
    const VI cv = ((VI)sr & swap) | ((VI)cr & ~swap);
    store(s + i, (V)(sv ^ ((q & 2) << 30)));
    store(c + i, (V)(cv ^ (((q + 1) & 2) << 30)));
  }
}

// Left-multiplies by the turn (c, s e_axis), as pose_from_channels applies
// each next dof: (c, s e) * (w, v) = (c w - s e.v, c v + s w e + s e x v).
void compose(const Pack& p, const float* s, const float* c, float (*out)[kLanes]) {
  V w = splat(1.0f), x = V{}, y = V{}, z = V{};
  for (int d = 0; d < p.length; ++d) {
    const V sd = load(s + p.slot_base + d * kLanes), cd = load(c + p.slot_base + d * kLanes);
    V w2, x2, y2, z2;
    switch (p.axes[d]) {
      case 0: w2 = cd * w - sd * x, x2 = cd * x + sd * w, y2 = cd * y - sd * z, z2 = cd * z + sd * y; break;
      case 1: w2 = cd * w - sd * y, x2 = cd * x + sd * z, y2 = cd * y + sd * w, z2 = cd * z - sd * x; break;
      default: w2 = cd * w - sd * z, x2 = cd * x - sd * y, y2 = cd * y + sd * x, z2 = cd * z + sd * w; break;
    }
    w = w2, x = x2, y = y2, z = z2;
  }
  // C * (w, v) * C^-1 = (w, R_C v).
  store(out[0], w);
  store(out[1], load(p.r[0]) * x + load(p.r[1]) * y + load(p.r[2]) * z);
  store(out[2], load(p.r[3]) * x + load(p.r[4]) * y + load(p.r[5]) * z);
  store(out[3], load(p.r[6]) * x + load(p.r[7]) * y + load(p.r[8]) * z);
}

}  // namespace
