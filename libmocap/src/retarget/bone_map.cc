// Names first, then topology (bone_map.h); the tables hold normalised names.
#include <mocap/retarget/bone_map.h>

#include <Eigen/Geometry>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_map>

namespace mocap {
namespace {

constexpr std::array<std::string_view, kRoleCount> kRoleNames = {
    "hips",      "spine",   "chest",      "neck",        "head",      "clavicle.L", "upper_arm.L",
    "forearm.L", "hand.L",  "clavicle.R", "upper_arm.R", "forearm.R", "hand.R",     "thigh.L",
    "shin.L",    "foot.L",  "toe.L",      "thigh.R",     "shin.R",    "foot.R",     "toe.R",
    "fingers.L", "thumb.L", "fingers.R",  "thumb.R"};

// Limb joints in chain order; a side adds 4 (arms) or 4 (legs) to the left role.
enum Limb { kClavicle, kUpperArm, kForearm, kHand, kThigh, kShin, kFoot, kToe, kFingers, kThumb, kOtherFinger };

Role limb_role(Limb limb, int side) {
  const bool right = side > 0;
  switch (limb) {
    case kClavicle: return right ? Role::ClavicleR : Role::ClavicleL;
    case kUpperArm: return right ? Role::UpperArmR : Role::UpperArmL;
    case kForearm: return right ? Role::ForearmR : Role::ForearmL;
    case kHand: return right ? Role::HandR : Role::HandL;
    case kThigh: return right ? Role::ThighR : Role::ThighL;
    case kShin: return right ? Role::ShinR : Role::ShinL;
    case kFoot: return right ? Role::FootR : Role::FootL;
    case kToe: return right ? Role::ToeR : Role::ToeL;
    case kFingers: return right ? Role::FingersR : Role::FingersL;
    case kThumb: return right ? Role::ThumbR : Role::ThumbL;
    case kOtherFinger: break;  // no role: HumanoidMap::other_fingers
  }
  return Role::Hips;
}

// Normalised names without a side: the trunk. Priority 0 wins over 1
// (Unreal's "root" sits under the pelvis' parent, CMU's root is the hips).
struct TrunkEntry {
  Role role;
  int priority;
};
const std::unordered_map<std::string, TrunkEntry>& trunk_table() {
  static const std::unordered_map<std::string, TrunkEntry> table = {
      {"hips", {Role::Hips, 0}},        {"hip", {Role::Hips, 1}},   {"pelvis", {Role::Hips, 0}},
      {"torsojoint1", {Role::Hips, 0}}, {"root", {Role::Hips, 1}},  {"neck", {Role::Neck, 0}},
      {"neck01", {Role::Neck, 0}},      {"neck1", {Role::Neck, 1}}, {"lowerneck", {Role::Neck, 0}},
      {"neckjoint1", {Role::Neck, 0}},  {"head", {Role::Head, 0}},  {"neckjoint2", {Role::Head, 0}},
      {"skull", {Role::Head, 1}},
  };
  return table;
}

// Normalised names of limb joints (the side removed).
const std::unordered_map<std::string, Limb>& limb_table() {
  static const std::unordered_map<std::string, Limb> table = {
      // clavicles
      {"clavicle", kClavicle},
      {"shoulder", kClavicle},
      {"collar", kClavicle},
      {"clavicle01", kClavicle},
      // upper arms: Mixamo/cgspeed "LeftArm", Unreal upperarm_l, Unity LeftUpperArm, CMU lhumerus, MakeHuman
      {"arm", kUpperArm},
      {"upperarm", kUpperArm},
      {"humerus", kUpperArm},
      {"upperarm01", kUpperArm},
      // forearms
      {"forearm", kForearm},
      {"lowerarm", kForearm},
      {"radius", kForearm},
      {"lowerarm01", kForearm},
      {"elbow", kForearm},
      // hands
      {"hand", kHand},
      {"wrist", kHand},
      {"palm", kHand},
      // thighs: Mixamo LeftUpLeg, Unreal thigh_l, Unity LeftUpperLeg, CMU lfemur, MakeHuman upperleg01
      {"upleg", kThigh},
      {"thigh", kThigh},
      {"upperleg", kThigh},
      {"femur", kThigh},
      {"upperleg01", kThigh},
      {"legjoint1", kThigh},
      // shins: Mixamo LeftLeg, Unreal calf_l, Unity LeftLowerLeg, CMU ltibia
      {"leg", kShin},
      {"shin", kShin},
      {"calf", kShin},
      {"lowerleg", kShin},
      {"knee", kShin},
      {"tibia", kShin},
      {"lowerleg01", kShin},
      {"legjoint2", kShin},
      // feet
      {"foot", kFoot},
      {"ankle", kFoot},
      {"legjoint3", kFoot},
      // toes: Mixamo LeftToeBase, Unreal ball_l, Unity LeftToes, CMU ltoes, MakeHuman toe1-1
      {"toebase", kToe},
      {"toe", kToe},
      {"toes", kToe},
      {"ball", kToe},
      {"toe11", kToe},
      {"legjoint5", kToe},
      // fingers: CMU lfingers, the middle finger's first joint (Mixamo LeftHandMiddle1, Unreal middle_01_l,
      // Unity LeftMiddleProximal, Rigify DEF-f_middle.01.L, MakeHuman finger3-1.L)
      {"fingers", kFingers},
      {"handmiddle1", kFingers},
      {"middle01", kFingers},
      {"middleproximal", kFingers},
      {"fmiddle01", kFingers},
      {"finger31", kFingers},
      // thumbs: CMU lthumb, LeftHandThumb1, thumb_01_l, LeftThumbProximal, DEF-thumb.01.L, finger1-1.L
      {"thumb", kThumb},
      {"handthumb1", kThumb},
      {"thumb01", kThumb},
      {"thumbproximal", kThumb},
      {"finger11", kThumb},
      // the other fingers' first joints
      {"handindex1", kOtherFinger},
      {"handring1", kOtherFinger},
      {"handpinky1", kOtherFinger},
      {"index01", kOtherFinger},
      {"ring01", kOtherFinger},
      {"pinky01", kOtherFinger},
      {"indexproximal", kOtherFinger},
      {"ringproximal", kOtherFinger},
      {"littleproximal", kOtherFinger},
      {"findex01", kOtherFinger},
      {"fring01", kOtherFinger},
      {"fpinky01", kOtherFinger},
      {"finger21", kOtherFinger},
      {"finger41", kOtherFinger},
      {"finger51", kOtherFinger},
  };
  return table;
}

// Words that name the rig, not the joint.
bool is_noise_word(const std::string& word) {
  static const std::array<std::string_view, 12> words = {"def",       "org",      "mch", "bip01", "bip001", "bip",
                                                         "mixamorig", "skeleton", "jnt", "bn",    "b",      "cc"};
  return std::find(words.begin(), words.end(), word) != words.end();
}

// Hierarchy helpers.
struct Tree {
  const JointHierarchy& h;
  std::vector<std::vector<int>> children;
  double height = 1.0;  // extent of the hierarchy along up, > 0

