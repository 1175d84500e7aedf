#include <mocap/rig/mesh_inside.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace mocap {

namespace {

// The point of triangle abc nearest p (Ericson, Real-Time Collision
// Detection, 5.1.5: by the Voronoi region of p).
Eigen::Vector3d closest_on_triangle(const Eigen::Vector3d& p, const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                    const Eigen::Vector3d& c) {
  const Eigen::Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Eigen::Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + (d1 / (d1 - d3)) * ab;
  const Eigen::Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const double denominator = va + vb + vc;
  if (!(denominator > 0.0)) return a;  // a degenerate triangle: its corner will do
  return a + ab * (vb / denominator) + ac * (vc / denominator);
}

}  // namespace

double winding_number(std::span<const Eigen::Vector3f> positions, std::span<const MeshTriangle> triangles,
                      const Eigen::Vector3d& point) {
  double total = 0.0;
  for (const MeshTriangle& t : triangles) {
    const Eigen::Vector3d a = positions[t.vertex[0]].cast<double>() - point;
    const Eigen::Vector3d b = positions[t.vertex[1]].cast<double>() - point;
    const Eigen::Vector3d c = positions[t.vertex[2]].cast<double>() - point;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    // Van Oosterom and Strackee: tan(omega / 2) = det / denominator.
    const double det = a.dot(b.cross(c));
    const double denominator = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
    total += 2.0 * std::atan2(det, denominator);
  }
  return total / (4.0 * std::numbers::pi);
}

SurfacePoint closest_surface_point(std::span<const Eigen::Vector3f> positions, std::span<const MeshTriangle> triangles,
                                   const Eigen::Vector3d& point) {
  SurfacePoint best;
  best.distance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const MeshTriangle& t = triangles[i];
    const Eigen::Vector3d q =
        closest_on_triangle(point, positions[t.vertex[0]].cast<double>(), positions[t.vertex[1]].cast<double>(),
                            positions[t.vertex[2]].cast<double>());
    const double d = (q - point).norm();
    if (d < best.distance) {
      best.distance = d;
      best.closest = q;
      best.triangle = static_cast<int>(i);
    }
  }
  return best;
}

double signed_distance(std::span<const Eigen::Vector3f> positions, std::span<const MeshTriangle> triangles,
                       const Eigen::Vector3d& point) {
  const double d = closest_surface_point(positions, triangles, point).distance;
  return winding_number(positions, triangles, point) > 0.5 ? -d : d;
}

double winding_number(const Mesh& mesh, const Eigen::Vector3d& point) {
  return winding_number(mesh.positions, mesh.triangles, point);
}

double signed_distance(const Mesh& mesh, const Eigen::Vector3d& point) {
  return signed_distance(mesh.positions, mesh.triangles, point);
}

}  // namespace mocap
