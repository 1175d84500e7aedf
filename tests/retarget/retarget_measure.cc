#include "retarget/retarget_measure.h"

#include <mocap/core/fk.h>
#include <mocap/io/mesh.h>
#include <mocap/io/skin_weights.h>
#include <mocap/rig/gltf.h>

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numbers>

#include "rig/makehuman_reference.h"
#include "test_data.h"

namespace mocap::test {
namespace {

// Largest horizontal distance from where the point stood at the contact's first frame.
double slide(const std::vector<Eigen::Vector3d>& track, const FootContact& c, const Eigen::Vector3d& up) {
  double worst = 0.0;
  for (int f = c.first; f <= c.last; ++f) {
    Eigen::Vector3d d = track[static_cast<std::size_t>(f)] - track[static_cast<std::size_t>(c.first)];
    d -= d.dot(up) * up;
    worst = std::max(worst, d.norm());
  }
  return worst;
}

}  // namespace

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

Measured measure(const RetargetFileResult& result, const Skeleton& skeleton, const Motion& motion,
                 const RiggedModel& out, const ModelAnimation& animation) {
  const RetargetRig& rig = result.rig;
  Measured m;
  auto out_node = [&](int rig_node) {
    return out.find_node(result.model.nodes[static_cast<std::size_t>(rig_node)].name);
  };
  ModelPose pose = rest_pose(out);
  std::vector<Eigen::Affine3d> world(out.nodes.size());
  std::vector<SkinMatrix> skinning(out.joints.size());
  Pose capture = make_pose(skeleton);
  std::vector<Eigen::Vector3d> cpos(skeleton.bones.size());
  std::vector<Eigen::Quaterniond> crot(skeleton.bones.size());
  // Foot vertices: those whose largest weight is on a foot or toe joint.
  std::vector<int> foot_nodes;
  for (const RetargetLeg& leg : rig.legs) {
    for (int n : {leg.foot, leg.toe}) {
      if (n >= 0) foot_nodes.push_back(out_node(n));
    }
  }
  std::vector<int> foot_vertices;
  for (std::size_t v = 0; v < out.weights.size(); ++v) {
    const int joint_node = out.joints[out.weights[v].bone[0]].node;
    if (std::count(foot_nodes.begin(), foot_nodes.end(), joint_node)) foot_vertices.push_back(static_cast<int>(v));
  }
  m.foot_vertices = static_cast<int>(foot_vertices.size());
  // Hand vertices: those whose largest weight is on a hand joint or below it (fingers).
  std::vector<int> hand_nodes;
  for (const Role role : {Role::HandL, Role::HandR}) {
    const int j = rig.target_map.roles[static_cast<std::size_t>(role)].joint;
    if (j >= 0) hand_nodes.push_back(out_node(rig.target_nodes[static_cast<std::size_t>(j)]));
  }
  auto under_hand = [&](int node) {
    for (; node >= 0; node = out.nodes[static_cast<std::size_t>(node)].parent)
      if (std::count(hand_nodes.begin(), hand_nodes.end(), node)) return true;
    return false;
  };
  std::vector<int> hand_vertices;
  for (std::size_t v = 0; v < out.weights.size(); ++v) {
    if (under_hand(out.joints[out.weights[v].bone[0]].node)) hand_vertices.push_back(static_cast<int>(v));
  }
  m.hand_vertices = static_cast<int>(hand_vertices.size());
  auto lowest = [&](const std::vector<int>& vertices) {
    double low = 1e9;
    for (int v : vertices) {
      const VertexWeights& w = out.weights[static_cast<std::size_t>(v)];
      const Eigen::Vector4f p(out.mesh.positions[static_cast<std::size_t>(v)].x(),
                              out.mesh.positions[static_cast<std::size_t>(v)].y(),
                              out.mesh.positions[static_cast<std::size_t>(v)].z(), 1.0f);
      Eigen::Vector3f skinned = Eigen::Vector3f::Zero();
      for (int i = 0; i < kMaxInfluences; ++i)
        skinned += w.weight[static_cast<std::size_t>(i)] * (skinning[w.bone[static_cast<std::size_t>(i)]] * p);
      low = std::min(low, skinned.cast<double>().dot(rig.up) - rig.floor);
    }
    return low;
  };
  std::vector<Eigen::Vector3d> capture_dirs, model_dirs;
  std::array<std::vector<Eigen::Vector3d>, 2> model_ankle, capture_ankle;
  for (int f = 0; f < motion.frame_count(); ++f) {
    sample_animation(out, animation, f / motion.fps, pose);
    model_skinning_matrices(out, pose, world, skinning);
    pose_from_channels(skeleton, motion.frame(f), capture);
    forward_kinematics(skeleton, capture, cpos, crot);
    auto J = [&](int x) { return cpos[static_cast<std::size_t>(rig.capture_point_bone[static_cast<std::size_t>(x)])]; };
    auto at = [&](const CapturePoint& p) {
      const Eigen::Vector3d b = p.b_end ? cpos[static_cast<std::size_t>(p.b)] : J(p.b);
      return ((1.0 - p.t) * J(p.a) + p.t * b).eval();
    };
    for (const DrivenNode& d : rig.driven) {
      if (!d.has_segment || d.to.b_end) continue;  // limbs and spine; fingers: FingersFollowTheCapture
      capture_dirs.push_back((at(d.to) - at(d.from)).normalized());
      model_dirs.push_back((world[static_cast<std::size_t>(out_node(d.next))].translation() -
                            world[static_cast<std::size_t>(out_node(d.node))].translation())
                               .normalized());
    }
    // The pinned point: the ball (the toe joint, the capture's toe bone's
    // start) of a leg with toes, else the ankle.
    for (std::size_t s = 0; s < 2; ++s) {
      const RetargetLeg& leg = rig.legs[s];
      const int capture_toe = rig.capture_map[s == 0 ? Role::ToeL : Role::ToeR].joint;
      const bool ball = leg.toe >= 0 && capture_toe >= 0;
      model_ankle[s].push_back(world[static_cast<std::size_t>(out_node(ball ? leg.toe : leg.foot))].translation());
      capture_ankle[s].push_back(J(ball ? capture_toe : leg.capture_foot));
    }
    m.lowest_foot_vertex = std::min(m.lowest_foot_vertex, lowest(foot_vertices));
    const double hand = lowest(hand_vertices);
    if (hand < m.lowest_hand_vertex) m.lowest_hand_vertex = hand, m.lowest_hand_frame = f;
  }
  // One rotation for the whole clip (Kabsch), then the angle of every segment.
  Eigen::Matrix3d h = Eigen::Matrix3d::Zero();
  for (std::size_t i = 0; i < capture_dirs.size(); ++i) h += model_dirs[i] * capture_dirs[i].transpose();
  Eigen::JacobiSVD<Eigen::Matrix3d> svd(h, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
  d(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() > 0 ? 1.0 : -1.0;
  const Eigen::Matrix3d r = svd.matrixU() * d * svd.matrixV().transpose();
  for (std::size_t i = 0; i < capture_dirs.size(); ++i) {
    m.angles_deg.push_back(std::acos(std::clamp((r * capture_dirs[i]).dot(model_dirs[i]), -1.0, 1.0)) * 180.0 /
                           std::numbers::pi);
  }
  for (std::size_t s = 0; s < 2; ++s) {
    const double leg = rig.legs[s].length;
    for (const FootContact& c : result.clip.contacts[s].contacts) {
      ++m.contacts;
      const double model_slide = slide(model_ankle[s], c, rig.up);
      const double capture_slide = rig.scale * slide(capture_ankle[s], c, Eigen::Vector3d::UnitY());
      const double extra = model_slide - (capture_slide + 0.02 * leg);
      if (std::getenv("MOCAP_RETARGET_CONTACTS") != nullptr) {
        std::printf("  leg %zu frames %d-%d: slide %.2f %% of the leg, capture %.2f %%\n", s, c.first, c.last,
                    100 * model_slide / leg, 100 * capture_slide / leg);
      }
      if (extra > m.worst_extra_slide) {
        m.worst_extra_slide = extra;
        m.worst_slide_share = model_slide / leg;
        m.worst_capture_share = capture_slide / leg;
      }
    }
  }
  return m;
}

Result<std::string> makehuman_glb(bool leaf_twists) {
  auto ref = read_makehuman_reference(shared_data_dir() / "meshes" / "makehuman");
  if (!ref) return std::unexpected(ref.error());
  static Mesh mesh;
  auto read = read_obj((bundled_data_dir() / "humanoid.obj").string(), ObjReadOptions{0.1});
  if (!read) return std::unexpected(read.error());
  mesh = *read;
  GltfDocument doc;
  std::map<std::string, int> index;
  auto parent_of = [&](const MakeHumanBone& bone) {
    for (const char* twist : {"upperarm02.", "lowerarm02.", "upperleg02.", "lowerleg02."}) {
      if (leaf_twists && bone.parent.starts_with(twist)) return ref->bones.at(bone.parent).parent;
    }
    return bone.parent;
  };
  std::vector<std::string> order;  // parents first
  for (const auto& [name, bone] : ref->bones) {
    if (bone.parent.empty()) order.push_back(name);
  }
  for (std::size_t i = 0; i < order.size(); ++i) {
    for (const auto& [name, bone] : ref->bones) {
      if (parent_of(bone) == order[i]) order.push_back(name);
    }
  }
  for (const std::string& name : order) {
    const MakeHumanBone& bone = ref->bones.at(name);
    const std::string parent = parent_of(bone);
    GltfNode node;
    node.name = name;
    node.parent = parent.empty() ? -1 : index.at(parent);
    const Eigen::Vector3d parent_head = parent.empty() ? Eigen::Vector3d::Zero() : ref->bones.at(parent).head;
    node.translation = (bone.head - parent_head).cast<float>();
    index[name] = static_cast<int>(doc.nodes.size());
    doc.joints.push_back(static_cast<int>(doc.nodes.size()));
    doc.nodes.push_back(node);
    Eigen::Matrix4f inverse_bind = Eigen::Matrix4f::Identity();
    inverse_bind.block<3, 1>(0, 3) = -bone.head.cast<float>();
    doc.inverse_bind.push_back(inverse_bind);
  }
  static std::vector<VertexWeights> weights;
  weights.clear();
  for (const auto& influences : ref->weights) {
    std::vector<std::pair<int, float>> mapped;
    for (const auto& [bone, w] : influences)
      mapped.emplace_back(index.at(ref->weight_bones[static_cast<std::size_t>(bone)]), w);
    auto vw = make_vertex_weights(mapped);
    weights.push_back(vw ? *vw : VertexWeights{{0}, {1.0f}});
  }
  doc.mesh = &mesh;
  doc.weights = weights;
  return format_glb(doc);
}

}  // namespace mocap::test
