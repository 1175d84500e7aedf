// The viewer's orbit camera and its projection, free of GL so that the
// screenshot check projects joints with exactly the code that drew them.
//
// World frame: metres, +Y up (Acclaim/CMU). The camera looks at `target`
// from `distance` away, in the direction given by `yaw` (about +Y; 0 looks
// from +Z toward -Z, i.e. at the face of a CMU rest pose) and `pitch` (above
// the horizontal).
#pragma once

#include <Eigen/Core>
#include <optional>
#include <span>

namespace mocap::viewer {

struct Camera {
  Eigen::Vector3d target = Eigen::Vector3d(0.0, 1.0, 0.0);  // metres
  double yaw = 0.6;                                         // radians about +Y
  double pitch = 0.2;                                       // radians, (-pi/2, pi/2)
  double distance = 4.0;                                    // metres, > 0
  double fov_y = 0.7853981634;                              // vertical field of view, radians (45 degrees)
  double near_m = 0.05;
  double far_m = 500.0;
  // The part of the picture the scene is framed in, as fractions of its width
  // (left, right) and height (top, bottom, from the top): the window's free
  // part beside the panels and above the timeline. The projection centres the
  // view there (an off-centre frustum), so the figure is not under a panel.
  struct Region {
    double left = 0.0, top = 0.0, right = 1.0, bottom = 1.0;
  } region;

  // The aspect (width / height) of the region in a picture of `aspect`.
  double region_aspect(double aspect) const;

  // Unit vector from the target toward the eye.
  Eigen::Vector3d backward() const;
  Eigen::Vector3d eye() const { return target + distance * backward(); }
  // World to camera (right-handed, looking down -Z), and camera to clip for
  // `aspect` = width / height of the whole picture (OpenGL conventions, depth
  // in [-1, 1]), the view centred in `region`.
  Eigen::Matrix4d view() const;
  Eigen::Matrix4d projection(double aspect) const;

  // Mouse-driven moves. Orbit by angles (radians); pan by a fraction of the
  // view's height (dx right, dy up); zoom by a factor (< 1 closer).
  void orbit(double dyaw, double dpitch);
  void pan(double dx, double dy);
  void zoom(double factor);
};

enum class ViewPreset { kFront, kSide, kTop };
// Keeps target and distance; sets the direction. Front looks at the face of a
// CMU rest pose (from +Z), side from the character's left (+X), top from +Y.
void apply_preset(Camera& camera, ViewPreset preset);

// Moves target and distance so that every point is in view in the camera's
// region of a picture of `aspect`, keeping the direction. Does nothing for no
// points.
void frame_points(Camera& camera, std::span<const Eigen::Vector3d> points, double aspect);

// The camera the viewer opens a pose with (and the headless path renders): a
// three-quarter view from the front left, slightly above, framing `points`.
Camera initial_camera(std::span<const Eigen::Vector3d> points, double aspect);

// Where `p` lands in a `width` x `height` image: pixel coordinates with (0, 0)
// the top-left corner of the top-left pixel, x right, y down. Nullopt when the
// point is behind the near plane.
std::optional<Eigen::Vector2d> project(const Camera& camera, const Eigen::Vector3d& p, int width, int height);

}  // namespace mocap::viewer
