// Rotation arithmetic for the hot loops of forward kinematics and keyframe
// rebuild (not part of the public API).
#pragma once

#include <Eigen/Geometry>
#include <cmath>

namespace mocap::rotation {

// sin and cos of x to within an ulp or two, without a libm call: the hot
// loops take two per rotation dof per frame, and libm's sincos was the
// largest cost of the pipeline. Pi/2 reduction in two parts (Cody-Waite) is
// exact for |x| < 1e5 rad; beyond that (never in real data) libm answers.
inline void sin_cos(double x, double& s, double& c) {
  constexpr double kTwoOverPi = 0.636619772367581343076;
  constexpr double kPiOver2Hi = 1.57079632673412561417e+00;  // 33 bits: n * hi is exact
  constexpr double kPiOver2Lo = 6.07710050650619224932e-11;
  constexpr double kRound = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to an integer
  if (!(std::abs(x) < 1e5)) {
    s = std::sin(x);
    c = std::cos(x);
    return;
  }
  const double n = (x * kTwoOverPi + kRound) - kRound;
  const double r = (x - n * kPiOver2Hi) - n * kPiOver2Lo;  // |r| <= pi/4
  const double r2 = r * r;
  // Taylor series to r^15 and r^16: the next terms are below 5e-17 on |r| <= pi/4.
  const double sr =
      r * (1.0 + r2 * (-1.0 / 6 +
                       r2 * (1.0 / 120 +
                             r2 * (-1.0 / 5040 + r2 * (1.0 / 362880 +
                                                       r2 * (-1.0 / 39916800 + r2 * (1.0 / 6227020800 +
                                                                                     r2 * (-1.0 / 1307674368000))))))));
  const double cr =
      1.0 +
      r2 * (-0.5 + r2 * (1.0 / 24 +
                         r2 * (-1.0 / 720 + r2 * (1.0 / 40320 +
                                                  r2 * (-1.0 / 3628800 + r2 * (1.0 / 479001600 +
                                                                               r2 * (-1.0 / 87178291200 +
                                                                                     r2 * (1.0 / 20922789888000))))))));
  switch (static_cast<long long>(n) & 3) {
    case 0:
      s = sr;
      c = cr;
      break;
    case 1:
      s = cr;
      c = -sr;
      break;
    case 2:
      s = -sr;
      c = -cr;
      break;
    default:
      s = -cr;
      c = sr;
      break;
  }
}

// R_axis(angle) * q, the rotation about a unit axis written out (half the
// products of a general quaternion product).
inline Eigen::Quaterniond turn(int axis, double angle, const Eigen::Quaterniond& q) {
  double s = 0.0, c = 0.0;
  sin_cos(0.5 * angle, s, c);
  const double w = q.w(), x = q.x(), y = q.y(), z = q.z();
  switch (axis) {
    case 0: return {c * w - s * x, c * x + s * w, c * y - s * z, c * z + s * y};
    case 1: return {c * w - s * y, c * x + s * z, c * y + s * w, c * z - s * x};
    default: return {c * w - s * z, c * x - s * y, c * y + s * x, c * z + s * w};
  }
}

}  // namespace mocap::rotation
