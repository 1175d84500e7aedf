#include <mocap/io/mesh.h>

#include <tiny_obj_loader.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace mocap {

int Mesh::find_group(std::string_view name) const {
  for (std::size_t g = 0; g < group_names.size(); ++g) {
    if (group_names[g] == name) return static_cast<int>(g);
  }
  return -1;
}

double Mesh::size() const {
  if (positions.empty()) return 0.0;
  Eigen::AlignedBox3f box;
  for (const Eigen::Vector3f& p : positions) box.extend(p);
  return box.sizes().maxCoeff();
}

namespace {

// tinyobjloader's messages end in newlines and may hold several lines.
std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

}  // namespace

Result<void> ObjReadOptions::validate() const {
  if (!(std::isfinite(metres_per_unit) && metres_per_unit > 0.0)) {
    return fail("", 0, "metres per unit must be positive");
  }
  return {};
}

Result<Mesh> read_obj(const std::string& path, const ObjReadOptions& options) {
  if (auto valid = options.validate(); !valid) return fail(path, 0, valid.error().message);
  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.vertex_color = false;
  config.mtl_search_path = "";
  tinyobj::ObjReader reader;
  if (!reader.ParseFromFile(path, config) || !reader.Error().empty()) {
    std::string message = first_line(reader.Error());
    return fail(path, 0, message.empty() ? "cannot read OBJ" : message);
  }
  const tinyobj::attrib_t& attrib = reader.GetAttrib();
  Mesh mesh;
  const std::size_t vertex_count = attrib.vertices.size() / 3;
  const float scale = static_cast<float>(options.metres_per_unit);
  mesh.positions.reserve(vertex_count);
  for (std::size_t v = 0; v < vertex_count; ++v) {
    mesh.positions.emplace_back(attrib.vertices[3 * v] * scale, attrib.vertices[3 * v + 1] * scale,
                                attrib.vertices[3 * v + 2] * scale);
  }
  // tinyobjloader reads "1e999" and "nan" as numbers; a mesh has none.
  for (std::size_t v = 0; v < vertex_count; ++v) {
    if (!mesh.positions[v].allFinite()) {
      return fail(path, 0, "vertex " + std::to_string(v + 1) + " (its `v` line) is not a finite position in metres");
    }
  }
  for (std::size_t i = 0; i < attrib.normals.size(); ++i) {
    if (!std::isfinite(attrib.normals[i])) {
      return fail(path, 0, "normal " + std::to_string(i / 3 + 1) + " (its `vn` line) is not finite");
    }
  }
  for (std::size_t i = 0; i < attrib.texcoords.size(); ++i) {
    if (!std::isfinite(attrib.texcoords[i])) {
      return fail(path, 0, "texture coordinate " + std::to_string(i / 2 + 1) + " (its `vt` line) is not finite");
    }
  }
  const std::size_t uv_count = attrib.texcoords.size() / 2;
  mesh.uvs.reserve(uv_count);
  for (std::size_t t = 0; t < uv_count; ++t)
    mesh.uvs.emplace_back(attrib.texcoords[2 * t], attrib.texcoords[2 * t + 1]);

  std::vector<Eigen::Vector3d> file_normal_sum(vertex_count, Eigen::Vector3d::Zero());
  bool has_file_normals = !attrib.normals.empty();
  const std::size_t normal_count = attrib.normals.size() / 3;
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    if (shape.mesh.indices.empty()) continue;
    int group = mesh.find_group(shape.name.empty() ? "default" : shape.name);
    if (group < 0) {
      group = static_cast<int>(mesh.group_names.size());
      mesh.group_names.push_back(shape.name.empty() ? "default" : shape.name);
    }
    const auto& indices = shape.mesh.indices;
    for (std::size_t corner = 0; corner + 2 < indices.size(); corner += 3) {
      MeshTriangle triangle;
      triangle.group = group;
      for (int k = 0; k < 3; ++k) {
        const tinyobj::index_t& index = indices[corner + k];
        if (index.vertex_index < 0 || static_cast<std::size_t>(index.vertex_index) >= vertex_count) {
          return fail(path, 0,
                      "face in group " + shape.name + " refers to vertex " + std::to_string(index.vertex_index + 1) +
                          " of " + std::to_string(vertex_count));
        }
        triangle.vertex[k] = index.vertex_index;
        if (index.texcoord_index >= 0 && static_cast<std::size_t>(index.texcoord_index) < uv_count) {
          triangle.uv[k] = index.texcoord_index;
        }
        if (index.normal_index >= 0 && static_cast<std::size_t>(index.normal_index) < normal_count) {
          const std::size_t n = static_cast<std::size_t>(index.normal_index);
          file_normal_sum[index.vertex_index] +=
              Eigen::Vector3d(attrib.normals[3 * n], attrib.normals[3 * n + 1], attrib.normals[3 * n + 2]);
        } else {
          has_file_normals = false;
        }
      }
      mesh.triangles.push_back(triangle);
    }
  }
  if (mesh.triangles.empty()) return fail(path, 0, "no faces: expected `f` lines");
  if (has_file_normals) {
    mesh.normals.resize(vertex_count);
    for (std::size_t v = 0; v < vertex_count; ++v) {
      const double n = file_normal_sum[v].norm();
      mesh.normals[v] = n > 0.0 ? Eigen::Vector3f((file_normal_sum[v] / n).cast<float>()) : Eigen::Vector3f::UnitY();
    }
  } else {
    compute_normals(mesh);
  }
  return mesh;
}

