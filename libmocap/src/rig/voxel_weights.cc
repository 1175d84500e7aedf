#include <mocap/rig/voxel_weights.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <tuple>
#include <utility>

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

// Step 2's thick bones: layers across each of `thick` (the solid cells
// nearest it in a straight line, by their place along it, one cell deep),
// each taken as a filled ellipse with axes a >= b from its spread (variance
// a^2 / 4 along the major axis); its medial segment, a - b^2 / a either way
// from the layer's middle along the major axis, for the bone.
std::vector<std::pair<int, BoneSegment>> medial_segments(const VoxelSolid& solid, std::span<const BoneSegment> bones,
                                                         std::span<const int> thick) {
  struct Layer {
    double count = 0.0;
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    Eigen::Matrix3d square = Eigen::Matrix3d::Zero();
  };
  std::vector<std::pair<int, BoneSegment>> out;
  if (thick.empty()) return out;
  std::vector<std::vector<Layer>> layers(bones.size());
  for (const int b : thick) {
    const float length = (bones[b].end - bones[b].start).norm();
    if (length > 0.0f) layers[b].resize(static_cast<std::size_t>(std::ceil(length / solid.cell)) + 1);
  }
  for (std::size_t i = 0; i < solid.cells.size(); ++i) {
    if (solid.cells[i] == Voxel::kOutside) continue;
    const Eigen::Vector3f p = solid.centre(solid.coordinates(i));
    const int b = nearest_bone(p, bones);
    if (b < 0 || layers[b].empty()) continue;
    const Eigen::Vector3f d = bones[b].end - bones[b].start;
    const float t = (p - bones[b].start).dot(d) / d.squaredNorm();
    if (!(t >= 0.0f && t <= 1.0f)) continue;
    Layer& layer = layers[b][static_cast<std::size_t>(t * d.norm() / solid.cell)];
    const Eigen::Vector3d q = p.cast<double>();
    layer.count += 1.0, layer.sum += q, layer.square += q * q.transpose();
  }
  for (std::size_t b = 0; b < bones.size(); ++b) {
    for (const Layer& layer : layers[b]) {
      if (layer.count < 9.0) continue;  // a layer's few cells tell no shape
      const Eigen::Vector3d middle = layer.sum / layer.count;
      const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> axes(layer.square / layer.count -
                                                                middle * middle.transpose());
      const double major = 2.0 * std::sqrt(std::max(axes.eigenvalues()(2), 0.0));
      const double minor = 2.0 * std::sqrt(std::max(axes.eigenvalues()(1), 0.0));
      if (!(major > 0.0)) continue;
      const Eigen::Vector3d reach = (major - minor * minor / major) * axes.eigenvectors().col(2);
      out.push_back({static_cast<int>(b), BoneSegment{(middle - reach).cast<float>(), (middle + reach).cast<float>()}});
    }
  }
  return out;
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
  std::vector<int> compact;                // per grid cell: its row, -1 for none
  std::vector<int> solid_row;              // per grid cell: its row when solid, -1 else
  std::vector<std::size_t> at;             // per row: its grid cell
  std::array<std::ptrdiff_t, 26> delta{};  // Neighbours' offsets in grid cells
  std::vector<std::uint16_t> bone;
  std::vector<float> distance;
  std::vector<std::uint8_t> count;

  int row(std::size_t cell) const { return compact[cell]; }
  bool has(int r, int b) const {
    for (int k = 0; k < count[r]; ++k)
      if (bone[static_cast<std::size_t>(r) * kLabels + k] == b) return true;
    return false;
  }
  void set_grid(const Eigen::Vector3i& dims) {
    static const Neighbours neighbours;
    for (int k = 0; k < 26; ++k) {
      const Eigen::Vector3i& o = neighbours.offset[k];
      delta[k] = (static_cast<std::ptrdiff_t>(o.z()) * dims.y() + o.y()) * dims.x() + o.x();
    }
  }
  // f(k, row) per solid neighbour k of row r (at `c` in `solid`), in
  // Neighbours' order: linear offsets, bounds checked on the grid's faces only.
  template <class F>
  void each_solid_neighbour(const VoxelSolid& solid, int r, const Eigen::Vector3i& c, F&& f) const {
    static const Neighbours neighbours;
    const bool interior = (c.array() > 0).all() && (c.array() < solid.dims.array() - 1).all();
    const auto here = static_cast<std::ptrdiff_t>(at[r]);
    for (int k = 0; k < 26; ++k) {
      if (!interior && !solid.in_grid(c + neighbours.offset[k])) continue;
      const int next = solid_row[static_cast<std::size_t>(here + delta[k])];
      if (next >= 0) f(k, next);
    }
  }
};

