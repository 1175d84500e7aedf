// Retargeting: a capture (ASF/AMC or BVH skeleton and motion) played by a
// rigged character (skin/rigged_model.h) with its own skeleton, proportions,
// units, up axis and bind pose.
//
// Offline, once (build_retarget_rig):
//  1. Both skeletons are mapped to humanoid roles (bone_map.h).
//  2. One rotation A turns the capture's world (Y up) into the model's: the
//     capture's up onto the model's (its hips-to-head direction, snapped to
//     the nearest axis of the model's world), the capture's right-to-left
//     hip line onto the model's. The model's world is the one Assimp gives
//     (scale nodes such as an FBX 0.01 armature included), so its units,
//     up axis and facing need no option.
//  3. Each driven node (a mapped role joint, and every joint of the spine
//     chain between hips and head) gets a capture segment: the two capture
//     points (joint positions, or points between them by arc length along
//     the spine) that its own segment (this node to the next mapped joint of
//     its chain) corresponds to, the capture bone whose rotation it follows
//     (the bone owning that segment) and its rest offset O, the shortest
//     rotation taking its bind direction onto the capture's rest direction
//     (after A). A node at the end of a chain (hand, toe, head) has no
//     segment and takes its parent's offset.
//  3b. Twist nodes: a skin joint no role maps that lies on a limb segment
//     (upper arm to forearm, forearm to hand, thigh to shin, shin to foot),
//     either between the two mapped joints in the hierarchy (MakeHuman's
//     upperarm02 and lowerarm02) or a leaf child of the near one or of such
//     a joint within the segment (Unreal's upperarm_twist_01_l,
//     lowerarm_twist_01_l, thigh_twist_01_l), takes the share f of the
//     segment's twist: f is where the joint lies along the segment in the
//     bind pose (0 at the near joint, 1 at the far one), the twist is the
//     angle about the segment's axis of the far joint's turn relative to
//     the near one's (the forearm's pronation is in the hand's turn). Its
//     world rotation is T(f * twist) * N * B, N the near joint's turn from
//     its bind, B its own bind world rotation; the axis is the bind
//     direction from the joint to its child on the segment (so the mapped
//     joint below it does not move), the segment's for a leaf.
//  4. The scale s is the ratio of leg lengths (hip to knee to ankle, both
//     legs), model units per capture metre; the floor is the scene's
//     ground (0 along the model's up: glTF's y = 0), wherever the file's
//     nodes put the bind pose.
//
// Per frame (RetargetJob, no allocation): forward kinematics of the capture
// pose; for each driven node (first) the world rotation
//   W = S * D * O * B
// with B its bind world rotation, D = A * R(frame) * R(rest)^-1 * A^-1 the
// world-space turn of the capture bone it follows, and S the shortest turn
// taking D * O * (bind direction) onto the capture segment's direction
// (identity when the segment is one capture bone), so every mapped segment
// points where the capture's does; the hips follow the capture root's turn
// and move to s * A * root + offset (the offset along up only: the
// character stands where the capture stands, on the scene's ground); nodes not driven keep their bind local
// transform, twist nodes their share (step 3b). Then optional two-bone IK per leg: the ankle is drawn towards a
// pinned position (weighted), the knee staying in the plane of the capture's
// knee direction, the leg never stretched past 99.9 % of its length, the
// foot's world rotation kept; a pin beyond the leg's reach draws
// the hips towards it by the excess first. Local transforms come back through the
// model's hierarchy (a parent's scale taken as uniform: its mean).
//
// A whole clip (retarget_clip): one pass finds the height that puts the
// character's soles on the floor during the capture's foot contacts
// (core/foot_contacts.h), the second pins each foot where it landed for the
// contact (full weight from the landing frame, released over `blend_seconds`
// after the capture's foot lifts), and lifts any foot that would go below
// the floor.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/fk.h>
#include <mocap/core/foot_contacts.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>
#include <mocap/retarget/bone_map.h>
#include <mocap/rig/rigged_model.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace mocap {

