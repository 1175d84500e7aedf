#include "camera.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace mocap::viewer {
namespace {

// Pitch stays short of the poles so that the view's up vector (+Y) is defined.
constexpr double kMaxPitch = 1.5620696;  // 89.5 degrees

}  // namespace

Eigen::Vector3d Camera::backward() const {
  return {std::sin(yaw) * std::cos(pitch), std::sin(pitch), std::cos(yaw) * std::cos(pitch)};
}

Eigen::Matrix4d Camera::view() const {
  const Eigen::Vector3d z = backward();
  const Eigen::Vector3d x = Eigen::Vector3d::UnitY().cross(z).normalized();
  const Eigen::Vector3d y = z.cross(x);
  const Eigen::Vector3d e = eye();
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.block<1, 3>(0, 0) = x.transpose();
  m.block<1, 3>(1, 0) = y.transpose();
  m.block<1, 3>(2, 0) = z.transpose();
  m(0, 3) = -x.dot(e);
  m(1, 3) = -y.dot(e);
  m(2, 3) = -z.dot(e);
  return m;
}

double Camera::region_aspect(double aspect) const {
  const double w = std::max(region.right - region.left, 0.05), h = std::max(region.bottom - region.top, 0.05);
  return aspect * w / h;
}

Eigen::Matrix4d Camera::projection(double aspect) const {
  const double f = 1.0 / std::tan(fov_y / 2.0);
  Eigen::Matrix4d m = Eigen::Matrix4d::Zero();
  m(0, 0) = f / region_aspect(aspect);
  m(1, 1) = f;
  m(2, 2) = (far_m + near_m) / (near_m - far_m);
  m(2, 3) = 2.0 * far_m * near_m / (near_m - far_m);
  m(3, 2) = -1.0;
  // Into the region: scale the normalised device square to its size and move
  // it to its centre (x' = sx x + cx w, the same for y, y up).
  const double sx = std::max(region.right - region.left, 0.05), sy = std::max(region.bottom - region.top, 0.05);
  const double cx = region.left + region.right - 1.0, cy = 1.0 - (region.top + region.bottom);
  Eigen::Matrix4d into = Eigen::Matrix4d::Identity();
  into(0, 0) = sx, into(0, 3) = cx;
  into(1, 1) = sy, into(1, 3) = cy;
  return into * m;
}

void Camera::orbit(double dyaw, double dpitch) {
  yaw = std::remainder(yaw + dyaw, 2.0 * std::numbers::pi);
  pitch = std::clamp(pitch + dpitch, -kMaxPitch, kMaxPitch);
}

void Camera::pan(double dx, double dy) {
  const Eigen::Vector3d z = backward();
  const Eigen::Vector3d x = Eigen::Vector3d::UnitY().cross(z).normalized();
  const Eigen::Vector3d y = z.cross(x);
  // A fraction of the view's height at the target's depth.
  const double height_m = 2.0 * distance * std::tan(fov_y / 2.0);
  target -= (dx * x + dy * y) * height_m;
}

void Camera::zoom(double factor) {
  distance = std::clamp(distance * factor, 0.05, 400.0);
}

void apply_preset(Camera& camera, ViewPreset preset) {
  switch (preset) {
    case ViewPreset::kFront: camera.yaw = 0.0, camera.pitch = 0.0; break;
    case ViewPreset::kSide: camera.yaw = std::numbers::pi / 2.0, camera.pitch = 0.0; break;
    case ViewPreset::kTop: camera.yaw = 0.0, camera.pitch = kMaxPitch; break;
  }
}

void frame_points(Camera& camera, std::span<const Eigen::Vector3d> points, double aspect) {
  if (points.empty()) return;
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
  Eigen::Vector3d hi = -lo;
  for (const Eigen::Vector3d& p : points) {
    if (!p.allFinite()) continue;
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  if (!lo.allFinite()) return;
  // Centred on the box, then on the points' extent across the view (a wide
  // row of figures is framed by its width, not its bounding sphere).
  camera.target = (lo + hi) / 2.0;
  const Eigen::Vector3d back = camera.backward();
  const Eigen::Vector3d right = Eigen::Vector3d::UnitY().cross(back).normalized();
  const Eigen::Vector3d up = back.cross(right);
  double x_lo = 0.0, x_hi = 0.0, y_lo = 0.0, y_hi = 0.0;
  for (const Eigen::Vector3d& p : points) {
    if (!p.allFinite()) continue;
    const Eigen::Vector3d r = p - camera.target;
    x_lo = std::min(x_lo, r.dot(right)), x_hi = std::max(x_hi, r.dot(right));
    y_lo = std::min(y_lo, r.dot(up)), y_hi = std::max(y_hi, r.dot(up));
  }
  camera.target += (x_lo + x_hi) / 2.0 * right + (y_lo + y_hi) / 2.0 * up;
  // The nearest eye that sees every point inside the region with a margin:
  // a point r off the target at depth d - r.back needs
  // d >= |r.right| / tan(half fov x) + r.back, and the same for up.
  const double margin = 0.9;
  const double tan_y = std::tan(camera.fov_y / 2.0) * margin;
  const double tan_x = std::tan(camera.fov_y / 2.0) * camera.region_aspect(aspect) * margin;
  double distance = 0.25 / tan_y;  // at least 25 cm of view
  for (const Eigen::Vector3d& p : points) {
    if (!p.allFinite()) continue;
    const Eigen::Vector3d r = p - camera.target;
    const double z = r.dot(back);
    distance = std::max(
        {distance, std::abs(r.dot(right)) / tan_x + z, std::abs(r.dot(up)) / tan_y + z, z + 2.0 * camera.near_m});
  }
  camera.distance = distance;
}

Camera initial_camera(std::span<const Eigen::Vector3d> points, double aspect) {
  Camera camera;
  camera.yaw = 0.55;    // about 30 degrees toward the character's left
  camera.pitch = 0.18;  // about 10 degrees above
  frame_points(camera, points, aspect);
  return camera;
}

std::optional<Eigen::Vector2d> project(const Camera& camera, const Eigen::Vector3d& p, int width, int height) {
  const double aspect = static_cast<double>(width) / height;
  const Eigen::Vector4d clip = camera.projection(aspect) * camera.view() * p.homogeneous();
  if (clip.w() <= camera.near_m) return std::nullopt;
  const double ndc_x = clip.x() / clip.w();
  const double ndc_y = clip.y() / clip.w();
  return Eigen::Vector2d((ndc_x + 1.0) / 2.0 * width, (1.0 - ndc_y) / 2.0 * height);
}

}  // namespace mocap::viewer