  explicit Tree(const JointHierarchy& hierarchy) : h(hierarchy), children(hierarchy.names.size()) {
    for (std::size_t j = 0; j < h.parents.size(); ++j) {
      if (h.parents[j] >= 0) children[static_cast<std::size_t>(h.parents[j])].push_back(static_cast<int>(j));
    }
    double lo = std::numeric_limits<double>::max(), hi = -lo;
    for (const auto& p : h.positions) {
      lo = std::min(lo, p.dot(h.up));
      hi = std::max(hi, p.dot(h.up));
    }
    height = hi > lo ? hi - lo : 1.0;
  }
  double up_of(int j) const { return h.positions[static_cast<std::size_t>(j)].dot(h.up); }
  // Lowest and highest height in the subtree of j, and its size.
  void extent(int j, double& lo, double& hi, int& size) const {
    lo = std::min(lo, up_of(j));
    hi = std::max(hi, up_of(j));
    ++size;
    for (int c : children[static_cast<std::size_t>(j)]) extent(c, lo, hi, size);
  }
  double lowest(int j) const {
    double lo = 1e300, hi = -1e300;
    int size = 0;
    extent(j, lo, hi, size);
    return lo;
  }
  double highest(int j) const {
    double lo = 1e300, hi = -1e300;
    int size = 0;
    extent(j, lo, hi, size);
    return hi;
  }
  int size(int j) const {
    double lo = 1e300, hi = -1e300;
    int n = 0;
    extent(j, lo, hi, n);
    return n;
  }
  bool goes_down(int parent, int c) const { return lowest(c) < up_of(parent) - 0.25 * height; }
  bool goes_up(int parent, int c) const { return highest(c) > up_of(parent) + 0.1 * height; }
  // The chain from c following, at each joint, the child `better` prefers.
  template <class Better>
  std::vector<int> chain(int c, Better better) const {
    std::vector<int> out{c};
    for (;;) {
      const auto& kids = children[static_cast<std::size_t>(out.back())];
      if (kids.empty()) break;
      int best = kids[0];
      for (int k : kids) {
        if (better(k, best)) best = k;
      }
      out.push_back(best);
    }
    return out;
  }
  Eigen::Vector3d pos(int j) const { return h.positions[static_cast<std::size_t>(j)]; }
};

void set_role(HumanoidMap& map, Role role, int joint, const char* how) {
  RoleMatch& m = map[role];
  if (m.joint < 0 && joint >= 0) {
    m.joint = joint;
    m.how = how;
  }
}

// Leg roles along a chain down from the hips.
void fill_leg(const Tree& t, std::vector<int> chain, int side, HumanoidMap& map) {
  if (chain.size() >= 2) {
    const Eigen::Vector3d first = t.pos(chain[1]) - t.pos(chain[0]);
    if (std::abs(first.normalized().dot(t.h.up)) < 0.5 && map[limb_role(kThigh, side)].joint != chain[0]) {
      chain.erase(chain.begin());  // a pelvis bone lying sideways
    }
  }
  if (chain.size() < 3) return;
  std::size_t foot = chain.size() - 1;
  for (std::size_t i = 1; i + 1 < chain.size(); ++i) {
    const Eigen::Vector3d next = t.pos(chain[i + 1]) - t.pos(chain[i]);
    if (next.norm() > 0 && std::abs(next.normalized().dot(t.h.up)) < 0.7) {
      foot = i;
      break;
    }
  }
  if (foot < 2) foot = std::min<std::size_t>(2, chain.size() - 1);
  const Eigen::Vector3d middle = 0.5 * (t.pos(chain[0]) + t.pos(chain[foot]));
  std::size_t shin = 1;
  for (std::size_t i = 1; i < foot; ++i) {
    if ((t.pos(chain[i]) - middle).norm() < (t.pos(chain[shin]) - middle).norm()) shin = i;
  }
  set_role(map, limb_role(kThigh, side), chain[0], "topology");
  set_role(map, limb_role(kShin, side), chain[shin], "topology");
  set_role(map, limb_role(kFoot, side), chain[foot], "topology");
  if (foot + 1 < chain.size()) set_role(map, limb_role(kToe, side), chain[foot + 1], "topology");
}

// Arm roles along a chain out from the chest.
// `from_upper_arm`: the chain starts at the upper arm (no clavicle on it).
void fill_arm(const Tree& t, const std::vector<int>& chain, int side, HumanoidMap& map, bool from_upper_arm = false) {
  std::size_t hand = chain.size() - 1;
  for (std::size_t i = 0; i < chain.size(); ++i) {
    if (t.children[static_cast<std::size_t>(chain[i])].size() >= 2) {
      hand = i;
      break;
    }
  }
  if (hand < 2) {
    if (hand == 1) {
      set_role(map, limb_role(kUpperArm, side), chain[0], "topology");
      set_role(map, limb_role(kForearm, side), chain[1], "topology");
    }
    return;
  }
  std::size_t upper = 0;
  if (hand >= 3 && !from_upper_arm) {
    set_role(map, limb_role(kClavicle, side), chain[0], "topology");
    upper = 1;
  }
  const Eigen::Vector3d middle = 0.5 * (t.pos(chain[upper]) + t.pos(chain[hand]));
  std::size_t fore = upper + 1;
  for (std::size_t i = upper + 1; i < hand; ++i) {
    if ((t.pos(chain[i]) - middle).norm() < (t.pos(chain[fore]) - middle).norm()) fore = i;
  }
  set_role(map, limb_role(kUpperArm, side), chain[upper], "topology");
  set_role(map, limb_role(kForearm, side), chain[fore], "topology");
  set_role(map, limb_role(kHand, side), chain[hand], "topology");
}

// The side a chain is on: its name's marker, else the character's left
// (up x forward, forward from heel to toe) by geometry; `other` breaks ties.
int chain_side(const Tree& t, int first, const Eigen::Vector3d& origin, const Eigen::Vector3d& left) {
  for (int j = first; j >= 0;) {
    const int s = normalise_bone_name(t.h.names[static_cast<std::size_t>(j)]).side;
    if (s != 0) return s;
    const auto& kids = t.children[static_cast<std::size_t>(j)];
    j = kids.size() == 1 ? kids[0] : -1;
  }
  return (t.pos(first) - origin).dot(left) >= 0 ? -1 : 1;
}

bool is_ancestor(const JointHierarchy& h, int a, int j) {
  for (; j >= 0; j = h.parents[static_cast<std::size_t>(j)]) {
    if (j == a) return true;
  }
  return false;
}

std::string missing_message(Role role) {
  return "no " + std::string(role_name(role)) +
         " joint found by name or topology: expected a humanoid skeleton with hips, two legs (thigh, shin, foot), "
         "two arms (upper arm, forearm) and a head (a --map FILE names joints the tables do not know)";
}

}  // namespace

std::string_view role_name(Role role) {
  return kRoleNames[static_cast<std::size_t>(role)];
}

int JointHierarchy::find(std::string_view name) const {
  for (std::size_t j = 0; j < names.size(); ++j) {
    if (names[j] == name) return static_cast<int>(j);
  }
  return -1;
}

NormalisedName normalise_bone_name(std::string_view name) {
  const std::size_t cut = name.find_last_of(":|");
  if (cut != std::string_view::npos) name = name.substr(cut + 1);
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) words.push_back(word);
    word.clear();
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(c)) {
      flush();
      continue;
    }
    // A word ends before an upper-case letter that follows a lower-case one ("LeftUpLeg").
    if (std::isupper(c) && i > 0 && std::islower(static_cast<unsigned char>(name[i - 1]))) flush();
    word.push_back(static_cast<char>(std::tolower(c)));
  }
  flush();
  NormalisedName out;
  for (const std::string& w : words) {
    if (is_noise_word(w)) continue;
    if (out.side == 0 && (w == "l" || w == "left")) {
      out.side = -1;
    } else if (out.side == 0 && (w == "r" || w == "right")) {
      out.side = 1;
    } else {
      out.base += w;
    }
  }
  // CMU glues the side to the bone: lfemur, rtibia.
  if (out.side == 0 && out.base.size() > 1 && (out.base[0] == 'l' || out.base[0] == 'r') &&
      limb_table().contains(out.base.substr(1)) && !limb_table().contains(out.base)) {
    out.side = out.base[0] == 'l' ? -1 : 1;
    out.base.erase(0, 1);
  }
  return out;
}

