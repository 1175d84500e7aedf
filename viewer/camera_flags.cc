#include "camera_flags.h"

#include <cmath>
#include <cstdio>
#include <numbers>

namespace mocap::viewer {
namespace {

double radians(double degrees) {
  return degrees * std::numbers::pi / 180.0;
}

}  // namespace

Result<CameraTarget> parse_target(const std::string& target, const Skeleton& skeleton) {
  CameraTarget out;
  if (target.empty()) return out;
  double x = 0, y = 0, z = 0;
  char extra = 0;
  if (std::sscanf(target.c_str(), "%lf,%lf,%lf%c", &x, &y, &z, &extra) == 3) {
    out.point = Eigen::Vector3d(x, y, z);
    if (!out.point->allFinite()) return fail("--target", 0, "'" + target + "': expected finite x,y,z in metres");
    return out;
  }
  for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
    if (skeleton.bones[b].name == target) {
      out.bone = static_cast<int>(b);
      return out;
    }
  }
  std::string names;
  for (const auto& bone : skeleton.bones) names += (names.empty() ? "" : ", ") + bone.name;
  return fail("--target", 0, "'" + target + "': expected x,y,z in metres or a bone of the skeleton (" + names + ")");
}

Camera flags_camera(const CameraFlags& flags, const CameraTarget& target, std::span<const Eigen::Vector3d> points,
                    std::span<const Eigen::Vector3d> clip_positions, double aspect) {
  Camera camera = initial_camera(points, aspect);
  if (flags.azimuth_deg) camera.yaw = radians(*flags.azimuth_deg);
  if (flags.elevation_deg) camera.pitch = radians(*flags.elevation_deg);
  if (flags.fov_deg) camera.fov_y = radians(*flags.fov_deg);
  // Framed again in the flags' direction and field of view.
  frame_points(camera, points, aspect);
  if (flags.distance_m) camera.distance = *flags.distance_m;
  if (target.point) camera.target = *target.point;
  if (target.bone >= 0 && target.bone < static_cast<int>(clip_positions.size())) {
    camera.target = clip_positions[static_cast<std::size_t>(target.bone)];
  }
  return camera;
}

void advance_camera(Camera& camera, const Camera& first, const CameraFlags& flags, const CameraTarget& target,
                    std::span<const Eigen::Vector3d> clip_positions, double seconds) {
  camera.yaw = std::remainder(first.yaw + radians(flags.turntable_deg_per_s) * seconds, 2.0 * std::numbers::pi);
  if (target.bone >= 0 && target.bone < static_cast<int>(clip_positions.size())) {
    camera.target = clip_positions[static_cast<std::size_t>(target.bone)];
  }
}

}  // namespace mocap::viewer
