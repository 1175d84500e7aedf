// The offline rig and the per-frame job (retarget.h). Rotations are built in
// the model's world and turned into locals at the end, so the model's scale
// nodes and up axis never enter the formulas.
#include <mocap/retarget/retarget.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <numeric>
#include <unordered_map>

namespace mocap {
namespace {

using Eigen::Quaterniond;
using Eigen::Vector3d;

double mean_scale(const Vector3d& s) {
  return (std::abs(s.x()) + std::abs(s.y()) + std::abs(s.z())) / 3.0;
}

// The chains of limb roles, root to tip.
constexpr std::array<std::array<Role, 4>, 4> kLimbChains = {{
    {Role::ThighL, Role::ShinL, Role::FootL, Role::ToeL},
    {Role::ThighR, Role::ShinR, Role::FootR, Role::ToeR},
    {Role::ClavicleL, Role::UpperArmL, Role::ForearmL, Role::HandL},
    {Role::ClavicleR, Role::UpperArmR, Role::ForearmR, Role::HandR},
}};

// The right-handed frame (left, up, forward) as matrix columns.
Eigen::Matrix3d body_frame(const Vector3d& up, Vector3d left) {
  left -= left.dot(up) * up;
  left.normalize();
  Eigen::Matrix3d m;
  m.col(0) = left;
  m.col(1) = up;
  m.col(2) = left.cross(up);
  return m;
}

struct Arc {
  std::vector<double> s;  // cumulative length at each chain joint
};

Arc arc_lengths(const std::vector<Vector3d>& points) {
  Arc arc;
  arc.s.assign(points.size(), 0.0);
  for (std::size_t i = 1; i < points.size(); ++i) arc.s[i] = arc.s[i - 1] + (points[i] - points[i - 1]).norm();
  return arc;
}

// The capture point at arc length `s` along chain `bones` (with lengths `arc`),
// and the segment index it falls in.
CapturePoint point_at(const std::vector<int>& bones, const Arc& arc, double s, std::size_t& segment) {
  const std::size_t n = bones.size();
  segment = 0;
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const double len = arc.s[k + 1] - arc.s[k];
    if (len <= 1e-12) continue;
    segment = k;
    if (s <= arc.s[k + 1] + 1e-12) {
      return {bones[k], bones[k + 1], std::clamp((s - arc.s[k]) / len, 0.0, 1.0)};
    }
  }
  return {bones[segment], bones[std::min(segment + 1, n - 1)], 1.0};
}

// Steps 1 and 2 and the --map overrides: the capture's rest pose, the
// model's bind pose and both role maps, filled as far as they were found
// when it fails.
Result<void> map_skeletons(RetargetRig& rig, const Skeleton& skeleton, const std::string& capture_path,
                           const RiggedModel& model, const RetargetOptions& options) {
  rig.skeleton = skeleton;
  const int bones = static_cast<int>(skeleton.bones.size());
  // 1. The capture: its joint points J(x) in the rest pose, and its roles.
  rig.capture_point_bone.resize(static_cast<std::size_t>(bones));
  for (int b = 0; b < bones; ++b) {
    rig.capture_point_bone[static_cast<std::size_t>(b)] =
        skeleton.offsets_in_parent_frame || b == 0 ? b : skeleton.bones[static_cast<std::size_t>(b)].parent;
  }
  const Pose rest = rest_pose(skeleton);
  std::vector<Vector3d> rest_positions(static_cast<std::size_t>(bones));
  rig.capture_rest_world.resize(static_cast<std::size_t>(bones));
  forward_kinematics(skeleton, rest, rest_positions, rig.capture_rest_world);
  auto capture_rest_point = [&](int x) {
    return rest_positions[static_cast<std::size_t>(rig.capture_point_bone[static_cast<std::size_t>(x)])];
  };
  for (int b = 0; b < bones; ++b) {
    rig.capture_joints.names.push_back(skeleton.bones[static_cast<std::size_t>(b)].name);
    rig.capture_joints.parents.push_back(skeleton.bones[static_cast<std::size_t>(b)].parent);
    rig.capture_joints.positions.push_back(capture_rest_point(b));
  }
  rig.capture_map = find_humanoid_roles(rig.capture_joints);
  auto capture_map = find_humanoid(rig.capture_joints, capture_path);
  if (!capture_map) return std::unexpected(capture_map.error());

  // 2. The model in its bind pose, in its own world.
  if (model.joints.empty()) {
    return fail(model.path, 0, "the model has no skin: expected a rigged model with skin joints and weights");
  }
  const ModelPose bind = bind_pose(model);
  const std::size_t nodes = model.nodes.size();
  rig.bind_translation = bind.translation;
  rig.bind_rotation = bind.rotation;
  rig.bind_scale = bind.scale;
  rig.node_parents.resize(nodes);
  rig.bind_world_position.resize(nodes);
  rig.bind_world_rotation.resize(nodes);
  rig.bind_world_scale.resize(nodes);
  for (std::size_t n = 0; n < nodes; ++n) {
    const int p = model.nodes[n].parent;
    rig.node_parents[n] = p;
    const Vector3d pp = p < 0 ? Vector3d::Zero() : rig.bind_world_position[static_cast<std::size_t>(p)];
    const Quaterniond pr = p < 0 ? Quaterniond::Identity() : rig.bind_world_rotation[static_cast<std::size_t>(p)];
    const double ps = p < 0 ? 1.0 : rig.bind_world_scale[static_cast<std::size_t>(p)];
    rig.bind_world_position[n] = pp + pr * (ps * bind.translation[n]);
    rig.bind_world_rotation[n] = (pr * bind.rotation[n]).normalized();
    rig.bind_world_scale[n] = ps * mean_scale(bind.scale[n]);
  }
  std::vector<int> joint_of_node(nodes, -1);
  for (const ModelJoint& joint : model.joints) {
    if (joint_of_node[static_cast<std::size_t>(joint.node)] < 0) {
      joint_of_node[static_cast<std::size_t>(joint.node)] = 0;
    }
  }
  for (std::size_t n = 0; n < nodes; ++n) {
    if (joint_of_node[n] < 0) continue;
    joint_of_node[n] = static_cast<int>(rig.target_nodes.size());
    rig.target_nodes.push_back(static_cast<int>(n));
    int p = model.nodes[n].parent;
    while (p >= 0 && joint_of_node[static_cast<std::size_t>(p)] < 0)
      p = model.nodes[static_cast<std::size_t>(p)].parent;
    rig.target_joints.names.push_back(model.nodes[n].name);
    rig.target_joints.parents.push_back(p < 0 ? -1 : joint_of_node[static_cast<std::size_t>(p)]);
    rig.target_joints.positions.push_back(rig.bind_world_position[n]);
  }
  // The model's up: the axis its hips-to-head points along (glTF and Assimp's
  // COLLADA give Y; Z up and others are tried after).
  Result<HumanoidMap> target_map = fail(model.path, 0, "");
  const std::array<Vector3d, 6> ups = {Vector3d::UnitY(),  Vector3d::UnitZ(), -Vector3d::UnitY(),
                                       -Vector3d::UnitZ(), Vector3d::UnitX(), -Vector3d::UnitX()};
  Result<HumanoidMap> first_try = fail(model.path, 0, "");
  for (std::size_t u = 0; u < ups.size(); ++u) {
    rig.target_joints.up = ups[u];
    auto attempt = find_humanoid(rig.target_joints, model.path);
    if (u == 0) first_try = attempt;
    if (!attempt) continue;
    const Vector3d spine = rig.target_joints.positions[static_cast<std::size_t>((*attempt)[Role::Head].joint)] -
                           rig.target_joints.positions[static_cast<std::size_t>((*attempt)[Role::Hips].joint)];
    if (spine.norm() > 0 && spine.normalized().dot(ups[u]) > 0.7) {
      target_map = attempt;
      break;
    }
  }
  if (!target_map) {
    rig.target_joints.up = Vector3d::UnitY();
    rig.up = rig.target_joints.up;
    rig.target_map = find_humanoid_roles(rig.target_joints);
    if (!first_try) return std::unexpected(first_try.error());
    target_map = first_try;
  }
  rig.target_map = *target_map;
  rig.up = rig.target_joints.up;
  // glTF lets names repeat (an IK target called as its bone): such a joint
  // is shown with its glTF node index ("Foot.L #12"), and --map may name
  // any joint so or by "#12" alone.
  {
    std::unordered_map<std::string, int> count;
    for (const std::string& name : rig.target_joints.names) ++count[name];
    for (std::size_t j = 0; j < rig.target_joints.names.size(); ++j) {
      const int source = model.nodes[static_cast<std::size_t>(rig.target_nodes[j])].source;
      if (count[rig.target_joints.names[j]] > 1 && source >= 0) {
        rig.target_joints.names[j] += " #" + std::to_string(source);
      }
    }
  }
  if (!options.map_path.empty()) {
    auto overrides = read_bone_map_overrides(options.map_path);
    if (!overrides) return std::unexpected(overrides.error());
    for (BoneMapOverride& o : *overrides) {
      if (o.target.size() < 2 || o.target[0] != '#' ||
          o.target.find_first_not_of("0123456789", 1) != std::string::npos) {
        continue;
      }
      int source = -1;
      const auto [end, error] = std::from_chars(o.target.data() + 1, o.target.data() + o.target.size(), source);
      if (error != std::errc() || end != o.target.data() + o.target.size()) continue;  // out of range: named as it is
      for (std::size_t j = 0; j < rig.target_nodes.size(); ++j) {
        if (model.nodes[static_cast<std::size_t>(rig.target_nodes[j])].source == source) {
          o.target = rig.target_joints.names[j];
        }
      }
    }
    auto applied = apply_bone_map_overrides(*overrides, options.map_path, rig.capture_joints, rig.capture_map,
                                            rig.target_joints, rig.target_map);
    if (!applied) return std::unexpected(applied.error());
  }
  return {};
}

}  // namespace

