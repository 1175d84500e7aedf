#include "render.h"

#include <epoxy/gl.h>

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>

namespace mocap::viewer {
namespace {

constexpr const char* kLitVertex = R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
uniform mat4 u_view_proj;
uniform mat4 u_model;
uniform mat3 u_normal;
out vec3 v_world;
out vec3 v_normal;
void main() {
  vec4 world = u_model * vec4(a_position, 1.0);
  v_world = world.xyz;
  v_normal = u_normal * a_normal;
  gl_Position = u_view_proj * world;
}
)";

// A key light from above and behind the viewer, a sky/ground fill and a weak
// highlight: shapes read clearly without washing colours out to white.
constexpr const char* kLitFragment = R"(#version 330 core
in vec3 v_world;
in vec3 v_normal;
uniform vec3 u_color;
uniform vec3 u_eye;
out vec4 frag_color;
void main() {
  vec3 n = normalize(v_normal);
  vec3 to_eye = normalize(u_eye - v_world);
  if (dot(n, to_eye) < 0.0) n = -n;
  vec3 light = normalize(to_eye + vec3(0.0, 0.9, 0.0));
  float diffuse = max(dot(n, light), 0.0);
  float sky = 0.5 + 0.5 * n.y;
  float highlight = pow(max(dot(n, normalize(light + to_eye)), 0.0), 32.0);
  vec3 c = u_color * (0.22 + 0.18 * sky + 0.62 * diffuse) + vec3(0.08 * highlight);
  frag_color = vec4(c, 1.0);
}
)";

constexpr const char* kFlatVertex = R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_color;
uniform mat4 u_view_proj;
out vec3 v_color;
void main() {
  v_color = a_color;
  gl_Position = u_view_proj * vec4(a_position, 1.0);
}
)";

constexpr const char* kFlatFragment = R"(#version 330 core
in vec3 v_color;
uniform int u_shadow;
out vec4 frag_color;
// A shadow's vertices carry its darkness (alpha) in the red channel.
void main() { frag_color = u_shadow != 0 ? vec4(0.0, 0.0, 0.0, v_color.r) : vec4(v_color, 1.0); }
)";

std::optional<std::string> compile(GLenum type, const char* source, GLuint& shader) {
  shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok) return std::nullopt;
  char log[1024] = {};
  glGetShaderInfoLog(shader, sizeof log, nullptr, log);
  return std::string("shader does not compile: ") + log;
}

std::optional<std::string> link(const char* vertex, const char* fragment, unsigned& program) {
  GLuint vs = 0, fs = 0;
  if (auto e = compile(GL_VERTEX_SHADER, vertex, vs)) return e;
  if (auto e = compile(GL_FRAGMENT_SHADER, fragment, fs)) return e;
  program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok) return std::nullopt;
  char log[1024] = {};
  glGetProgramInfoLog(program, sizeof log, nullptr, log);
  return std::string("shader program does not link: ") + log;
}

// Interleaved position + normal, and triangle indices.
struct ShapeData {
  std::vector<float> vertices;
  std::vector<std::uint32_t> indices;
  void add(const Eigen::Vector3f& p, const Eigen::Vector3f& n) {
    vertices.insert(vertices.end(), {p.x(), p.y(), p.z(), n.x(), n.y(), n.z()});
  }
};

// Radius 1, from z = 0 to z = 1, open at the ends (joint spheres cover them).
ShapeData make_cylinder(int segments) {
  ShapeData d;
  for (int i = 0; i <= segments; ++i) {
    const float a = 2.0f * std::numbers::pi_v<float> * i / segments;
    const Eigen::Vector3f n(std::cos(a), std::sin(a), 0.0f);
    d.add(n, n);
    d.add(n + Eigen::Vector3f::UnitZ(), n);
  }
  for (int i = 0; i < segments; ++i) {
    const std::uint32_t k = 2 * i;
    d.indices.insert(d.indices.end(), {k, k + 2, k + 1, k + 1, k + 2, k + 3});
  }
  return d;
}