void compute_normals(Mesh& mesh) {
  // In double: a float cross product of coordinates past 1e19 overflows (a
  // fuzz finding: a vertex at 8.9e37 gave normals of length 0).
  std::vector<Eigen::Vector3d> sum(mesh.positions.size(), Eigen::Vector3d::Zero());
  for (const MeshTriangle& t : mesh.triangles) {
    const Eigen::Vector3d a = mesh.positions[t.vertex[0]].cast<double>();
    // The cross product's length is twice the area: area weighting for free.
    const Eigen::Vector3d n =
        (mesh.positions[t.vertex[1]].cast<double>() - a).cross(mesh.positions[t.vertex[2]].cast<double>() - a);
    for (const int v : t.vertex) sum[v] += n;
  }
  mesh.normals.resize(mesh.positions.size());
  for (std::size_t v = 0; v < sum.size(); ++v) {
    const double length = sum[v].norm();
    mesh.normals[v] = length > 0.0 && std::isfinite(length) ? Eigen::Vector3f((sum[v] / length).cast<float>())
                                                            : Eigen::Vector3f::UnitY();
  }
}

Result<Mesh> extract_groups(const Mesh& mesh, std::span<const std::string> names, std::vector<int>* old_index) {
  std::vector<int> new_group(mesh.group_names.size(), -1);
  Mesh out;
  for (const std::string& name : names) {
    const int g = mesh.find_group(name);
    if (g < 0) return fail("", 0, "the mesh has no group " + name);
    if (new_group[g] < 0) {
      new_group[g] = static_cast<int>(out.group_names.size());
      out.group_names.push_back(name);
    }
  }
  std::vector<int> new_vertex(mesh.positions.size(), -1);
  std::vector<int> new_uv(mesh.uvs.size(), -1);
  for (const MeshTriangle& t : mesh.triangles) {
    if (new_group[t.group] < 0) continue;
    for (int k = 0; k < 3; ++k) {
      new_vertex[t.vertex[k]] = 0;
      if (t.uv[k] >= 0) new_uv[t.uv[k]] = 0;
    }
  }
  std::vector<int> kept;
  for (std::size_t v = 0; v < new_vertex.size(); ++v) {
    if (new_vertex[v] < 0) continue;
    new_vertex[v] = static_cast<int>(out.positions.size());
    out.positions.push_back(mesh.positions[v]);
    if (!mesh.normals.empty()) out.normals.push_back(mesh.normals[v]);
    kept.push_back(static_cast<int>(v));
  }
  for (std::size_t t = 0; t < new_uv.size(); ++t) {
    if (new_uv[t] < 0) continue;
    new_uv[t] = static_cast<int>(out.uvs.size());
    out.uvs.push_back(mesh.uvs[t]);
  }
  for (const MeshTriangle& t : mesh.triangles) {
    if (new_group[t.group] < 0) continue;
    MeshTriangle n;
    n.group = new_group[t.group];
    for (int k = 0; k < 3; ++k) {
      n.vertex[k] = new_vertex[t.vertex[k]];
      n.uv[k] = t.uv[k] >= 0 ? new_uv[t.uv[k]] : -1;
    }
    out.triangles.push_back(n);
  }
  if (old_index) *old_index = std::move(kept);
  return out;
}

