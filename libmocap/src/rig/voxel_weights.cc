#include <mocap/rig/auto_weights.h>
#include <mocap/rig/voxel_weights.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <queue>

namespace mocap {

namespace {

constexpr int kLabels = kMaxInfluences;  // nearest bones kept per cell
constexpr float kInfinity = std::numeric_limits<float>::infinity();

float distance_to_segment(const Eigen::Vector3f& p, const BoneSegment& s) {
  const Eigen::Vector3f d = s.end - s.start;
  const float length2 = d.squaredNorm();
  const float t = length2 > 0.0f ? std::clamp((p - s.start).dot(d) / length2, 0.0f, 1.0f) : 0.0f;
  return (p - (s.start + t * d)).norm();
}

int nearest_bone(const Eigen::Vector3f& p, std::span<const BoneSegment> bones) {
  int best = -1;
  float best_distance = kInfinity;
  for (std::size_t b = 0; b < bones.size(); ++b) {
    if (!bones[b].deforms) continue;
    const float d = distance_to_segment(p, bones[b]);
    if (d < best_distance) best_distance = d, best = static_cast<int>(b);
  }
  return best;
}

// The 26 neighbour offsets and their lengths in cells.
struct Neighbours {
  std::array<Eigen::Vector3i, 26> offset;
  std::array<float, 26> length;
  Neighbours() {
    int k = 0;
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx == 0 && dy == 0 && dz == 0) continue;
          offset[k] = {dx, dy, dz};
          length[k] = std::sqrt(static_cast<float>(dx * dx + dy * dy + dz * dz));
          ++k;
        }
  }
};

// Per labelled cell (solid cells, and seeds outside the solid): up to
// kLabels (bone, geodesic distance in metres), nearest first.
struct Labels {
  std::vector<int> compact;  // per grid cell: its row, -1 for none
  std::vector<std::uint16_t> bone;
  std::vector<float> distance;
  std::vector<std::uint8_t> count;

  int row(std::size_t cell) const { return compact[cell]; }
  bool has(int r, int b) const {
    for (int k = 0; k < count[r]; ++k)
      if (bone[static_cast<std::size_t>(r) * kLabels + k] == b) return true;
    return false;
  }
};

struct Candidate {
  float distance;
  int row;
  std::uint16_t bone;
  bool operator>(const Candidate& o) const {
    if (distance != o.distance) return distance > o.distance;
    if (row != o.row) return row > o.row;
    return bone > o.bone;
  }
};

// Union-find over the triangles: each vertex's piece of the mesh.
std::vector<int> mesh_parts(const Mesh& mesh, int& parts) {
  const int n = mesh.vertex_count();
  std::vector<int> parent(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  std::vector<std::uint8_t> used(static_cast<std::size_t>(n), 0);
  for (const MeshTriangle& t : mesh.triangles) {
    for (const int v : t.vertex) used[v] = 1;
    const int a = find(t.vertex[0]);
    for (int k = 1; k < 3; ++k) {
      const int b = find(t.vertex[k]);
      if (a != b) parent[b] = a;
    }
  }
  std::vector<int> part(static_cast<std::size_t>(n), -1), id(static_cast<std::size_t>(n), -1);
  parts = 0;
  for (int v = 0; v < n; ++v) {
    if (!used[v]) continue;  // on no triangle: no part, never a contact
    const int root = find(v);
    if (id[root] < 0) id[root] = parts++;
    part[v] = id[root];
  }
  return part;
}

}  // namespace

Result<void> VoxelWeightOptions::validate() const {
  if (auto valid = solid.validate(); !valid) return valid;
  if (!(falloff >= 0.0f && falloff <= 1.0f)) return fail("", 0, "voxel weights: falloff must be in [0, 1]");
  // Below 1 / kMaxInfluences the largest share always stays.
  if (!(min_weight >= 0.0f && min_weight < 0.25f)) return fail("", 0, "voxel weights: min_weight must be in [0, 0.25)");
  if (smoothing_iterations < 0) return fail("", 0, "voxel weights: smoothing_iterations must be >= 0");
  if (!(smoothing > 0.0f && smoothing <= 1.0f)) return fail("", 0, "voxel weights: smoothing must be in (0, 1]");
  return {};
}