// A point of the capture: lerp(J(a), J(b), t) with J(x) the world position
// where capture bone x starts (its parent's end for ASF, the joint for BVH).
// With `b_end`, J(b) is replaced by where bone b ends (its own FK
// position): a leaf's tip, such as the end of CMU's lfingers.
struct CapturePoint {
  int a = 0;
  int b = 0;
  double t = 0.0;  // [0, 1]
  bool b_end = false;
};

struct DrivenNode {
  int node = 0;   // model node index
  int owner = 0;  // capture bone whose world turn it follows
  bool has_segment = false;
  CapturePoint from, to;                                       // the capture segment (has_segment)
  int next = -1;                                               // model node at the segment's far end (has_segment)
  Eigen::Vector3d bind_direction = Eigen::Vector3d::UnitY();   // unit, model world (has_segment)
  Eigen::Quaterniond offset = Eigen::Quaterniond::Identity();  // O, model world
};

// A twist node (step 3b).
struct TwistNode {
  int node = 0;                                     // model node
  int near = 0;                                     // model node of the mapped joint the segment starts at
  int far = 0;                                      // model node of the mapped joint it ends at
  Eigen::Vector3d axis = Eigen::Vector3d::UnitY();  // unit, model world, bind pose
  double share = 0.0;                               // f, [0, 1]
};

// A point of the sole: a bind-pose vertex of the foot, in the bind frame of
// the foot or toe node it moves with (position = P + R * (scale * local)).
struct SolePoint {
  int node = 0;
  Eigen::Vector3d local = Eigen::Vector3d::Zero();
};

// A leg of the model for IK and contacts.
struct RetargetArm {
  int upper = -1, fore = -1, hand = -1;  // model nodes (all -1 when the arm is not mapped)
  int hand_end = -1;                     // model node the hand points to (fingers), -1 if none
  int capture_hand = -1;                 // capture bone at the wrist (J of it; its FK position is the hand's end)
};
struct RetargetLeg {
  int thigh = -1, shin = -1, foot = -1, toe = -1;  // model nodes (toe may be -1)
  int capture_foot = -1;                           // capture bone at the ankle (J of it)
  double ankle_height = 0.0;                       // bind ankle height above the bind mesh's lowest point, model units
  double toe_height = 0.0;  // bind toe height above the bind mesh's lowest point (toe >= 0), model units
  double length = 0.0;      // thigh to knee plus knee to ankle, bind pose, model units
  // How much a foot pinned at its ball pivots about it rather than keeping
  // the capture's pitch, in [0, 1]: 0 while its foot-to-shin ratio is up to
  // 1.5 times the capture's, 1 from 3 times (LegPin).
  double pivot = 0.0;
  // Up to 64 vertices of the sole (weighted most to the foot or toe, within a
  // quarter of the ankle height of the foot's lowest): what touches the floor.
  std::vector<SolePoint> sole;
};

