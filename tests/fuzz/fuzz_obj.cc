// libFuzzer target: OBJ text through our mesh reader (io/mesh.h, on
// tinyobjloader). Any bytes give a mesh or an error, never a crash. A mesh
// keeps its promises (faces index existing vertices, finite positions, unit
// normals, one per vertex), welded by position keeps them, and, written by
// format_obj and read again, has the same vertices and triangles.
#include <mocap/io/mesh.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// read_obj reads files: each input goes through one file of this process.
const std::string& scratch_path() {
  static const std::string path = "/tmp/mocap_fuzz_obj_" + std::to_string(::getpid()) + ".obj";
  return path;
}

bool write(const std::string& path, const void* data, std::size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(data, 1, size, f) == size;
  return std::fclose(f) == 0 && ok;
}

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_obj: %s\n", what);
  std::abort();
}

void check(const mocap::Mesh& mesh) {
  if (mesh.triangles.empty() || mesh.normals.size() != mesh.positions.size()) fail("no triangles or normals");
  for (const auto& p : mesh.positions) {
    if (!p.allFinite()) fail("a position is not finite");
  }
  for (const auto& n : mesh.normals) {
    if (!n.allFinite() || std::abs(n.norm() - 1.0f) > 1e-3f) fail("a normal is not of unit length");
  }
  for (const auto& t : mesh.triangles) {
    for (const int v : t.vertex) {
      if (v < 0 || v >= mesh.vertex_count()) fail("a triangle indexes no vertex");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (!write(scratch_path(), data, size)) return 0;
  const auto mesh = mocap::read_obj(scratch_path());
  if (!mesh) {
    if (mesh.error().message.empty()) fail("an error without a message");
    return 0;
  }
  check(*mesh);
  // Welded by position (what binding walks): every vertex lands on one at its
  // own position, and what is left is a mesh of the same promises.
  const mocap::WeldedMesh welded = mocap::weld_by_position(*mesh);
  if (welded.index.size() != mesh->positions.size()) fail("weld: an index per vertex");
  for (std::size_t v = 0; v < welded.index.size(); ++v) {
    const int w = welded.index[v];
    if (w < 0 || w >= welded.mesh.vertex_count() || welded.mesh.positions[w] != mesh->positions[v]) {
      fail("weld: a vertex moved");
    }
  }
  if (!welded.mesh.triangles.empty()) check(welded.mesh);
  // Positions beyond what 6 significant digits hold exactly are not compared;
  // the shape of the mesh is.
  const std::string text = mocap::format_obj(*mesh, mesh->positions, mesh->normals);
  if (!write(scratch_path(), text.data(), text.size())) return 0;
  const auto again = mocap::read_obj(scratch_path());
  if (!again) fail(("format_obj's text does not read back: " + again.error().to_string()).c_str());
  // Group names are not compared: tinyobjloader folds the white space inside
  // a `g` line, so a name like "a   b" comes back as another spelling.
  if (again->vertex_count() != mesh->vertex_count() || again->triangles.size() != mesh->triangles.size()) {
    fail("read back with other vertices or triangles");
  }
  return 0;
}