// Dijkstra's queue: a radix heap (monotone: every key pushed is at least the
// last popped, as Dijkstra's are) over a 64-bit key, the distance's bits
// (non-negative floats order as their bits) above the row, ties by bone as
// the popped bucket is scanned. It pops the same candidates in the same order
// as a binary heap on (distance, row, bone) did, at a fraction of the cost.
class CandidateQueue {
 public:
  void push(float distance, int row, std::uint16_t bone) {
    const std::uint64_t key =
        (static_cast<std::uint64_t>(std::bit_cast<std::uint32_t>(distance)) << 32) | static_cast<std::uint32_t>(row);
    buckets_[bucket(key)].push_back({key, bone});
    ++size_;
  }
  bool empty() const { return size_ == 0; }
  // The least (distance, row, bone), removed.
  void pop(float& distance, int& row, std::uint16_t& bone) {
    if (buckets_[0].empty()) {
      int b = 1;
      while (buckets_[b].empty()) ++b;
      std::vector<Item>& from = buckets_[b];
      last_ =
          std::min_element(from.begin(), from.end(), [](const Item& x, const Item& y) { return x.key < y.key; })->key;
      for (const Item& item : from) buckets_[bucket(item.key)].push_back(item);
      from.clear();
    }
    std::vector<Item>& here = buckets_[0];  // every key here is last_
    const auto least =
        std::min_element(here.begin(), here.end(), [](const Item& x, const Item& y) { return x.bone < y.bone; });
    bone = least->bone;
    *least = here.back();
    here.pop_back();
    --size_;
    distance = std::bit_cast<float>(static_cast<std::uint32_t>(last_ >> 32));
    row = static_cast<int>(static_cast<std::uint32_t>(last_));
  }

 private:
  struct Item {
    std::uint64_t key;
    std::uint16_t bone;
  };
  int bucket(std::uint64_t key) const { return key == last_ ? 0 : 64 - std::countl_zero(key ^ last_); }
  std::array<std::vector<Item>, 65> buckets_;
  std::uint64_t last_ = 0;
  std::size_t size_ = 0;
};

// Heaviest first, ties by bone index: the order does not depend on the input's.
// A lambda, not a function: std::sort inlines it (a function pointer it calls).
constexpr auto heavier = [](const std::pair<int, float>& x, const std::pair<int, float>& y) {
  return x.second != y.second ? x.second > y.second : x.first < y.first;
};

// Per row (labels' rows; only solid ones are filled): up to kCellBones
// (bone, weight), heaviest first, summing to one. More than a cell's
// kLabels so that diffusion can carry a bone a few cells past where it is
// among the four nearest before the vertices keep four.
constexpr int kCellBones = 8;
struct CellWeights {
  std::vector<std::uint16_t> bone;
  std::vector<float> weight;
  std::vector<std::uint8_t> count;

  explicit CellWeights(int rows)
      : bone(static_cast<std::size_t>(rows) * kCellBones, 0),
        weight(static_cast<std::size_t>(rows) * kCellBones, 0.0f),
        count(static_cast<std::size_t>(rows), 0) {}
  static std::size_t slot(int row, int k) { return static_cast<std::size_t>(row) * kCellBones + k; }
  // The kCellBones heaviest of `mixed` (bone, weight; bones distinct),
  // normalised; ties by bone index. An insertion into a fixed array: what
  // partial_sort kept, in its order, without its cost on a few entries.
  void set(int row, std::span<const std::pair<int, float>> mixed) {
    std::array<std::pair<int, float>, kCellBones> top;
    std::size_t keep = 0;
    for (const auto& m : mixed) {
      if (keep == kCellBones && !heavier(m, top[kCellBones - 1])) continue;
      std::size_t k = keep < kCellBones ? keep++ : kCellBones - 1;
      for (; k > 0 && heavier(m, top[k - 1]); --k) top[k] = top[k - 1];
      top[k] = m;
    }
    float total = 0.0f;
    for (std::size_t k = 0; k < keep; ++k) total += top[k].second;
    count[row] = static_cast<std::uint8_t>(total > 0.0f ? keep : 0);
    for (std::size_t k = 0; k < count[row]; ++k) {
      bone[slot(row, static_cast<int>(k))] = static_cast<std::uint16_t>(top[k].first);
      weight[slot(row, static_cast<int>(k))] = top[k].second / total;
    }
  }
};

