#include <mocap/rig/voxel_solid.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <string>

namespace mocap {

namespace {

using Vec3 = Eigen::Vector3d;

// Whether the triangle (v0, v1, v2), given relative to a box's centre,
// overlaps the box of half-size h: the 13 separating axes of Akenine-Moller
// ("Fast 3D triangle-box overlap testing", 2001): the box's 3 normals, the
// triangle's normal, and the 9 cross products of edges with box axes.
bool triangle_meets_box(const Vec3& v0, const Vec3& v1, const Vec3& v2, double h) {
  const Vec3 e[3] = {v1 - v0, v2 - v1, v0 - v2};
  const Vec3* v[3] = {&v0, &v1, &v2};
  // The 9 edge x axis tests: the axis a = unit_k x e.
  for (const Vec3& edge : e) {
    for (int k = 0; k < 3; ++k) {
      Vec3 axis = Vec3::Zero();
      axis[(k + 1) % 3] = -edge[(k + 2) % 3];
      axis[(k + 2) % 3] = edge[(k + 1) % 3];
      double lo = axis.dot(*v[0]), hi = lo;
      for (int i = 1; i < 3; ++i) {
        const double p = axis.dot(*v[i]);
        lo = std::min(lo, p);
        hi = std::max(hi, p);
      }
      const double radius = h * (std::abs(axis.x()) + std::abs(axis.y()) + std::abs(axis.z()));
      if (lo > radius || hi < -radius) return false;
    }
  }
  // The box's own axes: the triangle's bounding box against the box.
  for (int k = 0; k < 3; ++k) {
    if (std::min({v0[k], v1[k], v2[k]}) > h || std::max({v0[k], v1[k], v2[k]}) < -h) return false;
  }
  // The triangle's plane.
  const Vec3 normal = e[0].cross(e[1]);
  const double offset = normal.dot(v0);
  const double radius = h * (std::abs(normal.x()) + std::abs(normal.y()) + std::abs(normal.z()));
  return std::abs(offset) <= radius;
}

// Dilation of `mask` (0/1 per cell) by `r` cells in the Chebyshev metric:
// a cube of 2 r + 1 cells, as three passes of a 1-D running maximum.
void dilate(std::vector<std::uint8_t>& mask, const Eigen::Vector3i& dims, int r) {
  if (r <= 0) return;
  std::vector<std::uint8_t> line, out;
  const std::size_t strides[3] = {1, static_cast<std::size_t>(dims.x()),
                                  static_cast<std::size_t>(dims.x()) * static_cast<std::size_t>(dims.y())};
  for (int axis = 0; axis < 3; ++axis) {
    const int n = dims[axis];
    const int a = (axis + 1) % 3, b = (axis + 2) % 3;
    line.resize(static_cast<std::size_t>(n));
    out.resize(static_cast<std::size_t>(n));
    for (int j = 0; j < dims[b]; ++j) {
      for (int i = 0; i < dims[a]; ++i) {
        const std::size_t base = static_cast<std::size_t>(i) * strides[a] + static_cast<std::size_t>(j) * strides[b];
        for (int t = 0; t < n; ++t) line[t] = mask[base + static_cast<std::size_t>(t) * strides[axis]];
        // The last set cell within r before t or the next within r after it.
        int last = -r - 1;
        for (int t = 0; t < n; ++t) {
          if (line[t]) last = t;
          out[t] = t - last <= r ? 1 : 0;
        }
        int next = n + r + 1;
        for (int t = n - 1; t >= 0; --t) {
          if (line[t]) next = t;
          if (next - t <= r) out[t] = 1;
        }
        for (int t = 0; t < n; ++t) mask[base + static_cast<std::size_t>(t) * strides[axis]] = out[t];
      }
    }
  }
}

}  // namespace

Eigen::Vector3i VoxelSolid::cell_of(const Eigen::Vector3f& p) const {
  return ((p - origin) / cell).array().floor().cast<int>();
}

bool VoxelSolid::in_grid(const Eigen::Vector3i& c) const {
  return (c.array() >= 0).all() && (c.array() < dims.array()).all();
}

std::size_t VoxelSolid::index(const Eigen::Vector3i& c) const {
  return (static_cast<std::size_t>(c.z()) * static_cast<std::size_t>(dims.y()) + static_cast<std::size_t>(c.y())) *
             static_cast<std::size_t>(dims.x()) +
         static_cast<std::size_t>(c.x());
}

Eigen::Vector3i VoxelSolid::coordinates(std::size_t i) const {
  const std::size_t nx = static_cast<std::size_t>(dims.x()), ny = static_cast<std::size_t>(dims.y());
  return {static_cast<int>(i % nx), static_cast<int>((i / nx) % ny), static_cast<int>(i / (nx * ny))};
}

Eigen::Vector3f VoxelSolid::centre(const Eigen::Vector3i& c) const {
  return origin + (c.cast<float>().array() + 0.5f).matrix() * cell;
}

bool VoxelSolid::solid(const Eigen::Vector3i& c) const {
  return in_grid(c) && cells[index(c)] != Voxel::kOutside;
}

bool VoxelSolid::contains(const Eigen::Vector3f& p) const {
  return solid(cell_of(p));
}

Result<void> VoxelSolid::validate() const {
  if (!(cell > 0.0f) || !std::isfinite(cell)) return fail("", 0, "voxel solid: cell edge must be > 0 metres");
  if ((dims.array() < 1).any()) return fail("", 0, "voxel solid: every dimension must be >= 1 cell");
  const std::size_t n =
      static_cast<std::size_t>(dims.x()) * static_cast<std::size_t>(dims.y()) * static_cast<std::size_t>(dims.z());
  if (cells.size() != n) {
    return fail("", 0,
                "voxel solid: " + std::to_string(cells.size()) + " cells for a grid of " + std::to_string(n) +
                    ": expected one byte per cell");
  }
  for (const Voxel v : cells) {
    if (static_cast<std::uint8_t>(v) > static_cast<std::uint8_t>(Voxel::kInterior)) {
      return fail("", 0, "voxel solid: a cell is neither outside, surface nor interior");
    }
  }
  return {};
}

Result<void> VoxelSolidOptions::validate() const {
  if (resolution < 16 || resolution > 1024) {
    return fail("", 0, "voxel resolution " + std::to_string(resolution) + ": expected 16 to 1024 cells");
  }
  if (closing < 0 || closing > 8) {
    return fail("", 0, "voxel closing " + std::to_string(closing) + ": expected 0 to 8 cells");
  }
  return {};
}

Result<VoxelSolid> voxelize(std::span<const Eigen::Vector3f> positions, std::span<const MeshTriangle> triangles,
                            const VoxelSolidOptions& options) {
  if (auto valid = options.validate(); !valid) return std::unexpected(valid.error());
  if (triangles.empty()) return fail("", 0, "voxelize: no triangle: expected a mesh with faces");
  Eigen::AlignedBox3f box;
  for (const MeshTriangle& t : triangles) {
    for (const int v : t.vertex) {
      if (v < 0 || v >= static_cast<int>(positions.size())) {
        return fail(
            "", 0,
            "voxelize: a triangle names vertex " + std::to_string(v) + " of " + std::to_string(positions.size()));
      }
      box.extend(positions[static_cast<std::size_t>(v)]);
    }
  }
  const float extent = box.sizes().maxCoeff();
  if (!(extent > 0.0f) || !std::isfinite(extent)) return fail("", 0, "voxelize: the mesh has no extent");

  // 1. The grid.
  VoxelSolid solid;
  solid.cell = extent / static_cast<float>(options.resolution);
  // Half a cell more below, so that the faces of a box-shaped mesh fall in
  // the middle of cells, not on the lines between them.
  const int pad = options.closing + 1;
  solid.origin = box.min() - Eigen::Vector3f::Constant((static_cast<float>(pad) + 0.5f) * solid.cell);
  for (int k = 0; k < 3; ++k) {
    solid.dims[k] = static_cast<int>(std::ceil(box.sizes()[k] / solid.cell + 1.0f)) + 2 * pad;
  }
  const std::size_t n = static_cast<std::size_t>(solid.dims.prod());

  // 2. Surface cells.
  std::vector<std::uint8_t> surface(n, 0);
  const double h = 0.5 * solid.cell;
  for (const MeshTriangle& t : triangles) {
    const Eigen::Vector3f& a = positions[static_cast<std::size_t>(t.vertex[0])];
    const Eigen::Vector3f& b = positions[static_cast<std::size_t>(t.vertex[1])];
    const Eigen::Vector3f& c = positions[static_cast<std::size_t>(t.vertex[2])];
    const Eigen::Vector3i lo = solid.cell_of(a.cwiseMin(b).cwiseMin(c)).cwiseMax(0);
    const Eigen::Vector3i hi = solid.cell_of(a.cwiseMax(b).cwiseMax(c)).cwiseMin(solid.dims - Eigen::Vector3i::Ones());
    for (int z = lo.z(); z <= hi.z(); ++z) {
      for (int y = lo.y(); y <= hi.y(); ++y) {
        for (int x = lo.x(); x <= hi.x(); ++x) {
          const Eigen::Vector3i cell(x, y, z);
          const std::size_t i = solid.index(cell);
          if (surface[i]) continue;
          const Vec3 centre = solid.centre(cell).cast<double>();
          if (triangle_meets_box(a.cast<double>() - centre, b.cast<double>() - centre, c.cast<double>() - centre, h)) {
            surface[i] = 1;
          }
        }
      }
    }
  }

  // 3. The wall: the surface dilated.
  std::vector<std::uint8_t> wall = surface;
  dilate(wall, solid.dims, options.closing);

  // 4. Outside: flood fill from the border, 6-connected, through free cells.
  std::vector<std::uint8_t> outside(n, 0);
  std::vector<std::size_t> stack;
  auto visit = [&](const Eigen::Vector3i& c) {
    const std::size_t i = solid.index(c);
    if (wall[i] || outside[i]) return;
    outside[i] = 1;
    stack.push_back(i);
  };
  for (int z = 0; z < solid.dims.z(); ++z) {
    for (int y = 0; y < solid.dims.y(); ++y) {
      for (int x = 0; x < solid.dims.x(); ++x) {
        const bool border =
            x == 0 || y == 0 || z == 0 || x == solid.dims.x() - 1 || y == solid.dims.y() - 1 || z == solid.dims.z() - 1;
        if (border) visit({x, y, z});
      }
    }
  }
  while (!stack.empty()) {
    const Eigen::Vector3i c = solid.coordinates(stack.back());
    stack.pop_back();
    for (int k = 0; k < 3; ++k) {
      for (const int step : {-1, 1}) {
        Eigen::Vector3i d = c;
        d[k] += step;
        if (solid.in_grid(d)) visit(d);
      }
    }
  }

  // 5. The dilation undone: the outside grown back by the same cube.
  dilate(outside, solid.dims, options.closing);

  // 6. The cells' kinds.
  solid.cells.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    solid.cells[i] = surface[i] ? Voxel::kSurface : outside[i] ? Voxel::kOutside : Voxel::kInterior;
  }
  return solid;
}