HumanoidMap find_humanoid_roles(const JointHierarchy& h) {
  HumanoidMap map;
  const Tree t(h);
  const int n = static_cast<int>(h.names.size());
  // 1. Names.
  std::array<int, kRoleCount> priority;
  priority.fill(99);
  // "Left leg" is the thigh where the same side has a "knee" (VRoid and
  // UniVRM avatars: leg, knee, ankle), the shin elsewhere (Mixamo: UpLeg, Leg).
  std::array<bool, 2> has_knee{false, false};
  std::array<std::vector<int>, kRoleCount> named;  // every joint a name gives each role
  for (int j = 0; j < n; ++j) {
    const NormalisedName name = normalise_bone_name(h.names[static_cast<std::size_t>(j)]);
    if (name.side != 0 && name.base == "knee") has_knee[name.side > 0 ? 1 : 0] = true;
  }
  for (int j = 0; j < n; ++j) {
    const NormalisedName name = normalise_bone_name(h.names[static_cast<std::size_t>(j)]);
    Role role;
    int p = 0;
    if (name.side == 0) {
      const auto it = trunk_table().find(name.base);
      if (it == trunk_table().end()) continue;
      role = it->second.role;
      p = it->second.priority;
    } else {
      const auto it = limb_table().find(name.base);
      if (it == limb_table().end()) continue;
      if (it->second == kOtherFinger) {
        map.other_fingers[name.side > 0 ? 1 : 0].push_back(j);
        continue;
      }
      role = limb_role(name.base == "leg" && has_knee[name.side > 0 ? 1 : 0] ? kThigh : it->second, name.side);
    }
    named[static_cast<std::size_t>(role)].push_back(j);
    // Parents come first, so the first joint of a priority is the one nearest the root.
    if (p < priority[static_cast<std::size_t>(role)]) {
      priority[static_cast<std::size_t>(role)] = p;
      map[role] = {j, "name table"};
    }
  }
  // Of several joints a name gives one limb role (an IK rig's `ankle_l`
  // control beside its `foot_l`), the one that hangs below the role before it.
  for (int side : {-1, 1}) {
    for (const auto& chain : {std::array<Limb, 4>{kThigh, kShin, kFoot, kToe},
                              std::array<Limb, 4>{kClavicle, kUpperArm, kForearm, kHand}}) {
      for (std::size_t i = 1; i < chain.size(); ++i) {
        const int before = map[limb_role(chain[i - 1], side)].joint;
        RoleMatch& match = map[limb_role(chain[i], side)];
        if (before < 0 || match.joint < 0 || is_ancestor(h, before, match.joint)) continue;
        for (const int j : named[static_cast<std::size_t>(limb_role(chain[i], side))]) {
          if (j == match.joint || !is_ancestor(h, before, j)) continue;
          match = {j, "name table (below " + h.names[static_cast<std::size_t>(before)] + ")"};
          break;
        }
      }
    }
  }
  // No middle finger: the first other finger plays `fingers` (cgspeed's BVH: LeftHandIndex1).
  for (int s : {-1, 1}) {
    auto& others = map.other_fingers[s > 0 ? 1 : 0];
    if (map[limb_role(kFingers, s)].joint < 0 && !others.empty()) {
      map[limb_role(kFingers, s)] = {others.front(), "name table (no middle finger)"};
      others.erase(others.begin());
    }
  }
  // A name-table hips must have legs below it: else topology decides.
  // 2. Topology: the hips.
  if (map[Role::Hips].joint < 0) {
    int best = -1, best_size = 0;
    for (int j = 0; j < n; ++j) {
      int down = 0, up = 0;
      for (int c : t.children[static_cast<std::size_t>(j)]) {
        if (t.goes_down(j, c))
          ++down;
        else if (t.goes_up(j, c))
          ++up;
      }
      if (down >= 2 && up >= 1 && t.size(j) > best_size) {
        best = j;
        best_size = t.size(j);
      }
    }
    set_role(map, Role::Hips, best, "topology");
  }
  const int hips = map[Role::Hips].joint;
  if (hips < 0) return map;
  const auto& hip_children = t.children[static_cast<std::size_t>(hips)];
  // Legs: the two children reaching lowest; the spine: the child reaching highest.
  std::vector<int> downs, ups;
  for (int c : hip_children) {
    if (t.goes_down(hips, c))
      downs.push_back(c);
    else if (t.goes_up(hips, c))
      ups.push_back(c);
  }
  std::sort(downs.begin(), downs.end(), [&](int a, int b) { return t.lowest(a) < t.lowest(b); });
  if (downs.size() > 2) downs.resize(2);
  // Forward from heel to toe (by names or the lowest chains), left = up x forward.
  auto lowest_first = [&](int a, int b) { return t.lowest(a) < t.lowest(b); };
  Eigen::Vector3d forward = Eigen::Vector3d::Zero();
  for (int d : downs) {
    const std::vector<int> leg = t.chain(d, lowest_first);
    if (leg.size() >= 2) {
      Eigen::Vector3d toe = t.pos(leg.back()) - t.pos(leg[leg.size() - 2]);
      toe -= toe.dot(h.up) * h.up;
      forward += toe;
    }
  }
  // The facing is known when the feet reach forward (toes): a leg ending at the ankle gives noise.
  const bool facing_known = forward.norm() > 0.05 * t.height;
  if (forward.norm() < 1e-9) forward = h.up.unitOrthogonal();
  const Eigen::Vector3d left = h.up.cross(forward.normalized()).normalized();
  const Eigen::Vector3d origin = t.pos(hips);
  for (int d : downs) {
    // A thigh named on this chain decides its side; else the chain's names or geometry.
    int side = 0;
    for (int s : {-1, 1}) {
      const int named = map[limb_role(kThigh, s)].joint;
      if (named >= 0 && is_ancestor(h, d, named)) side = s;
    }
    if (side == 0) side = chain_side(t, d, origin, left);
    int start = d;
    const int named = map[limb_role(kThigh, side)].joint;
    if (named >= 0 && is_ancestor(h, d, named)) start = named;
    fill_leg(t, t.chain(start, lowest_first), side, map);
  }
  // The spine: up from the hips to the neck (named, or where two chains branch off sideways).
  auto highest_first = [&](int a, int b) { return t.highest(a) > t.highest(b); };
  int neck = map[Role::Neck].joint;
  int chest_branch = -1;
  // The joint the spine's path starts below: the hips, or where the spine
  // hangs beside them (a control bone parenting both: oga_knight's
  // body_ctrl), their nearest common ancestor.
  int spine_from = hips;
  if (neck >= 0 && !is_ancestor(h, hips, neck)) {
    int common = h.parents[static_cast<std::size_t>(hips)];
    while (common >= 0 && !is_ancestor(h, common, neck)) common = h.parents[static_cast<std::size_t>(common)];
    if (common >= 0)
      spine_from = common;
    else
      neck = -1;
  }
  if (neck < 0) {
    if (!ups.empty()) {
      const std::vector<int> up =
          t.chain(*std::max_element(ups.begin(), ups.end(), [&](int a, int b) { return t.highest(a) < t.highest(b); }),
                  highest_first);
      for (std::size_t i = 0; i + 1 < up.size(); ++i) {
        if (t.children[static_cast<std::size_t>(up[i])].size() >= 3) {
          chest_branch = up[i];
          neck = up[i + 1];
          break;
        }
      }
      if (neck >= 0) {
        map[Role::Neck] = {neck, "topology"};
      }
    }
  }
  if (neck >= 0) {
    for (int j = h.parents[static_cast<std::size_t>(neck)]; j >= 0 && j != spine_from;
         j = h.parents[static_cast<std::size_t>(j)]) {
      map.spine.insert(map.spine.begin(), j);
    }
    if (!map.spine.empty()) {
      set_role(map, Role::Spine, map.spine.front(), "topology");
      set_role(map, Role::Chest, map.spine.back(), "topology");
      if (chest_branch < 0) chest_branch = map.spine.back();
    }
    map.spine.insert(map.spine.begin(), hips);
    // The head: named, else along the chain up from the neck.
    int head = map[Role::Head].joint;
    const std::vector<int> up = t.chain(neck, highest_first);
    if (head < 0 || !is_ancestor(h, neck, head)) {
      head = up.size() >= 3 ? up[up.size() - 2] : up.back();
      map[Role::Head] = {head, "topology"};
    }
    std::vector<int> neck_chain;
    for (int j = head; j >= 0 && j != neck; j = h.parents[static_cast<std::size_t>(j)])
      neck_chain.insert(neck_chain.begin(), j);
    map.spine.push_back(neck);
    map.spine.insert(map.spine.end(), neck_chain.begin(), neck_chain.end());
  }
  // Arms: the chains from the chest (or wherever a named arm hangs) that are not the neck.
  std::vector<int> arm_starts;
  if (chest_branch < 0 && neck >= 0) chest_branch = h.parents[static_cast<std::size_t>(neck)];
  for (int s : {-1, 1}) {
    for (Limb limb : {kClavicle, kUpperArm}) {
      const int named = map[limb_role(limb, s)].joint;
      if (named >= 0) {
        int top = named;
        while (h.parents[static_cast<std::size_t>(top)] >= 0 &&
               !std::count(map.spine.begin(), map.spine.end(), h.parents[static_cast<std::size_t>(top)])) {
          top = h.parents[static_cast<std::size_t>(top)];
        }
        if (!std::count(arm_starts.begin(), arm_starts.end(), top)) arm_starts.push_back(top);
        break;
      }
    }
  }
  if (arm_starts.size() < 2 && chest_branch >= 0) {
    std::vector<int> candidates;
    for (int spine_joint : map.spine) {
      for (int c : t.children[static_cast<std::size_t>(spine_joint)]) {
        if (std::count(map.spine.begin(), map.spine.end(), c) || std::count(arm_starts.begin(), arm_starts.end(), c))
          continue;
        if (spine_joint == hips && t.goes_down(hips, c)) continue;
        candidates.push_back(c);
      }
    }
    std::sort(candidates.begin(), candidates.end(), [&](int a, int b) { return t.size(a) > t.size(b); });
    for (int c : candidates) {
      if (arm_starts.size() >= 2) break;
      if (t.size(c) >= 2) arm_starts.push_back(c);
    }
  }
  auto biggest_first = [&](int a, int b) { return t.size(a) > t.size(b); };
  for (int a : arm_starts) {
    int side = 0;
    for (int s : {-1, 1}) {
      for (Limb limb : {kClavicle, kUpperArm, kForearm, kHand}) {
        const int named = map[limb_role(limb, s)].joint;
        if (named >= 0 && is_ancestor(h, a, named)) side = s;
      }
    }
    if (side == 0) side = chain_side(t, a, origin, left);
    // Completed from the first named joint of the chain, or from its start.
    int start = a;
    for (Limb limb : {kClavicle, kUpperArm}) {
      const int named = map[limb_role(limb, side)].joint;
      if (named >= 0 && is_ancestor(h, a, named)) {
        start = named;
        break;
      }
    }
    std::vector<int> chain = t.chain(start, biggest_first);
    if (start != a && map[limb_role(kClavicle, side)].joint == start) {
      chain.erase(chain.begin());  // a named clavicle: the upper arm is next
      if (!chain.empty()) fill_arm(t, chain, side, map, true);
    } else {
      fill_arm(t, chain, side, map, start != a);
    }
  }
  // 3. Mirrored names: when both legs and both arms are named for the side
  // they do not lie on, the names are wrong, not the character.
  auto named_side = [&](int j) { return j < 0 ? 0 : normalise_bone_name(t.h.names[static_cast<std::size_t>(j)]).side; };
  bool mirrored = facing_known && map[Role::ToeL].joint >= 0 && map[Role::ToeR].joint >= 0;
  for (Limb limb : {kThigh, kForearm}) {
    for (int s : {-1, 1}) {
      const int j = map[limb_role(limb, s)].joint;
      const int geometric = j < 0 ? 0 : (t.pos(j) - origin).dot(left) >= 0 ? -1 : 1;
      if (named_side(j) != s || geometric != -s) mirrored = false;
    }
  }
  if (mirrored) {
    map.sides_swapped = true;
    std::swap(map.other_fingers[0], map.other_fingers[1]);
    for (Limb limb : {kClavicle, kUpperArm, kForearm, kHand, kThigh, kShin, kFoot, kToe, kFingers, kThumb}) {
      std::swap(map[limb_role(limb, -1)], map[limb_role(limb, 1)]);
      for (int s : {-1, 1}) {
        RoleMatch& m = map[limb_role(limb, s)];
        if (m.joint >= 0) m.how += ", sides swapped";
      }
    }
  }
  return map;
}

