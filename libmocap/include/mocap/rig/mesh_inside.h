// Where a point is against a closed (or nearly closed) triangle surface:
// inside or outside, and how far from the surface.
//
// Inside means a generalized winding number above 1/2 (Jacobson et al. 2013,
// "Robust inside-outside segmentation using generalized winding numbers"):
// the sum over triangles of the solid angle each subtends at the point,
// over 4 pi. It is 1 inside and 0 outside a closed, consistently wound
// surface and degrades gracefully where the surface has holes (a body
// mesh's eye sockets and mouth) or small self-intersections, where a ray
// parity test flips. Triangles are wound counter-clockwise seen from
// outside (io/mesh.h). Cost: one pass over the triangles per query.
#pragma once

#include <mocap/io/mesh.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <span>

namespace mocap {

// The generalized winding number of `triangles` (over `positions`, metres)
// at `point`: about 1 inside, 0 outside.
double winding_number(std::span<const Eigen::Vector3f> positions, std::span<const MeshTriangle> triangles,
                      const Eigen::Vector3d& point);

// Distance from `point` to the nearest point of the surface, metres (>= 0),
// and that point. `triangle` is its triangle's index, -1 for no triangle.
struct SurfacePoint {
  double distance = 0.0;
  Eigen::Vector3d closest = Eigen::Vector3d::Zero();
  int triangle = -1;
};
SurfacePoint closest_surface_point(std::span<const Eigen::Vector3f> positions, std::span<const MeshTriangle> triangles,
                                   const Eigen::Vector3d& point);

// The distance to the surface, negative inside (winding number > 1/2),
// metres.
double signed_distance(std::span<const Eigen::Vector3f> positions, std::span<const MeshTriangle> triangles,
                       const Eigen::Vector3d& point);

// The same on a mesh's own positions.
double winding_number(const Mesh& mesh, const Eigen::Vector3d& point);
double signed_distance(const Mesh& mesh, const Eigen::Vector3d& point);

}  // namespace mocap