// Radius 1 around the origin, latitude/longitude.
ShapeData make_sphere(int slices, int stacks) {
  ShapeData d;
  for (int j = 0; j <= stacks; ++j) {
    const float v = std::numbers::pi_v<float> * j / stacks;
    for (int i = 0; i <= slices; ++i) {
      const float u = 2.0f * std::numbers::pi_v<float> * i / slices;
      const Eigen::Vector3f n(std::sin(v) * std::cos(u), std::cos(v), std::sin(v) * std::sin(u));
      d.add(n, n);
    }
  }
  for (int j = 0; j < stacks; ++j) {
    for (int i = 0; i < slices; ++i) {
      const std::uint32_t a = j * (slices + 1) + i, b = a + slices + 1;
      d.indices.insert(d.indices.end(), {a, b, a + 1, a + 1, b, b + 1});
    }
  }
  return d;
}

void vertex_layout_position_normal() {
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), reinterpret_cast<void*>(3 * sizeof(float)));
}

void push_line(std::vector<float>& v, const Eigen::Vector3f& a, const Eigen::Vector3f& b, const colors::Rgb& c) {
  v.insert(v.end(), {a.x(), a.y(), a.z(), c[0], c[1], c[2], b.x(), b.y(), b.z(), c[0], c[1], c[2]});
}

// GL rows are bottom first; pictures are top first.
void flip_rows(std::vector<std::uint8_t>& rgb, int width, int height) {
  const std::size_t row = static_cast<std::size_t>(width) * 3;
  for (int y = 0; y < height / 2; ++y) {
    std::swap_ranges(rgb.begin() + y * row, rgb.begin() + (y + 1) * row, rgb.begin() + (height - 1 - y) * row);
  }
}

}  // namespace

Renderer::~Renderer() {
  for (Shape* s : {&cylinder_, &sphere_}) {
    glDeleteVertexArrays(1, &s->vao);
    glDeleteBuffers(1, &s->vbo);
    glDeleteBuffers(1, &s->ebo);
  }
  glDeleteVertexArrays(1, &lines_vao_);
  glDeleteBuffers(1, &lines_vbo_);
  glDeleteVertexArrays(1, &mesh_vao_);
  glDeleteBuffers(1, &mesh_vbo_);
  glDeleteBuffers(1, &mesh_ebo_);
  if (lit_program_) glDeleteProgram(lit_program_);
  if (flat_program_) glDeleteProgram(flat_program_);
}

std::optional<std::string> Renderer::init() {
  if (auto e = link(kLitVertex, kLitFragment, lit_program_)) return e;
  if (auto e = link(kFlatVertex, kFlatFragment, flat_program_)) return e;
  auto upload = [](const ShapeData& d, Shape& s) {
    glGenVertexArrays(1, &s.vao);
    glBindVertexArray(s.vao);
    glGenBuffers(1, &s.vbo);
    glBindBuffer(GL_ARRAY_BUFFER, s.vbo);
    glBufferData(GL_ARRAY_BUFFER, d.vertices.size() * sizeof(float), d.vertices.data(), GL_STATIC_DRAW);
    glGenBuffers(1, &s.ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, s.ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, d.indices.size() * sizeof(std::uint32_t), d.indices.data(), GL_STATIC_DRAW);
    vertex_layout_position_normal();
    s.index_count = static_cast<int>(d.indices.size());
  };
  upload(make_cylinder(20), cylinder_);
  upload(make_sphere(20, 12), sphere_);

  glGenVertexArrays(1, &lines_vao_);
  glBindVertexArray(lines_vao_);
  glGenBuffers(1, &lines_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, lines_vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), reinterpret_cast<void*>(3 * sizeof(float)));

  glGenVertexArrays(1, &mesh_vao_);
  glBindVertexArray(mesh_vao_);
  glGenBuffers(1, &mesh_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, mesh_vbo_);
  glGenBuffers(1, &mesh_ebo_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh_ebo_);
  vertex_layout_position_normal();
  glBindVertexArray(0);
  if (GLenum e = glGetError(); e != GL_NO_ERROR) return "OpenGL error " + std::to_string(e) + " while setting up";
  return std::nullopt;
}

