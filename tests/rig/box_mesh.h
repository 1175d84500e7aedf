// Closed boxes made of quads, for the rig tests' shapes.
#pragma once

#include <mocap/io/mesh.h>

#include <Eigen/Core>

namespace mocap::test {

// Appends an axis-aligned box to `mesh`, each face an n x n grid of quads
// wound counter-clockwise from outside (`flip`: from inside); `open_faces`
// (bit k: face k of -x, +x, -y, +y, -z, +z) are left out, and quads (i, j)
// of face 5 with hole_lo <= i, j < hole_hi too (a square hole).
inline void add_box(Mesh& mesh, const Eigen::Vector3f& lo, const Eigen::Vector3f& hi, int n, int open_faces = 0,
                    int hole_lo = 0, int hole_hi = 0) {
  for (int face = 0; face < 6; ++face) {
    if (open_faces & (1 << face)) continue;
    const int axis = face / 2;
    const bool high = face % 2 == 1;
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    const int first = mesh.vertex_count();
    for (int j = 0; j <= n; ++j) {
      for (int i = 0; i <= n; ++i) {
        Eigen::Vector3f p;
        p[axis] = high ? hi[axis] : lo[axis];
        p[u] = lo[u] + (hi[u] - lo[u]) * static_cast<float>(i) / static_cast<float>(n);
        p[v] = lo[v] + (hi[v] - lo[v]) * static_cast<float>(j) / static_cast<float>(n);
        mesh.positions.push_back(p);
      }
    }
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        if (face == 5 && i >= hole_lo && i < hole_hi && j >= hole_lo && j < hole_hi) continue;
        const int a = first + j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
        // u x v points along +axis: (a, b, c) counter-clockwise seen from +axis.
        if (high) {
          mesh.triangles.push_back({{a, b, c}});
          mesh.triangles.push_back({{a, c, d}});
        } else {
          mesh.triangles.push_back({{a, c, b}});
          mesh.triangles.push_back({{a, d, c}});
        }
      }
    }
  }
  compute_normals(mesh);
}

}  // namespace mocap::test