WeldedMesh weld_by_position(const Mesh& mesh) {
  struct PositionHash {
    std::size_t operator()(const Eigen::Vector3f& p) const {
      std::size_t h = 0;
      for (int k = 0; k < 3; ++k) {
        const float c = p[k] == 0.0f ? 0.0f : p[k];  // -0 and +0 are one position
        std::uint32_t bits;
        std::memcpy(&bits, &c, sizeof bits);
        h = h * 0x9E3779B97F4A7C15ull + bits;
      }
      return h;
    }
  };
  WeldedMesh out;
  out.index.resize(mesh.positions.size());
  std::unordered_map<Eigen::Vector3f, int, PositionHash> first;
  first.reserve(mesh.positions.size());
  for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
    const auto [at, added] = first.try_emplace(mesh.positions[v], static_cast<int>(out.mesh.positions.size()));
    if (added) out.mesh.positions.push_back(mesh.positions[v]);
    out.index[v] = at->second;
  }
  out.mesh.uvs = mesh.uvs;
  out.mesh.group_names = mesh.group_names;
  out.mesh.triangles.reserve(mesh.triangles.size());
  for (MeshTriangle t : mesh.triangles) {
    for (int& v : t.vertex) v = out.index[static_cast<std::size_t>(v)];
    if (t.vertex[0] != t.vertex[1] && t.vertex[1] != t.vertex[2] && t.vertex[2] != t.vertex[0]) {
      out.mesh.triangles.push_back(t);
    }
  }
  if (out.mesh.positions.size() == mesh.positions.size() && out.mesh.triangles.size() == mesh.triangles.size()) {
    out.mesh.normals = mesh.normals;  // nothing merged: the same mesh
  } else {
    compute_normals(out.mesh);
  }
  return out;
}

std::vector<std::array<int, 2>> mesh_edges(const Mesh& mesh) {
  std::vector<std::array<int, 2>> edges;
  edges.reserve(mesh.triangles.size() * 3);
  for (const MeshTriangle& t : mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      const int a = t.vertex[k];
      const int b = t.vertex[(k + 1) % 3];
      if (a != b) edges.push_back({std::min(a, b), std::max(a, b)});
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

namespace {

void append_number(std::string& out, float value) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 6);
  out.append(buffer, end);
}

void append_int(std::string& out, int value) {
  char buffer[16];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, end);
}

}  // namespace

void format_obj_into(std::string& out, const Mesh& mesh, std::span<const Eigen::Vector3f> positions,
                     std::span<const Eigen::Vector3f> normals, double metres_per_unit) {
  out.clear();
  out += "# written by mocap\n";
  const float units_per_metre = static_cast<float>(1.0 / metres_per_unit);
  for (const Eigen::Vector3f& p : positions) {
    out += "v";
    for (int i = 0; i < 3; ++i) {
      out += ' ';
      append_number(out, p[i] * units_per_metre);
    }
    out += '\n';
  }
  for (const Eigen::Vector2f& t : mesh.uvs) {
    out += "vt ";
    append_number(out, t.x());
    out += ' ';
    append_number(out, t.y());
    out += '\n';
  }
  for (const Eigen::Vector3f& n : normals) {
    out += "vn";
    for (int i = 0; i < 3; ++i) {
      out += ' ';
      append_number(out, n[i]);
    }
    out += '\n';
  }
  const bool with_normals = !normals.empty();
  int group = -1;
  for (const MeshTriangle& t : mesh.triangles) {
    if (t.group != group) {
      group = t.group;
      out += "g ";
      out += mesh.group_names[group];
      out += '\n';
    }
    out += 'f';
    for (int k = 0; k < 3; ++k) {
      out += ' ';
      append_int(out, t.vertex[k] + 1);
      if (t.uv[k] >= 0 || with_normals) out += '/';
      if (t.uv[k] >= 0) append_int(out, t.uv[k] + 1);
      if (with_normals) {
        out += '/';
        append_int(out, t.vertex[k] + 1);
      }
    }
    out += '\n';
  }
}

std::string format_obj(const Mesh& mesh, std::span<const Eigen::Vector3f> positions,
                       std::span<const Eigen::Vector3f> normals, double metres_per_unit) {
  std::string out;
  format_obj_into(out, mesh, positions, normals, metres_per_unit);
  return out;
}

Result<double> metres_per_mesh_unit(std::string_view name) {
  for (const MeshUnit& unit : kMeshUnits) {
    if (unit.name == name) return unit.metres;
  }
  std::string names;
  for (const MeshUnit& unit : kMeshUnits) names += (names.empty() ? "" : ", ") + std::string(unit.name);
  return fail("", 0, "mesh unit '" + std::string(name) + "': expected one of " + names);
}

std::vector<std::string> mesh_unit_names() {
  std::vector<std::string> names;
  for (const MeshUnit& unit : kMeshUnits) names.emplace_back(unit.name);
  return names;
}

}  // namespace mocap