void Renderer::begin(const Camera& camera, int width, int height) {
  glViewport(0, 0, width, height);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);
  glEnable(GL_MULTISAMPLE);
  glClearColor(colors::kBackgroundBottom[0], colors::kBackgroundBottom[1], colors::kBackgroundBottom[2], 1.0f);
  glClearDepth(1.0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

  // A vertical gradient behind everything: two triangles in clip space.
  glDisable(GL_DEPTH_TEST);
  const colors::Rgb& t = colors::kBackgroundTop;
  const colors::Rgb& b = colors::kBackgroundBottom;
  const float quad[] = {-1, -1, 0, b[0], b[1], b[2], 1, -1, 0, b[0], b[1], b[2], 1,  1, 0, t[0], t[1], t[2],
                        -1, -1, 0, b[0], b[1], b[2], 1, 1,  0, t[0], t[1], t[2], -1, 1, 0, t[0], t[1], t[2]};
  view_proj_ = Eigen::Matrix4f::Identity();
  glUseProgram(flat_program_);
  glUniform1i(glGetUniformLocation(flat_program_, "u_shadow"), 0);
  glUniformMatrix4fv(glGetUniformLocation(flat_program_, "u_view_proj"), 1, GL_FALSE, view_proj_.data());
  glBindVertexArray(lines_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, lines_vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STREAM_DRAW);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);

  view_proj_ = (camera.projection(static_cast<double>(width) / height) * camera.view()).cast<float>();
  eye_ = camera.eye().cast<float>();
}

void Renderer::draw_lines(std::span<const float> vertices) {
  if (vertices.empty()) return;
  glUseProgram(flat_program_);
  glUniform1i(glGetUniformLocation(flat_program_, "u_shadow"), 0);
  glUniformMatrix4fv(glGetUniformLocation(flat_program_, "u_view_proj"), 1, GL_FALSE, view_proj_.data());
  glBindVertexArray(lines_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, lines_vbo_);
  glBufferData(GL_ARRAY_BUFFER, vertices.size_bytes(), vertices.data(), GL_STREAM_DRAW);
  glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(vertices.size() / 6));
}

void Renderer::grid(const Eigen::Vector3d& center) {
  constexpr int kHalf = 12;  // metres each way
  const int cx = static_cast<int>(std::lround(center.x()));
  const int cz = static_cast<int>(std::lround(center.z()));
  scratch_.clear();
  for (int i = -kHalf; i <= kHalf; ++i) {
    const colors::Rgb& c = ((cx + i) % 5 == 0) ? colors::kGridMajor : colors::kGridMinor;
    push_line(scratch_, Eigen::Vector3f(cx + i, 0, cz - kHalf), Eigen::Vector3f(cx + i, 0, cz + kHalf), c);
    const colors::Rgb& d = ((cz + i) % 5 == 0) ? colors::kGridMajor : colors::kGridMinor;
    push_line(scratch_, Eigen::Vector3f(cx - kHalf, 0, cz + i), Eigen::Vector3f(cx + kHalf, 0, cz + i), d);
  }
  draw_lines(scratch_);
}

void Renderer::axes() {
  // Small, at the origin: a reference for the directions, not a pole beside the figure.
  constexpr float kLength = 0.15f, kRadius = 0.004f;
  const std::pair<Eigen::Vector3d, colors::Rgb> axes[] = {
      {Eigen::Vector3d::UnitX(), colors::kAxisX},
      {Eigen::Vector3d::UnitY(), colors::kAxisY},
      {Eigen::Vector3d::UnitZ(), colors::kAxisZ},
  };
  for (const auto& [axis, color] : axes) {
    cylinder(Eigen::Vector3d::Zero(), kLength * axis, kRadius, color);
    // A tip: a short, wider piece at the end.
    cylinder(kLength * axis, (kLength + 0.03) * axis, 2.2f * kRadius, color);
  }
}

void Renderer::shadow(const Eigen::Vector3d& center, float radius, float darkness) {
  // A fan on the ground, darkest at the centre and fading to nothing at the
  // rim, blended over the grid and drawn without depth writes.
  constexpr int kSegments = 32;
  const Eigen::Vector3f c(static_cast<float>(center.x()), 0.002f, static_cast<float>(center.z()));
  scratch_.clear();
  for (int i = 0; i < kSegments; ++i) {
    const float a0 = 2.0f * std::numbers::pi_v<float> * i / kSegments;
    const float a1 = 2.0f * std::numbers::pi_v<float> * (i + 1) / kSegments;
    const Eigen::Vector3f p0 = c + radius * Eigen::Vector3f(std::cos(a0), 0.0f, std::sin(a0));
    const Eigen::Vector3f p1 = c + radius * Eigen::Vector3f(std::cos(a1), 0.0f, std::sin(a1));
    scratch_.insert(scratch_.end(), {c.x(), c.y(), c.z(), darkness, 0, 0, p0.x(), p0.y(), p0.z(), 0, 0, 0, p1.x(),
                                     p1.y(), p1.z(), 0, 0, 0});
  }
  glUseProgram(flat_program_);
  glUniform1i(glGetUniformLocation(flat_program_, "u_shadow"), 1);
  glUniformMatrix4fv(glGetUniformLocation(flat_program_, "u_view_proj"), 1, GL_FALSE, view_proj_.data());
  glBindVertexArray(lines_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, lines_vbo_);
  glBufferData(GL_ARRAY_BUFFER, scratch_.size() * sizeof(float), scratch_.data(), GL_STREAM_DRAW);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);
  glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(scratch_.size() / 6));
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
  glUniform1i(glGetUniformLocation(flat_program_, "u_shadow"), 0);
}