std::vector<Role> missing_roles(const HumanoidMap& map) {
  std::vector<Role> out;
  for (Role role : {Role::Hips, Role::ThighL, Role::ShinL, Role::FootL, Role::ThighR, Role::ShinR, Role::FootR,
                    Role::UpperArmL, Role::ForearmL, Role::UpperArmR, Role::ForearmR, Role::Head}) {
    if (map[role].joint < 0) out.push_back(role);
  }
  return out;
}

Result<HumanoidMap> find_humanoid(const JointHierarchy& h, const std::string& what) {
  HumanoidMap map = find_humanoid_roles(h);
  const std::vector<Role> missing = missing_roles(map);
  if (!missing.empty()) return fail(what, 0, missing_message(missing.front()));
  return map;
}

Result<std::vector<BoneMapOverride>> read_bone_map_overrides(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fail(path, 0, "cannot open the --map file: expected a JSON object {\"target bone\": \"capture bone\"}");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const std::size_t at = std::min<std::size_t>(e.byte, text.size());
    const int line =
        1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    return fail(path, line, "not JSON: expected an object {\"target bone\": \"capture bone\"}");
  }
  if (!json.is_object()) return fail(path, 1, "expected a JSON object {\"target bone\": \"capture bone\"}");
  std::vector<BoneMapOverride> out;
  std::size_t search_from = 0;
  for (const auto& [key, value] : json.items()) {
    // The line of the key: its quoted text, searched in order.
    const std::string quoted = nlohmann::json(key).dump();
    std::size_t at = text.find(quoted, search_from);
    if (at == std::string::npos) at = text.find(quoted);
    if (at == std::string::npos) at = 0;
    const int line =
        1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    if (!value.is_string()) return fail(path, line, "`" + key + "`: expected a capture bone's name as a string");
    out.push_back({key, value.get<std::string>(), line});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.line < b.line; });
  return out;
}