struct RetargetRig {
  // The capture.
  Skeleton skeleton;
  JointHierarchy capture_joints;  // one per bone
  HumanoidMap capture_map;
  std::vector<int> capture_point_bone;                 // per bone x: the bone whose FK position is J(x)
  std::vector<Eigen::Quaterniond> capture_rest_world;  // per bone, rest pose world rotations
  // The model.
  std::vector<int> node_parents;  // per model node
  std::vector<Eigen::Vector3d> bind_translation;
  std::vector<Eigen::Quaterniond> bind_rotation;
  std::vector<Eigen::Vector3d> bind_scale;
  std::vector<Eigen::Vector3d> bind_world_position;  // model world
  std::vector<Eigen::Quaterniond> bind_world_rotation;
  std::vector<double> bind_world_scale;  // mean scale of the world transform
  JointHierarchy target_joints;          // the skin's joints (parents: nearest joint ancestor)
  std::vector<int> target_nodes;         // target_joints index -> model node
  HumanoidMap target_map;                // joints index target_joints
  // The mapping.
  Eigen::Quaterniond align = Eigen::Quaterniond::Identity();  // A: capture world -> model world
  Eigen::Vector3d up = Eigen::Vector3d::UnitY();              // the model's up, unit
  double scale = 1.0;                                         // s: model units per capture metre
  double floor = 0.0;  // where the soles go along `up`: the scene's ground, 0 (the capture's floor), model units
  int hips_node = -1;  // model node
  Eigen::Vector3d root_offset = Eigen::Vector3d::Zero();  // hips world = s * A * root + root_offset (along up)
  // Where the named hips are in hips_node's bind frame (divided by its bind
  // world scale): zero unless hips_node is a node above them that carries
  // the legs or the spine too, which is placed so the hips land as above.
  Eigen::Vector3d hips_offset = Eigen::Vector3d::Zero();
  std::vector<DrivenNode> driven;   // parents first
  std::vector<int> driven_of_node;  // per model node: index into driven, or -1
  std::vector<TwistNode> twists;    // step 3b
  std::vector<int> twist_of_node;   // per model node: index into twists, or -1
  // A limb joint that does not hang below the joint before it in its chain
  // (an IK rig's foot parented to the root, beside the shin), and a control
  // at a hand or foot in the bind pose that the limb does not carry (an IK
  // target, a prop slot: oga_knight's hand_ctrl_r holding its sword), is
  // placed where that joint puts it in the bind pose and keyed:
  // attach_of_node[n] is that joint (-1 for a node placed by its parent
  // alone), attach_offset[n] the place in its bind frame (divided by its
  // bind world scale).
  std::vector<int> attach_of_node;
  std::vector<Eigen::Vector3d> attach_offset;
  // An attached node that no capture bone turns keeps its bind turn
  // relative to the node it is attached to (a prop under an IK control).
  std::vector<Eigen::Quaterniond> attach_rotation;
  std::vector<int> order;           // every model node once, its parent and the node it is attached to before it
  std::array<RetargetLeg, 2> legs;  // left, right
  std::array<RetargetArm, 2> arms;  // left, right
};

struct RetargetOptions {
  std::string map_path;  // --map JSON; empty: none. A model joint may be named "#N" (glTF node N)
  bool plant_feet = true;
  double blend_seconds = 0.05;  // a pin is released over this long after its contact
  // Hands and head where the capture has them on the floor: the body rises
  // when the character's proportions would put them lower (a cartwheel's
  // hands on a character with longer arms).
  bool lift_body = true;
  FootContactOptions contacts;
};

// Steps 1-4. Fails naming the file: a model with no skin joints, a chain
// missing on either side (bone_map.h), a --map file naming unknown bones
// (file:line), a skeleton with zero-length legs.
Result<RetargetRig> build_retarget_rig(const Skeleton& skeleton, const std::string& capture_path,
                                       const RiggedModel& model, const RetargetOptions& options = {});

// What build_retarget_rig's mapping finds (steps 1 and 2 and the --map
// overrides), as format_bone_map prints it, also when the mapping fails:
// each role found on both sides with its bone and how, then the needed
// roles a side lacks. The error itself is build_retarget_rig's.
std::string describe_bone_map(const Skeleton& skeleton, const std::string& capture_path, const RiggedModel& model,
                              const RetargetOptions& options = {});

// The height of a leg's lowest sole point above rig.floor (model units),
// the foot moved by `shift` (model world), from the nodes' world transforms
// (one per node). Without sole points, the ankle's and toe's heights above
// their bind heights.
double sole_height(const RetargetRig& rig, const RetargetLeg& leg, std::span<const Eigen::Vector3d> world_position,
                   std::span<const Eigen::Quaterniond> world_rotation,
                   const Eigen::Vector3d& shift = Eigen::Vector3d::Zero());

// A foot pinned for IK: weight in [0, 1] (0: no IK), ankle target in model world.
// With `pivot` (a leg with a toe joint) the ball (the toe joint) is pinned
// at `ball` instead: the ankle goes where the foot, at the capture's pitch,
// puts it (RetargetLeg::pivot 0), or to the point nearest its free place at
// the foot's length from the ball (1), or between, and the foot turns
// about the ball to reach it: a chibi's foot, longer than its shin, turns so
// that the leg keeps the capture's bend.
struct LegPin {
  double weight = 0.0;
  Eigen::Vector3d ankle = Eigen::Vector3d::Zero();
  bool pivot = false;
  Eigen::Vector3d ball = Eigen::Vector3d::Zero();
};