// Step 4: per solid cell, the falloff over the bones of its own labels and
// of its 26 neighbours' (each at the neighbour's distance plus the step),
// relative to the nearest. The four kept, the fifth's weight taken from
// them: where a fifth bone overtakes a fourth between two cells the weight
// it gets or loses is small, not the fourth's whole share.
CellWeights cell_falloff(const VoxelSolid& solid, const Labels& labels, const std::vector<Eigen::Vector3i>& coordinates,
                         const std::vector<int>& inside, std::size_t bone_count, float alpha) {
  static const Neighbours neighbours;
  const float floor_distance = 0.5f * solid.cell;  // a cell on a bone: finite weights
  CellWeights field(static_cast<int>(coordinates.size()));
  std::vector<float> distance(bone_count, kInfinity);
  std::vector<int> seen;
  std::vector<std::pair<int, float>> falloff;
  auto gather = [&](int row, float step) {
    for (int k = 0; k < labels.count[row]; ++k) {
      const std::size_t slot = static_cast<std::size_t>(row) * kLabels + k;
      const int b = labels.bone[slot];
      if (distance[b] == kInfinity) seen.push_back(b);
      distance[b] = std::min(distance[b], labels.distance[slot] + step);
    }
  };
  for (const int r : inside) {
    if (labels.count[r] == 0) continue;  // a piece of the solid no bone reaches
    seen.clear();
    gather(r, 0.0f);
    labels.each_solid_neighbour(solid, r, coordinates[r],
                                [&](int k, int next) { gather(next, neighbours.length[k] * solid.cell); });
    float nearest = kInfinity;
    for (const int b : seen) nearest = std::min(nearest, std::max(distance[b], floor_distance));
    falloff.clear();
    for (const int b : seen) {
      const float relative = std::max(distance[b], floor_distance) / nearest;  // >= 1
      const float scaled = (1.0f - alpha) * relative + alpha * relative * relative;
      falloff.emplace_back(b, 1.0f / (scaled * scaled));
      distance[b] = kInfinity;
    }
    if (falloff.size() > static_cast<std::size_t>(kLabels)) {
      std::sort(falloff.begin(), falloff.end(), heavier);
      const float zero = falloff[kLabels].second;
      falloff.resize(kLabels);
      if (falloff.front().second > zero) {  // else five bones exactly as near: kept as they are
        for (auto& bw : falloff) bw.second -= zero;
        std::erase_if(falloff, [](const auto& bw) { return bw.second <= 0.0f; });
      }
    }
    field.set(r, falloff);
  }
  return field;
}

// Step 5: `passes` Jacobi passes, each solid cell the mean of itself and its
// solid face neighbours. A bone's transition is then a few cells wide
// wherever the falloff made it steep (the thumb's root, the crotch, the
// armpit: short edges there stretched 4-14x), and never crosses air.
void diffuse(CellWeights& field, const VoxelSolid& solid, const Labels& labels,
             const std::vector<Eigen::Vector3i>& coordinates, const std::vector<int>& inside, std::size_t bone_count,
             int passes) {
  if (passes == 0) return;
  std::vector<int> first(inside.size() + 1, 0), next_to;
  next_to.reserve(inside.size() * 6);
  for (std::size_t i = 0; i < inside.size(); ++i) {
    for (int axis = 0; axis < 3; ++axis)
      for (const int step : {-1, 1}) {
        Eigen::Vector3i q = coordinates[inside[i]];
        q[axis] += step;
        if (solid.solid(q)) next_to.push_back(labels.solid_row[solid.index(q)]);
      }
    first[i + 1] = static_cast<int>(next_to.size());
  }
  CellWeights next(static_cast<int>(coordinates.size()));
  std::vector<float> dense(bone_count, 0.0f);
  std::vector<int> touched;
  std::vector<std::pair<int, float>> mixed;
  auto add = [&](int row, float share) {
    for (int k = 0; k < field.count[row]; ++k) {
      const int b = field.bone[CellWeights::slot(row, k)];
      if (dense[b] == 0.0f) touched.push_back(b);
      dense[b] += share * field.weight[CellWeights::slot(row, k)];
    }
  };
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t i = 0; i < inside.size(); ++i) {
      touched.clear();
      const float share = 1.0f / static_cast<float>(1 + first[i + 1] - first[i]);
      add(inside[i], share);
      for (int k = first[i]; k < first[i + 1]; ++k) add(next_to[k], share);
      mixed.clear();
      for (const int b : touched) {
        mixed.emplace_back(b, dense[b]);
        dense[b] = 0.0f;
      }
      next.set(inside[i], mixed);
    }
    std::swap(field, next);
  }
}

// Per bone, the solid cells where it is the heaviest (weights times `gain`,
// one per bone; empty: 1).
std::vector<int> dominated_cells(const CellWeights& field, const std::vector<int>& inside, std::size_t bone_count,
                                 const std::vector<float>& gain) {
  std::vector<int> count(bone_count, 0);
  for (const int r : inside) {
    int best = -1;
    float best_weight = 0.0f;
    for (int k = 0; k < field.count[r]; ++k) {
      const int b = field.bone[CellWeights::slot(r, k)];
      const float w = field.weight[CellWeights::slot(r, k)] * (gain.empty() ? 1.0f : gain[b]);
      if (w > best_weight || (w == best_weight && b < best)) best_weight = w, best = b;
    }
    if (best >= 0) ++count[best];
  }
  return count;
}