Result<void> apply_bone_map_overrides(const std::vector<BoneMapOverride>& overrides, const std::string& path,
                                      const JointHierarchy& capture, const HumanoidMap& capture_map,
                                      const JointHierarchy& target, HumanoidMap& target_map) {
  for (const BoneMapOverride& o : overrides) {
    const int t = target.find(o.target);
    if (t < 0) return fail(path, o.line, "`" + o.target + "`: the model has no joint of that name");
    const int c = capture.find(o.capture);
    if (c < 0) return fail(path, o.line, "`" + o.capture + "`: the capture has no bone of that name");
    int role = -1;
    for (int r = 0; r < kRoleCount; ++r) {
      if (capture_map.roles[static_cast<std::size_t>(r)].joint == c) role = r;
    }
    if (role < 0) {
      std::string roles;
      for (int r = 0; r < kRoleCount; ++r) {
        if (capture_map.roles[static_cast<std::size_t>(r)].joint >= 0) {
          roles += (roles.empty() ? "" : ", ") +
                   capture.names[static_cast<std::size_t>(capture_map.roles[static_cast<std::size_t>(r)].joint)];
        }
      }
      return fail(path, o.line,
                  "`" + o.capture + "`: that capture bone plays no humanoid role: expected one of " + roles);
    }
    // The joint leaves any role it had.
    for (RoleMatch& m : target_map.roles) {
      if (m.joint == t) m = {};
    }
    target_map.roles[static_cast<std::size_t>(role)] = {t, "map " + path + ":" + std::to_string(o.line)};
  }
  return {};
}

