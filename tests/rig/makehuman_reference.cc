#include "makehuman_reference.h"

#include <mocap/io/mesh.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

namespace mocap::test {
namespace {

// MakeHuman bone (without its .L/.R) -> CMU bone (without its l/r when the
// MakeHuman bone is sided). Why each, where it is not the obvious one:
//  - root has no weights; spine05 is MakeHuman's pelvis (the 104 vertices it
//    leads are the crotch and the lower belly, 4 in 5 below the hip
//    joints): CMU's root. pelvis.L/R
//    (hip and buttock) are CMU's hipjoints, which have no degrees of freedom
//    and move with the root.
//  - CMU's three back bones split root-to-neck in thirds; the heads of
//    spine02 (0.40 of the way) and spine01 (0.70) are the nearest MakeHuman
//    joints to those splits (cmu_joint_matches), so spine04/spine03 are
//    lowerback, spine02 upperback, spine01 and the breasts thorax.
//  - CMU's neck is two bones, the split at the middle of neck02-neck03.
//  - shoulder01 runs from the clavicle's tail to the shoulder joint, where
//    CMU's humerus starts: part of CMU's clavicle.
//  - CMU's lwrist is the palm (the cgspeed BVH conversion calls the joint at
//    its start LeftHand and at its end LeftFingerBase; it is 10 cm long on
//    subject 09): wrist and the metacarpals. CMU's hand and fingers are the
//    phalanges: the first (finger2-5-1) hand, the rest fingers. finger1 is
//    MakeHuman's thumb.
//  - every face, eye and tongue bone is CMU's head.
struct BoneRule {
  std::string_view makehuman;
  std::string_view cmu;
};
constexpr BoneRule kCentreRules[] = {
    {"root", "root"},         {"spine05", "root"},   {"spine04", "lowerback"}, {"spine03", "lowerback"},
    {"spine02", "upperback"}, {"spine01", "thorax"}, {"neck01", "lowerneck"},  {"neck02", "lowerneck"},
    {"neck03", "upperneck"},  {"head", "head"},      {"jaw", "head"},          {"oris01", "head"},
    {"oris02", "head"},       {"oris05", "head"},    {"oris06", "head"},       {"special01", "head"},
    {"special03", "head"},    {"special04", "head"}, {"tongue00", "head"},     {"tongue01", "head"},
    {"tongue02", "head"},     {"tongue03", "head"},  {"tongue04", "head"},
};
// Sided: "upperarm01" + ".L" -> "l" + "humerus"; a rule whose CMU bone is a
// centre bone ("thorax", "head") keeps that name on both sides.
constexpr BoneRule kSidedRules[] = {
    {"pelvis", "hipjoint"},    {"upperleg01", "femur"},    {"upperleg02", "femur"},   {"lowerleg01", "tibia"},
    {"lowerleg02", "tibia"},   {"foot", "foot"},           {"toe1-1", "toes"},        {"toe1-2", "toes"},
    {"toe2-1", "toes"},        {"toe2-2", "toes"},         {"toe2-3", "toes"},        {"toe3-1", "toes"},
    {"toe3-2", "toes"},        {"toe3-3", "toes"},         {"toe4-1", "toes"},        {"toe4-2", "toes"},
    {"toe4-3", "toes"},        {"toe5-1", "toes"},         {"toe5-2", "toes"},        {"toe5-3", "toes"},
    {"clavicle", "clavicle"},  {"shoulder01", "clavicle"}, {"upperarm01", "humerus"}, {"upperarm02", "humerus"},
    {"lowerarm01", "radius"},  {"lowerarm02", "radius"},   {"wrist", "wrist"},        {"metacarpal1", "wrist"},
    {"metacarpal2", "wrist"},  {"metacarpal3", "wrist"},   {"metacarpal4", "wrist"},  {"finger1-1", "thumb"},
    {"finger1-2", "thumb"},    {"finger1-3", "thumb"},     {"finger2-1", "hand"},     {"finger3-1", "hand"},
    {"finger4-1", "hand"},     {"finger5-1", "hand"},      {"finger2-2", "fingers"},  {"finger2-3", "fingers"},
    {"finger3-2", "fingers"},  {"finger3-3", "fingers"},   {"finger4-2", "fingers"},  {"finger4-3", "fingers"},
    {"finger5-2", "fingers"},  {"finger5-3", "fingers"},   {"breast", "thorax"},      {"eye", "head"},
    {"levator02", "head"},     {"levator03", "head"},      {"levator04", "head"},     {"levator05", "head"},
    {"levator06", "head"},     {"oculi01", "head"},        {"oculi02", "head"},       {"orbicularis03", "head"},
    {"orbicularis04", "head"}, {"oris03", "head"},         {"oris04", "head"},        {"oris06", "head"},
    {"oris07", "head"},        {"risorius02", "head"},     {"risorius03", "head"},    {"special05", "head"},
    {"special06", "head"},     {"temporalis01", "head"},   {"temporalis02", "head"},  {"tongue05", "head"},
    {"tongue06", "head"},      {"tongue07", "head"},
};

// Names built once: cmu_bone_for returns views into these.
const std::set<std::string, std::less<>>& sided_cmu_names() {
  static const std::set<std::string, std::less<>> names = [] {
    std::set<std::string, std::less<>> n;
    for (const auto& rule : kSidedRules) {
      n.insert("l" + std::string(rule.cmu));
      n.insert("r" + std::string(rule.cmu));
    }
    return n;
  }();
  return names;
}

// A rule's CMU bone is a centre bone when it is a CMU name as it stands
// ("thorax"), sided when it needs its l/r ("humerus").
bool is_centre_bone(std::string_view cmu) {
  return cmu_bone_index(cmu) >= 0;
}

// The CMU joints and where MakeHuman has them (bone heads, averaged). Why:
//  - root: spine05's head, the centre of the pelvis at hip height (also the
//    head of pelvis.L/R); lhipjoint and lowerback start there too.
//  - upperback, thorax: spine02 and spine01 heads (see kCentreRules).
//  - lowerneck: neck01's head, the base of the neck, where CMU's thorax ends
//    and the clavicles start; upperneck: between neck02's and neck03's heads;
//    head: the head bone's head (the skull's base).
//  - ltoes: the ball of the foot, the mean of the five toes' first heads.
//  - lhumerus: the shoulder joint (upperarm01's head); lradius: the elbow
//    (lowerarm01); lwrist: the wrist; lhand: the knuckles (the first
//    phalanges' heads of fingers 2-5), where CMU's palm (lwrist) ends and
//    lhand and lthumb start; lfingers: the second phalanges' heads.
std::vector<CmuJointMatch> make_joint_matches() {
  std::vector<CmuJointMatch> m = {
      {"root", {"spine05"}},     {"upperback", {"spine02"}},          {"thorax", {"spine01"}},
      {"lowerneck", {"neck01"}}, {"upperneck", {"neck02", "neck03"}}, {"head", {"head"}},
  };
  for (const std::string side : {"l", "r"}) {
    const std::string mh = side == "l" ? ".L" : ".R";
    auto heads = [&](std::initializer_list<const char*> bases) {
      std::vector<std::string> names;
      for (const char* base : bases) names.push_back(base + mh);
      return names;
    };
    m.push_back({side + "femur", heads({"upperleg01"})});
    m.push_back({side + "tibia", heads({"lowerleg01"})});
    m.push_back({side + "foot", heads({"foot"})});
    m.push_back({side + "toes", heads({"toe1-1", "toe2-1", "toe3-1", "toe4-1", "toe5-1"})});
    m.push_back({side + "humerus", heads({"upperarm01"})});
    m.push_back({side + "radius", heads({"lowerarm01"})});
    m.push_back({side + "wrist", heads({"wrist"})});
    m.push_back({side + "hand", heads({"finger2-1", "finger3-1", "finger4-1", "finger5-1"})});
    m.push_back({side + "fingers", heads({"finger2-2", "finger3-2", "finger4-2", "finger5-2"})});
  }
  return m;
}

// The bone that moves bone b: b, or its nearest ancestor with degrees of
// freedom (CMU's hipjoints have none and move with the root; a vertex on
// either moves the same). -1 when b is -1.
int moving_bone(const Skeleton& skeleton, int b) {
  while (b > 0 && skeleton.bones[b].dofs.empty()) b = skeleton.bones[b].parent;
  return b;
}

Result<nlohmann::json> read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return fail(path.string(), 0, "cannot open");
  nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return fail(path.string(), 0, "not valid JSON");
  return j;
}

std::string fixed(double x, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

}  // namespace

int cmu_bone_index(std::string_view name) {
  const auto it = std::find(kCmuBones.begin(), kCmuBones.end(), name);
  return it == kCmuBones.end() ? -1 : static_cast<int>(it - kCmuBones.begin());
}

BodyRegion region_of(int cmu_bone) {
  const std::string_view n = kCmuBones.at(cmu_bone);
  const std::string_view s = (n[0] == 'l' || n[0] == 'r') && n != "root" ? n.substr(1) : n;
  if (s == "clavicle" || s == "humerus" || s == "radius") return BodyRegion::kArms;
  if (s == "wrist" || s == "hand" || s == "fingers" || s == "thumb") return BodyRegion::kHands;
  if (s == "hipjoint" || s == "femur" || s == "tibia" || s == "foot" || s == "toes") return BodyRegion::kLegs;
  return BodyRegion::kSpineHead;
}

std::string_view cmu_bone_for(std::string_view makehuman_bone) {
  for (const auto& rule : kCentreRules)
    if (rule.makehuman == makehuman_bone) return rule.cmu;
  if (makehuman_bone.size() < 3) return {};
  const std::string_view suffix = makehuman_bone.substr(makehuman_bone.size() - 2);
  if (suffix != ".L" && suffix != ".R") return {};
  const std::string_view base = makehuman_bone.substr(0, makehuman_bone.size() - 2);
  for (const auto& rule : kSidedRules) {
    if (rule.makehuman != base) continue;
    if (is_centre_bone(rule.cmu)) return rule.cmu;
    const std::string name = std::string(suffix == ".L" ? "l" : "r") + std::string(rule.cmu);
    return *sided_cmu_names().find(name);
  }
  return {};
}

const std::vector<CmuJointMatch>& cmu_joint_matches() {
  static const std::vector<CmuJointMatch> matches = make_joint_matches();
  return matches;
}

Result<MakeHumanReference> read_makehuman_reference(const std::filesystem::path& dir) {
  const auto obj_path = dir / "base.obj", skel_path = dir / "default.mhskel",
             weights_path = dir / "default_weights.mhw";
  // Decimetres, as data/humanoid.obj is read with --mesh-units dm.
  auto base = read_obj(obj_path.string(), ObjReadOptions{0.1});
  if (!base) return std::unexpected(base.error());
  MakeHumanReference ref;
  // The humanoid as scripts/make_humanoid.py makes it: the `body` group's
  // vertices in their original order.
  const std::vector<std::string> body_group = {"body"};
  auto body = extract_groups(*base, body_group, &ref.base_vertex);
  if (!body) return std::unexpected(body.error());
  ref.positions = body->positions;
  for (const auto& p : ref.positions) ref.body_box.extend(p.cast<double>());
  const int base_count = base->vertex_count();
  std::vector<int> humanoid_vertex(base_count, -1);
  for (int v = 0; v < static_cast<int>(ref.base_vertex.size()); ++v) humanoid_vertex[ref.base_vertex[v]] = v;

  auto skel = read_json(skel_path);
  if (!skel) return std::unexpected(skel.error());
  if (!skel->contains("bones") || !skel->contains("joints")) return fail(skel_path.string(), 0, "no bones or joints");
  auto joint = [&](const std::string& name) -> Result<Eigen::Vector3d> {
    const auto& joints = (*skel)["joints"];
    if (!joints.contains(name) || !joints[name].is_array() || joints[name].empty())
      return fail(skel_path.string(), 0, "joint " + name + " missing or empty");
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    for (const auto& v : joints[name]) {
      if (!v.is_number_integer() || v.get<int>() < 0 || v.get<int>() >= base_count)
        return fail(skel_path.string(), 0, "joint " + name + ": vertex " + v.dump() + " not in base.obj");
      sum += base->positions[v.get<int>()].cast<double>();
    }
    return sum / static_cast<double>(joints[name].size());
  };
  for (const auto& [name, b] : (*skel)["bones"].items()) {
    MakeHumanBone bone;
    bone.name = name;
    if (b.contains("parent") && b["parent"].is_string()) bone.parent = b["parent"].get<std::string>();
    if (!b.contains("head") || !b["head"].is_string() || !b.contains("tail") || !b["tail"].is_string())
      return fail(skel_path.string(), 0, "bone " + name + " has no head or tail joint");
    auto head = joint(b["head"].get<std::string>());
    if (!head) return std::unexpected(head.error());
    auto tail = joint(b["tail"].get<std::string>());
    if (!tail) return std::unexpected(tail.error());
    bone.head = *head;
    bone.tail = *tail;
    ref.bones.emplace(name, std::move(bone));
  }

  auto mhw = read_json(weights_path);
  if (!mhw) return std::unexpected(mhw.error());
  if (!mhw->contains("weights") || !(*mhw)["weights"].is_object())
    return fail(weights_path.string(), 0, "no \"weights\" object");
  const auto& bone_weights = (*mhw)["weights"];
  for (const auto& [name, list] : bone_weights.items()) ref.weight_bones.push_back(name);
  std::sort(ref.weight_bones.begin(), ref.weight_bones.end());
  ref.weights.assign(ref.base_vertex.size(), {});
  for (int b = 0; b < static_cast<int>(ref.weight_bones.size()); ++b) {
    const std::string& name = ref.weight_bones[b];
    if (cmu_bone_for(name).empty())
      return fail(weights_path.string(), 0, "bone " + name + " has no CMU bone in the table (makehuman_reference.cc)");
    for (const auto& pair : bone_weights[name]) {
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() || !pair[1].is_number())
        return fail(weights_path.string(), 0, "bone " + name + ": " + pair.dump() + " is not [vertex, weight]");
      const int v = pair[0].get<int>();
      if (v < 0 || v >= base_count)
        return fail(weights_path.string(), 0, "bone " + name + ": vertex " + std::to_string(v) + " not in base.obj");
      if (humanoid_vertex[v] < 0) continue;  // a helper vertex, not on the body
      auto& w = ref.weights[humanoid_vertex[v]];
      const auto same = std::find_if(w.begin(), w.end(), [&](const auto& e) { return e.first == b; });
      if (same != w.end())
        same->second += pair[1].get<float>();
      else
        w.emplace_back(b, pair[1].get<float>());
    }
  }
  ref.dominant_cmu.assign(ref.weights.size(), -1);
  for (std::size_t v = 0; v < ref.weights.size(); ++v) {
    std::array<double, kCmuBones.size()> sum{};
    for (const auto& [b, w] : ref.weights[v]) sum[cmu_bone_index(cmu_bone_for(ref.weight_bones[b]))] += w;
    const auto best = std::max_element(sum.begin(), sum.end());
    if (*best > 0.0) ref.dominant_cmu[v] = static_cast<int>(best - sum.begin());
  }
  return ref;
}

