#include <mocap/rig/embed.h>
#include <mocap/rig/mesh_inside.h>
#include <mocap/rig/mesh_orientation.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <numeric>
#include <optional>
#include <string>
#include <unordered_map>

namespace mocap {

namespace {

using Vec3 = Eigen::Vector3d;

// One closed loop of a plane's cut through the mesh.
struct Loop {
  Vec3 centroid = Vec3::Zero();  // of the cut's segments, by length
  double perimeter = 0.0;
};

// The closed loops where the plane (point `origin`, unit `normal`) cuts the
// triangles within `radius` of `origin`. Cut segments are joined through the
// mesh edges they end on; a loop is closed when every edge it crosses is
// crossed twice (a loop cut off by `radius` is not).
std::vector<Loop> slice(const Mesh& mesh, const Vec3& origin, const Vec3& normal, double radius) {
  const std::size_t n = mesh.positions.size();
  std::vector<double> side(n);
  for (std::size_t v = 0; v < n; ++v) side[v] = normal.dot(mesh.positions[v].cast<double>() - origin);
  std::unordered_map<std::uint64_t, int> edge_id;
  std::vector<int> parent;
  std::vector<int> uses;
  struct Segment {
    int edge;
    Vec3 a, b;
  };
  std::vector<Segment> segments;
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  auto id_of = [&](int i, int j) {
    const std::uint64_t key =
        (static_cast<std::uint64_t>(std::min(i, j)) << 32) | static_cast<std::uint32_t>(std::max(i, j));
    auto [it, added] = edge_id.try_emplace(key, static_cast<int>(parent.size()));
    if (added) {
      parent.push_back(it->second);
      uses.push_back(0);
    }
    ++uses[it->second];
    return it->second;
  };
  for (const MeshTriangle& t : mesh.triangles) {
    const int* v = t.vertex.data();
    const bool above[3] = {side[v[0]] > 0.0, side[v[1]] > 0.0, side[v[2]] > 0.0};
    if (above[0] == above[1] && above[1] == above[2]) continue;
    // Within `radius` by the triangle's bounding sphere (about its centroid),
    // not by one corner: a low-poly limb's triangles are longer than the radius.
    const Vec3 a = mesh.positions[v[0]].cast<double>(), b = mesh.positions[v[1]].cast<double>(),
               c = mesh.positions[v[2]].cast<double>();
    const Vec3 centre = (a + b + c) / 3.0;
    const double spread =
        std::sqrt(std::max({(a - centre).squaredNorm(), (b - centre).squaredNorm(), (c - centre).squaredNorm()}));
    if ((centre - origin).norm() - spread > radius) continue;
    int ids[2];
    Vec3 points[2];
    int found = 0;
    for (int k = 0; k < 3 && found < 2; ++k) {
      const int i = v[k], j = v[(k + 1) % 3];
      if (above[k] == above[(k + 1) % 3]) continue;
      const double s = side[i] / (side[i] - side[j]);
      points[found] = mesh.positions[i].cast<double>() + s * (mesh.positions[j] - mesh.positions[i]).cast<double>();
      ids[found++] = id_of(i, j);
    }
    if (found != 2) continue;
    parent[find(ids[0])] = find(ids[1]);
    segments.push_back({ids[0], points[0], points[1]});
  }
  std::unordered_map<int, int> loop_of;
  std::vector<Loop> loops;
  std::vector<bool> open;
  for (std::size_t e = 0; e < parent.size(); ++e) {
    const int root = find(static_cast<int>(e));
    auto [it, added] = loop_of.try_emplace(root, static_cast<int>(loops.size()));
    if (added) {
      loops.emplace_back();
      open.push_back(false);
    }
    if (uses[e] != 2) open[it->second] = true;
  }
  for (const Segment& s : segments) {
    Loop& loop = loops[loop_of[find(s.edge)]];
    const double length = (s.b - s.a).norm();
    loop.centroid += length * 0.5 * (s.a + s.b);
    loop.perimeter += length;
  }
  std::vector<Loop> closed;
  for (std::size_t i = 0; i < loops.size(); ++i) {
    if (open[i] || !(loops[i].perimeter > 0.0)) continue;
    loops[i].centroid /= loops[i].perimeter;
    closed.push_back(loops[i]);
  }
  return closed;
}

// The loop of `loops` whose centroid is nearest `target`, within `reach`.
std::optional<Loop> nearest_loop(const std::vector<Loop>& loops, const Vec3& target, double reach) {
  std::optional<Loop> best;
  double best_distance = reach;
  for (const Loop& loop : loops) {
    const double d = (loop.centroid - target).norm();
    if (d < best_distance) best_distance = d, best = loop;
  }
  return best;
}

// A limb's centre line: points from its root joint out, with arc length
// and the cross-section's perimeter.
struct CentreLine {
  std::vector<Vec3> point;
  std::vector<double> arc;
  std::vector<double> perimeter;

