// Drawing the scene with OpenGL 3.3 core (through libepoxy): background,
// ground grid, world axes, skeletons (bones as cylinders or lines, joints as
// spheres) and a lit triangle mesh. Needs a current GL context.
#pragma once

#include "camera.h"
#include "colors.h"

#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mocap::viewer {

// Show/hide toggles of the scene, edited by the scene panel.
struct SceneOptions {
  bool show_skeleton = true;
  bool show_joints = true;
  bool bones_as_lines = false;
  bool show_grid = true;
  bool show_axes = true;
  bool show_shadow = true;        // a blob shadow under each root
  bool show_mesh = true;          // the skinned mesh, when one is loaded
  bool xray = false;              // the skeleton drawn over the mesh, not hidden inside it
  float bone_radius_m = 0.017f;   // cylinder radius
  float joint_radius_m = 0.026f;  // sphere radius
};

// How one skeleton is drawn.
struct SkeletonStyle {
  colors::Rgb bone = colors::kBone;
  colors::Rgb joint = colors::kJoint;
  std::span<const colors::Rgb> joint_colors;  // per bone, overrides `joint` when not empty
  int selected = -1;                          // bone whose joint is highlighted, -1: none
  float radius_scale = 1.0f;                  // of the options' radii
};

class Renderer {
 public:
  Renderer() = default;
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Compiles the shaders and builds the shapes; the error says what failed.
  std::optional<std::string> init();

  // Sets the viewport to `width` x `height` of the bound framebuffer, clears it
  // to the background and takes the camera's matrices for what follows.
  void begin(const Camera& camera, int width, int height);
  // A 1 m grid on the ground (y = 0) around `center`, every fifth line brighter.
  void grid(const Eigen::Vector3d& center);
  // X, Y, Z as red, green, blue arrows of 18 cm at the origin.
  void axes();
  // A soft dark disc on the ground (y = 0) under `center`, `radius` metres,
  // `darkness` the alpha at its centre: a contact cue so that height reads.
  void shadow(const Eigen::Vector3d& center, float radius, float darkness = 0.45f);
  void skeleton(const Skeleton& skeleton, std::span<const Eigen::Vector3d> positions, const SceneOptions& options,
                const SkeletonStyle& style);
  // Line segments a0 b0 a1 b1 ... in one colour, over the scene when `on_top`.
  void segments(std::span<const Eigen::Vector3d> ends, const colors::Rgb& color, bool on_top = false);
  // What is drawn next covers what was drawn before (the depth buffer cleared).
  void draw_over();
  // A lit triangle mesh (positions and normals one per vertex, three indices
  // per triangle) placed in the world by `model`, a similarity (rotation,
  // uniform scale, translation). The data is uploaded on each call.
  void mesh(std::span<const Eigen::Vector3f> positions, std::span<const Eigen::Vector3f> normals,
            std::span<const std::uint32_t> indices, const Eigen::Affine3f& model, const colors::Rgb& color);

 private:
  struct Shape {
    unsigned vao = 0, vbo = 0, ebo = 0;
    int index_count = 0;
  };
  void cylinder(const Eigen::Vector3d& a, const Eigen::Vector3d& b, float radius, const colors::Rgb& color);
  void sphere(const Eigen::Vector3d& c, float radius, const colors::Rgb& color);
  void draw_lit(const Shape& shape, const Eigen::Matrix4f& model, const Eigen::Matrix3f& normal,
                const colors::Rgb& color);
  void draw_lines(std::span<const float> vertices);  // x y z r g b per vertex, pairs

  unsigned lit_program_ = 0;
  unsigned flat_program_ = 0;
  Shape cylinder_, sphere_;
  unsigned lines_vao_ = 0, lines_vbo_ = 0;
  unsigned mesh_vao_ = 0, mesh_vbo_ = 0, mesh_ebo_ = 0;
  const std::uint32_t* mesh_indices_ = nullptr;  // the triangles in mesh_ebo_
  std::size_t mesh_index_count_ = 0;
  Eigen::Matrix4f view_proj_ = Eigen::Matrix4f::Identity();
  Eigen::Vector3f eye_ = Eigen::Vector3f::Zero();
  std::vector<float> scratch_;
};

// An offscreen multisampled framebuffer to render screenshots into at any size.
class Offscreen {
 public:
  Offscreen() = default;
  ~Offscreen();
  Offscreen(const Offscreen&) = delete;
  Offscreen& operator=(const Offscreen&) = delete;

  // (Re)creates the buffers; the error says why the framebuffer is incomplete.
  std::optional<std::string> resize(int width, int height, int samples = 4);
  void bind() const;  // as the draw framebuffer; unbind with bind_default()
  static void bind_default();
  // Resolves the samples and reads the picture: RGB, 8 bits, rows top first
  // (or bottom first, as GL keeps them, for a movie that ffmpeg flips).
  std::vector<std::uint8_t> read_rgb(bool top_first = true);
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  void release();
  unsigned fbo_ = 0, color_ = 0, depth_ = 0;
  unsigned resolve_fbo_ = 0, resolve_color_ = 0;
  int width_ = 0, height_ = 0;
};

// The window's back buffer with everything drawn into it (panels included):
// RGB, 8 bits, rows top first.
std::vector<std::uint8_t> read_window_rgb(int width, int height, bool top_first = true);

// (PNG files: io/image.h write_png.)

}  // namespace mocap::viewer
