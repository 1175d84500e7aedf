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

Eigen::Matrix4d Camera::projection(double aspect) const {
  const double f = 1.0 / std::tan(fov_y / 2.0);
  Eigen::Matrix4d m = Eigen::Matrix4d::Zero();
  m(0, 0) = f / aspect;
  m(1, 1) = f;
  m(2, 2) = (far_m + near_m) / (near_m - far_m);
  m(2, 3) = 2.0 * far_m * near_m / (near_m - far_m);
  m(3, 2) = -1.0;
  return m;
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
  camera.target = (lo + hi) / 2.0;
  // The bounding sphere of the box, at least 25 cm across, fits the narrower
  // of the two fields of view with a margin.
  const double radius = std::max((hi - lo).norm() / 2.0, 0.25);
  const double half_fov_y = camera.fov_y / 2.0;
  const double half_fov_x = std::atan(std::tan(half_fov_y) * aspect);
  const double half_fov = std::min(half_fov_y, half_fov_x);
  camera.distance = 1.08 * radius / std::sin(half_fov);
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
