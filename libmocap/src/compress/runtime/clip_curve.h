// The curves of .mkc tracks (internal to the compress tier), shared by the
// decoder and the encoder so that the encoder measures exactly what the
// decoder gives. Time is the frame index (fractional), 0 .. frames - 1.
//   Uniform B-spline of degree 3 with knots every s frames: segment
//   i = floor(t / s) (the last segment also takes t = frames - 1), u = t / s - i,
//   value = sum_j B_j(u) p[i + j], B the uniform cubic basis
//   ((1-u)^3, 3u^3 - 6u^2 + 4, -3u^3 + 3u^2 + 3u + 1, u^3) / 6.
//   Degree 1: p[i] (1 - u) + p[i + 1] u.
//   Keyed tracks (whole-pose clips) have no curve of their own: the pose is
//   rebuilt between keys (clip_pose.h); here only the key segment of a time.
#pragma once

#include <algorithm>
#include <cmath>
#include <span>

namespace mocap::clip_curve {

// sin and cos of x in float, to about 1e-7 absolute: quadrant reduction then
// Taylor polynomials on [-pi/4, pi/4] (the next terms are below 3e-8 there).
// libm's sinf/cosf were most of the sampling time.
inline void sin_cos(float x, float& s, float& c) {
  constexpr float kTwoOverPi = 0.636619772f;
  constexpr float kPiOver2Hi = 1.5703125f;  // few bits: n * hi is exact for |n| < 2^15
  constexpr float kPiOver2Lo = 4.83826794897e-4f;
  // Round to nearest without nearbyintf (a libm call that honours the rounding mode).
  const float y = x * kTwoOverPi;
  const float n = static_cast<float>(static_cast<int>(y + (y >= 0.0f ? 0.5f : -0.5f)));
  const float r = (x - n * kPiOver2Hi) - n * kPiOver2Lo;
  const float r2 = r * r;
  const float sr = r * (1.0f + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040 + r2 * (1.0f / 362880)))));
  const float cr = 1.0f + r2 * (-0.5f + r2 * (1.0f / 24 + r2 * (-1.0f / 720 + r2 * (1.0f / 40320))));
  switch (static_cast<int>(n) & 3) {
    case 0: s = sr, c = cr; break;
    case 1: s = cr, c = -sr; break;
    case 2: s = -sr, c = -cr; break;
    default: s = -cr, c = sr; break;
  }
}

inline int gaps(int frames, int spacing) {
  return std::max(1, (frames - 1 + spacing - 1) / spacing);
}

template <class T>
inline void cubic_basis(T u, T w[4]) {
  const T v = T(1) - u, u2 = u * u, u3 = u2 * u;
  w[0] = v * v * v * T(1.0 / 6);
  w[1] = (T(3) * u3 - T(6) * u2 + T(4)) * T(1.0 / 6);
  w[2] = (T(-3) * u3 + T(3) * u2 + T(3) * u + T(1)) * T(1.0 / 6);
  w[3] = u3 * T(1.0 / 6);
}

// Segment and local parameter of frame time t on knots every `spacing` frames.
template <class T>
inline int uniform_segment(T t, T inv_spacing, int segments, T& u) {
  const T x = t * inv_spacing;
  int i = static_cast<int>(x);
  i = std::clamp(i, 0, segments - 1);
  u = x - static_cast<T>(i);
  return i;
}

template <class T, class P>
inline T uniform_at(const P* p, int degree, int segment, T u) {
  if (degree == 1)
    return static_cast<T>(p[segment]) + (static_cast<T>(p[segment + 1]) - static_cast<T>(p[segment])) * u;
  T w[4];
  cubic_basis(u, w);
  const P* q = p + segment;
  return w[0] * static_cast<T>(q[0]) + w[1] * static_cast<T>(q[1]) + w[2] * static_cast<T>(q[2]) +
         w[3] * static_cast<T>(q[3]);
}

// Key segment of frame time t: the last j with keys[j] <= t, at most count - 2.
template <class T>
inline int key_segment(const int* keys, int count, T t) {
  if (count < 2) return 0;
  const int* it = std::upper_bound(keys, keys + count, t, [](T v, int k) { return v < static_cast<T>(k); });
  return std::clamp(static_cast<int>(it - keys) - 1, 0, count - 2);
}

// Key segment of frame time t starting from `j`, the segment of the last
// sample: it, the next or the previous one when t is there (sequential
// playback), else a search. The result only depends on t where it matters:
// at a shared key both segments give the key's value exactly.
template <class T>
inline int key_segment_from(const int* keys, int count, T t, int j) {
  if (count < 2) return 0;
  j = std::clamp(j, 0, count - 2);
  if (t >= keys[j] && t <= keys[j + 1]) return j;
  if (j + 2 < count && t >= keys[j + 1] && t <= keys[j + 2]) return j + 1;
  if (j > 0 && t >= keys[j - 1] && t <= keys[j]) return j - 1;
  return key_segment(keys, count, t);
}

// Every frame 0 .. frames - 1 of a track into out[f * stride], in double.
template <class P>
inline void uniform_all(std::span<const P> p, int degree, int spacing, int frames, double* out, std::size_t stride) {
  const int segments = gaps(frames, spacing);
  const double inv = 1.0 / spacing;
  for (int f = 0; f < frames; ++f) {
    double u = 0;
    const int i = uniform_segment(static_cast<double>(f), inv, segments, u);
    out[static_cast<std::size_t>(f) * stride] = uniform_at<double>(p.data(), degree, i, u);
  }
}

}  // namespace mocap::clip_curve