void Renderer::skeleton(const Skeleton& skeleton, std::span<const Eigen::Vector3d> positions,
                        const SceneOptions& options, const SkeletonStyle& style) {
  const int bones = static_cast<int>(std::min(skeleton.bones.size(), positions.size()));
  if (options.show_skeleton) {
    if (options.bones_as_lines) {
      scratch_.clear();
      for (int b = 1; b < bones; ++b) {
        const int parent = skeleton.bones[b].parent;
        push_line(scratch_, positions[parent].cast<float>(), positions[b].cast<float>(), style.bone);
      }
      draw_lines(scratch_);
    } else {
      for (int b = 1; b < bones; ++b) {
        cylinder(positions[skeleton.bones[b].parent], positions[b], options.bone_radius_m * style.radius_scale,
                 style.bone);
      }
    }
  }
  if (options.show_joints) {
    for (int b = 0; b < bones; ++b) {
      const bool selected = b == style.selected;
      const colors::Rgb& c = selected                                          ? colors::kSelected
                             : static_cast<int>(style.joint_colors.size()) > b ? style.joint_colors[b]
                                                                               : style.joint;
      const float r = options.joint_radius_m * style.radius_scale * (selected ? 1.6f : 1.0f) * (b == 0 ? 1.3f : 1.0f);
      sphere(positions[b], r, c);
    }
  }
}

void Renderer::draw_over() {
  glClear(GL_DEPTH_BUFFER_BIT);
}

void Renderer::segments(std::span<const Eigen::Vector3d> ends, const colors::Rgb& color, bool on_top) {
  scratch_.clear();
  for (std::size_t i = 0; i + 1 < ends.size(); i += 2) {
    push_line(scratch_, ends[i].cast<float>(), ends[i + 1].cast<float>(), color);
  }
  if (on_top) glDisable(GL_DEPTH_TEST);
  draw_lines(scratch_);
  if (on_top) glEnable(GL_DEPTH_TEST);
}

void Renderer::cylinder(const Eigen::Vector3d& a, const Eigen::Vector3d& b, float radius, const colors::Rgb& color) {
  const Eigen::Vector3d d = b - a;
  const double length = d.norm();
  if (length < 1e-6) return;
  const Eigen::Matrix3f r =
      Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), d / length).toRotationMatrix().cast<float>();
  const Eigen::Vector3f scale(radius, radius, static_cast<float>(length));
  Eigen::Matrix4f model = Eigen::Matrix4f::Identity();
  model.block<3, 3>(0, 0) = r * scale.asDiagonal();
  model.block<3, 1>(0, 3) = a.cast<float>();
  draw_lit(cylinder_, model, r * scale.cwiseInverse().asDiagonal(), color);
}

void Renderer::sphere(const Eigen::Vector3d& c, float radius, const colors::Rgb& color) {
  Eigen::Matrix4f model = Eigen::Matrix4f::Identity();
  model.block<3, 3>(0, 0) *= radius;
  model.block<3, 1>(0, 3) = c.cast<float>();
  draw_lit(sphere_, model, Eigen::Matrix3f::Identity(), color);
}

