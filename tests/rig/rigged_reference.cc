#include "rig/rigged_reference.h"

#include <mocap/io/asf.h>
#include <mocap/io/atomic_write.h>
#include <mocap/io/mesh.h>
#include <mocap/retarget/retarget.h>
#include <mocap/rig/rigged_model.h>

#include <algorithm>
#include <array>
#include <map>

#include "test_data.h"

namespace mocap::test {
namespace {

constexpr std::array<std::string_view, kSegmentCount> kSegmentNames = {
    "trunk",     "head",   "l clavicle", "l upper arm", "l forearm", "l hand",  "r clavicle", "r upper arm",
    "r forearm", "r hand", "l thigh",    "l shin",      "l foot",    "r thigh", "r shin",     "r foot"};

int segment_of_role(Role role) {
  switch (role) {
    case Role::Hips:
    case Role::Spine:
    case Role::Chest: return int(Segment::kTrunk);
    case Role::Neck:
    case Role::Head: return int(Segment::kHead);
    case Role::ClavicleL: return int(Segment::kClavicleL);
    case Role::UpperArmL: return int(Segment::kUpperArmL);
    case Role::ForearmL: return int(Segment::kForearmL);
    case Role::HandL:
    case Role::FingersL:
    case Role::ThumbL: return int(Segment::kHandL);
    case Role::ClavicleR: return int(Segment::kClavicleR);
    case Role::UpperArmR: return int(Segment::kUpperArmR);
    case Role::ForearmR: return int(Segment::kForearmR);
    case Role::HandR:
    case Role::FingersR:
    case Role::ThumbR: return int(Segment::kHandR);
    case Role::ThighL: return int(Segment::kThighL);
    case Role::ShinL: return int(Segment::kShinL);
    case Role::FootL:
    case Role::ToeL: return int(Segment::kFootL);
    case Role::ThighR: return int(Segment::kThighR);
    case Role::ShinR: return int(Segment::kShinR);
    case Role::FootR:
    case Role::ToeR: return int(Segment::kFootR);
  }
  return int(Segment::kTrunk);
}

// The segment of a CMU bone (by name), clavicles into the trunk when the model has none.
int segment_of_cmu(std::string_view name, bool clavicles) {
  static const std::map<std::string_view, Segment, std::less<>> table = {
      {"root", Segment::kTrunk},          {"lhipjoint", Segment::kTrunk},     {"rhipjoint", Segment::kTrunk},
      {"lowerback", Segment::kTrunk},     {"upperback", Segment::kTrunk},     {"thorax", Segment::kTrunk},
      {"lowerneck", Segment::kHead},      {"upperneck", Segment::kHead},      {"head", Segment::kHead},
      {"lclavicle", Segment::kClavicleL}, {"lhumerus", Segment::kUpperArmL},  {"lradius", Segment::kForearmL},
      {"lwrist", Segment::kHandL},        {"lhand", Segment::kHandL},         {"lfingers", Segment::kHandL},
      {"lthumb", Segment::kHandL},        {"rclavicle", Segment::kClavicleR}, {"rhumerus", Segment::kUpperArmR},
      {"rradius", Segment::kForearmR},    {"rwrist", Segment::kHandR},        {"rhand", Segment::kHandR},
      {"rfingers", Segment::kHandR},      {"rthumb", Segment::kHandR},        {"lfemur", Segment::kThighL},
      {"ltibia", Segment::kShinL},        {"lfoot", Segment::kFootL},         {"ltoes", Segment::kFootL},
      {"rfemur", Segment::kThighR},       {"rtibia", Segment::kShinR},        {"rfoot", Segment::kFootR},
      {"rtoes", Segment::kFootR}};
  const auto it = table.find(name);
  if (it == table.end()) return -1;
  if (!clavicles && (it->second == Segment::kClavicleL || it->second == Segment::kClavicleR)) {
    return int(Segment::kTrunk);
  }
  return int(it->second);
}

// The segment holding most of `w`'s weight, its bones' segments by
// `segment_of` (-1: none); -1 for a vertex without weight in any.
template <class SegmentOf>
int heaviest_segment(const VertexWeights& w, SegmentOf segment_of) {
  std::array<float, kSegmentCount> sum{};
  for (int k = 0; k < kMaxInfluences; ++k) {
    if (!(w.weight[k] > 0.0f)) continue;
    const int s = segment_of(w.bone[k]);
    if (s >= 0) sum[static_cast<std::size_t>(s)] += w.weight[k];
  }
  const auto best = std::max_element(sum.begin(), sum.end());
  return *best > 0.0f ? static_cast<int>(best - sum.begin()) : -1;
}

BodyRegion region_of_segment(int s) {
  switch (Segment(s)) {
    case Segment::kTrunk:
    case Segment::kHead: return BodyRegion::kSpineHead;
    case Segment::kHandL:
    case Segment::kHandR: return BodyRegion::kHands;
    case Segment::kThighL:
    case Segment::kShinL:
    case Segment::kFootL:
    case Segment::kThighR:
    case Segment::kShinR:
    case Segment::kFootR: return BodyRegion::kLegs;
    default: return BodyRegion::kArms;
  }
}

}  // namespace

std::string_view segment_name(Segment s) {
  return kSegmentNames[static_cast<std::size_t>(s)];
}

Result<RiggedReference> rigged_reference(const std::filesystem::path& model_path,
                                         const std::filesystem::path& obj_path) {
  const auto model = read_rigged_model(model_path.string());
  if (!model) return std::unexpected(model.error());
  // The bone map needs a capture to map onto: the bundled CMU skeleton.
  const auto asf = read_asf((bundled_data_dir() / "09.asf").string());
  if (!asf) return std::unexpected(asf.error());
  const auto rig = build_retarget_rig(*asf, "09.asf", *model);
  if (!rig) return std::unexpected(rig.error());

  RiggedReference out;
  out.path = model_path.string();
  out.vertex_count = model->mesh.vertex_count();
  out.has_clavicles = rig->target_map[Role::ClavicleL].joint >= 0 && rig->target_map[Role::ClavicleR].joint >= 0;
  // Segment per model node: its role's, else its nearest ancestor's, else the trunk.
  std::vector<int> node_segment(model->nodes.size(), -1);
  for (int r = 0; r < kRoleCount; ++r) {
    const int k = rig->target_map.roles[static_cast<std::size_t>(r)].joint;
    if (k >= 0)
      node_segment[static_cast<std::size_t>(rig->target_nodes[static_cast<std::size_t>(k)])] = segment_of_role(Role(r));
  }
  for (std::size_t n = 0; n < model->nodes.size(); ++n) {
    if (node_segment[n] >= 0) continue;
    const int parent = model->nodes[n].parent;
    node_segment[n] = parent >= 0 ? node_segment[static_cast<std::size_t>(parent)] : int(Segment::kTrunk);
    if (node_segment[n] < 0) node_segment[n] = int(Segment::kTrunk);
  }
  std::vector<int> joint_segment;
  for (const ModelJoint& joint : model->joints) {
    joint_segment.push_back(node_segment[static_cast<std::size_t>(joint.node)]);
    out.joint_segments.push_back(model->nodes[static_cast<std::size_t>(joint.node)].name + " -> " +
                                 std::string(kSegmentNames[static_cast<std::size_t>(joint_segment.back())]));
  }
  for (const VertexWeights& w : model->weights) {
    out.dominant_segment.push_back(heaviest_segment(
        w, [&](std::size_t joint) { return joint < joint_segment.size() ? joint_segment[joint] : -1; }));
  }
  const std::string text = format_obj(model->mesh, model->mesh.positions, model->mesh.normals, 1.0);
  if (auto written = write_file_atomically(obj_path.string(), text); !written) {
    return std::unexpected(written.error());
  }
  return out;
}

BoneAgreement segment_agreement(std::span<const VertexWeights> weights, const Skeleton& skeleton,
                                const RiggedReference& reference) {
  BoneAgreement a;
  std::map<std::pair<int, int>, int> missed;
  for (std::size_t v = 0; v < reference.dominant_segment.size(); ++v) {
    const int ref = reference.dominant_segment[v];
    if (ref < 0) continue;
    // Ours as the reference's: the segment holding the most weight.
    auto segment_of_ours = [&](std::size_t bone) {
      return bone < skeleton.bones.size() ? segment_of_cmu(skeleton.bones[bone].name, reference.has_clavicles) : -1;
    };
    const int ours = v < weights.size() ? heaviest_segment(weights[v], segment_of_ours) : -1;
    RegionAgreement& region = a.regions[static_cast<int>(region_of_segment(ref))];
    ++a.overall.vertices;
    ++region.vertices;
    if (ours == ref) {
      ++a.overall.agree;
      ++region.agree;
    } else {
      ++missed[{ref, ours}];
    }
  }
  for (const auto& [pair, count] : missed) {
    a.confusions.push_back({std::string(kSegmentNames[static_cast<std::size_t>(pair.first)]),
                            pair.second >= 0 ? std::string(kSegmentNames[static_cast<std::size_t>(pair.second)]) : "?",
                            count});
  }
  std::stable_sort(a.confusions.begin(), a.confusions.end(),
                   [](const Confusion& x, const Confusion& y) { return x.vertices > y.vertices; });
  return a;
}

}  // namespace mocap::test