Result<VoxelSolid> voxelize(const Mesh& mesh, const VoxelSolidOptions& options) {
  return voxelize(mesh.positions, mesh.triangles, options);
}

VoxelCounts count_voxels(const VoxelSolid& solid) {
  VoxelCounts counts;
  for (const Voxel v : solid.cells) {
    if (v == Voxel::kOutside) ++counts.outside;
    if (v == Voxel::kSurface) ++counts.surface;
    if (v == Voxel::kInterior) ++counts.interior;
  }
  return counts;
}

double solid_volume(const VoxelSolid& solid) {
  const VoxelCounts counts = count_voxels(solid);
  const double cell = static_cast<double>(solid.cell);
  return (static_cast<double>(counts.interior) + 0.5 * static_cast<double>(counts.surface)) * cell * cell * cell;
}

int solid_components(const VoxelSolid& solid) {
  std::vector<std::uint8_t> seen(solid.cells.size(), 0);
  std::vector<std::size_t> stack;
  int components = 0;
  for (std::size_t start = 0; start < solid.cells.size(); ++start) {
    if (seen[start] || solid.cells[start] == Voxel::kOutside) continue;
    ++components;
    seen[start] = 1;
    stack.push_back(start);
    while (!stack.empty()) {
      const Eigen::Vector3i c = solid.coordinates(stack.back());
      stack.pop_back();
      for (int dz = -1; dz <= 1; ++dz) {
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            const Eigen::Vector3i d = c + Eigen::Vector3i(dx, dy, dz);
            if (!solid.solid(d)) continue;
            const std::size_t i = solid.index(d);
            if (seen[i]) continue;
            seen[i] = 1;
            stack.push_back(i);
          }
        }
      }
    }
  }
  return components;
}

}  // namespace mocap