void Renderer::draw_lit(const Shape& shape, const Eigen::Matrix4f& model, const Eigen::Matrix3f& normal,
                        const colors::Rgb& color) {
  glUseProgram(lit_program_);
  glUniformMatrix4fv(glGetUniformLocation(lit_program_, "u_view_proj"), 1, GL_FALSE, view_proj_.data());
  glUniformMatrix4fv(glGetUniformLocation(lit_program_, "u_model"), 1, GL_FALSE, model.data());
  glUniformMatrix3fv(glGetUniformLocation(lit_program_, "u_normal"), 1, GL_FALSE, normal.data());
  glUniform3fv(glGetUniformLocation(lit_program_, "u_color"), 1, color.data());
  glUniform3fv(glGetUniformLocation(lit_program_, "u_eye"), 1, eye_.data());
  glBindVertexArray(shape.vao);
  glDrawElements(GL_TRIANGLES, shape.index_count, GL_UNSIGNED_INT, nullptr);
}

void Renderer::mesh(std::span<const Eigen::Vector3f> positions, std::span<const Eigen::Vector3f> normals,
                    std::span<const std::uint32_t> indices, const Eigen::Affine3f& model, const colors::Rgb& color) {
  if (positions.empty() || indices.empty() || normals.size() != positions.size()) return;
  scratch_.resize(positions.size() * 6);
  for (std::size_t i = 0; i < positions.size(); ++i) {
    float* v = scratch_.data() + 6 * i;
    v[0] = positions[i].x(), v[1] = positions[i].y(), v[2] = positions[i].z();
    v[3] = normals[i].x(), v[4] = normals[i].y(), v[5] = normals[i].z();
  }
  glBindVertexArray(mesh_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, mesh_vbo_);
  glBufferData(GL_ARRAY_BUFFER, scratch_.size() * sizeof(float), scratch_.data(), GL_STREAM_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh_ebo_);
  // Triangles do not change while a mesh is shown: upload them once.
  if (indices.data() != mesh_indices_ || indices.size() != mesh_index_count_) {
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, indices.size_bytes(), indices.data(), GL_STATIC_DRAW);
    mesh_indices_ = indices.data();
    mesh_index_count_ = indices.size();
  }
  // For a similarity the linear part is the normal matrix up to scale; the
  // shader renormalises.
  draw_lit(Shape{mesh_vao_, mesh_vbo_, mesh_ebo_, static_cast<int>(indices.size())}, model.matrix(), model.linear(),
           color);
}

Offscreen::~Offscreen() {
  release();
}

void Offscreen::release() {
  glDeleteFramebuffers(1, &fbo_);
  glDeleteFramebuffers(1, &resolve_fbo_);
  glDeleteRenderbuffers(1, &color_);
  glDeleteRenderbuffers(1, &depth_);
  glDeleteRenderbuffers(1, &resolve_color_);
  fbo_ = resolve_fbo_ = color_ = depth_ = resolve_color_ = 0;
  width_ = height_ = 0;
}

std::optional<std::string> Offscreen::resize(int width, int height, int samples) {
  if (width == width_ && height == height_ && fbo_) return std::nullopt;
  release();
  GLint max_samples = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  samples = std::min(samples, static_cast<int>(max_samples));
  auto make = [&](unsigned& fbo, unsigned& color, unsigned* depth, int n) -> std::optional<std::string> {
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &color);
    glBindRenderbuffer(GL_RENDERBUFFER, color);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, n, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    if (depth) {
      glGenRenderbuffers(1, depth);
      glBindRenderbuffer(GL_RENDERBUFFER, *depth);
      glRenderbufferStorageMultisample(GL_RENDERBUFFER, n, GL_DEPTH24_STENCIL8, width, height);
      glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, *depth);
    }
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      return "offscreen framebuffer of " + std::to_string(width) + "x" + std::to_string(height) + " is incomplete";
    }
    return std::nullopt;
  };
  std::optional<std::string> error = make(fbo_, color_, &depth_, samples);
  if (!error) error = make(resolve_fbo_, resolve_color_, nullptr, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (error) {
    release();
    return error;
  }
  width_ = width;
  height_ = height;
  return std::nullopt;
}

void Offscreen::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
}
void Offscreen::bind_default() {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

std::vector<std::uint8_t> Offscreen::read_rgb(bool top_first) {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_fbo_);
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolve_fbo_);
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(width_) * height_ * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (top_first) flip_rows(rgb, width_, height_);
  return rgb;
}

std::vector<std::uint8_t> read_window_rgb(int width, int height, bool top_first) {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(width) * height * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
  if (top_first) flip_rows(rgb, width, height);
  return rgb;
}

}  // namespace mocap::viewer