Result<VoxelBinding> voxel_weights(const Mesh& mesh, std::span<const BoneSegment> bones,
                                   const VoxelWeightOptions& options) {
  if (auto valid = options.validate(); !valid) return std::unexpected(valid.error());
  VoxelBinding out;
  // 1. The solid.
  Result<VoxelSolid> made = voxelize(mesh, options.solid);
  if (!made) return std::unexpected(made.error());
  out.solid = std::move(*made);
  const VoxelSolid& solid = out.solid;
  const float cell = solid.cell;

  // 2. Seeds: (grid cell, bone, distance).
  struct Seed {
    std::size_t cell;
    int bone;
    float distance;
  };
  std::vector<Seed> seeds;
  for (std::size_t b = 0; b < bones.size(); ++b) {
    const BoneSegment& s = bones[b];
    if (!s.deforms) continue;
    const int samples = std::max(2, static_cast<int>(std::ceil(4.0f * (s.end - s.start).norm() / cell)) + 1);
    bool touches = false;
    std::size_t last = std::numeric_limits<std::size_t>::max();
    for (int i = 0; i < samples; ++i) {
      const float t = static_cast<float>(i) / static_cast<float>(samples - 1);
      const Eigen::Vector3i c = solid.cell_of(s.start + t * (s.end - s.start));
      if (!solid.in_grid(c)) continue;
      const std::size_t index = solid.index(c);
      if (index == last) continue;
      last = index;
      touches = touches || solid.cells[index] != Voxel::kOutside;
      seeds.push_back({index, static_cast<int>(b), distance_to_segment(solid.centre(c), s)});
    }
    if (!touches) {
      // Not a seed at all: a bone in the air would pull the cells it passes.
      while (!seeds.empty() && seeds.back().bone == static_cast<int>(b)) seeds.pop_back();
      out.untouched_bones.push_back(static_cast<int>(b));
    }
  }
  for (const RigidPart& part : options.rigid_parts) {
    if (part.bone < 0 || part.bone >= static_cast<int>(bones.size()) || !bones[part.bone].deforms) continue;
    if (std::find(out.untouched_bones.begin(), out.untouched_bones.end(), part.bone) != out.untouched_bones.end())
      continue;
    const Eigen::Vector3i lo = solid.cell_of(part.point - Eigen::Vector3f::Constant(part.radius)).cwiseMax(0);
    const Eigen::Vector3i hi = solid.cell_of(part.point + Eigen::Vector3f::Constant(part.radius))
                                   .cwiseMin(solid.dims - Eigen::Vector3i::Ones());
    for (int z = lo.z(); z <= hi.z(); ++z)
      for (int y = lo.y(); y <= hi.y(); ++y)
        for (int x = lo.x(); x <= hi.x(); ++x) {
          const Eigen::Vector3i c(x, y, z);
          if (!solid.solid(c)) continue;
          const Eigen::Vector3f p = solid.centre(c);
          if ((p - part.point).dot(part.normal) <= 0.0f || (p - part.point).norm() > part.radius) continue;
          const int near = nearest_bone(p, bones);
          if (near != part.bone &&
              std::find(part.instead_of.begin(), part.instead_of.end(), near) == part.instead_of.end())
            continue;
          seeds.push_back({solid.index(c), part.bone, 0.0f});
        }
  }
  if (seeds.empty()) return fail("", 0, "voxel weights: no deforming bone meets the mesh's solid");

  // 3. Geodesic distances, the kLabels nearest bones per cell.
  Labels labels;
  labels.compact.assign(solid.cells.size(), -1);
  int rows = 0;
  for (std::size_t i = 0; i < solid.cells.size(); ++i)
    if (solid.cells[i] != Voxel::kOutside) labels.compact[i] = rows++;
  for (const Seed& s : seeds)
    if (labels.compact[s.cell] < 0) labels.compact[s.cell] = rows++;
  labels.bone.assign(static_cast<std::size_t>(rows) * kLabels, 0);
  labels.distance.assign(static_cast<std::size_t>(rows) * kLabels, kInfinity);
  labels.count.assign(static_cast<std::size_t>(rows), 0);
  std::vector<Eigen::Vector3i> coordinates(static_cast<std::size_t>(rows));
  for (std::size_t i = 0; i < solid.cells.size(); ++i)
    if (labels.compact[i] >= 0) coordinates[labels.compact[i]] = solid.coordinates(i);

  static const Neighbours neighbours;
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> queue;
  for (const Seed& s : seeds) queue.push({s.distance, labels.compact[s.cell], static_cast<std::uint16_t>(s.bone)});
  while (!queue.empty()) {
    const Candidate top = queue.top();
    queue.pop();
    const int r = top.row;
    if (labels.count[r] == kLabels || labels.has(r, top.bone)) continue;
    const std::size_t slot = static_cast<std::size_t>(r) * kLabels + labels.count[r]++;
    labels.bone[slot] = top.bone;
    labels.distance[slot] = top.distance;
    for (int k = 0; k < 26; ++k) {
      const Eigen::Vector3i c = coordinates[r] + neighbours.offset[k];
      if (!solid.solid(c)) continue;  // the walk stays in the solid
      const int next = labels.compact[solid.index(c)];
      if (labels.count[next] == kLabels || labels.has(next, top.bone)) continue;
      queue.push({top.distance + neighbours.length[k] * cell, next, top.bone});
    }
  }

  // 4.-5. Per vertex: distances from the block around its cell, falloff.
  const int n = mesh.vertex_count();
  out.weights.resize(static_cast<std::size_t>(n));
  std::vector<float> distance(bones.size(), kInfinity);
  std::vector<int> seen;
  std::vector<std::pair<int, float>> influences;
  const float alpha = options.falloff;
  const float floor_distance = 0.5f * cell;  // a vertex on a bone: finite weights
  for (int v = 0; v < n; ++v) {
    const Eigen::Vector3f& p = mesh.positions[v];
    const Eigen::Vector3i home = solid.cell_of(p);
    seen.clear();
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const Eigen::Vector3i c = home + Eigen::Vector3i(dx, dy, dz);
          if (!solid.in_grid(c)) continue;
          const int r = labels.compact[solid.index(c)];
          if (r < 0) continue;
          const float straight = (solid.centre(c) - p).norm();
          for (int k = 0; k < labels.count[r]; ++k) {
            const std::size_t slot = static_cast<std::size_t>(r) * kLabels + k;
            const int b = labels.bone[slot];
            if (distance[b] == kInfinity) seen.push_back(b);
            distance[b] = std::min(distance[b], labels.distance[slot] + straight);
          }
        }
    influences.clear();
    if (!seen.empty()) {
      float nearest = kInfinity;
      for (const int b : seen) nearest = std::min(nearest, std::max(distance[b], floor_distance));
      float total = 0.0f;
      for (const int b : seen) {
        const float relative = std::max(distance[b], floor_distance) / nearest;  // >= 1
        const float scaled = (1.0f - alpha) * relative + alpha * relative * relative;
        const float w = 1.0f / (scaled * scaled);
        influences.emplace_back(b, w);
        total += w;
        distance[b] = kInfinity;
      }
      // More bones than slots: the first one left out sets the zero of the
      // kept ones, so that a bone leaves a vertex's four smoothly where it
      // is overtaken, not with a jump between neighbouring vertices.
      if (influences.size() > static_cast<std::size_t>(kMaxInfluences)) {
        std::nth_element(influences.begin(), influences.begin() + kMaxInfluences, influences.end(),
                         [](const auto& x, const auto& y) { return x.second > y.second; });
        const float zero = influences[kMaxInfluences].second;
        influences.resize(kMaxInfluences);
        float rest = 0.0f;
        for (const auto& bw : influences) rest += bw.second - zero;
        if (rest > 0.0f) {  // else five or more bones exactly as near: kept as they are
          for (auto& bw : influences) bw.second -= zero;
          total = rest;
        }
      }
      std::erase_if(influences, [&](const auto& bw) { return bw.second <= options.min_weight * total; });
    } else {
      // No labelled cell around it (a vertex on no triangle, far off the
      // solid): its nearest bone in a straight line.
      const int b = nearest_bone(p, bones);
      if (b >= 0) influences.emplace_back(b, 1.0f);
    }
    if (auto w = make_vertex_weights(influences)) out.weights[v] = *w;
  }

  // 6. Contacts between parts, then smoothing elsewhere.
  const std::vector<int> part = mesh_parts(mesh, out.parts);
  std::vector<std::uint8_t> contact(static_cast<std::size_t>(n), 0);
  if (out.parts > 1) {
    constexpr int kSeveral = -2;
    std::vector<int> cell_part(solid.cells.size(), -1);
    for (int v = 0; v < n; ++v) {
      const Eigen::Vector3i c = solid.cell_of(mesh.positions[v]);
      if (part[v] < 0 || !solid.in_grid(c)) continue;
      int& here = cell_part[solid.index(c)];
      here = here == -1 || here == part[v] ? part[v] : kSeveral;
    }
    for (int v = 0; v < n; ++v) {
      if (part[v] < 0) continue;
      const Eigen::Vector3i home = solid.cell_of(mesh.positions[v]);
      bool near_other = false;
      for (int dz = -1; dz <= 1 && !near_other; ++dz)
        for (int dy = -1; dy <= 1 && !near_other; ++dy)
          for (int dx = -1; dx <= 1 && !near_other; ++dx) {
            const Eigen::Vector3i c = home + Eigen::Vector3i(dx, dy, dz);
            if (!solid.in_grid(c)) continue;
            const int there = cell_part[solid.index(c)];
            near_other = there == kSeveral || (there >= 0 && there != part[v]);
          }
      contact[v] = near_other ? 1 : 0;
      out.contact_vertices += near_other ? 1 : 0;
    }
  }
  smooth_weights(mesh, out.weights, options.smoothing_iterations, options.smoothing, contact);

  if (!out.untouched_bones.empty()) {
    out.note = "voxel weights: " + std::to_string(out.untouched_bones.size()) +
               " deforming bone(s) outside the mesh's solid, given no weight: bone";
    for (const int b : out.untouched_bones) out.note += " " + std::to_string(b);
  }
  return out;
}

}  // namespace mocap