std::string format_bone_map(const JointHierarchy& capture, const HumanoidMap& capture_map, const JointHierarchy& target,
                            const HumanoidMap& target_map) {
  std::string out;
  const std::vector<Role> capture_missing = missing_roles(capture_map), target_missing = missing_roles(target_map);
  auto needed = [](const std::vector<Role>& missing, int r) {
    return std::count(missing.begin(), missing.end(), static_cast<Role>(r)) > 0;
  };
  for (int r = 0; r < kRoleCount; ++r) {
    const RoleMatch& c = capture_map.roles[static_cast<std::size_t>(r)];
    const RoleMatch& t = target_map.roles[static_cast<std::size_t>(r)];
    const char* capture_how = c.joint >= 0 ? c.how.c_str() : needed(capture_missing, r) ? "NOT FOUND" : "unmapped";
    const char* target_how = t.joint >= 0                ? t.how.c_str()
                             : needed(target_missing, r) ? "NOT FOUND: needed"
                                                         : "unmapped: keeps its bind pose";
    char line[512];
    std::snprintf(
        line, sizeof line, "%-12s %-16s %-32s (%s; %s)\n", std::string(role_name(static_cast<Role>(r))).c_str(),
        c.joint >= 0 ? capture.names[static_cast<std::size_t>(c.joint)].c_str() : "-",
        t.joint >= 0 ? target.names[static_cast<std::size_t>(t.joint)].c_str() : "-", capture_how, target_how);
    out += line;
  }
  for (const auto& [side, map] : {std::pair{"capture", &capture_map}, std::pair{"model", &target_map}}) {
    if (map->sides_swapped) {
      out += std::string("left/right swapped on the ") + side +
             ": its left-named arms and legs lie on the character's right (judged from its facing and up)\n";
    }
  }
  for (const auto& [side, missing] : {std::pair{"capture", &capture_missing}, std::pair{"model", &target_missing}}) {
    if (missing->empty()) continue;
    out += std::string("not found on the ") + side + " (needed):";
    for (Role role : *missing) out += " " + std::string(role_name(role));
    out += "\n";
  }
  return out;
}

}  // namespace mocap