std::string describe_bone_map(const Skeleton& skeleton, const std::string& capture_path, const RiggedModel& model,
                              const RetargetOptions& options) {
  RetargetRig rig;
  (void)map_skeletons(rig, skeleton, capture_path, model, options);
  return format_bone_map(rig.capture_joints, rig.capture_map, rig.target_joints, rig.target_map);
}

Result<RetargetRig> build_retarget_rig(const Skeleton& skeleton, const std::string& capture_path,
                                       const RiggedModel& model, const RetargetOptions& options) {
  RetargetRig rig;
  if (auto mapped = map_skeletons(rig, skeleton, capture_path, model, options); !mapped) {
    return std::unexpected(mapped.error());
  }
  const std::size_t nodes = model.nodes.size();
  auto capture_rest_point = [&](int x) { return rig.capture_joints.positions[static_cast<std::size_t>(x)]; };
  auto cap = [&](Role r) { return rig.capture_map[r].joint; };
  auto tgt = [&](Role r) {
    const int j = rig.target_map[r].joint;
    return j < 0 ? -1 : rig.target_nodes[static_cast<std::size_t>(j)];
  };
  auto tpos = [&](int node) { return rig.bind_world_position[static_cast<std::size_t>(node)]; };

  // 3. A: the capture's (Y up, hip line) frame onto the model's.
  const Eigen::Matrix3d capture_frame =
      body_frame(Vector3d::UnitY(), capture_rest_point(cap(Role::ThighL)) - capture_rest_point(cap(Role::ThighR)));
  const Eigen::Matrix3d model_frame = body_frame(rig.up, tpos(tgt(Role::ThighL)) - tpos(tgt(Role::ThighR)));
  rig.align = Quaterniond(Eigen::Matrix3d(model_frame * capture_frame.transpose())).normalized();

  // 4. Scale, floor, legs.
  double capture_leg = 0.0, model_leg = 0.0;
  for (int side = 0; side < 2; ++side) {
    const auto& chain = kLimbChains[static_cast<std::size_t>(side)];
    capture_leg += (capture_rest_point(cap(chain[0])) - capture_rest_point(cap(chain[1]))).norm() +
                   (capture_rest_point(cap(chain[1])) - capture_rest_point(cap(chain[2]))).norm();
    const double leg =
        (tpos(tgt(chain[0])) - tpos(tgt(chain[1]))).norm() + (tpos(tgt(chain[1])) - tpos(tgt(chain[2]))).norm();
    model_leg += leg;
    rig.legs[static_cast<std::size_t>(side)].length = leg;
  }
  if (capture_leg <= 1e-9)
    return fail(capture_path, 0, "the capture's legs have no length: expected a humanoid with legs");
  if (model_leg <= 1e-12) return fail(model.path, 0, "the model's legs have no length: expected a humanoid with legs");
  rig.scale = model_leg / capture_leg;
  // The soles go on the scene's ground (up . x = 0, glTF's y = 0), where the
  // capture's floor is, not on the bind mesh's lowest point: an exporter may
  // have moved the whole character (an armature node 1 m down).
  rig.floor = 0.0;
  double bind_floor = std::numeric_limits<double>::max();
  for (const Eigen::Vector3f& v : model.mesh.positions) bind_floor = std::min(bind_floor, v.cast<double>().dot(rig.up));
  if (model.mesh.positions.empty()) bind_floor = 0.0;
  for (int side = 0; side < 2; ++side) {
    const auto& chain = kLimbChains[static_cast<std::size_t>(side)];
    RetargetLeg& leg = rig.legs[static_cast<std::size_t>(side)];
    leg.thigh = tgt(chain[0]);
    leg.shin = tgt(chain[1]);
    leg.foot = tgt(chain[2]);
    leg.toe = tgt(chain[3]);
    leg.capture_foot = cap(chain[2]);
    leg.ankle_height = tpos(leg.foot).dot(rig.up) - bind_floor;
    leg.toe_height = leg.toe >= 0 ? tpos(leg.toe).dot(rig.up) - bind_floor : leg.ankle_height;
    // How far a pinned foot pivots about its ball: not at all while the
    // foot is proportioned as the capture's (its pitch is the capture's, the
    // leg reaches), fully from a foot three times as long for its shin (a
    // chibi's, longer than the shin: copying the capture's roll would bend
    // the knee far off the capture's).
    if (leg.toe >= 0 && cap(chain[3]) >= 0) {
      const double model_ratio = (tpos(leg.toe) - tpos(leg.foot)).norm() / (tpos(leg.foot) - tpos(leg.shin)).norm();
      const double capture_ratio = (capture_rest_point(cap(chain[3])) - capture_rest_point(cap(chain[2]))).norm() /
                                   (capture_rest_point(cap(chain[2])) - capture_rest_point(cap(chain[1]))).norm();
      if (std::isfinite(model_ratio) && capture_ratio > 1e-9) {
        leg.pivot = std::clamp((model_ratio / capture_ratio - 1.5) / 1.5, 0.0, 1.0);
      }
    }
  }
  for (int side = 0; side < 2; ++side) {
    const auto& chain = kLimbChains[static_cast<std::size_t>(side) + 2];
    RetargetArm arm{tgt(chain[1]), tgt(chain[2]), tgt(chain[3]), -1, cap(chain[3])};
    if (arm.upper < 0 || arm.fore < 0 || arm.hand < 0 || arm.capture_hand < 0) continue;
    for (const DrivenNode& d : rig.driven) {
      if (d.node == arm.hand && d.has_segment) arm.hand_end = d.next;
    }
    rig.arms[static_cast<std::size_t>(side)] = arm;
  }
  // Sole points: the bind vertices each leg's foot and toe carry most, near the foot's lowest.
  for (int side = 0; side < 2; ++side) {
    RetargetLeg& leg = rig.legs[static_cast<std::size_t>(side)];
    std::vector<std::pair<double, SolePoint>> candidates;
    double lowest = std::numeric_limits<double>::max();
    for (std::size_t v = 0; v < model.weights.size() && v < model.mesh.positions.size(); ++v) {
      const int node = model.joints[model.weights[v].bone[0]].node;
      if (node != leg.foot && node != leg.toe) continue;
      const Vector3d p = model.mesh.positions[v].cast<double>();
      const auto n = static_cast<std::size_t>(node);
      const Vector3d local =
          rig.bind_world_rotation[n].conjugate() * (p - rig.bind_world_position[n]) / rig.bind_world_scale[n];
      candidates.push_back({p.dot(rig.up), {node, local}});
      lowest = std::min(lowest, p.dot(rig.up));
    }
    std::vector<SolePoint> near;
    for (const auto& [height, point] : candidates) {
      if (height <= lowest + 0.25 * leg.ankle_height) near.push_back(point);
    }
    const std::size_t stride = std::max<std::size_t>(1, (near.size() + 63) / 64);
    for (std::size_t i = 0; i < near.size(); i += stride) leg.sole.push_back(near[i]);
  }
  // Whether `node` hangs below `ancestor` (not itself).
  auto below = [&](int node, int ancestor) {
    for (int p = rig.node_parents[static_cast<std::size_t>(node)]; p >= 0;
         p = rig.node_parents[static_cast<std::size_t>(p)])
      if (p == ancestor) return true;
    return false;
  };
  rig.hips_node = tgt(Role::Hips);
  // The root motion goes on the node that carries the hips, both legs and
  // the head: some rigs hang the legs or the spine beside the hips
  // (Quaternius: Body parents Hips and the thighs; oga_knight: body_ctrl
  // parents the pelvis and the spine), and moving the hips alone would
  // leave them behind.
  const int named_hips = rig.hips_node;
  for (const Role carried : {Role::ThighL, Role::ThighR, Role::Head}) {
    const int t = tgt(carried);
    while (t >= 0 && rig.hips_node >= 0 && t != rig.hips_node && !below(t, rig.hips_node))
      rig.hips_node = rig.node_parents[static_cast<std::size_t>(rig.hips_node)];
  }
  // Not the scene's root (Assimp's own above several roots): the legs or
  // the head are in another tree, and the hips alone are driven.
  if (rig.hips_node < 0 || rig.node_parents[static_cast<std::size_t>(rig.hips_node)] < 0) rig.hips_node = named_hips;
  // The carrier turns with the capture's root about the hips, not about its
  // own origin: the named hips' place in its bind frame.
  {
    const auto c = static_cast<std::size_t>(rig.hips_node);
    rig.hips_offset =
        rig.bind_world_rotation[c].conjugate() * (tpos(named_hips) - tpos(rig.hips_node)) / rig.bind_world_scale[c];
  }
  // Across the ground the hips go where the capture's root is (scaled), not
  // where the bind pose had them: the character stands where the capture
  // stands; up, the soles' lift (retarget_clip) sets the height.
  rig.root_offset = tpos(named_hips) - rig.scale * (rig.align * capture_rest_point(cap(Role::Hips)));
  rig.root_offset = rig.root_offset.dot(rig.up) * rig.up;

  // Where each capture bone ends in the rest pose (a leaf's tip).
  std::vector<Vector3d> capture_rest_end(skeleton.bones.size());
  {
    std::vector<Quaterniond> rotations(skeleton.bones.size());
    forward_kinematics(skeleton, rest_pose(skeleton), capture_rest_end, rotations);
  }

  // 5. Driven nodes.
  auto add = [&](int node, int owner, const CapturePoint* from, const CapturePoint* to, int next,
                 const Quaterniond& inherited) -> Quaterniond {
    DrivenNode d;
    d.node = node;
    d.owner = owner;
    d.offset = inherited;
    if (from != nullptr && next >= 0) {
      const Vector3d bind_dir = tpos(next) - tpos(node);
      auto at = [&](const CapturePoint& p) {
        const Vector3d b = p.b_end ? capture_rest_end[static_cast<std::size_t>(p.b)] : capture_rest_point(p.b);
        return ((1.0 - p.t) * capture_rest_point(p.a) + p.t * b).eval();
      };
      const Vector3d capture_dir = rig.align * (at(*to) - at(*from));
      if (bind_dir.norm() > 1e-12 && capture_dir.norm() > 1e-12) {
        d.has_segment = true;
        d.from = *from;
        d.to = *to;
        d.next = next;
        d.bind_direction = bind_dir.normalized();
        d.offset = Quaterniond::FromTwoVectors(d.bind_direction, capture_dir.normalized());
      }
    }
    rig.driven.push_back(d);
    return d.offset;
  };
  add(rig.hips_node, cap(Role::Hips), nullptr, nullptr, -1, Quaterniond::Identity());
  if (named_hips != rig.hips_node) add(named_hips, cap(Role::Hips), nullptr, nullptr, -1, Quaterniond::Identity());
  // The spine chain: target joints between hips and head, each on the capture's
  // spine at the same share of arc length between matching anchors.
  {
    std::vector<int> ts;  // model nodes
    for (int j : rig.target_map.spine) ts.push_back(rig.target_nodes[static_cast<std::size_t>(j)]);
    const std::vector<int>& cs = rig.capture_map.spine;
    std::vector<Vector3d> tp, cp;
    for (int n : ts) tp.push_back(tpos(n));
    for (int b : cs) cp.push_back(capture_rest_point(b));
    const Arc ta = arc_lengths(tp), ca = arc_lengths(cp);
    // Anchors: (target chain index, capture chain index), increasing in both.
    std::vector<std::pair<std::size_t, std::size_t>> anchors{{0, 0}};
    for (Role r : {Role::Chest, Role::Neck, Role::Head}) {
      const auto ti = std::find(ts.begin(), ts.end(), tgt(r));
      const auto ci = std::find(cs.begin(), cs.end(), cap(r));
      if (ti == ts.end() || ci == cs.end()) continue;
      const auto a = static_cast<std::size_t>(ti - ts.begin()), b = static_cast<std::size_t>(ci - cs.begin());
      if (a > anchors.back().first && b > anchors.back().second) anchors.emplace_back(a, b);
    }
    auto capture_arc = [&](std::size_t i) {
      std::size_t k = 0;
      while (k + 1 < anchors.size() && anchors[k + 1].first < i) ++k;
      if (k + 1 >= anchors.size()) return ca.s[anchors.back().second];
      const auto [t0, c0] = anchors[k];
      const auto [t1, c1] = anchors[k + 1];
      const double span = ta.s[t1] - ta.s[t0];
      const double f = span > 1e-12 ? (ta.s[i] - ta.s[t0]) / span : 0.0;
      return ca.s[c0] + f * (ca.s[c1] - ca.s[c0]);
    };
    Quaterniond inherited = Quaterniond::Identity();
    for (std::size_t i = 1; i + 1 < ts.size(); ++i) {
      std::size_t seg_a = 0, seg_b = 0, seg_mid = 0;
      const double s0 = capture_arc(i), s1 = capture_arc(i + 1);
      const CapturePoint from = point_at(cs, ca, s0, seg_a);
      const CapturePoint to = point_at(cs, ca, s1, seg_b);
      point_at(cs, ca, 0.5 * (s0 + s1), seg_mid);
      inherited = add(ts[i], cs[seg_mid], &from, &to, ts[i + 1], inherited);
    }
    if (ts.size() >= 2) add(ts.back(), cap(Role::Head), nullptr, nullptr, -1, inherited);
  }
  // Limbs: each role joint towards the next role both skeletons have (an
  // arm's hand towards its fingers); the thumb and the other fingers follow
  // their capture bones with the hand's offset.
  for (std::size_t c = 0; c < kLimbChains.size(); ++c) {
    std::vector<Role> both;
    std::vector<Role> chain(kLimbChains[c].begin(), kLimbChains[c].end());
    const bool arm = c >= 2, right = c == 3;
    if (arm) chain.push_back(right ? Role::FingersR : Role::FingersL);
    for (Role r : chain) {
      if (cap(r) >= 0 && tgt(r) >= 0) both.push_back(r);
    }
    Quaterniond inherited = Quaterniond::Identity(), hand = Quaterniond::Identity();
    bool has_hand = false;
    for (std::size_t i = 0; i < both.size(); ++i) {
      if (i + 1 < both.size()) {
        const CapturePoint from{cap(both[i]), cap(both[i]), 0.0}, to{cap(both[i + 1]), cap(both[i + 1]), 0.0};
        inherited = add(tgt(both[i]), cap(both[i]), &from, &to, tgt(both[i + 1]), inherited);
      } else if (both[i] != Role::FingersL && both[i] != Role::FingersR) {
        inherited = add(tgt(both[i]), cap(both[i]), nullptr, nullptr, -1, inherited);
      }
      if (both[i] == Role::HandL || both[i] == Role::HandR) {
        hand = inherited;
        has_hand = true;
      }
    }
    if (!arm || !has_hand) continue;
    const Role thumb = right ? Role::ThumbR : Role::ThumbL, fingers = right ? Role::FingersR : Role::FingersL;
    // A finger's first joint towards its second, as the capture's finger bone from its start to its tip.
    auto add_finger = [&](int joint, int bone) {
      int second = -1;
      for (std::size_t k = 0; k < rig.target_joints.parents.size() && second < 0; ++k) {
        if (rig.target_joints.parents[k] == joint) second = rig.target_nodes[k];
      }
      const CapturePoint from{bone, bone, 0.0}, to{bone, bone, 1.0, true};
      add(rig.target_nodes[static_cast<std::size_t>(joint)], bone, second >= 0 ? &from : nullptr, &to, second, hand);
    };
    if (cap(thumb) >= 0 && tgt(thumb) >= 0) add_finger(rig.target_map[thumb].joint, cap(thumb));
    if (cap(fingers) >= 0 && tgt(fingers) >= 0) {
      add_finger(rig.target_map[fingers].joint, cap(fingers));
      for (int j : rig.target_map.other_fingers[right ? 1 : 0]) add_finger(j, cap(fingers));
    }
  }
  std::sort(rig.driven.begin(), rig.driven.end(),
            [](const DrivenNode& a, const DrivenNode& b) { return a.node < b.node; });
  rig.driven.erase(std::unique(rig.driven.begin(), rig.driven.end(),
                               [](const DrivenNode& a, const DrivenNode& b) { return a.node == b.node; }),
                   rig.driven.end());
  rig.driven_of_node.assign(nodes, -1);
  for (std::size_t k = 0; k < rig.driven.size(); ++k)
    rig.driven_of_node[static_cast<std::size_t>(rig.driven[k].node)] = static_cast<int>(k);

  // 6. Twist nodes: unmapped skin joints on a driven limb segment.
  rig.twist_of_node.assign(nodes, -1);
  std::vector<char> is_joint(nodes, 0), has_joint_child(nodes, 0);
  for (int n : rig.target_nodes) is_joint[static_cast<std::size_t>(n)] = 1;
  for (std::size_t n = 0; n < nodes; ++n) {
    const int p = rig.node_parents[n];
    if (p >= 0 && is_joint[n]) has_joint_child[static_cast<std::size_t>(p)] = 1;
  }
  auto free_joint = [&](int n) {
    const auto i = static_cast<std::size_t>(n);
    return is_joint[i] && rig.driven_of_node[i] < 0 && rig.twist_of_node[i] < 0 && n != rig.hips_node;
  };
  auto add_twist = [&](int node, int near, int far, const Vector3d& axis) {
    const Vector3d segment = tpos(far) - tpos(near);
    if (axis.norm() < 1e-12 || segment.squaredNorm() < 1e-24) return;
    TwistNode t;
    t.node = node;
    t.near = near;
    t.far = far;
    t.axis = axis.normalized();
    t.share = std::clamp((tpos(node) - tpos(near)).dot(segment) / segment.squaredNorm(), 0.0, 1.0);
    rig.twist_of_node[static_cast<std::size_t>(node)] = static_cast<int>(rig.twists.size());
    rig.twists.push_back(t);
  };
  for (const auto& [a, b] : {std::pair{Role::UpperArmL, Role::ForearmL}, std::pair{Role::ForearmL, Role::HandL},
                             std::pair{Role::UpperArmR, Role::ForearmR}, std::pair{Role::ForearmR, Role::HandR},
                             std::pair{Role::ThighL, Role::ShinL}, std::pair{Role::ShinL, Role::FootL},
                             std::pair{Role::ThighR, Role::ShinR}, std::pair{Role::ShinR, Role::FootR}}) {
    const int near = tgt(a), far = tgt(b);
    if (near < 0 || far < 0 || cap(a) < 0 || cap(b) < 0) continue;
    // The path near -> far in the hierarchy (far must hang below near).
    std::vector<int> path{far};
    while (path.back() >= 0 && path.back() != near)
      path.push_back(rig.node_parents[static_cast<std::size_t>(path.back())]);
    if (path.back() != near) continue;
    std::reverse(path.begin(), path.end());  // near, ..., far
    for (std::size_t i = 1; i + 1 < path.size(); ++i) {
      if (free_joint(path[i])) add_twist(path[i], near, far, tpos(path[i + 1]) - tpos(path[i]));
    }
    // Leaves hanging off the path within the segment.
    const Vector3d axis = tpos(far) - tpos(near);
    const double length = axis.norm();
    for (std::size_t n = 0; n < nodes; ++n) {
      const int p = rig.node_parents[n];
      if (p < 0 || std::find(path.begin(), path.end() - 1, p) == path.end() - 1) continue;
      if (std::count(path.begin(), path.end(), static_cast<int>(n)) || has_joint_child[n]) continue;
      if (!free_joint(static_cast<int>(n))) continue;
      const Vector3d d = tpos(static_cast<int>(n)) - tpos(near);
      const double along = d.dot(axis) / (length * length);
      const double off = (d - along * axis).norm();
      if (along >= -0.05 && along <= 1.05 && off <= 0.35 * length) add_twist(static_cast<int>(n), near, far, axis);
    }
  }
  // 7. Limb joints outside their chain's hierarchy, and the placing order.
  rig.attach_of_node.assign(nodes, -1);
  rig.attach_offset.assign(nodes, Vector3d::Zero());
  rig.attach_rotation.assign(nodes, Quaterniond::Identity());
  // Each limb joint and the one before it in its chain; an arm's first
  // joint and the chest, for an arm hanging beside the spine (from a control
  // bone: oga_knight's torso_ctrl), not one that hangs from a spine joint.
  std::vector<std::pair<int, int>> links;
  for (const auto& chain : kLimbChains) {
    for (std::size_t i = 0; i + 1 < chain.size(); ++i) links.emplace_back(tgt(chain[i]), tgt(chain[i + 1]));
    if (chain[0] == Role::ClavicleL || chain[0] == Role::ClavicleR) {
      const int first = tgt(chain[0]) >= 0 ? tgt(chain[0]) : tgt(chain[1]);
      const bool on_spine =
          first >= 0 && std::any_of(rig.target_map.spine.begin(), rig.target_map.spine.end(),
                                    [&](int j) { return below(first, rig.target_nodes[static_cast<std::size_t>(j)]); });
      if (!on_spine) links.emplace_back(tgt(Role::Chest), first);
    }
  }
  // Controls beside a limb (an IK rig's hand_ctrl, LegIK.L, IK-foot.l: a
  // node where the hand or the foot is in the bind pose that the limb does
  // not carry) go with the hand or the foot, and so does what hangs from
  // them (oga_knight's sword): else they stay where the bind pose had them.
  for (std::size_t side = 0; side < 2; ++side) {
    const RetargetLeg& leg = rig.legs[side];
    const auto& arm = kLimbChains[side + 2];
    const double arm_length =
        tgt(arm[1]) >= 0 && tgt(arm[2]) >= 0 && tgt(arm[3]) >= 0
            ? (tpos(tgt(arm[1])) - tpos(tgt(arm[2]))).norm() + (tpos(tgt(arm[2])) - tpos(tgt(arm[3]))).norm()
            : 0.0;
    for (const auto& [end, length] : {std::pair{leg.foot, leg.length}, std::pair{tgt(arm[3]), arm_length}}) {
      if (end < 0 || !(length > 0.0)) continue;
      for (std::size_t n = 0; n < nodes; ++n) {
        const int node = static_cast<int>(n);
        if (node == end || below(node, end) || below(end, node) || node == rig.hips_node ||
            rig.driven_of_node[n] >= 0 || rig.twist_of_node[n] >= 0 || (tpos(node) - tpos(end)).norm() > 0.1 * length) {
          continue;
        }
        links.emplace_back(end, node);
      }
    }
  }
  for (const auto& [from, to] : links) {
    if (from < 0 || to < 0 || from == to || below(to, from) || below(from, to) || to == rig.hips_node) continue;
    const auto a = static_cast<std::size_t>(from), n = static_cast<std::size_t>(to);
    if (rig.attach_of_node[n] >= 0) continue;  // a limb's own link first
    rig.attach_of_node[n] = from;
    rig.attach_offset[n] = rig.bind_world_rotation[a].conjugate() *
                           (rig.bind_world_position[n] - rig.bind_world_position[a]) / rig.bind_world_scale[a];
    rig.attach_rotation[n] = (rig.bind_world_rotation[a].conjugate() * rig.bind_world_rotation[n]).normalized();
  }
  std::vector<char> state(nodes, 0);  // 0 new, 1 being placed, 2 placed
  auto visit = [&](auto&& self, int n) -> void {
    const auto i = static_cast<std::size_t>(n);
    if (state[i] != 0) return;
    state[i] = 1;
    // An attachment that would have to be placed after this node (it hangs
    // below it, through parents or attachments) is dropped: the node keeps
    // its parent's place.
    if (const int a = rig.attach_of_node[i]; a >= 0 && state[static_cast<std::size_t>(a)] == 1) {
      rig.attach_of_node[i] = -1;
    }
    for (const int before : {rig.node_parents[i], rig.attach_of_node[i]}) {
      if (before >= 0 && state[static_cast<std::size_t>(before)] == 0) self(self, before);
    }
    if (const int a = rig.attach_of_node[i]; a >= 0 && state[static_cast<std::size_t>(a)] != 2) {
      rig.attach_of_node[i] = -1;  // reached this node again through it
    }
    state[i] = 2;
    rig.order.push_back(n);
  };
  for (std::size_t n = 0; n < nodes; ++n) visit(visit, static_cast<int>(n));
  return rig;
}