Eigen::Vector3d reference_joint(const MakeHumanReference& reference, const CmuJointMatch& match) {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  for (const auto& name : match.makehuman_heads) sum += reference.bones.at(name).head;
  return sum / static_cast<double>(match.makehuman_heads.size());
}

std::string BoneAgreement::summary(int confusions_shown) const {
  std::string s = "overall " + fixed(overall.fraction(), 3) + " (" + std::to_string(overall.agree) + "/" +
                  std::to_string(overall.vertices) + ")";
  for (std::size_t r = 0; r < regions.size(); ++r)
    s += "; " + std::string(kRegionNames[r]) + " " + fixed(regions[r].fraction(), 3) + " (" +
         std::to_string(regions[r].agree) + "/" + std::to_string(regions[r].vertices) + ")";
  s += "; most missed (reference->ours vertices):";
  for (int i = 0; i < std::min<int>(confusions_shown, confusions.size()); ++i)
    s += " " + confusions[i].reference_bone + "->" + confusions[i].our_bone + " " +
         std::to_string(confusions[i].vertices);
  return s;
}

BoneAgreement dominant_bone_agreement(std::span<const VertexWeights> weights, const Skeleton& skeleton,
                                      const MakeHumanReference& reference) {
  BoneAgreement a;
  std::map<std::pair<std::string, std::string>, int> missed;
  const std::size_t n = std::min<std::size_t>(weights.size(), reference.dominant_cmu.size());
  for (std::size_t v = 0; v < reference.dominant_cmu.size(); ++v) {
    const int ref_cmu = reference.dominant_cmu[v];
    if (ref_cmu < 0) continue;
    const int ref_bone = moving_bone(skeleton, skeleton.find_bone(kCmuBones[ref_cmu]));
    const std::string ref_name = ref_bone >= 0 ? skeleton.bones[ref_bone].name : std::string(kCmuBones[ref_cmu]);
    int ours = -1;
    if (v < n) {
      const VertexWeights& w = weights[v];
      const auto best = std::max_element(w.weight.begin(), w.weight.end()) - w.weight.begin();
      if (w.weight[best] > 0.0f && w.bone[best] < skeleton.bones.size()) ours = moving_bone(skeleton, w.bone[best]);
    }
    // By the bone that moves the reference's: the hip and buttock (hipjoint,
    // moved by the root) count in the trunk.
    const int ref_index = cmu_bone_index(ref_name);
    RegionAgreement& region = a.regions[static_cast<int>(region_of(ref_index >= 0 ? ref_index : ref_cmu))];
    ++a.overall.vertices;
    ++region.vertices;
    if (ours >= 0 && ours == ref_bone) {
      ++a.overall.agree;
      ++region.agree;
    } else {
      ++missed[{ref_name, ours >= 0 ? skeleton.bones[ours].name : std::string("?")}];
    }
  }
  for (const auto& [names, count] : missed) a.confusions.push_back({names.first, names.second, count});
  std::stable_sort(a.confusions.begin(), a.confusions.end(),
                   [](const Confusion& x, const Confusion& y) { return x.vertices > y.vertices; });
  return a;
}

