// The runtime skeleton: what forward kinematics, compression and skinning
// use, in SI units.
//
// This is the compact half of a pair (as ozz's Skeleton beside its
// RawSkeleton): the ASF file as read, with everything kept only to write it
// back (version, documentation, mass unit, bone ids, limits, axis Euler
// angles and their order), is io/asf_skeleton.h's AsfSkeleton, and
// build_skeleton there turns it into this. A skeleton made in code fills
// bones and parents and calls finalize().
//
// Bones are kept in the order of the file's :bonedata section, with the root
// inserted as bone 0, so that every report names bones in the order a user
// sees them in the file. Parents are bone indices; `eval_order` lists the
// bones parents-first for forward kinematics.
#pragma once

#include <mocap/core/error.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mocap {

// A degree of freedom of a bone, as named on an ASF `dof` line or the root's
// `order` line. Rotations are in radians, translations and `L` in metres.
enum class Channel : std::uint8_t { RX, RY, RZ, TX, TY, TZ, L };

bool is_rotation(Channel c);
// "rx", "ry", ... as ASF dof lines spell them (upper-case for the root's order).
std::string_view channel_name(Channel c, bool upper_case = false);
// Accepts either case. Returns nullopt for anything else.
std::optional<Channel> parse_channel(std::string_view word);

struct Bone {
  std::string name;
  int parent = -1;  // index into Skeleton::bones; -1 for the root (bone 0 only)
  // Unit vector in the world frame of the rest pose, as the file gives it
  // (not renormalised); zero for the root.
  Eigen::Vector3d direction = Eigen::Vector3d::Zero();
  double length = 0.0;  // metres, >= 0; 0 for the root
  // The bone's local frame C as a rotation (for the root, the orientation O).
  Eigen::Quaterniond axis_rotation = Eigen::Quaterniond::Identity();
  std::vector<Channel> dofs;  // in the order AMC lines give the values
  // Filled by finalize(): for each dof the unit axis C * e_k it turns about
  // (so C * M * C^-1 is a product of turns about these axes), and this
  // bone's first channel in a Motion frame (see motion.h).
  std::vector<Eigen::Vector3d> dof_axes;
  int first_channel = 0;
};

// The units the skeleton's motions (AMC files) write their numbers in: the
// ASF's :units, which an AMC reader and writer need and nothing else does.
struct MotionUnits {
  double metres_per_length = 0.0254;  // metres per file length unit (> 0); CMU: 0.0254 / 0.45
  bool degrees = true;                // angles in degrees unless an AMC says :RADIANS
  double radians_per_angle() const;   // pi / 180 or 1
};

struct Skeleton {
  std::string name;                                         // the ASF :name, for messages; may be empty
  Eigen::Vector3d root_position = Eigen::Vector3d::Zero();  // metres
  std::vector<Bone> bones;                                  // bones[0] is the root
  std::vector<int> eval_order;                              // every bone index, parents first
  int channel_count = 0;                                    // values in one Motion frame
  MotionUnits units;
  // Which frame a bone's offset is given in (core/fk.h). false (Acclaim,
  // ASF): a bone is a segment from its parent's end point to its own, and its
  // offset turns with its OWN world rotation. true (BVH, io/bvh.h): a bone is
  // a BVH joint (or End Site) at its end point; its offset (the BVH OFFSET)
  // turns with its PARENT's world rotation, and its own rotation turns its
  // children. Channels, poses and compression are the same either way; only
  // forward kinematics reads this.
  bool offsets_in_parent_frame = false;

  // Metres per file length unit (units.metres_per_length).
  double metres_per_unit() const { return units.metres_per_length; }
  // Index of the bone called `name`, or -1.
  int find_bone(std::string_view name) const;
  // Indices of the children of bone `b`, in bone order.
  std::vector<int> children(int b) const;
};

// Fills the derived fields (`eval_order`, `dof_axes`, `first_channel`,
// `channel_count`) once bones, parents, axis rotations and dofs are set.
// Fails (an Error with no file: the caller names it) when the parents do not
// form a tree rooted at bone 0 (a parent out of range, a bone without one, a
// cycle).
Result<void> finalize(Skeleton& skeleton);

// The rotation of Euler angles (radians) about X, Y, Z applied in `order`
// ("XYZ": X first, so the matrix is Rz * Ry * Rx).
Eigen::Quaterniond euler_to_quaternion(const Eigen::Vector3d& angles, std::string_view order);

// Euler angles (radians) about X, Y, Z that euler_to_quaternion composes in
// "XYZ" order back into `q`: y in [-pi/2, pi/2], x and z in [-pi, pi]; at
// y = +-pi/2, where only x - z or x + z is defined, z is 0.
Eigen::Vector3d xyz_euler_angles(const Eigen::Quaterniond& q);

}  // namespace mocap
