// The camera as the command line sets it (--azimuth, --elevation, --distance,
// --target, --fov, --turntable), for headless pictures and movies, as
// BVHView takes every camera value as a flag. GL-free: the screenshot check
// builds the same camera from the same flags.
#pragma once

#include "camera.h"
#include "posed_capture.h"

#include <Eigen/Core>
#include <optional>
#include <span>
#include <string>

namespace mocap::viewer {

struct CameraFlags {
  std::optional<double> azimuth_deg;    // about +Y, 0 looks at a CMU rest pose's face (from +Z), 90 from its left
  std::optional<double> elevation_deg;  // above the horizontal, in (-90, 90)
  std::optional<double> distance_m;     // > 0; default: the figure framed
  std::optional<double> fov_deg;        // vertical field of view, in (1, 170)
  std::string target;                   // a bone to follow, or "x,y,z" in metres; empty: the root over the ground
  double turntable_deg_per_s = 0.0;     // azimuth turned per second of clip time (0: still)
};

// Where the camera looks: a bone (followed in 3D) or a fixed point.
struct CameraTarget {
  int bone = -1;  // >= 0: this bone's joint
  std::optional<Eigen::Vector3d> point;
};

// Reads flags.target against `skeleton`; the error names the flag and lists
// what it takes.
Result<CameraTarget> parse_target(const std::string& target, const Skeleton& skeleton);

// The first picture's camera: the flags' direction and field of view, framing
// `points` in a picture of `aspect`, then the flags' distance and target.
Camera flags_camera(const CameraFlags& flags, const CameraTarget& target, std::span<const Eigen::Vector3d> points,
                    std::span<const Eigen::Vector3d> clip_positions, double aspect);

// The camera `seconds` of clip time after the first picture: the turntable
// turned, the target on its bone. (Following the root over the ground is the
// caller's, as in the window.)
void advance_camera(Camera& camera, const Camera& first, const CameraFlags& flags, const CameraTarget& target,
                    std::span<const Eigen::Vector3d> clip_positions, double seconds);

}  // namespace mocap::viewer