// Diffusion moves a transition towards the thinner side (a tip's mass flows
// out through its base): 20 passes gave about 230 more toe vertices of
// MakeHuman's body to the feet, and its legs' agreement fell from 0.86 to
// 0.79. One gain per bone, the same in every cell (so the field stays as
// smooth), is set so that each bone is again the heaviest in as many cells
// as before the diffusion.
void keep_dominated_cells(CellWeights& field, const std::vector<int>& inside, const std::vector<int>& before) {
  constexpr int kRounds = 16;  // measured: 8 gave legs 0.864, 15 0.870
  std::vector<float> gain(before.size(), 1.0f);
  for (int round = 0; round < kRounds; ++round) {
    const std::vector<int> now = dominated_cells(field, inside, before.size(), gain);
    for (std::size_t b = 0; b < before.size(); ++b)
      if (before[b] > 0 && now[b] > 0) gain[b] *= std::sqrt(static_cast<float>(before[b]) / static_cast<float>(now[b]));
  }
  std::vector<std::pair<int, float>> scaled;
  for (const int r : inside) {
    scaled.clear();
    for (int k = 0; k < field.count[r]; ++k) {
      const int b = field.bone[CellWeights::slot(r, k)];
      scaled.emplace_back(b, gain[b] * field.weight[CellWeights::slot(r, k)]);
    }
    field.set(r, scaled);
  }
}

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

// Whether vertex a lies before vertex b in (x, y, z) order: step 7's orders
// by position, not by index, so that a mesh split at its seams and welded
// again (other indices, the same positions) binds exactly as before.
bool before_in_space(const Mesh& mesh, int a, int b) {
  const Eigen::Vector3f &p = mesh.positions[a], &q = mesh.positions[b];
  return std::tie(p.x(), p.y(), p.z()) < std::tie(q.x(), q.y(), q.z());
}

// Whether bone b is `top` or lies below it (parents validated to reach a root).
bool at_or_below(std::span<const BoneSegment> bones, int b, int top) {
  for (int j = b; j >= 0; j = bones[j].parent)
    if (j == top) return true;
  return false;
}

// Step 7's neighbours: the mesh's edges and the links between touching
// parts, each vertex's sorted by position (so that the sums do not depend on
// how the mesh numbers its vertices: a mesh split at its seams binds as the
// welded one does), in compressed rows.
struct Neighbourhood {
  std::vector<int> first;  // per vertex, then one past the last
  std::vector<int> vertex;
  std::vector<float> inverse_square;  // 1 / distance^2 per neighbour
  std::vector<std::uint8_t> linked;   // per neighbour: 1 for a link between parts, 0 for an edge
};

Neighbourhood neighbourhood(const Mesh& mesh, std::span<const std::array<int, 2>> edges,
                            std::span<const std::array<int, 2>> links) {
  const std::size_t n = mesh.positions.size();
  // (vertex, neighbour, linked), sorted by vertex, then the neighbour's position.
  std::vector<std::tuple<int, int, std::uint8_t>> pairs;
  pairs.reserve(2 * (edges.size() + links.size()));
  for (const auto& e : edges) pairs.emplace_back(e[0], e[1], 0), pairs.emplace_back(e[1], e[0], 0);
  for (const auto& e : links) pairs.emplace_back(e[0], e[1], 1), pairs.emplace_back(e[1], e[0], 1);
  // Ties (two neighbours at one position: only on a mesh not welded) by
  // the kind of neighbour, then as they come.
  std::sort(pairs.begin(), pairs.end(), [&](const auto& x, const auto& y) {
    const auto [v, u, u_linked] = x;
    const auto [w, t, t_linked] = y;
    if (v != w) return v < w;
    if (before_in_space(mesh, u, t)) return true;
    if (before_in_space(mesh, t, u)) return false;
    return u_linked < t_linked;
  });
  // A zero-length edge, or two touching vertices at one point, pull hard,
  // not infinitely. A link 0.1 mm long then outweighs the vertex's edges:
  // touching parts follow each other first (capped at the nearest edge's
  // pull, the humanoid's touching pairs' weights went 0.015 -> 0.16 apart).
  constexpr float kNearest = 1e-4f;  // metres
  Neighbourhood out;
  out.first.assign(n + 1, 0);
  out.vertex.reserve(pairs.size());
  out.linked.reserve(pairs.size());
  out.inverse_square.reserve(pairs.size());
  for (const auto& [v, u, linked] : pairs) {
    ++out.first[v + 1];
    out.vertex.push_back(u);
    out.linked.push_back(linked);
    const float d = std::max(kNearest, (mesh.positions[v] - mesh.positions[u]).norm());
    out.inverse_square.push_back(1.0f / (d * d));
  }
  for (std::size_t v = 0; v < n; ++v) out.first[v + 1] += out.first[v];
  return out;
}