// One capture pose to the model's local transforms. Fill the inputs and the
// scratch (sizes below; RetargetScratch owns them), validate(), then run()
// as often as needed.
struct RetargetJob {
  // Job input.
  const RetargetRig* rig = nullptr;
  std::span<const double> channels;  // one capture frame, rig->skeleton.channel_count values
  double lift = 0.0;                 // added to the hips along rig->up, model units
  std::array<LegPin, 2> pins{};      // left, right
  bool floor_clamp = false;          // raise any foot whose sole (sole_height) would go below rig->floor
  // Left, right: each hand (wrist and hand_end) kept at or above this
  // height along rig->up (model world) by bending its arm (two-bone IK, the
  // elbow towards where it is); -infinity: free. Where the capture's hands
  // are on the floor.
  std::array<double, 2> wrist_floor{-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  // Scratch: one entry per capture bone (rotations and offsets: a Pose made by make_pose).
  Pose* capture_pose = nullptr;
  std::span<Eigen::Vector3d> capture_positions;
  std::span<Eigen::Quaterniond> capture_rotations;
  // Job output: one entry per model node; world_* are filled as well (model world).
  std::span<Eigen::Vector3d> translation;
  std::span<Eigen::Quaterniond> rotation;
  std::span<Eigen::Vector3d> world_position;
  std::span<Eigen::Quaterniond> world_rotation;

  // False for a missing rig or pose, a rig whose per-node tables do not
  // match its nodes, a channel count or span size that does
  // not match, or a pin weight outside [0, 1].
  bool validate() const;
  // Validates first; false when invalid. No allocation.
  bool run() const;
};

// A RetargetJob's scratch and output, owned and sized for one rig: one
// entry per capture bone (rig.skeleton) and per model node
// (rig.node_parents). bind() points a job's seven spans and pose at it;
// after run() the job's output is read here (translation, rotation,
// world_position, world_rotation). A job stays bound to this object: bind
// again after moving or copying it.
struct RetargetScratch {
  Pose capture_pose;
  std::vector<Eigen::Vector3d> capture_positions;
  std::vector<Eigen::Quaterniond> capture_rotations;
  std::vector<Eigen::Vector3d> translation;
  std::vector<Eigen::Quaterniond> rotation;
  std::vector<Eigen::Vector3d> world_position;
  std::vector<Eigen::Quaterniond> world_rotation;

  explicit RetargetScratch(const RetargetRig& rig);
  // Sets job.capture_pose, capture_positions, capture_rotations,
  // translation, rotation, world_position and world_rotation to this
  // scratch; the job's rig and inputs are left as they are.
  void bind(RetargetJob& job);
};

// A retargeted clip: per frame the local transform of every keyed node.
struct RetargetedClip {
  std::string name;
  double fps = 120.0;
  int frame_count = 0;
  std::vector<int> nodes;  // model nodes keyed: every skin joint, the hips and attached nodes, ascending
  std::vector<Eigen::Vector3d> translations;  // frame_count * nodes.size(), frame-major
  std::vector<Eigen::Quaterniond> rotations;
  // What the clip did, for reports and tests.
  double lift = 0.0;                     // model units
  std::vector<double> body_lift;         // per frame, model units: hands and head kept up (lift_body)
  std::array<FootContacts, 2> contacts;  // of the capture's ankles, left, right (capture metres)
};

// Both passes over every frame of `motion` (see above). Fails for a motion
// without frames or of another skeleton.
Result<RetargetedClip> retarget_clip(const RetargetRig& rig, const Motion& motion, const std::string& name,
                                     const RetargetOptions& options = {});

// The model posed by frame `frame` (0 <= frame < clip.frame_count) of
// `clip`, as the glTF splice_animation writes plays it: the keyed nodes'
// translations and rotations are the clip's, everything else (other nodes,
// every scale) what `pose` holds, for that playback rest_pose(model). Only
// the keyed nodes' entries are written. No allocation.
void retargeted_pose(const RetargetedClip& clip, int frame, ModelPose& pose);

// For skin_frames (skin/skin_frames.h): frame k of `clip` (retargeted_pose
// over rest_pose(model)), its skinning matrices into the skinner's and the
// mesh deformed, as pose_from_animation does for the model's own
// animations. `model` and `clip` must outlive it.
PoseFrame pose_from_retargeted(const RiggedModel& model, const RetargetedClip& clip);

}  // namespace mocap
