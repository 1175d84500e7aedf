// MakeHuman's own rig of its base mesh, as a test reference for skinning the
// bundled humanoid (data/humanoid.obj) with a CMU skeleton: where artists put
// the joints (default.mhskel) and which bone moves each vertex
// (default_weights.mhw), mapped onto the CMU bones. A reference to measure
// against, never an input of the binding.
//
// The files (../shared/data/meshes/makehuman/, CC0, PROVENANCE.md there):
//  - base.obj: the hm08 base mesh, decimetres, Y-up, facing +Z. The humanoid
//    is its `body` group with the vertices used by those faces renumbered in
//    their original order (scripts/make_humanoid.py); this reader rebuilds
//    that map rather than assuming it is the identity.
//  - default.mhskel: JSON; "bones" give each bone's parent and the names of
//    its head and tail joints, "joints" give each joint as a list of 0-based
//    base.obj vertex indices (mostly a `joint-*` helper cube) whose mean is
//    the joint's position.
//  - default_weights.mhw: JSON; "weights" give, per bone (139 of the 163),
//    [vertex index, weight] pairs on base.obj. Not normalised: on the body,
//    sums lie within a few percent of 1.
//
// Everything here is in metres in the humanoid's frame: data/humanoid.obj
// read with --mesh-units dm (x 0.1), Y-up, facing +Z. MakeHuman's `.L` side
// is the character's left, +X, as CMU's `l` bones in that frame.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/skin_weights.h>

#include <Eigen/Core>
#include <array>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mocap::test {

// The CMU ASF bones (data/09.asf and every CMU subject), root first.
inline constexpr std::array<std::string_view, 31> kCmuBones = {
    "root",      "lhipjoint", "lfemur",   "ltibia",    "lfoot",     "ltoes",    "rhipjoint", "rfemur",
    "rtibia",    "rfoot",     "rtoes",    "lowerback", "upperback", "thorax",   "lowerneck", "upperneck",
    "head",      "lclavicle", "lhumerus", "lradius",   "lwrist",    "lhand",    "lfingers",  "lthumb",
    "rclavicle", "rhumerus",  "rradius",  "rwrist",    "rhand",     "rfingers", "rthumb"};
// Index of `name` in kCmuBones, or -1.
int cmu_bone_index(std::string_view name);

// Body regions a disagreement is reported by.
enum class BodyRegion { kArms, kHands, kLegs, kSpineHead };
inline constexpr std::array<std::string_view, 4> kRegionNames = {"arms", "hands", "legs", "spine/head"};
// arms: clavicle, humerus, radius; hands: wrist, hand, fingers, thumb; legs:
// hipjoint to toes; spine/head: root, lowerback to head. `cmu_bone` indexes kCmuBones.
BodyRegion region_of(int cmu_bone);

// The CMU bone a MakeHuman bone's weights go to ("upperarm02.L" ->
// "lhumerus"), or "" for a bone the table lacks. Many to one: spine, neck,
// face, finger and toe bones fold into the few CMU bones that cover them.
std::string_view cmu_bone_for(std::string_view makehuman_bone);

// A CMU joint, named by the CMU bone that starts there (a bone starts at its
// parent's end; the root at the root position), and the MakeHuman bones
// whose head joints' mean is the same place. Joints that coincide in a CMU
// skeleton appear once (thorax's end starts lowerneck and both clavicles:
// "lowerneck"; lwrist's end starts lhand and lthumb: "lhand").
struct CmuJointMatch {
  std::string cmu_bone;
  std::vector<std::string> makehuman_heads;
};
// The table, root first; see makehuman_reference.cc for why each.
const std::vector<CmuJointMatch>& cmu_joint_matches();

struct MakeHumanBone {
  std::string name;
  std::string parent;                              // "" for the root
  Eigen::Vector3d head = Eigen::Vector3d::Zero();  // metres, humanoid frame
  Eigen::Vector3d tail = Eigen::Vector3d::Zero();  // metres, humanoid frame
};