double sole_height(const RetargetRig& rig, const RetargetLeg& leg, std::span<const Vector3d> world_position,
                   std::span<const Quaterniond> world_rotation, const Vector3d& shift) {
  double lowest = std::numeric_limits<double>::max();
  for (const SolePoint& p : leg.sole) {
    const auto n = static_cast<std::size_t>(p.node);
    const Vector3d at = world_position[n] + world_rotation[n] * (rig.bind_world_scale[n] * p.local) + shift;
    lowest = std::min(lowest, at.dot(rig.up));
  }
  if (leg.sole.empty()) {
    lowest = (world_position[static_cast<std::size_t>(leg.foot)] + shift).dot(rig.up) - leg.ankle_height + rig.floor;
    if (leg.toe >= 0) {
      lowest = std::min(
          lowest, (world_position[static_cast<std::size_t>(leg.toe)] + shift).dot(rig.up) - leg.toe_height + rig.floor);
    }
  }
  return lowest - rig.floor;
}

namespace {

// Turns the two bones a-b and b-c (thigh and shin, upper arm and forearm)
// so that c reaches T, or as near as the chain's length allows, bending
// towards where b is (the capture's knee or elbow as pole).
void two_bone_ik(const Vector3d& T, std::size_t a, std::size_t b, std::size_t c,
                 std::span<const Vector3d> world_position, std::span<Quaterniond> world_rotation) {
  const Vector3d H = world_position[a], K = world_position[b], F = world_position[c];
  if ((T - F).norm() < 1e-12) return;
  const double l1 = (K - H).norm(), l2 = (F - K).norm();
  Vector3d D = T - H;
  const double reach = std::clamp(D.norm(), std::abs(l1 - l2) + 1e-9, 0.999 * (l1 + l2));
  const Vector3d dir = D.norm() > 1e-12 ? Vector3d(D.normalized()) : Vector3d((F - H).normalized());
  Vector3d pole = (K - H) - (K - H).dot(dir) * dir;
  if (pole.norm() < 1e-9 * (l1 + l2)) pole = dir.unitOrthogonal();
  pole.normalize();
  const double cos_a = std::clamp((l1 * l1 + reach * reach - l2 * l2) / (2.0 * l1 * reach), -1.0, 1.0);
  const Vector3d middle = H + l1 * (cos_a * dir + std::sqrt(1.0 - cos_a * cos_a) * pole);
  const Vector3d end = H + reach * dir;
  const Quaterniond q1 = Quaterniond::FromTwoVectors(K - H, middle - H);
  const Quaterniond q2 = Quaterniond::FromTwoVectors(q1 * (F - K), end - middle);
  world_rotation[a] = (q1 * world_rotation[a]).normalized();
  world_rotation[b] = (q2 * q1 * world_rotation[b]).normalized();
}

}  // namespace