std::string JointDistances::summary() const {
  std::string s;
  if (worst >= 0) s = "worst " + joints[worst].cmu_bone + " " + fixed(joints[worst].cm, 1) + " cm, ";
  s += "mean " + fixed(mean_cm, 1) + " cm;";
  for (const auto& j : joints) s += " " + j.cmu_bone + " " + fixed(j.cm, 1);
  return s;
}

JointDistances joint_distances(const Skeleton& skeleton, std::span<const Eigen::Vector3d> bone_starts,
                               const MakeHumanReference& reference) {
  JointDistances d;
  for (const auto& match : cmu_joint_matches()) {
    const int b = skeleton.find_bone(match.cmu_bone);
    if (b < 0 || b >= static_cast<int>(bone_starts.size())) continue;
    JointDistance j;
    j.cmu_bone = match.cmu_bone;
    j.ours = bone_starts[b];
    j.reference = reference_joint(reference, match);
    j.cm = (j.ours - j.reference).norm() * 100.0;
    d.mean_cm += j.cm;
    if (d.worst < 0 || j.cm > d.joints[d.worst].cm) d.worst = static_cast<int>(d.joints.size());
    d.joints.push_back(std::move(j));
  }
  if (!d.joints.empty()) d.mean_cm /= static_cast<double>(d.joints.size());
  return d;
}

}  // namespace mocap::test