  // The point at arc length s (clamped to the line).
  Vec3 at(double s) const {
    if (s <= arc.front()) return point.front();
    for (std::size_t i = 1; i < arc.size(); ++i) {
      if (s <= arc[i]) {
        const double t = (s - arc[i - 1]) / std::max(arc[i] - arc[i - 1], 1e-12);
        return point[i - 1] + t * (point[i] - point[i - 1]);
      }
    }
    return point.back();
  }
  // The index of the narrowest cross-section among those where keep(i).
  template <class Keep>
  int narrowest(Keep keep) const {
    int best = -1;
    for (std::size_t i = 1; i < point.size(); ++i) {
      if (keep(static_cast<int>(i)) && (best < 0 || perimeter[i] < perimeter[best])) best = static_cast<int>(i);
    }
    return best;
  }
};

// Marches a limb from `joint` along `direction` (unit): first a few probes
// from `lead` metres out to settle the direction, then slices every `step`.
CentreLine march(const Mesh& mesh, const Vec3& joint, Vec3 direction, double lead, double step, double max_length) {
  const double radius = 0.25;  // metres: a limb's cross-section fits in it
  // Find the limb: directions in a cone of 70 degrees about the start's, each
  // probed by the slice `lead` out; the limb is where the probe lands on the
  // centroid of a closed, limb-sized loop (a T-posed start finds an A-posed
  // arm). Nearer the start's direction wins ties.
  {
    const Vec3 start = direction;
    const Vec3 u = start.unitOrthogonal(), v = start.cross(u);
    double best_score = std::numeric_limits<double>::infinity();
    for (int tilt = 0; tilt <= 70; tilt += 10) {
      const int turns = tilt == 0 ? 1 : 12;
      for (int k = 0; k < turns; ++k) {
        const double a = tilt * std::numbers::pi / 180.0, b = 2.0 * std::numbers::pi * k / turns;
        const Vec3 d = std::cos(a) * start + std::sin(a) * (std::cos(b) * u + std::sin(b) * v);
        const Vec3 at = joint + lead * d;
        const auto loop = nearest_loop(slice(mesh, at, d, radius), at, 0.6 * lead + 0.05);
        if (!loop || loop->perimeter > 0.7) continue;
        const double score = (loop->centroid - at).norm() + 0.0005 * tilt;
        if (score < best_score) best_score = score, direction = d;
      }
    }
  }
  // Settle the direction: the centroid of the slice `lead` out, seen from the
  // joint, taken only while its own probe still lands on a loop.
  for (int probe = 0; probe < 3; ++probe) {
    const Vec3 at = joint + lead * direction;
    const auto loop = nearest_loop(slice(mesh, at, direction, radius), at, 0.6 * lead + 0.05);
    if (!loop) break;
    const Vec3 next = (loop->centroid - joint).normalized();
    const Vec3 next_at = joint + lead * next;
    if (!nearest_loop(slice(mesh, next_at, next, radius), next_at, 0.6 * lead + 0.05)) break;
    direction = next;
  }
  CentreLine line;
  line.point.push_back(joint);
  line.arc.push_back(0.0);
  line.perimeter.push_back(0.0);
  Vec3 here = joint + lead * direction;
  double travelled = lead;
  // Near the joint the slice cuts the trunk too: the centre line starts at `lead`.
  bool first = true;
  int misses = 0;
  while (travelled < max_length) {
    const Vec3 at = first ? here : here + step * direction;
    const double reach = first ? 0.6 * lead + 0.05 : std::max(4.0 * step, 0.03);
    const auto loop = nearest_loop(slice(mesh, at, direction, radius), at, reach);
    if (!loop) {
      // Where the limb meets the trunk (an armpit) the cut is one open loop:
      // walk on a few steps before calling it the limb's end.
      if (first || ++misses > 6) break;
      here = at;
      continue;
    }
    misses = 0;
    const Vec3 next = loop->centroid;
    line.arc.push_back(line.arc.back() + (next - line.point.back()).norm());
    line.point.push_back(next);
    line.perimeter.push_back(loop->perimeter);
    // The direction from a point ~6 cm back (or the joint): smooth, and it
    // bends with the limb.
    std::size_t back = line.point.size() - 1;
    while (back > 0 && line.arc.back() - line.arc[back] < 0.06) --back;
    if ((next - line.point[back]).norm() > 1e-6) direction = (next - line.point[back]).normalized();
    here = next;
    travelled = line.arc.back();
    first = false;
  }
  return line;
}

// An arm found from its far end: the vertex farthest out on its side
// (`side` +1 toward +X, beyond `mid_x`) above `min_y` (the finger tips of a
// T- or A-pose, the hand or elbow of an arm hanging at the side), the arm
// marched from there toward `toward` (the placed shoulder) until its
// cross-section meets the trunk's (at the armpit the slice's loop takes the
// trunk in and its centroid leaves the arm). The shoulder is where the
// march ends; the direction out is toward the centre line 12 cm from it.
// None when the march finds no arm (fewer than 5 sections).
std::optional<std::pair<Vec3, Vec3>> arm_from_tip(const Mesh& mesh, double side, double mid_x, double min_y,
                                                  const Vec3& toward, double step, double arm_length) {
  double farthest = 0.0;
  std::optional<Vec3> tip;
  for (const auto& q : mesh.positions) {
    if (q.y() > min_y && side * (q.x() - mid_x) > farthest) farthest = side * (q.x() - mid_x), tip = q.cast<double>();
  }
  if (!tip) return std::nullopt;
  const CentreLine in = march(mesh, *tip, (toward - *tip).normalized(), 0.03, step, 1.5 * arm_length);
  if (in.point.size() < 5) return std::nullopt;
  const Vec3 shoulder = in.point.back();
  std::size_t k = in.point.size() - 1;
  while (k > 0 && in.arc.back() - in.arc[k] < 0.12) --k;
  if ((in.point[k] - shoulder).norm() < 1e-6) return std::nullopt;
  return std::pair(shoulder, Vec3((in.point[k] - shoulder).normalized()));
}

// Human proportions as fractions of standing height (Winter, "Biomechanics
// and Motor Control of Human Movement", segment lengths; Drillis and Contini
// 1966): the hip joint at 0.53, the crotch about 0.47 (so the hip joint lies
// 0.06 above it), the ankle joint at 0.039 above the sole, the hand 0.108
// long from the wrist joint to the finger tip.
constexpr double kCrotchToHip = 0.06;
// A limb bone's fitted length over its placed one (the capture's proportion
// at the mesh's height): people's upper and lower limbs vary by about 20%
// around the mean proportion; cartoons by more. Beyond a factor of 2 either
// way the march has followed something else (the 0.19-0.25 arms of issue 29).
constexpr double kLimbFactor[2] = {0.5, 2.0};
constexpr double kHandLength = 0.108;
constexpr double kAnkleHeight = 0.039;

// The crotch: the lowest point of the mesh on its plane of symmetry (x =
// `mid_x`, within 1 cm) - where the legs part. None when that point is not
// where a crotch can be (a long skirt or robe reaches lower): 35% to 60% of the
// height above the sole.
std::optional<double> crotch_height(const Mesh& mesh, double mid_x, double floor, double height) {
  double lowest = std::numeric_limits<double>::infinity();
  for (const auto& q : mesh.positions) {
    if (std::abs(q.x() - mid_x) < 0.01) lowest = std::min(lowest, static_cast<double>(q.y()));
  }
  if (lowest < floor + 0.35 * height || lowest > floor + 0.6 * height) return std::nullopt;
  return lowest;
}

// The neck: horizontal cuts from `from` (the shoulders' height) up, the
// loop nearest the trunk's line (starting at `from`, following the loops'
// centroids) at each; loops shorter than 8% of the height are left out (an
// eye, a tooth, the chin's tip cut apart). The neck is the first narrowest
// cut going up (the cuts narrow from the shoulders and widen again into the
// jaw and the skull; the walk stops 10% past the narrowest); its base is the
// lowest cut below within 1.4 times that perimeter. On the humanoid: base
// 0.578 m up, narrowest 0.608 m (0.32 m around), where CMU's lowerneck, placed
// by the height alone, ends at 0.583 m.
struct Neck {
  Vec3 base = Vec3::Zero();   // centroid of the base's cut
  Vec3 waist = Vec3::Zero();  // centroid of the narrowest cut
};
std::optional<Neck> find_neck(const Mesh& mesh, Vec3 from, double crown, double step, double height) {
  struct Cut {
    Vec3 centroid;
    double perimeter;
  };
  std::vector<Cut> cuts;
  std::size_t narrowest = 0;
  for (Vec3 at = from; at.y() < crown; at.y() += step) {
    std::vector<Loop> loops = slice(mesh, at, Vec3::UnitY(), 0.25);
    std::erase_if(loops, [&](const Loop& l) { return l.perimeter < 0.08 * height; });
    const auto loop = nearest_loop(loops, at, 0.1);
    if (!loop) continue;
    at.x() = loop->centroid.x(), at.z() = loop->centroid.z();
    cuts.push_back({loop->centroid, loop->perimeter});
    if (loop->perimeter < cuts[narrowest].perimeter) narrowest = cuts.size() - 1;
    if (loop->perimeter > 1.1 * cuts[narrowest].perimeter) break;
  }
  // A neck narrows from the shoulders by more than a third; else no neck was seen.
  if (cuts.size() < 3 || cuts[narrowest].perimeter > 0.66 * cuts.front().perimeter) return std::nullopt;
  const double limit = 1.4 * cuts[narrowest].perimeter;
  std::size_t base = narrowest;
  while (base > 0 && cuts[base - 1].perimeter <= limit) --base;
  return Neck{cuts[base].centroid, cuts[narrowest].centroid};
}

}  // namespace

Embedding embed_skeleton(const Skeleton& skeleton, const Pose& start_pose, const Placement& start, const Mesh& mesh,
                         const EmbedOptions& options) {
  if (!start.axes.isIdentity(1e-12)) {
    // A mesh that stands otherwise: embedded turned into the library's frame
    // (Y up, facing +Z), where the method's "up" and "forward" hold.
    Placement upright = start;
    upright.axes = Eigen::Matrix3d::Identity();
    Embedding turned =
        embed_skeleton(skeleton, start_pose, upright, turned_mesh(mesh, start.axes.transpose()), options);
    turned.placement = start;
    for (RigidPart& part : turned.rigid_parts) {
      part.point = start.axes.cast<float>() * part.point;
      part.normal = start.axes.cast<float>() * part.normal;
    }
    return turned;
  }
  {
    // The method's steps and windows are in metres, made for people (0.8 to
    // 2.5 m): a body of another size (a doll, a giant, a mesh read in the
    // wrong unit) is embedded scaled to 1.7 m and the result scaled back.
    Eigen::AlignedBox3d box;
    for (const auto& p : mesh.positions) box.extend(p.cast<double>());
    const double tall = box.isEmpty() ? 0.0 : box.sizes().y();
    if (tall > 0.0 && (tall < 0.8 || tall > 2.5)) {
      const double k = 1.7 / tall;
      Mesh sized = mesh;
      for (auto& p : sized.positions) p *= static_cast<float>(k);
      Placement placed = start;
      placed.scale *= k;
      placed.translation *= k;
      Embedding scaled = embed_skeleton(skeleton, start_pose, placed, sized, options);
      scaled.placement = start;
      for (RigidPart& part : scaled.rigid_parts) {
        part.point /= static_cast<float>(k);
        part.radius /= static_cast<float>(k);
      }
      return scaled;
    }
  }
  const std::size_t bones = skeleton.bones.size();
  Embedding out;
  out.bind_pose = start_pose;
  out.placement = start;
  out.bone_scale.assign(bones, 1.0);
  if (skeleton.offsets_in_parent_frame) {
    out.note = "a BVH skeleton: embedding needs an Acclaim (ASF) one; the placement alone is used";
    return out;
  }
  const double step = options.step > 0.0 ? options.step : 0.01;

  // Joint positions (bone ends) in mesh space, and bone directions, from the start.
  std::vector<Vec3> fk(bones);
  std::vector<Eigen::Quaterniond> rotations(bones);
  forward_kinematics(skeleton, start_pose, fk, rotations);
  const Eigen::Affine3d place = start.matrix();
  std::vector<Vec3> end(bones);
  for (std::size_t b = 0; b < bones; ++b) end[b] = place * fk[b];
  auto start_of = [&](int b) { return skeleton.bones[b].parent < 0 ? end[b] : end[skeleton.bones[b].parent]; };
  auto placed_length = [&](int b) { return start.scale * start_pose.offset[b].norm(); };

  Eigen::AlignedBox3d body;
  for (const auto& p : mesh.positions) body.extend(p.cast<double>());
  const double height = body.sizes().y();
  const std::optional<double> crotch = crotch_height(mesh, end[0].x(), body.min().y(), height);

  std::vector<std::optional<Vec3>> target(bones);
  std::vector<std::string> missing;
  auto bone = [&](const std::string& name) {
    const int b = skeleton.find_bone(name);
    if (b < 0) missing.push_back(name);
    return b;
  };

  for (const char side : {'l', 'r'}) {
    const std::string s(1, side);
    // Arm.
    const int humerus = bone(s + "humerus"), radius = bone(s + "radius"), wrist = bone(s + "wrist");
    const int hand = bone(s + "hand"), fingers = bone(s + "fingers"), thumb = bone(s + "thumb");
    if (humerus >= 0 && radius >= 0 && wrist >= 0 && hand >= 0 && fingers >= 0 && thumb >= 0) {
      Vec3 shoulder = start_of(humerus);
      // CMU's forearm is lradius alone; its lwrist is the palm (lwrist's
      // twist turns the hand about the forearm), lhand and lfingers the fingers.
      const double upper = placed_length(humerus), fore = placed_length(radius);
      CentreLine line =
          march(mesh, shoulder, (end[humerus] - shoulder).normalized(), 0.4 * upper, step, 3.0 * (upper + fore));
      bool from_tip = false;
      if (line.point.size() < 3 || line.arc.back() < 0.3 * (upper + fore)) {
        // The placed shoulder is not the mesh's (another build: a big head,
        // a short trunk), so no arm lies in the cone from it: the arm is
        // found from its far end, marched in to where it meets the trunk.
        if (const auto found = arm_from_tip(mesh, side == 'l' ? 1.0 : -1.0, end[0].x(), body.min().y() + 0.4 * height,
                                            shoulder, step, upper + fore)) {
          shoulder = found->first;
          line = march(mesh, shoulder, found->second, 0.4 * upper, step, 3.0 * (upper + fore));
          from_tip = true;
        }
      }
      const double tip = line.arc.back();
      // The wrist: a hand's length (kHandLength of the height) short of the finger tip.
      const double sw = std::clamp(tip - kHandLength * height, 0.55 * tip, 0.85 * tip);
      if (line.point.size() < 3 || tip < 0.3 * (upper + fore)) {
        out.limb_error += "the " + s + " arm was not found in the mesh (centre line " +
                          std::to_string(static_cast<int>(100 * tip)) + " cm); ";
      } else {
        target[humerus] = line.at(sw * upper / (upper + fore));
        target[radius] = line.at(sw);
        // The shoulder joint lies on the upper arm's axis: the start's
        // shoulder moved onto the line through the elbow and the centre
        // line's first 12 cm past the armpit.
        const int clavicle = skeleton.find_bone(s + "clavicle");
        if (clavicle >= 0 && skeleton.bones[humerus].parent == clavicle && from_tip) {
          target[clavicle] = shoulder;
        } else if (clavicle >= 0 && skeleton.bones[humerus].parent == clavicle && line.point.size() > 3) {
          std::size_t far = 2;
          while (far + 1 < line.point.size() && line.arc[far] - line.arc[1] < 0.12) ++far;
          const Vec3 axis = (line.point[far] - line.point[1]).normalized();
          const Vec3 on_axis = line.point[1] + (shoulder - line.point[1]).dot(axis) * axis;
          if ((on_axis - shoulder).norm() < 0.1) target[clavicle] = on_axis;
        }
        // Palm, first and further phalanges in the capture's ratio, the last
        // ending 1.5 cm short of the tip.
        const double hand_end = tip - 0.015;
        const double p = placed_length(wrist), h = placed_length(hand), f = placed_length(fingers);
        target[wrist] = line.at(sw + (hand_end - sw) * p / (p + h + f));
        target[hand] = line.at(sw + (hand_end - sw) * (p + h) / (p + h + f));
        target[fingers] = line.at(hand_end);
        // The thumb: beside the hand, the slices across it show the palm's loop and,
        // apart from it, the thumb's; the thumb's end is the farthest such loop's
        // centroid within the hand's first 60%.
        const Vec3 wrist_point = line.at(sw);
        const Vec3 along = (*target[fingers] - wrist_point).normalized();
        std::optional<Vec3> thumb_end;
        for (double t = 0.02; t <= 0.6 * (hand_end - sw); t += step) {
          const Vec3 at = line.at(sw + t);
          const auto loops = slice(mesh, at, along, 0.12);
          const auto palm = nearest_loop(loops, at, 0.05);
          if (!palm) continue;
          std::optional<Vec3> beside;
          double nearest = 0.07;
          for (const Loop& loop : loops) {
            const double d = (loop.centroid - palm->centroid).norm();
            if (d > 0.015 && d < nearest && loop.perimeter < 0.12) nearest = d, beside = loop.centroid;
          }
          if (beside) thumb_end = beside;
        }
        if (thumb_end) target[thumb] = *thumb_end;
      }
    }
    // Leg.
    const int hipjoint = skeleton.find_bone(s + "hipjoint");  // optional: without it the hip stays put
    const int femur = bone(s + "femur"), tibia = bone(s + "tibia"), foot = bone(s + "foot"), toes = bone(s + "toes");
    if (femur >= 0 && tibia >= 0 && foot >= 0 && toes >= 0) {
      const double thigh = placed_length(femur), shin = placed_length(tibia);
      const double floor = body.min().y();
      // The hip joint: above the thigh's cross-section just below the crotch,
      // kCrotchToHip of the height above the crotch.
      Vec3 hip = start_of(femur);
      if (crotch && hipjoint >= 0 && skeleton.bones[femur].parent == hipjoint) {
        const Vec3 below(hip.x(), *crotch - 0.02, hip.z());
        if (const auto thigh_loop = nearest_loop(slice(mesh, below, Vec3::UnitY(), 0.25), below, 0.15)) {
          hip = Vec3(thigh_loop->centroid.x(), *crotch + kCrotchToHip * height, thigh_loop->centroid.z());
          target[hipjoint] = hip;
        }
      }
      const CentreLine line =
          march(mesh, hip, (end[femur] - start_of(femur)).normalized(), 0.4 * thigh, step, 2.0 * (thigh + shin));
      // The shin's narrowest cross-section gives its axis; the ankle joint
      // lies on it, kAnkleHeight of the height above the sole.
      const int a = line.narrowest([&](int i) {
        const double up = line.point[i].y() - floor;
        return up >= 0.03 * height && up <= 0.12 * height;
      });
      if (a < 0) {
        out.limb_error += "the " + s + " leg was not found in the mesh (no shin section 3-12% of the height up); ";
      } else {
        int up_shin = a;
        while (up_shin > 0 && line.arc[a] - line.arc[up_shin] < 0.1) --up_shin;
        const Vec3 axis = (line.point[a] - line.point[up_shin]).normalized();
        double beyond = 0.0;  // metres along the axis from the narrowest section to the ankle
        if (axis.y() < -0.5) beyond = (floor + kAnkleHeight * height - line.point[a].y()) / axis.y();
        const Vec3 ankle = line.point[a] + beyond * axis;
        const double sa = line.arc[a] + beyond;
        target[femur] = line.at(sa * thigh / (thigh + shin));
        target[tibia] = ankle;
        // The foot: vertices below the ankle, beside it; its tip the one farthest in +Z (the mesh faces +Z).
        // Windows in shares of the height (on the 1.67 m humanoid: 8 cm across, 35 cm along, a foot at
        // least 5 cm long), so that a body of any size, a doll read in other units too, has its feet found.
        Vec3 toe_tip = ankle;
        for (const auto& q : mesh.positions) {
          const Vec3 p = q.cast<double>();
          if (p.y() < ankle.y() && std::abs(p.x() - ankle.x()) < 0.048 * height &&
              std::abs(p.z() - ankle.z()) < 0.21 * height && p.z() > toe_tip.z()) {
            toe_tip = p;
          }
        }
        auto foot_section = [&](double z) -> std::optional<Vec3> {
          const Vec3 at(
              ankle.x() + (toe_tip.x() - ankle.x()) * (z - ankle.z()) / std::max(toe_tip.z() - ankle.z(), 1e-6),
              floor + 0.4 * (ankle.y() - floor), z);
          const auto loop = nearest_loop(slice(mesh, at, Vec3::UnitZ(), 0.12 * height), at, 0.048 * height);
          if (!loop) return std::nullopt;
          return loop->centroid;
        };
        const auto ball = foot_section(ankle.z() + 0.72 * (toe_tip.z() - ankle.z()));
        const auto tip = foot_section(toe_tip.z() - 0.02);
        if (ball && tip && toe_tip.z() > ankle.z() + 0.03 * height) {
          target[foot] = *ball;
          target[toes] = *tip;
        } else {
          out.limb_error += "the " + s + " foot was not found in the mesh; ";
        }
      }
    }
  }
  // The trunk (step 3b in embed.h): the chest ends at the neck's base.
  const int lowerback = skeleton.find_bone("lowerback"), upperback = skeleton.find_bone("upperback");
  const int thorax = skeleton.find_bone("thorax"), lowerneck = skeleton.find_bone("lowerneck");
  const int upperneck = skeleton.find_bone("upperneck"), head = skeleton.find_bone("head");
  const int lclavicle = skeleton.find_bone("lclavicle"), rclavicle = skeleton.find_bone("rclavicle");
  const auto child_of = [&](int b, int parent) { return b >= 0 && parent >= 0 && skeleton.bones[b].parent == parent; };
  const bool spine = child_of(lowerback, 0) && child_of(upperback, lowerback) && child_of(thorax, upperback) &&
                     child_of(lowerneck, thorax) && child_of(upperneck, lowerneck) && child_of(head, upperneck);
  std::optional<Neck> neck;
  if (spine && lclavicle >= 0 && rclavicle >= 0 && target[lclavicle] && target[rclavicle]) {
    const double shoulders = 0.5 * (target[lclavicle]->y() + target[rclavicle]->y());
    neck = find_neck(mesh, Vec3(end[thorax].x(), shoulders + step, end[thorax].z()), body.max().y(), step, height);
    const Vec3 root = end[0];
    const Vec3 placed = end[lowerneck] - root;
    const double k = neck && placed.norm() > 1e-6 ? (neck->base - root).norm() / placed.norm() : 0.0;
    // Beyond the limbs' factors the cuts found something other than a neck:
    // the trunk stays as placed.
    if (k >= kLimbFactor[0] && k <= kLimbFactor[1]) {
      const Eigen::Quaterniond turn = Eigen::Quaterniond::FromTwoVectors(placed, neck->base - root);
      for (const int b : {lowerback, upperback}) target[b] = root + k * (turn * (end[b] - root));
      target[thorax] = neck->base;
      const Vec3 skull = neck->base + turn * (end[upperneck] - end[lowerneck]);
      const double lower = placed_length(lowerneck), upper = placed_length(upperneck);
      if (lower + upper > 1e-9) target[lowerneck] = neck->base + lower / (lower + upper) * (skull - neck->base);
      target[upperneck] = skull;
    } else {
      neck.reset();
    }
  }
  // The head: skull and jaw move as one, cut from the neck at its
  // narrowest level cut (find_neck), or, when no neck was fitted, where the
  // slices across the placed neck, from its base to the skull's joint, are
  // narrowest.
  if (spine) {
    const Vec3 base = end[thorax], skull = end[upperneck];
    const double length = (skull - base).norm();
    if (length > 1e-6) {
      Vec3 axis = (skull - base) / length;
      double narrowest = std::numeric_limits<double>::infinity();
      Vec3 waist = Vec3::Zero();
      if (neck) {  // the cut is the neck's narrowest, level
        narrowest = 0.0, waist = neck->waist, axis = Vec3::UnitY();
      } else {
        for (double t = 0.2; t <= 1.0 + 1e-9; t += 0.05) {
          const Vec3 at = base + t * length * axis;
          const auto loop = nearest_loop(slice(mesh, at, axis, 0.25), at, 0.08);
          if (loop && loop->perimeter < narrowest) narrowest = loop->perimeter, waist = loop->centroid;
        }
      }
      if (std::isfinite(narrowest)) {
        out.rigid_parts.push_back(RigidPart{
            waist.cast<float>(), axis.cast<float>(), static_cast<float>(0.3 * height), head, {lowerneck, upperneck}});
      }
    }
  }

  if (const int l = skeleton.find_bone("lhipjoint"), r = skeleton.find_bone("rhipjoint"); l >= 0 && r >= 0) {
    out.girdles.push_back({l, r});
  }
  for (const int b : {lowerback, upperback, thorax})
    if (b >= 0) out.thick_bones.push_back(b);
  if (!missing.empty()) {
    out.note += "no bone";
    for (const auto& name : missing) out.note += " " + name;
    out.note += " (embedding knows CMU's bone names); ";
  }

  // The bind pose: bones turned and scaled to their targets, parents first.
  const Eigen::Quaterniond yaw(Eigen::AngleAxisd(start.yaw_radians, Vec3::UnitY()));
  std::vector<Eigen::Quaterniond> world(bones);
  std::vector<Vec3> placed(bones);  // mesh space, fitted
  for (const int b : skeleton.eval_order) {
    const int parent = skeleton.bones[b].parent;
    if (parent < 0) {
      world[b] = out.bind_pose.rotation[b];
      placed[b] = end[b];
      continue;
    }
    world[b] = world[parent] * out.bind_pose.rotation[b];
    const Vec3 offset = start_pose.offset[b];
    if (target[b] && offset.norm() > 0.0) {
      const Vec3 want = yaw.inverse() * (*target[b] - placed[parent]);
      const Vec3 have = world[b] * offset;
      if (want.norm() > 1e-6) {
        world[b] = Eigen::Quaterniond::FromTwoVectors(have, want) * world[b];
        out.bind_pose.rotation[b] = (world[parent].inverse() * world[b]).normalized();
        out.bone_scale[b] = want.norm() / (start.scale * offset.norm());
        out.fitted.push_back(b);
      }
    }
    placed[b] = placed[parent] + start.scale * out.bone_scale[b] * (yaw * (world[b] * offset));
  }
  // Step 6: the shoulders' line and the thumbs' set are the mesh's (see embed.h).
  for (const char* name : {"lclavicle", "rclavicle", "lthumb", "rthumb"}) {
    const int b = skeleton.find_bone(name);
    if (b < 0 || std::find(out.fitted.begin(), out.fitted.end(), b) == out.fitted.end()) continue;
    out.rest_relative.push_back({b, (start_pose.rotation[b].conjugate() * out.bind_pose.rotation[b]).normalized()});
  }
  // A thumb not found grows with the hand.
  for (const char side : {'l', 'r'}) {
    const int thumb = skeleton.find_bone(std::string(1, side) + "thumb");
    const int hand = skeleton.find_bone(std::string(1, side) + "hand");
    if (thumb >= 0 && hand >= 0 && !target[thumb]) out.bone_scale[thumb] = out.bone_scale[hand];
  }
  // A fitted limb bone kept within kLimbFactor of the capture's proportion
  // (the placed length): beyond, the march followed something else.
  for (const char* name : {"lhumerus", "lradius", "rhumerus", "rradius", "lfemur", "ltibia", "rfemur", "rtibia"}) {
    const int b = skeleton.find_bone(name);
    if (b < 0 || !target[b]) continue;
    const double f = out.bone_scale[b];
    if (f < kLimbFactor[0] || f > kLimbFactor[1]) {
      char text[160];
      std::snprintf(text, sizeof text, "%s fitted %.2f times its placed length (expected %.1f-%.1f); ", name, f,
                    kLimbFactor[0], kLimbFactor[1]);
      out.limb_error += text;
    }
  }
  std::sort(out.fitted.begin(), out.fitted.end());
  if (!out.note.empty()) out.note.resize(out.note.size() - 2);
  if (!out.limb_error.empty()) out.limb_error.resize(out.limb_error.size() - 2);
  return out;
}

int FitReport::worst_outside(std::span<const int> bones) const {
  int worst = -1;
  double distance = 0.0;
  auto consider = [&](int b) {
    if (joints[b].signed_distance > distance) distance = joints[b].signed_distance, worst = b;
  };
  if (bones.empty()) {
    for (std::size_t b = 0; b < joints.size(); ++b) consider(static_cast<int>(b));
  } else {
    for (const int b : bones) consider(b);
  }
  return worst;
}

FitReport fit_report(const Skeleton& skeleton, const Pose& pose, const SkeletonBind& bind,
                     std::span<const Eigen::Vector3f> positions, std::span<const MeshTriangle> triangles,
                     std::span<const int> bones) {
  const std::size_t count = skeleton.bones.size();
  std::vector<Vec3> fk(count);
  std::vector<Eigen::Quaterniond> rotations(count);
  std::vector<Eigen::Affine3d> frames(count);
  bone_frames(skeleton, pose, bind.placement, fk, rotations, frames, bind.bone_scale);
  const Eigen::Affine3d place = bind.placement.matrix();
  FitReport report;
  report.joints.resize(count);
  for (std::size_t b = 0; b < count; ++b) {
    JointFit& joint = report.joints[b];
    joint.bone = static_cast<int>(b);
    joint.position = place * fk[b];
    joint.signed_distance = bones.empty() ? signed_distance(positions, triangles, joint.position)
                                          : std::numeric_limits<double>::quiet_NaN();
  }
  for (const int b : bones) {
    if (b < 0 || static_cast<std::size_t>(b) >= count) continue;
    JointFit& joint = report.joints[b];
    joint.signed_distance = signed_distance(positions, triangles, joint.position);
  }
  return report;
}

std::string format_fit_report(const Skeleton& skeleton, const SkeletonBind& bind, const FitReport& report) {
  std::string text = "fit: joint (bone end), signed distance to the mesh surface in cm (< 0 inside), length factor\n";
  char line[256];
  for (const JointFit& joint : report.joints) {
    if (!joint.measured()) continue;
    const double factor = bind.bone_scale.empty() ? 1.0 : bind.bone_scale[joint.bone];
    std::snprintf(line, sizeof line, "fit: %-12s %8.2f %-7s %.3f\n", skeleton.bones[joint.bone].name.c_str(),
                  100.0 * joint.signed_distance, joint.signed_distance < 0.0 ? "inside" : "outside", factor);
    text += line;
  }
  std::vector<int> limbs;
  for (const char* name : {"lhumerus", "rhumerus", "lwrist", "rwrist", "lfemur", "rfemur", "ltibia", "rtibia"}) {
    if (const int b = skeleton.find_bone(name); b >= 0) limbs.push_back(b);
  }
  const int worst = report.worst_outside(limbs);
  if (worst < 0) return text + "fit: every elbow, wrist, knee and ankle inside the mesh\n";
  std::snprintf(line, sizeof line, "fit: worst elbow/wrist/knee/ankle: %s %.2f cm outside\n",
                skeleton.bones[worst].name.c_str(), 100.0 * report.joints[worst].signed_distance);
  return text + line;
}

}  // namespace mocap