struct MakeHumanReference {
  std::map<std::string, MakeHumanBone> bones;  // all of default.mhskel's bones, by name
  std::vector<std::string> weight_bones;       // the .mhw's bones, sorted by name
  // Per humanoid vertex: (index into weight_bones, weight) as the file gives
  // them (several lines for one bone are added; not normalised).
  std::vector<std::vector<std::pair<int, float>>> weights;
  std::vector<int> base_vertex;            // per humanoid vertex: its base.obj index (0-based)
  std::vector<Eigen::Vector3f> positions;  // per humanoid vertex, metres, as base.obj has it
  // Per humanoid vertex: the CMU bone (index into kCmuBones) with the largest
  // sum of mapped weights; -1 for a vertex with no weight.
  std::vector<int> dominant_cmu;
  Eigen::AlignedBox3d body_box;  // of the humanoid's vertices, metres

  int vertex_count() const { return static_cast<int>(weights.size()); }
};

// Reads base.obj, default.mhskel and default_weights.mhw from `dir`. Fails
// naming the file when one is missing or malformed, a joint or weight refers
// to a vertex base.obj lacks, or a weighted bone has no CMU bone in the table.
Result<MakeHumanReference> read_makehuman_reference(const std::filesystem::path& dir);

// Position (metres) of a CMU joint per the table: the mean of its MakeHuman heads.
Eigen::Vector3d reference_joint(const MakeHumanReference& reference, const CmuJointMatch& match);

// How often our dominant bone per vertex is the reference's.
struct RegionAgreement {
  int vertices = 0;  // humanoid vertices whose reference bone lies in the region
  int agree = 0;
  double fraction() const { return vertices ? double(agree) / vertices : 0.0; }
};
struct Confusion {
  std::string reference_bone, our_bone;  // CMU names; our_bone "?" for a bone not in kCmuBones
  int vertices = 0;
};
struct BoneAgreement {
  RegionAgreement overall;
  std::array<RegionAgreement, 4> regions;  // by BodyRegion
  std::vector<Confusion> confusions;       // every disagreement kind, most vertices first
  // "overall 0.812 (10860/13380); arms 0.74 ...; worst: lhand->lthumb 1200, ..."
  std::string summary(int confusions_shown = 6) const;
};
// Our dominant bone of vertex v is the bone of weights[v] with the largest
// weight, named through `skeleton` (bone indices of `weights`); it agrees
// when it is the reference's dominant CMU bone. A bone without degrees of
// freedom counts as the nearest ancestor that has some, on both sides (CMU's
// hipjoints move exactly as the root does, so a hip vertex on either moves
// the same); regions go by that bone too, so the hip and buttock count in
// spine/head. `weights` has one entry per humanoid vertex
// (reference.vertex_count()); a missing entry disagrees.
BoneAgreement dominant_bone_agreement(std::span<const VertexWeights> weights, const Skeleton& skeleton,
                                      const MakeHumanReference& reference);

struct JointDistance {
  std::string cmu_bone;  // the joint where this bone starts
  Eigen::Vector3d ours = Eigen::Vector3d::Zero(), reference = Eigen::Vector3d::Zero();  // metres
  double cm = 0.0;
};
struct JointDistances {
  std::vector<JointDistance> joints;  // in cmu_joint_matches() order; joints the skeleton lacks are left out
  int worst = -1;                     // index into joints of the largest distance
  double mean_cm = 0.0;
  // "worst lhand 9.8 cm, mean 4.1 cm; root 1.2, lfemur 3.4, ..."
  std::string summary() const;
};
// `bone_starts[b]`: where bone b of `skeleton` starts in the bind pose, in
// metres in the humanoid's frame (e.g. SkeletonBind::segments[b].start).
JointDistances joint_distances(const Skeleton& skeleton, std::span<const Eigen::Vector3d> bone_starts,
                               const MakeHumanReference& reference);

}  // namespace mocap::test
