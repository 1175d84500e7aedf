// The curves of .mkc tracks (internal to the compress tier), shared by the
// decoder and the encoder so that the encoder measures exactly what the
// decoder gives. Time is the frame index (fractional), 0 .. frames - 1.
//   Uniform B-spline of degree 3 with knots every s frames: segment
//   i = floor(t / s) (the last segment also takes t = frames - 1), u = t / s - i,
//   value = sum_j B_j(u) p[i + j], B the uniform cubic basis
//   ((1-u)^3, 3u^3 - 6u^2 + 4, -3u^3 + 3u^2 + 3u + 1, u^3) / 6.
//   Degree 1: p[i] (1 - u) + p[i + 1] u.
//   Keyed (whole-pose clips): between keys k_j <= t <= k_j+1, u = (t - k_j) / h,
//   h = k_j+1 - k_j; degree 1 linear, degree 3 cubic Hermite with tangents
//   (per frame) m_j = (h_prev d_next + h_next d_prev) / (h_prev + h_next)
//   inside, the one-sided slope d at the first and last key.
#pragma once

#include <algorithm>
#include <cmath>
#include <span>

namespace mocap::clip_curve {

inline int gaps(int frames, int spacing) { return std::max(1, (frames - 1 + spacing - 1) / spacing); }

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
  if (degree == 1) return static_cast<T>(p[segment]) + (static_cast<T>(p[segment + 1]) - static_cast<T>(p[segment])) * u;
  T w[4];
  cubic_basis(u, w);
  const P* q = p + segment;
  return w[0] * static_cast<T>(q[0]) + w[1] * static_cast<T>(q[1]) + w[2] * static_cast<T>(q[2]) +
         w[3] * static_cast<T>(q[3]);
}

// Tangent (per frame) at key j of `count` keys.
template <class T, class P>
inline T key_tangent(const P* p, const int* keys, int count, int j) {
  if (count < 2) return T(0);
  if (j == 0) return (static_cast<T>(p[1]) - static_cast<T>(p[0])) / static_cast<T>(keys[1] - keys[0]);
  if (j == count - 1)
    return (static_cast<T>(p[j]) - static_cast<T>(p[j - 1])) / static_cast<T>(keys[j] - keys[j - 1]);
  const T h0 = static_cast<T>(keys[j] - keys[j - 1]), h1 = static_cast<T>(keys[j + 1] - keys[j]);
  const T d0 = (static_cast<T>(p[j]) - static_cast<T>(p[j - 1])) / h0;
  const T d1 = (static_cast<T>(p[j + 1]) - static_cast<T>(p[j])) / h1;
  return (h0 * d1 + h1 * d0) / (h0 + h1);
}

// Value at frame time t in key segment j (keys[j] <= t <= keys[j + 1]).
template <class T, class P>
inline T keyed_at(const P* p, const int* keys, int count, int degree, int j, T t) {
  if (count < 2) return count == 1 ? static_cast<T>(p[0]) : T(0);
  const T h = static_cast<T>(keys[j + 1] - keys[j]);
  const T u = std::clamp((t - static_cast<T>(keys[j])) / h, T(0), T(1));
  const T a = static_cast<T>(p[j]), b = static_cast<T>(p[j + 1]);
  if (degree == 1) return a + (b - a) * u;
  const T ma = key_tangent<T>(p, keys, count, j) * h, mb = key_tangent<T>(p, keys, count, j + 1) * h;
  const T u2 = u * u, u3 = u2 * u;
  return (T(2) * u3 - T(3) * u2 + T(1)) * a + (u3 - T(2) * u2 + u) * ma + (T(-2) * u3 + T(3) * u2) * b +
         (u3 - u2) * mb;
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

template <class P>
inline void keyed_all(std::span<const P> p, std::span<const int> keys, int degree, int frames, double* out,
                      std::size_t stride) {
  const int count = static_cast<int>(keys.size());
  int j = 0;
  for (int f = 0; f < frames; ++f) {
    while (j < count - 2 && f > keys[j + 1]) ++j;
    out[static_cast<std::size_t>(f) * stride] = keyed_at<double>(p.data(), keys.data(), count, degree, j, static_cast<double>(f));
  }
}

}  // namespace mocap::clip_curve
