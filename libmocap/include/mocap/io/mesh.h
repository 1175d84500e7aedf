// Triangle meshes for skinning: reading and writing Wavefront OBJ.
//
// A mesh keeps one vertex per OBJ `v` line, in file order, so that a vertex
// index means the same thing in the OBJ, in a skin weights file and in
// another tool (MakeHuman's weights, Blender's vertex order). Normals are one
// per vertex (smooth); texture coordinates stay face-varying, as OBJ stores
// them, so that seams survive a read and a write.
#pragma once

#include <mocap/core/error.h>

#include <Eigen/Core>
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mocap {

struct MeshTriangle {
  std::array<int, 3> vertex{};          // indices into Mesh::positions, counter-clockwise seen from outside
  std::array<int, 3> uv{{-1, -1, -1}};  // indices into Mesh::uvs, -1 when the corner has none
  int group = 0;                        // index into Mesh::group_names
};

struct Mesh {
  std::vector<Eigen::Vector3f> positions;  // metres
  std::vector<Eigen::Vector3f> normals;    // unit length, one per position
  std::vector<Eigen::Vector2f> uvs;        // texture coordinates (u, v) as in the file
  std::vector<MeshTriangle> triangles;
  // Distinct names of the OBJ's `g` (or `o`) blocks, in order of first
  // appearance; a name that comes back on a later `g` line is the same group.
  // Faces before any `g` belong to "default".
  std::vector<std::string> group_names;

  int vertex_count() const { return static_cast<int>(positions.size()); }
  // Index of group `name`, or -1.
  int find_group(std::string_view name) const;
  // The largest extent of the positions' bounding box, metres (0 for no
  // vertex): a person's height, whichever axis is up.
  double size() const;
};

struct ObjReadOptions {
  // Metres per OBJ unit: 1 for metres, 0.1 for decimetres (MakeHuman), 0.01
  // for centimetres. Positions are multiplied by it at load.
  double metres_per_unit = 1.0;

  // Fails (no file) unless metres_per_unit is finite and > 0.
  Result<void> validate() const;
};

// The units a mesh file's numbers may be in, by the name every front end
// takes (--mesh-units), with metres per unit: the one table of them.
struct MeshUnit {
  std::string_view name;
  double metres;
};
inline constexpr std::array<MeshUnit, 6> kMeshUnits = {{
    {"m", 1.0},
    {"dm", 0.1},  // MakeHuman exports
    {"cm", 0.01},
    {"mm", 0.001},
    {"in", 0.0254},
    {"ft", 0.3048},
}};

// Metres per `name` from kMeshUnits; the error (no file) lists the names.
Result<double> metres_per_mesh_unit(std::string_view name);
// The names of kMeshUnits in order, e.g. for a flag's list of choices.
std::vector<std::string> mesh_unit_names();

// Reads an OBJ file: `v` (x y z; a w or vertex colour is ignored), `vt`, `vn`,
// `f` with polygons of any size (fan-triangulated, which is exact for the
// convex quads of character meshes), `g`/`o` groups. Normals from `vn` are
// averaged per vertex; a file without `vn` gets area-weighted face normals
// (compute_normals). Fails with the file and, where tinyobjloader gives one,
// the line, when the file cannot be read, has no faces, or a face refers to
// a vertex the file does not have.
Result<Mesh> read_obj(const std::string& path, const ObjReadOptions& options = {});

// Sets `mesh.normals` to the area-weighted average of the normals of the
// triangles around each vertex (unit length; +Y for a vertex on no triangle).
void compute_normals(Mesh& mesh);

// The mesh restricted to the triangles of the named groups, with only the
// vertices they use, renumbered in their original order. `old_index` (when
// not null) receives, for each new vertex, its index in `mesh`. Fails with
// the name of a group the mesh does not have.
Result<Mesh> extract_groups(const Mesh& mesh, std::span<const std::string> names,
                            std::vector<int>* old_index = nullptr);

// The mesh with the vertices that share a position merged into one. Files
// split a surface at UV and normal seams (every glTF or FBX export does:
// a vertex per position and texture coordinate), so a walk over edges sees
// pieces; the welded surface is what such walks need. `index[v]` is vertex
// v's index in `mesh`, whose vertices keep the order of their first copy
// (a mesh without seams comes back unchanged); triangles that lose an edge
// to the merge are dropped; normals are recomputed.
struct WeldedMesh {
  Mesh mesh;
  std::vector<int> index;  // one per vertex of the source
};
WeldedMesh weld_by_position(const Mesh& mesh);

// Every edge of the mesh once, as (lower index, higher index), sorted.
std::vector<std::array<int, 2>> mesh_edges(const Mesh& mesh);

// The mesh as OBJ text with `positions` and `normals` (one per vertex, in
// metres; pass mesh.positions / mesh.normals for the mesh itself) written in
// file units (position / metres_per_unit), with the mesh's texture
// coordinates, groups and triangles. Numbers have 6 significant digits after
// scaling, enough for 1 micrometre on a 2 m body in metres.
std::string format_obj(const Mesh& mesh, std::span<const Eigen::Vector3f> positions,
                       std::span<const Eigen::Vector3f> normals, double metres_per_unit = 1.0);

// Appends format_obj to `out` (cleared first): per frame without reallocating
// once the string has grown to a frame's size.
void format_obj_into(std::string& out, const Mesh& mesh, std::span<const Eigen::Vector3f> positions,
                     std::span<const Eigen::Vector3f> normals, double metres_per_unit = 1.0);

}  // namespace mocap
