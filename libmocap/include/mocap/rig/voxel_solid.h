// One solid from any mesh: the cells of a regular grid that lie inside the
// union of the mesh's parts, whatever the parts are (separate pieces,
// shells over a body, open or self-intersecting surfaces). The input of
// geodesic voxel binding (voxel_weights.h; Dionne and de Lasa 2013,
// "Geodesic voxel binding for production character meshes"), which needs a
// volume in which a distance can be walked, not a clean surface.
//
// The method, in order:
//  1. The grid: cubic cells of edge (tallest extent of the mesh's box) /
//     `resolution`, over the box padded by `closing` + 1.5 cells on every
//     side, so that the grid's border lies outside the mesh (and the box's
//     faces in the middle of cells).
//  2. Surface: every cell a triangle touches (triangle-box overlap by the
//     separating axis test, Akenine-Moller 2001).
//  3. Holes closed: the surface dilated by `closing` cells (a cube of
//     2 closing + 1 cells), so that a gap of up to about 2 closing cells in a
//     shell (an eye socket, the seam between two parts, a sleeve's cuff)
//     is a wall.
//  4. Outside: a flood fill from the grid's border through the cells the
//     dilated wall leaves free (6-connected).
//  5. The dilation undone: every cell within `closing` cells of the outside
//     (Chebyshev) that is not a surface cell becomes outside again, so the
//     solid is the morphological closing of the filled surface: the body
//     keeps its size and only the holes stay filled.
//  6. Everything not outside is solid: surface cells (step 2) and interior
//     cells. Parts that touch, overlap or lie inside one another are one
//     body; a part floating apart from the rest (a loose eye) is a solid of
//     its own (solid_components counts them).
// Cost: one pass over the triangles' cells plus a few passes over the grid;
// the grid is dims.prod() bytes (about 1 MB for a standing body at 192).
#pragma once

#include <mocap/core/error.h>
#include <mocap/io/mesh.h>

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace mocap {

enum class Voxel : std::uint8_t {
  kOutside = 0,
  kSurface = 1,   // a triangle touches the cell
  kInterior = 2,  // enclosed by the surface (after the closing)
};

struct VoxelSolid {
  Eigen::Vector3i dims = Eigen::Vector3i::Zero();    // cells per axis
  Eigen::Vector3f origin = Eigen::Vector3f::Zero();  // the low corner of cell (0, 0, 0), metres
  float cell = 0.0f;                                 // cell edge, metres (> 0)
  std::vector<Voxel> cells;                          // dims.prod(), x fastest: (z * dims.y + y) * dims.x + x

  // The cell holding `p` (floor of its grid coordinates); may lie off the grid.
  Eigen::Vector3i cell_of(const Eigen::Vector3f& p) const;
  bool in_grid(const Eigen::Vector3i& c) const;
  std::size_t index(const Eigen::Vector3i& c) const;  // c in the grid
  Eigen::Vector3i coordinates(std::size_t index) const;
  Eigen::Vector3f centre(const Eigen::Vector3i& c) const;  // metres
  // In the grid and not outside.
  bool solid(const Eigen::Vector3i& c) const;
  // Whether point `p` (metres) lies in a solid cell.
  bool contains(const Eigen::Vector3f& p) const;

  // Fails (no file) unless cell > 0, every dimension >= 1 and cells has
  // dims.prod() entries, each a Voxel value.
  Result<void> validate() const;
};

struct VoxelSolidOptions {
  int resolution = 192;  // cells along the mesh's tallest extent, 16..1024 (192: 8.7 mm cells on a 1.67 m body)
  int closing = 1;       // cells, 0..8: holes up to about 2 * closing cells wide are closed (step 3)

  // Fails (no file) when resolution or closing is out of range.
  Result<void> validate() const;
};

// The solid of `triangles` over `positions` (metres), as above. Fails (no
// file) when the options are invalid, there is no triangle, a triangle
// names a vertex `positions` lacks, or the mesh has no extent.
Result<VoxelSolid> voxelize(std::span<const Eigen::Vector3f> positions, std::span<const MeshTriangle> triangles,
                            const VoxelSolidOptions& options = {});
Result<VoxelSolid> voxelize(const Mesh& mesh, const VoxelSolidOptions& options = {});

// Cells per kind.
struct VoxelCounts {
  std::size_t outside = 0, surface = 0, interior = 0;
};
VoxelCounts count_voxels(const VoxelSolid& solid);

// The solid's volume, m^3: interior cells whole and surface cells half (a
// surface cell straddles the surface: about half of it is inside).
double solid_volume(const VoxelSolid& solid);

// How many pieces the solid is in: 26-connected components of its solid cells.
int solid_components(const VoxelSolid& solid);

}  // namespace mocap
