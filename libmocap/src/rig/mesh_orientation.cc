#include <mocap/rig/mesh_orientation.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <unordered_set>
#include <vector>

namespace mocap {

namespace {

using Vec3 = Eigen::Vector3d;

// Occupied cells of the surface: integer coordinates of cubes of `cell` metres.
struct Cells {
  std::vector<Eigen::Vector3i> cells;
  double cell = 0.0;
};

Cells occupied_cells(const Mesh& mesh) {
  Eigen::AlignedBox3d box;
  for (const auto& p : mesh.positions) box.extend(p.cast<double>());
  Cells out;
  out.cell = std::max(box.sizes().maxCoeff(), 1e-9) / 48.0;
  std::unordered_set<std::int64_t> seen;
  auto mark = [&](const Vec3& p) {
    const Eigen::Vector3i c = ((p - box.min()) / out.cell).array().floor().cast<int>();
    const std::int64_t key = (std::int64_t(c.x()) * 4096 + c.y()) * 4096 + c.z();
    if (seen.insert(key).second) out.cells.push_back(c);
  };
  for (const MeshTriangle& t : mesh.triangles) {
    const Vec3 a = mesh.positions[t.vertex[0]].cast<double>(), b = mesh.positions[t.vertex[1]].cast<double>(),
               c = mesh.positions[t.vertex[2]].cast<double>();
    const double longest = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
    const int n = std::clamp(static_cast<int>(std::ceil(2.0 * longest / out.cell)), 1, 200);
    for (int i = 0; i <= n; ++i) {
      for (int j = 0; i + j <= n; ++j) mark(a + (b - a) * (double(i) / n) + (c - a) * (double(j) / n));
    }
  }
  return out;
}

// How mirror-symmetric the cells are across `axis` (about their mean along
// it): the share whose mirror image, or a neighbour along the axis, is occupied.
double mirror_score(const Cells& cells, int axis) {
  double mean = 0.0;
  for (const auto& c : cells.cells) mean += c[axis];
  mean /= std::max<std::size_t>(cells.cells.size(), 1);
  std::unordered_set<std::int64_t> set;
  auto key = [](const Eigen::Vector3i& c) { return (std::int64_t(c.x()) * 4096 + c.y()) * 4096 + c.z(); };
  for (const auto& c : cells.cells) set.insert(key(c));
  int hits = 0;
  for (const auto& c : cells.cells) {
    Eigen::Vector3i m = c;
    m[axis] = static_cast<int>(std::lround(2.0 * mean - c[axis]));
    bool hit = false;
    for (int d = -1; d <= 1 && !hit; ++d) {
      Eigen::Vector3i q = m;
      q[axis] += d;
      hit = set.count(key(q)) > 0;
    }
    hits += hit;
  }
  return cells.cells.empty() ? 0.0 : double(hits) / cells.cells.size();
}

// Mean of `of` over the cells whose coordinate along `along` lies in
// [lo, hi] (shares of the extent from the low end); nullopt when none.
struct Band {
  double sum = 0.0;
  int count = 0;
  std::optional<double> mean() const { return count ? std::optional(sum / count) : std::nullopt; }
};

}  // namespace

Eigen::Vector3d SignedAxis::vector() const {
  return sign * Vec3::Unit(axis);
}

std::string SignedAxis::name() const {
  return std::string(sign > 0 ? "+" : "-") + "xyz"[axis];
}

Result<SignedAxis> parse_signed_axis(std::string_view text) {
  std::string t;
  for (const char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  SignedAxis a;
  if (t.size() == 2 && (t[0] == '+' || t[0] == '-')) {
    a.sign = t[0] == '+' ? 1 : -1;
    t = t.substr(1);
  }
  if (t.size() != 1 || t[0] < 'x' || t[0] > 'z') {
    return fail("", 0, "axis `" + std::string(text) + "`: expected +x, -x, +y, -y, +z or -z");
  }
  a.axis = t[0] - 'x';
  return a;
}

Eigen::Matrix3d MeshOrientation::axes() const {
  Eigen::Matrix3d m;
  const Vec3 u = up.vector(), f = forward.vector();
  m.col(0) = u.cross(f);
  m.col(1) = u;
  m.col(2) = f;
  return m;
}

Result<MeshOrientation> find_mesh_orientation(const Mesh& mesh, std::optional<SignedAxis> up,
                                              std::optional<SignedAxis> forward, const std::string& what) {
  if (up && forward && up->axis == forward->axis) {
    return fail(what, 0, "--up " + up->name() + " and --forward " + forward->name() + ": expected two different axes");
  }
  MeshOrientation o;
  if (up && forward) {
    o.up = *up;
    o.forward = *forward;
    o.how = "up " + o.up.name() + ", facing " + o.forward.name() + " (given)";
    return o;
  }
  if (mesh.triangles.empty()) return fail(what, 0, "no triangle: expected a mesh to find its up axis from");
  const Cells cells = occupied_cells(mesh);
  Eigen::Vector3i lo = cells.cells.front(), hi = cells.cells.front();
  for (const auto& c : cells.cells) lo = lo.cwiseMin(c), hi = hi.cwiseMax(c);
  const Eigen::Vector3i extent = hi - lo + Eigen::Vector3i::Ones();
  char found[256] = "";
  std::string detail;

  // 1-2: left-right and up.
  int side = -1, up_axis = up ? up->axis : -1, forward_axis = forward ? forward->axis : -1;
  double best = -1.0;
  std::array<double, 3> mirror{};
  for (int a = 0; a < 3; ++a) {
    mirror[a] = mirror_score(cells, a);
    if (a == up_axis || a == forward_axis) continue;
    if (mirror[a] > best) best = mirror[a], side = a;
  }
  std::snprintf(found, sizeof found, "mirror-symmetric across %c (%.2f; %c %.2f, %c %.2f)", "xyz"[side], mirror[side],
                "xyz"[(side + 1) % 3], mirror[(side + 1) % 3], "xyz"[(side + 2) % 3], mirror[(side + 2) % 3]);
  detail = found;
  if (up_axis < 0) {
    const int a = (side + 1) % 3, b = (side + 2) % 3;
    const int other = a == forward_axis ? b : b == forward_axis ? a : -1;
    up_axis = other >= 0 ? other : (extent[a] >= extent[b] ? a : b);
  }
  if (forward_axis < 0) forward_axis = 3 - side - up_axis;

  // 3: which end is the feet.
  auto band = [&](int along, double from, double to, int of, double centre, bool absolute) {
    Band out;
    for (const auto& c : cells.cells) {
      const double s = (c[along] - lo[along] + 0.5) / extent[along];
      if (s < from || s > to) continue;
      const double d = c[of] - centre;
      out.sum += absolute ? std::abs(d) : d;
      ++out.count;
    }
    return out;
  };
  double side_centre = 0.0;
  for (const auto& c : cells.cells) side_centre += c[side];
  side_centre /= cells.cells.size();
  if (up) {
    o.up = *up;
  } else {
    const auto low = band(up_axis, 0.0, 0.05, side, side_centre, true).mean();
    const auto high = band(up_axis, 0.95, 1.0, side, side_centre, true).mean();
    o.up = {up_axis, low.value_or(0.0) >= high.value_or(0.0) ? 1 : -1};
    std::snprintf(found, sizeof found, "; feet at %c%c (%.1f cells apart, head end %.1f)", o.up.sign > 0 ? '-' : '+',
                  "xyz"[up_axis], o.up.sign > 0 ? low.value_or(0) : high.value_or(0),
                  o.up.sign > 0 ? high.value_or(0) : low.value_or(0));
    detail += found;
  }
  // 4: forward, toward the toes.
  if (forward) {
    o.forward = *forward;
  } else {
    const double flip = o.up.sign > 0 ? 1.0 : -1.0;  // shares along the up axis from the sole
    auto from_sole = [&](double a, double b) { return flip > 0 ? std::pair(a, b) : std::pair(1.0 - b, 1.0 - a); };
    const auto [f0, f1] = from_sole(0.0, 0.05);
    const auto [s0, s1] = from_sole(0.15, 0.25);
    const auto feet = band(up_axis, f0, f1, forward_axis, 0.0, false).mean();
    const auto shins = band(up_axis, s0, s1, forward_axis, 0.0, false).mean();
    const double ahead = feet.value_or(0.0) - shins.value_or(0.0);
    o.forward = {forward_axis, ahead >= 0.0 ? 1 : -1};
    // Under half a cell the toes hardly show (boots, a low-poly foot): said, so that --forward can settle it.
    std::snprintf(found, sizeof found, "; toes toward %s (%.1f cells past the shins%s)", o.forward.name().c_str(),
                  std::abs(ahead), std::abs(ahead) < 0.5 ? ": weak, --forward to be sure" : "");
    detail += found;
  }
  o.how = "up " + o.up.name() + ", facing " + o.forward.name() + " (found: " + detail + ")";
  return o;
}

Mesh turned_mesh(const Mesh& mesh, const Eigen::Matrix3d& rotation) {
  Mesh out = mesh;
  const Eigen::Matrix3f r = rotation.cast<float>();
  for (auto& p : out.positions) p = r * p;
  for (auto& n : out.normals) n = r * n;
  return out;
}

}  // namespace mocap