bool RetargetJob::validate() const {
  if (rig == nullptr || capture_pose == nullptr) return false;
  const std::size_t bones = rig->skeleton.bones.size(), nodes = rig->node_parents.size();
  if (channels.size() != static_cast<std::size_t>(rig->skeleton.channel_count)) return false;
  if (capture_pose->rotation.size() != bones || capture_pose->offset.size() != bones) return false;
  if (capture_positions.size() != bones || capture_rotations.size() != bones) return false;
  if (rig->driven_of_node.size() != nodes || rig->twist_of_node.size() != nodes) return false;
  if (rig->attach_of_node.size() != nodes || rig->attach_offset.size() != nodes ||
      rig->attach_rotation.size() != nodes || rig->order.size() != nodes) {
    return false;
  }
  if (translation.size() != nodes || rotation.size() != nodes || world_position.size() != nodes ||
      world_rotation.size() != nodes) {
    return false;
  }
  for (const LegPin& pin : pins) {
    if (!(pin.weight >= 0.0 && pin.weight <= 1.0)) return false;
  }
  return true;
}

bool RetargetJob::run() const {
  if (!validate()) return false;
  const RetargetRig& r = *rig;
  pose_from_channels(r.skeleton, channels, *capture_pose);
  forward_kinematics(r.skeleton, *capture_pose, capture_positions, capture_rotations);
  auto J = [&](int x) {
    return capture_positions[static_cast<std::size_t>(r.capture_point_bone[static_cast<std::size_t>(x)])];
  };
  auto at = [&](const CapturePoint& p) {
    const Vector3d& b = p.b_end ? capture_positions[static_cast<std::size_t>(p.b)] : J(p.b);
    return ((1.0 - p.t) * J(p.a) + p.t * b).eval();
  };
  const Quaterniond align_inverse = r.align.conjugate();
  const std::size_t nodes = r.node_parents.size();
  // Pass A: world rotation targets and positions.
  Vector3d hips_shift = Vector3d::Zero();
  auto place = [&](std::size_t n, bool keep_driven_rotation) {
    const int p = r.node_parents[n];
    const Vector3d pp = p < 0 ? Vector3d::Zero() : world_position[static_cast<std::size_t>(p)];
    const Quaterniond pr = p < 0 ? Quaterniond::Identity() : world_rotation[static_cast<std::size_t>(p)];
    const double ps = p < 0 ? 1.0 : r.bind_world_scale[static_cast<std::size_t>(p)];
    const int k = r.driven_of_node[n];
    if (k < 0 || !keep_driven_rotation) {
      if (k < 0) {
        const int tw = r.twist_of_node[n];
        if (const int a = r.attach_of_node[n]; a >= 0 && tw < 0) {
          world_rotation[n] = (world_rotation[static_cast<std::size_t>(a)] * r.attach_rotation[n]).normalized();
        } else if (tw < 0) {
          world_rotation[n] = (pr * r.bind_rotation[n]).normalized();
        } else {
          // The near joint's turn, then the share of the far joint's twist about the axis.
          const TwistNode& t = r.twists[static_cast<std::size_t>(tw)];
          const auto near = static_cast<std::size_t>(t.near), far = static_cast<std::size_t>(t.far);
          const Quaterniond turn_near = world_rotation[near] * r.bind_world_rotation[near].conjugate();
          const Quaterniond relative =
              world_rotation[far] * r.bind_world_rotation[far].conjugate() * turn_near.conjugate();
          const Vector3d axis = turn_near * t.axis;
          double twist = 2.0 * std::atan2(relative.vec().dot(axis), relative.w());
          if (twist > std::numbers::pi) twist -= 2.0 * std::numbers::pi;
          if (twist < -std::numbers::pi) twist += 2.0 * std::numbers::pi;
          world_rotation[n] =
              (Quaterniond(Eigen::AngleAxisd(t.share * twist, axis)) * turn_near * r.bind_world_rotation[n])
                  .normalized();
        }
      }
    }
    if (static_cast<int>(n) == r.hips_node) {
      const DrivenNode& d = r.driven[static_cast<std::size_t>(k)];
      world_position[n] = r.scale * (r.align * J(d.owner)) + r.root_offset + lift * r.up + hips_shift -
                          world_rotation[n] * (r.bind_world_scale[n] * r.hips_offset);
      translation[n] = pr.conjugate() * (world_position[n] - pp) / ps;
    } else if (const int a = r.attach_of_node[n]; a >= 0) {
      const auto i = static_cast<std::size_t>(a);
      world_position[n] = world_position[i] + world_rotation[i] * (r.bind_world_scale[i] * r.attach_offset[n]);
      translation[n] = pr.conjugate() * (world_position[n] - pp) / ps;
    } else {
      world_position[n] = pp + pr * (ps * r.bind_translation[n]);
      translation[n] = r.bind_translation[n];
    }
    rotation[n] = (pr.conjugate() * world_rotation[n]).normalized();
  };
  // Driven rotations first: a twist node needs the mapped joint below it.
  for (std::size_t n = 0; n < nodes; ++n) {
    const int k = r.driven_of_node[n];
    if (k >= 0) {
      const DrivenNode& d = r.driven[static_cast<std::size_t>(k)];
      const auto owner = static_cast<std::size_t>(d.owner);
      const Quaterniond turn =
          r.align * (capture_rotations[owner] * r.capture_rest_world[owner].conjugate()) * align_inverse;
      Quaterniond w = turn * d.offset * r.bind_world_rotation[n];
      if (d.has_segment) {
        const Vector3d target = r.align * (at(d.to) - at(d.from));
        if (target.norm() > 1e-12) {
          w = Quaterniond::FromTwoVectors(turn * (d.offset * d.bind_direction), target.normalized()) * w;
        }
      }
      world_rotation[n] = w.normalized();
    }
  }
  for (const int n : r.order) place(static_cast<std::size_t>(n), true);
  // Legs: IK towards the pins, and above the floor.
  auto leg_target = [&](std::size_t side, bool clamp) {
    const RetargetLeg& leg = r.legs[side];
    const Vector3d F = world_position[static_cast<std::size_t>(leg.foot)];
    Vector3d pinned = pins[side].ankle;
    if (pins[side].pivot && leg.toe >= 0) {
      const Vector3d away = F - pins[side].ball;
      const Vector3d ball_free = world_position[static_cast<std::size_t>(leg.toe)];
      const double length = (ball_free - F).norm();
      const Vector3d rigid = pins[side].ball - (ball_free - F);
      const Vector3d pivot = away.norm() > 1e-12 ? Vector3d(pins[side].ball + length * away.normalized()) : F;
      pinned = rigid + leg.pivot * (pivot - rigid);
    }
    Vector3d T = F + pins[side].weight * (pinned - F);
    if (clamp) {
      const double deficit = -sole_height(r, leg, world_position, world_rotation, T - F);
      if (deficit > 0) T += deficit * r.up;
    }
    return T;
  };
  // A pinned foot out of the leg's reach draws the hips towards it (by the
  // excess, both legs' added) before the IK, so that the leg can hold it.
  Vector3d shift = Vector3d::Zero();
  for (std::size_t side = 0; side < 2; ++side) {
    const RetargetLeg& leg = r.legs[side];
    if (leg.thigh < 0 || leg.shin < 0 || leg.foot < 0 || pins[side].weight <= 0.0) continue;
    const Vector3d D = leg_target(side, floor_clamp) - world_position[static_cast<std::size_t>(leg.thigh)];
    const double excess = D.norm() - 0.995 * leg.length;
    if (excess > 0.0) shift += excess * D.normalized();
  }
  if (shift.squaredNorm() > 0.0) {
    hips_shift = shift;
    for (const int n : r.order) place(static_cast<std::size_t>(n), true);
  }
  for (std::size_t side = 0; side < 2; ++side) {
    const RetargetLeg& leg = r.legs[side];
    if (leg.thigh < 0 || leg.shin < 0 || leg.foot < 0) continue;
    // A long foot (a chibi's, pivot > 0) that the floor would lift first
    // pitches up about its ankle, by its pivot's share of the lift, so that
    // the leg keeps more of the capture's bend.
    if (floor_clamp && leg.pivot > 0.0 && leg.toe >= 0 && !leg.sole.empty()) {
      const auto foot = static_cast<std::size_t>(leg.foot), toe = static_cast<std::size_t>(leg.toe);
      const Vector3d F = world_position[foot];
      const Vector3d shift = leg_target(side, false) - F;
      double lowest = std::numeric_limits<double>::max();
      Vector3d low = F;
      for (const SolePoint& p : leg.sole) {
        const auto n = static_cast<std::size_t>(p.node);
        const Vector3d at = world_position[n] + world_rotation[n] * (r.bind_world_scale[n] * p.local) + shift;
        if (at.dot(r.up) < lowest) lowest = at.dot(r.up), low = at;
      }
      const double deficit = r.floor - lowest;
      const Vector3d v = low - (F + shift);
      const double reach = (v - v.dot(r.up) * r.up).norm();
      if (deficit > 0.0 && reach > 1e-12 && v.cross(r.up).norm() > 1e-12) {
        const Quaterniond pitch(
            Eigen::AngleAxisd(std::asin(std::min(1.0, leg.pivot * deficit / reach)), v.cross(r.up).normalized()));
        world_rotation[foot] = (pitch * world_rotation[foot]).normalized();
        world_rotation[toe] = (pitch * world_rotation[toe]).normalized();
        world_position[toe] = F + pitch * (world_position[toe] - F);
      }
    }
    const Vector3d T = leg_target(side, floor_clamp);
    two_bone_ik(T, static_cast<std::size_t>(leg.thigh), static_cast<std::size_t>(leg.shin),
                static_cast<std::size_t>(leg.foot), world_position, world_rotation);
    // A pivoting foot turns about its ball to reach the ankle's new place
    // (the IK kept the foot's turn; its toe, driven, turns with it).
    if (pins[side].pivot && leg.toe >= 0 && pins[side].weight > 0.0 && leg.pivot > 0.0) {
      const auto foot = static_cast<std::size_t>(leg.foot), toe = static_cast<std::size_t>(leg.toe);
      const Vector3d ball = world_position[toe] + pins[side].weight * (pins[side].ball - world_position[toe]);
      const Vector3d now = world_position[toe] - world_position[foot], wanted = ball - T;
      if (now.norm() > 1e-12 && wanted.norm() > 1e-12) {
        const Quaterniond turn = Quaterniond::FromTwoVectors(now, wanted);
        world_rotation[foot] = (turn * world_rotation[foot]).normalized();
        if (r.driven_of_node[toe] >= 0) world_rotation[toe] = (turn * world_rotation[toe]).normalized();
      }
    }
  }
  // Arms: a wrist below its floor bends the arm up to it (the legs above
  // do not move the arms: the positions of pass A hold for them).
  for (std::size_t side = 0; side < 2; ++side) {
    const RetargetArm& arm = r.arms[side];
    if (arm.hand < 0) continue;
    const Vector3d W = world_position[static_cast<std::size_t>(arm.hand)];
    double lowest = W.dot(r.up);
    if (arm.hand_end >= 0) lowest = std::min(lowest, world_position[static_cast<std::size_t>(arm.hand_end)].dot(r.up));
    const double deficit = wrist_floor[side] - lowest;
    if (!(deficit > 0.0)) continue;
    two_bone_ik(W + deficit * r.up, static_cast<std::size_t>(arm.upper), static_cast<std::size_t>(arm.fore),
                static_cast<std::size_t>(arm.hand), world_position, world_rotation);
  }
  // Pass B: locals from the final world rotations, positions again.
  for (const int n : r.order) place(static_cast<std::size_t>(n), true);
  return true;
}