// Step 7: `passes` passes; in each, the ends of every edge whose stretch
// with one joint turned half a turn (1 + 2 |dW_j| r_j / l), or a girdle's
// two limbs' worst joints turned at once (the sum), passes `bound`,
// and the vertices linked to them, take the mean of themselves (half) and
// their neighbours (half, by 1 / distance^2). Returns how many vertices
// changed.
int relax_stretch(const Mesh& mesh, std::span<const BoneSegment> bones, std::span<const int> fixed_joints,
                  std::span<const Girdle> girdles, std::span<const std::array<int, 2>> edges, const Neighbourhood& near,
                  float bound, int passes, std::vector<VertexWeights>& weights) {
  const std::size_t n = mesh.positions.size();
  const std::size_t bone_count = bones.size();
  // Per bone, the joints that turn it: itself and its ancestors, the root
  // (nothing above it turns) and fixed joints left out.
  std::vector<std::vector<int>> turned_by(bone_count);
  for (std::size_t b = 0; b < bone_count; ++b)
    for (int j = static_cast<int>(b); j >= 0 && bones[j].parent >= 0; j = bones[j].parent)
      if (std::find(fixed_joints.begin(), fixed_joints.end(), j) == fixed_joints.end()) turned_by[b].push_back(j);
  const float limit = 0.5f * (bound - 1.0f);  // on |dW_j| r_j / l
  // Per joint, the girdle's limb it turns (2 g for girdle g's bone_a, 2 g + 1
  // for its bone_b), -1 for none: the two limbs of a girdle turn apart at
  // once (the legs in a split), so an edge across the crotch takes both
  // turns' stretch, where the worst joint alone read under the bound (the
  // heavy test body subdivided to 53k vertices, its cartwheel 3.06x at the
  // back of the crotch).
  std::vector<int> limb_of(bone_count, -1);
  for (std::size_t g = 0; g < girdles.size(); ++g)
    for (int b = 0; b < static_cast<int>(bone_count); ++b) {
      if (at_or_below(bones, b, girdles[g].bone_a)) limb_of[b] = static_cast<int>(2 * g);
      if (at_or_below(bones, b, girdles[g].bone_b)) limb_of[b] = static_cast<int>(2 * g + 1);
    }
  std::vector<float> limb_worst(2 * girdles.size(), 0.0f);
  std::vector<float> below_a(bone_count, 0.0f), below_b(bone_count, 0.0f), dense(bone_count, 0.0f);
  std::vector<int> joints, touched;
  std::vector<std::uint8_t> marked(n, 0), changed(n, 0);
  std::vector<VertexWeights> next(n);
  std::vector<std::pair<int, float>> influences;
  auto add_below = [&](const VertexWeights& w, std::vector<float>& below) {
    for (int k = 0; k < kMaxInfluences; ++k) {
      if (w.weight[k] <= 0.0f) continue;
      for (const int j : turned_by[w.bone[k]]) {
        if (below_a[j] == 0.0f && below_b[j] == 0.0f) joints.push_back(j);
        below[j] += w.weight[k];
      }
    }
  };
  auto add = [&](const VertexWeights& w, float share) {
    for (int k = 0; k < kMaxInfluences; ++k) {
      if (w.weight[k] <= 0.0f) continue;
      if (dense[w.bone[k]] == 0.0f) touched.push_back(w.bone[k]);
      dense[w.bone[k]] += share * w.weight[k];
    }
  };
  for (int pass = 0; pass < passes; ++pass) {
    std::fill(marked.begin(), marked.end(), 0);
    bool any = false;
    for (const auto& e : edges) {
      const Eigen::Vector3f &a = mesh.positions[e[0]], &b = mesh.positions[e[1]];
      const float length = (a - b).norm();
      if (!(length > 0.0f)) continue;
      joints.clear();
      add_below(weights[e[0]], below_a);
      add_below(weights[e[1]], below_b);
      const Eigen::Vector3f middle = 0.5f * (a + b);
      float worst = 0.0f;
      for (const int j : joints) {
        const float s = std::abs(below_a[j] - below_b[j]) * (middle - bones[j].start).norm();
        worst = std::max(worst, s);
        if (limb_of[j] >= 0) limb_worst[limb_of[j]] = std::max(limb_worst[limb_of[j]], s);
        below_a[j] = below_b[j] = 0.0f;
      }
      for (std::size_t g = 0; g < girdles.size(); ++g) {
        worst = std::max(worst, limb_worst[2 * g] + limb_worst[2 * g + 1]);
        limb_worst[2 * g] = limb_worst[2 * g + 1] = 0.0f;
      }
      if (worst > limit * length) marked[e[0]] = marked[e[1]] = 1, any = true;
    }
    if (!any) break;
    // Touching parts move together: a marked vertex's links are relaxed with it.
    for (std::size_t v = 0; v < n; ++v)
      if (marked[v] & 1)
        for (int i = near.first[v]; i < near.first[v + 1]; ++i)
          if (near.linked[i]) marked[near.vertex[i]] |= 2;
    for (std::size_t v = 0; v < n; ++v) {
      next[v] = weights[v];
      if (!marked[v] || near.first[v] == near.first[v + 1]) continue;
      touched.clear();
      add(weights[v], 0.5f);
      float total = 0.0f;
      for (int i = near.first[v]; i < near.first[v + 1]; ++i) total += near.inverse_square[i];
      if (!(total > 0.0f)) continue;
      for (int i = near.first[v]; i < near.first[v + 1]; ++i)
        add(weights[near.vertex[i]], 0.5f * near.inverse_square[i] / total);
      std::sort(touched.begin(), touched.end());
      influences.clear();
      for (const int b : touched) influences.emplace_back(b, dense[b]), dense[b] = 0.0f;
      // The four heaviest kept (make_vertex_weights), small shares too: they
      // are how a bone spreads. Fading them as step 6 does: the humanoid's
      // cartwheel 2.62x -> 2.91x; the fifth as the zero alone: 2.74x.
      if (auto w = make_vertex_weights(influences)) next[v] = *w, changed[v] = 1;
    }
    weights.swap(next);
  }
  return static_cast<int>(std::count(changed.begin(), changed.end(), 1));
}

}  // namespace