RetargetScratch::RetargetScratch(const RetargetRig& rig)
    : capture_pose(make_pose(rig.skeleton)),
      capture_positions(rig.skeleton.bones.size()),
      capture_rotations(rig.skeleton.bones.size()),
      translation(rig.node_parents.size()),
      rotation(rig.node_parents.size()),
      world_position(rig.node_parents.size()),
      world_rotation(rig.node_parents.size()) {}

void RetargetScratch::bind(RetargetJob& job) {
  job.capture_pose = &capture_pose;
  job.capture_positions = capture_positions;
  job.capture_rotations = capture_rotations;
  job.translation = translation;
  job.rotation = rotation;
  job.world_position = world_position;
  job.world_rotation = world_rotation;
}

Result<RetargetedClip> retarget_clip(const RetargetRig& rig, const Motion& motion, const std::string& name,
                                     const RetargetOptions& options) {
  const std::string& what = rig.skeleton.name;
  if (motion.frame_count() == 0) return fail(what, 0, "the motion has no frames: expected at least one");
  if (motion.channel_count != rig.skeleton.channel_count) {
    return fail(what, 0,
                "the motion has " + std::to_string(motion.channel_count) + " channels, the skeleton " +
                    std::to_string(rig.skeleton.channel_count) + ": expected a motion of this skeleton");
  }
  const int frames = motion.frame_count();
  const std::size_t nodes = rig.node_parents.size();
  RetargetScratch scratch(rig);
  RetargetJob job;
  job.rig = &rig;
  scratch.bind(job);
  // Pass 1: free feet, the capture's ankles and the model's feet; and how
  // far the hands and the head sink below where the capture puts them.
  std::array<std::vector<Vector3d>, 2> capture_ankle, capture_ball, ankle, ball;
  std::array<std::vector<double>, 2> sole;
  for (std::size_t s = 0; s < 2; ++s) {
    capture_ankle[s].resize(static_cast<std::size_t>(frames));
    capture_ball[s].resize(static_cast<std::size_t>(frames));
    ankle[s].resize(static_cast<std::size_t>(frames));
    ball[s].resize(static_cast<std::size_t>(frames));
    sole[s].resize(static_cast<std::size_t>(frames));
  }
  // (capture bone, model node) of the left and right hands (-1 when the
  // arm is not mapped) and the head.
  std::vector<std::pair<int, int>> supports;
  for (const RetargetArm& arm : rig.arms) supports.emplace_back(arm.capture_hand, arm.hand);
  {
    const int c = rig.capture_map.roles[static_cast<std::size_t>(Role::Head)].joint;
    const int t = rig.target_map.roles[static_cast<std::size_t>(Role::Head)].joint;
    supports.emplace_back(c, t < 0 ? -1 : rig.target_nodes[static_cast<std::size_t>(t)]);
  }
  // Per frame: the capture's lowest joint (its floor is a low percentile of
  // these), the capture's hand and head heights, the character's (no lift).
  std::vector<double> capture_lowest(static_cast<std::size_t>(frames));
  std::vector<double> capture_support(static_cast<std::size_t>(frames) * supports.size()),
      model_support(capture_support.size());
  for (int f = 0; f < frames; ++f) {
    job.channels = motion.frame(f);
    job.run();
    const std::size_t i = static_cast<std::size_t>(f);
    capture_lowest[i] = std::numeric_limits<double>::max();
    for (const Vector3d& p : scratch.capture_positions) capture_lowest[i] = std::min(capture_lowest[i], p.y());
    for (std::size_t k = 0; k < supports.size(); ++k) {
      const auto [bone, node] = supports[k];
      if (bone < 0 || node < 0) continue;
      capture_support[i * supports.size() + k] =
          scratch.capture_positions[static_cast<std::size_t>(rig.capture_point_bone[static_cast<std::size_t>(bone)])]
              .y();
      model_support[i * supports.size() + k] = scratch.world_position[static_cast<std::size_t>(node)].dot(rig.up);
    }
    for (std::size_t s = 0; s < 2; ++s) {
      const RetargetLeg& leg = rig.legs[s];
      capture_ankle[s][static_cast<std::size_t>(f)] = scratch.capture_positions[static_cast<std::size_t>(
          rig.capture_point_bone[static_cast<std::size_t>(leg.capture_foot)])];
      // The ball: where the capture's toe bone starts (its ankle without one).
      const int toe = rig.capture_map[s == 0 ? Role::ToeL : Role::ToeR].joint;
      capture_ball[s][static_cast<std::size_t>(f)] = scratch.capture_positions[static_cast<std::size_t>(
          rig.capture_point_bone[static_cast<std::size_t>(toe >= 0 ? toe : leg.capture_foot)])];
      ankle[s][static_cast<std::size_t>(f)] = scratch.world_position[static_cast<std::size_t>(leg.foot)];
      ball[s][static_cast<std::size_t>(f)] =
          scratch.world_position[static_cast<std::size_t>(leg.toe >= 0 ? leg.toe : leg.foot)];
      sole[s][static_cast<std::size_t>(f)] = sole_height(rig, leg, scratch.world_position, scratch.world_rotation);
    }
  }
  RetargetedClip clip;
  clip.name = name;
  clip.fps = motion.fps;
  clip.frame_count = frames;
  // The soles on the floor during contacts (all frames when there are none).
  std::vector<double> soles;
  for (std::size_t s = 0; s < 2; ++s) {
    // The detector's contacts, and every interval where the ball stands by the
    // simple rule the eye uses (within 4 cm of its lowest, slower than 25
    // cm/s, 6 frames at 120 Hz), whether or not the detector finds it.
    clip.contacts[s] = detect_foot_contacts(capture_ankle[s], motion.fps, Vector3d::UnitY(), options.contacts);
    clip.contacts[s].contacts =
        merge_contacts(clip.contacts[s].contacts, planted_by_rule(capture_ball[s], motion.fps, Vector3d::UnitY()));
    for (const FootContact& c : clip.contacts[s].contacts) {
      for (int f = c.first; f <= c.last; ++f) soles.push_back(sole[s][static_cast<std::size_t>(f)]);
    }
  }
  if (soles.empty()) {
    double lowest = std::numeric_limits<double>::max();
    for (std::size_t s = 0; s < 2; ++s) {
      for (int f = 0; f < frames; ++f) lowest = std::min(lowest, sole[s][static_cast<std::size_t>(f)]);
    }
    soles.push_back(lowest);
  }
  std::nth_element(soles.begin(), soles.begin() + static_cast<std::ptrdiff_t>(soles.size() / 2), soles.end());
  clip.lift = -soles[soles.size() / 2];
  // Hands and head on the floor stay on it: where the capture's are within
  // a fifth of a leg of its floor and the character's lower above its own
  // (heights scaled), the whole body rises by the difference, eased in and
  // out over `blend` frames each side (a windowed maximum, then a moving
  // average as wide: never below the frame's own need). A character whose
  // arms are longer than the capture's would otherwise put its hands
  // through the floor in a cartwheel.
  const int blend = std::max(1, static_cast<int>(std::lround(options.blend_seconds * motion.fps)));
  const double near_floor = 0.2 * std::max(rig.legs[0].length, rig.legs[1].length);
  std::vector<double> need(static_cast<std::size_t>(frames), 0.0);
  // Per frame and hand: the wrist's floor for the arm IK (the capture's
  // wrist height, scaled, where that is near the floor), model world.
  std::vector<std::array<double, 2>> wrist_floor(
      static_cast<std::size_t>(frames),
      {-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()});
  {
    std::vector<double> lowest = capture_lowest;
    const auto at = lowest.begin() + static_cast<std::ptrdiff_t>(lowest.size() / 20);
    std::nth_element(lowest.begin(), at, lowest.end());
    const double capture_floor = *at;
    for (std::size_t i = 0; i < need.size(); ++i) {
      for (std::size_t k = 0; k < supports.size(); ++k) {
        if (supports[k].first < 0 || supports[k].second < 0) continue;
        const double wanted = rig.scale * (capture_support[i * supports.size() + k] - capture_floor);
        const double got = model_support[i * supports.size() + k] + clip.lift - rig.floor;
        if (wanted >= near_floor) continue;
        need[i] = std::max(need[i], wanted - got);
        if (k < 2 && options.lift_body) wrist_floor[i][k] = rig.floor + wanted;
      }
    }
  }
  clip.body_lift.assign(static_cast<std::size_t>(frames), 0.0);
  if (options.lift_body && std::any_of(need.begin(), need.end(), [](double v) { return v > 0.0; })) {
    std::vector<double> widest(need.size(), 0.0);
    for (int f = 0; f < frames; ++f) {
      for (int g = std::max(0, f - blend); g <= std::min(frames - 1, f + blend); ++g)
        widest[static_cast<std::size_t>(f)] =
            std::max(widest[static_cast<std::size_t>(f)], need[static_cast<std::size_t>(g)]);
    }
    for (int f = 0; f < frames; ++f) {
      double sum = 0.0;
      int count = 0;
      for (int g = f - blend; g <= f + blend; ++g, ++count)
        sum += widest[static_cast<std::size_t>(std::clamp(g, 0, frames - 1))];
      clip.body_lift[static_cast<std::size_t>(f)] = sum / count;
    }
  }
  // Pins: each contact holds the ball of the foot (the toe joint, the foot
  // pivoting about it: LegPin; the ankle of a foot without one) where it
  // landed along the floor (the height stays the capture's) with full weight
  // (the pin starts where the free foot is, so nothing jumps), and lets it
  // go over `blend` frames after the capture's foot lifts, where the foot
  // moves anyway: a release inside the contact would slide the planted foot
  // back to where the free one drifted (proportions differ). Pinning the
  // ankle instead, a long foot's toe slid as it rolled (kaykit's, 3.7 cm on
  // a 38 cm leg).
  std::array<std::vector<LegPin>, 2> pins;
  for (std::size_t s = 0; s < 2; ++s) {
    pins[s].assign(static_cast<std::size_t>(frames), LegPin{});
    if (!options.plant_feet) continue;
    for (const FootContact& c : clip.contacts[s].contacts) {
      const Vector3d landed = ball[s][static_cast<std::size_t>(c.first)] + clip.lift * rig.up;
      for (int f = c.first; f <= std::min(frames - 1, c.last + blend); ++f) {
        const double weight = f <= c.last ? 1.0 : 1.0 - static_cast<double>(f - c.last) / (blend + 1);
        LegPin& pin = pins[s][static_cast<std::size_t>(f)];
        if (weight <= pin.weight) continue;  // the next contact's own pin
        const Vector3d free = ball[s][static_cast<std::size_t>(f)] + clip.lift * rig.up;
        pin.pivot = rig.legs[s].toe >= 0;
        (pin.pivot ? pin.ball : pin.ankle) = landed - landed.dot(rig.up) * rig.up + free.dot(rig.up) * rig.up;
        pin.weight = weight;
      }
    }
  }
  // Pass 2.
  for (std::size_t n = 0; n < nodes; ++n) {
    bool keyed = static_cast<int>(n) == rig.hips_node || rig.attach_of_node[n] >= 0;
    for (int t : rig.target_nodes) keyed = keyed || t == static_cast<int>(n);
    if (keyed) clip.nodes.push_back(static_cast<int>(n));
  }
  clip.translations.reserve(static_cast<std::size_t>(frames) * clip.nodes.size());
  clip.rotations.reserve(static_cast<std::size_t>(frames) * clip.nodes.size());
  job.floor_clamp = true;
  for (int f = 0; f < frames; ++f) {
    job.lift = clip.lift + clip.body_lift[static_cast<std::size_t>(f)];
    job.wrist_floor = wrist_floor[static_cast<std::size_t>(f)];
    job.channels = motion.frame(f);
    job.pins = {pins[0][static_cast<std::size_t>(f)], pins[1][static_cast<std::size_t>(f)]};
    job.run();
    for (int n : clip.nodes) {
      clip.translations.push_back(scratch.translation[static_cast<std::size_t>(n)]);
      clip.rotations.push_back(scratch.rotation[static_cast<std::size_t>(n)]);
    }
  }
  return clip;
}

void retargeted_pose(const RetargetedClip& clip, int frame, ModelPose& pose) {
  const std::size_t keyed = clip.nodes.size();
  const std::size_t first = static_cast<std::size_t>(frame) * keyed;
  for (std::size_t i = 0; i < keyed; ++i) {
    const auto node = static_cast<std::size_t>(clip.nodes[i]);
    pose.translation[node] = clip.translations[first + i];
    pose.rotation[node] = clip.rotations[first + i];
  }
}

PoseFrame pose_from_retargeted(const RiggedModel& model, const RetargetedClip& clip) {
  struct Scratch {
    ModelPose pose;
    std::vector<Eigen::Affine3d> world;
    BoneTree tree;
  };
  auto scratch = std::make_shared<Scratch>(
      Scratch{rest_pose(model), std::vector<Eigen::Affine3d>(model.nodes.size()), joint_tree(model)});
  return [&model, &clip, scratch](int k, Skinner& skinner) {
    retargeted_pose(clip, k, scratch->pose);
    model_skinning_matrices(model, scratch->pose, scratch->world, skinner.matrices());
    skinner.run(scratch->tree);
  };
}

}  // namespace mocap