Result<void> VoxelWeightOptions::validate() const {
  if (auto valid = solid.validate(); !valid) return valid;
  if (!(falloff >= 0.0f && falloff <= 1.0f)) return fail("", 0, "voxel weights: falloff must be in [0, 1]");
  // Below 1 / kMaxInfluences the largest share always stays.
  if (!(min_weight >= 0.0f && min_weight < 0.25f)) return fail("", 0, "voxel weights: min_weight must be in [0, 0.25)");
  if (diffusion_passes < 0) return fail("", 0, "voxel weights: diffusion_passes must be >= 0");
  if (!(relax_bound > 1.0f && std::isfinite(relax_bound))) return fail("", 0, "voxel weights: relax_bound must be > 1");
  if (relax_passes < 0) return fail("", 0, "voxel weights: relax_passes must be >= 0");
  return {};
}

std::vector<int> joints_without_rotation(const Skeleton& skeleton) {
  std::vector<int> fixed;
  for (std::size_t b = 0; b < skeleton.bones.size(); ++b)
    if (std::none_of(skeleton.bones[b].dofs.begin(), skeleton.bones[b].dofs.end(), is_rotation))
      fixed.push_back(static_cast<int>(b));
  return fixed;
}

Result<VoxelBinding> voxel_weights(const Mesh& mesh, std::span<const BoneSegment> bones,
                                   const VoxelWeightOptions& options) {
  if (auto valid = options.validate(); !valid) return std::unexpected(valid.error());
  const auto bone_count = static_cast<int>(bones.size());
  for (const Girdle& g : options.girdles)
    if (g.bone_a < 0 || g.bone_a >= bone_count || g.bone_b < 0 || g.bone_b >= bone_count)
      return fail("", 0,
                  "voxel weights: a girdle joins bones " + std::to_string(g.bone_a) + " and " +
                      std::to_string(g.bone_b) + " of " + std::to_string(bone_count));
  for (const int b : options.thick_bones)
    if (b < 0 || b >= bone_count)
      return fail("", 0, "voxel weights: thick bone " + std::to_string(b) + " of " + std::to_string(bone_count));
  for (const int b : options.fixed_joints)
    if (b < 0 || b >= bone_count)
      return fail("", 0, "voxel weights: fixed joint " + std::to_string(b) + " of " + std::to_string(bone_count));
  // Step 7 walks each bone's parents up to the root.
  for (int b = 0; b < bone_count; ++b) {
    int steps = 0;
    for (int j = b; j >= 0; j = bones[j].parent) {
      if (bones[j].parent < -1 || bones[j].parent >= bone_count || ++steps > bone_count)
        return fail("", 0,
                    "voxel weights: bone " + std::to_string(b) + "'s parents do not lead to a root (parent " +
                        std::to_string(bones[j].parent) + " of bone " + std::to_string(j) + ")");
    }
  }
  // A girdle joins two limbs apart (step 7 adds their turns); one within the
  // other, or in another girdle's, is no girdle.
  const std::size_t limbs = 2 * options.girdles.size();
  auto limb = [&](std::size_t i) { return i % 2 ? options.girdles[i / 2].bone_b : options.girdles[i / 2].bone_a; };
  for (std::size_t i = 0; i < limbs; ++i)
    for (std::size_t k = 0; k < limbs; ++k)
      if (const int a = limb(i), b = limb(k); i != k && at_or_below(bones, a, b))
        return fail("", 0,
                    "voxel weights: girdle bones " + std::to_string(a) + " and " + std::to_string(b) +
                        " are one limb (the same bone, or one below the other)");
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
  // The cells `s` passes through, seeded for `bone`; whether one is in the solid.
  auto rasterise = [&](const BoneSegment& s, int bone) {
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
      seeds.push_back({index, bone, distance_to_segment(solid.centre(c), s)});
    }
    return touches;
  };
  for (std::size_t b = 0; b < bones.size(); ++b) {
    if (!bones[b].deforms) continue;
    if (!rasterise(bones[b], static_cast<int>(b))) {
      // Not a seed at all: a bone in the air would pull the cells it passes.
      while (!seeds.empty() && seeds.back().bone == static_cast<int>(b)) seeds.pop_back();
      out.untouched_bones.push_back(static_cast<int>(b));
    }
  }
  auto seeded = [&](int b) {
    return b >= 0 && b < static_cast<int>(bones.size()) && bones[b].deforms &&
           std::find(out.untouched_bones.begin(), out.untouched_bones.end(), b) == out.untouched_bones.end();
  };
  std::vector<int> thick;
  for (const int b : options.thick_bones)
    if (seeded(b)) thick.push_back(b);
  for (const auto& [b, medial] : medial_segments(solid, bones, thick)) rasterise(medial, b);
  for (const Girdle& girdle : options.girdles) {
    if (!seeded(girdle.bone_a) || !seeded(girdle.bone_b)) continue;
    const Eigen::Vector3f a = bones[girdle.bone_a].end, b = bones[girdle.bone_b].end, middle = 0.5f * (a + b);
    rasterise(BoneSegment{a, middle}, girdle.bone_a);
    rasterise(BoneSegment{b, middle}, girdle.bone_b);
  }
  for (const RigidPart& part : options.rigid_parts) {
    if (!seeded(part.bone)) continue;
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
  labels.at.assign(static_cast<std::size_t>(rows), 0);
  labels.solid_row.assign(solid.cells.size(), -1);
  labels.set_grid(solid.dims);
  for (std::size_t i = 0; i < solid.cells.size(); ++i) {
    if (labels.compact[i] < 0) continue;
    coordinates[labels.compact[i]] = solid.coordinates(i);
    labels.at[labels.compact[i]] = i;
    if (solid.cells[i] != Voxel::kOutside) labels.solid_row[i] = labels.compact[i];
  }

  static const Neighbours neighbours;
  CandidateQueue queue;
  for (const Seed& s : seeds) queue.push(s.distance, labels.compact[s.cell], static_cast<std::uint16_t>(s.bone));
  while (!queue.empty()) {
    float distance;
    int r;
    std::uint16_t bone;
    queue.pop(distance, r, bone);
    if (labels.count[r] == kLabels || labels.has(r, bone)) continue;
    const std::size_t slot = static_cast<std::size_t>(r) * kLabels + labels.count[r]++;
    labels.bone[slot] = bone;
    labels.distance[slot] = distance;
    // The walk stays in the solid.
    labels.each_solid_neighbour(solid, r, coordinates[r], [&](int k, int next) {
      if (labels.count[next] == kLabels || labels.has(next, bone)) return;
      queue.push(distance + neighbours.length[k] * cell, next, bone);
    });
  }

  // 4.-5. The field over the solid's cells.
  std::vector<int> inside;  // the solid rows, in grid order
  for (std::size_t i = 0; i < solid.cells.size(); ++i)
    if (solid.cells[i] != Voxel::kOutside) inside.push_back(labels.compact[i]);
  CellWeights field = cell_falloff(solid, labels, coordinates, inside, bones.size(), options.falloff);
  const std::vector<int> before = dominated_cells(field, inside, bones.size(), {});
  diffuse(field, solid, labels, coordinates, inside, bones.size(), options.diffusion_passes);
  if (options.diffusion_passes > 0) keep_dominated_cells(field, inside, before);

  // 6. Per vertex: the field at its position, interpolated between the
  // centres of the 8 cells around it (solid cells only, their shares
  // renormalised), so that its weights do not jump where it crosses a cell's
  // face, and the same function of position for every part. Then at most
  // kMaxInfluences bones: the first one left out, or min_weight of the
  // total, is the zero of the kept ones, so that a bone fades out of a
  // vertex rather than being cut (a cut jumps between neighbouring vertices:
  // that jump stretched 2 mm edges of the chest 5x).
  const int n = mesh.vertex_count();
  out.weights.resize(static_cast<std::size_t>(n));
  const std::vector<int> part = mesh_parts(mesh, out.parts);
  // Per part, the sum and count of its vertices the field does not reach.
  std::vector<Eigen::Vector3d> unreached_sum(static_cast<std::size_t>(out.parts), Eigen::Vector3d::Zero());
  std::vector<int> unreached(static_cast<std::size_t>(out.parts), 0);
  std::vector<std::uint8_t> reached(static_cast<std::size_t>(n), 1);
  std::vector<float> dense(bones.size(), 0.0f);
  std::vector<int> touched;
  std::vector<std::pair<int, float>> influences;
  for (int v = 0; v < n; ++v) {
    const Eigen::Vector3f& p = mesh.positions[v];
    const Eigen::Vector3f g = (p - solid.origin) / cell - Eigen::Vector3f::Constant(0.5f);
    const Eigen::Vector3f low = g.array().floor().matrix();
    const Eigen::Vector3f t = g - low;
    const Eigen::Vector3i base = low.cast<int>();
    touched.clear();
    float covered = 0.0f;
    for (int corner = 0; corner < 8; ++corner) {
      const Eigen::Vector3i c = base + Eigen::Vector3i(corner & 1, (corner >> 1) & 1, corner >> 2);
      if (!solid.solid(c)) continue;
      const int r = labels.solid_row[solid.index(c)];
      if (field.count[r] == 0) continue;
      float share = 1.0f;
      for (int axis = 0; axis < 3; ++axis) share *= (corner >> axis) & 1 ? t[axis] : 1.0f - t[axis];
      if (share <= 0.0f) continue;
      covered += share;
      for (int k = 0; k < field.count[r]; ++k) {
        const int b = field.bone[CellWeights::slot(r, k)];
        if (dense[b] == 0.0f) touched.push_back(b);
        dense[b] += share * field.weight[CellWeights::slot(r, k)];
      }
    }
    influences.clear();
    for (const int b : touched) {
      influences.emplace_back(b, dense[b] / covered);
      dense[b] = 0.0f;
    }
    if (!influences.empty()) {
      std::sort(influences.begin(), influences.end(), heavier);
      float total = 0.0f;
      for (const auto& bw : influences) total += bw.second;
      float zero = options.min_weight * total;
      if (influences.size() > static_cast<std::size_t>(kMaxInfluences)) {
        zero = std::max(zero, influences[kMaxInfluences].second);
        influences.resize(kMaxInfluences);
      }
      for (auto& bw : influences) bw.second -= zero;
      // Every kept bone at the zero (five bones exactly as heavy): the heaviest alone.
      if (influences.front().second <= 0.0f) influences.resize(1), influences.front().second = 1.0f;
      std::erase_if(influences, [](const auto& bw) { return bw.second <= 0.0f; });
    } else if (part[v] >= 0) {
      reached[v] = 0;
      unreached_sum[part[v]] += p.cast<double>();
      ++unreached[part[v]];
    } else {
      // On no triangle and off the solid: its nearest bone in a straight line.
      const int b = nearest_bone(p, bones);
      if (b >= 0) influences.emplace_back(b, 1.0f);
    }
    if (auto w = make_vertex_weights(influences)) out.weights[v] = *w;
  }
  // The vertices of a part the field does not reach (a piece of the solid
  // no bone meets: MakeHuman's joint-ground cube between the feet) all on
  // the bone nearest to their middle, so that the piece moves rigidly: each
  // on its own nearest bone tore its 5 cm edges 27x in a cartwheel.
  std::vector<int> part_bone(static_cast<std::size_t>(out.parts), -1);
  for (int q = 0; q < out.parts; ++q)
    if (unreached[q] > 0) part_bone[q] = nearest_bone((unreached_sum[q] / unreached[q]).cast<float>(), bones);
  for (int v = 0; v < n; ++v) {
    if (!reached[v] && part[v] >= 0 && part_bone[part[v]] >= 0) {
      const std::pair<int, float> only{part_bone[part[v]], 1.0f};
      out.weights[v] = *make_vertex_weights({&only, 1});
    }
  }

  // 7. Contacts between parts: each vertex linked to the nearest vertex of
  // every other part in its cell or a neighbouring one. Then the relaxing.
  std::vector<std::array<int, 2>> links;
  if (out.parts > 1) {
    std::vector<std::pair<std::size_t, int>> by_cell;  // (grid cell, vertex), sorted
    for (int v = 0; v < n; ++v) {
      const Eigen::Vector3i c = solid.cell_of(mesh.positions[v]);
      if (part[v] >= 0 && solid.in_grid(c)) by_cell.emplace_back(solid.index(c), v);
    }
    std::sort(by_cell.begin(), by_cell.end());
    std::vector<std::pair<int, float>> nearest;  // per other part met: (vertex, distance)
    for (int v = 0; v < n; ++v) {
      if (part[v] < 0) continue;
      nearest.clear();
      const Eigen::Vector3i home = solid.cell_of(mesh.positions[v]);
      for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const Eigen::Vector3i c = home + Eigen::Vector3i(dx, dy, dz);
            if (!solid.in_grid(c)) continue;
            const std::size_t cell_index = solid.index(c);
            auto it = std::lower_bound(by_cell.begin(), by_cell.end(), std::make_pair(cell_index, -1));
            for (; it != by_cell.end() && it->first == cell_index; ++it) {
              const int u = it->second;
              if (part[u] == part[v]) continue;
              const float d = (mesh.positions[u] - mesh.positions[v]).norm();
              auto same =
                  std::find_if(nearest.begin(), nearest.end(), [&](const auto& m) { return part[m.first] == part[u]; });
              if (same == nearest.end())
                nearest.emplace_back(u, d);
              else if (d < same->second || (d == same->second && before_in_space(mesh, u, same->first)))
                *same = {u, d};
            }
          }
      for (const auto& m : nearest) links.push_back({std::min(v, m.first), std::max(v, m.first)});
      out.contact_vertices += nearest.empty() ? 0 : 1;
    }
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
  }
  if (options.relax_passes > 0) {
    const auto edges = mesh_edges(mesh);
    out.relaxed_vertices =
        relax_stretch(mesh, bones, options.fixed_joints, options.girdles, edges, neighbourhood(mesh, edges, links),
                      options.relax_bound, options.relax_passes, out.weights);
  }

  if (!out.untouched_bones.empty()) {
    out.note = "voxel weights: " + std::to_string(out.untouched_bones.size()) +
               " deforming bone(s) outside the mesh's solid, given no weight: bone";
    for (const int b : out.untouched_bones) out.note += " " + std::to_string(b);
  }
  return out;
}

}  // namespace mocap
