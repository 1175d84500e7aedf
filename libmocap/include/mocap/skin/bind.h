// Binding a skeleton to a mesh: placement, bind pose, skinning matrices.
//
// A bone's frame is rigid: its origin is the joint where the bone starts (the
// parent's end point; the root's position for the root) and its orientation
// the bone's world rotation from forward kinematics (fk.h). With B_b the
// frame in the bind pose and M_b the frame in a posed frame, both in mesh
// space, linear blend skinning moves a vertex v with weights w_i on bones b_i
// to
//   v' = sum_i w_i * M_bi * B_bi^-1 * v,
// and its normal by the same blended 3x3 part, renormalised. K_b = M_b B_b^-1
// is the bone's skinning matrix (3x4, float: mesh metres in, metres out).
//
// Dual quaternion skinning (Kavan et al. 2007) blends the rigid K_b as unit
// dual quaternions instead, which keeps volume where a bone twists; it needs
// rigid K_b (rotation + translation, no scale).
//
// A skeleton is placed in the mesh by a similarity (scale, yaw about +Y,
// translation). The same placement is applied to every animated frame, so a
// clip's root motion is scaled with the skeleton and the mesh walks as far as
// its own legs carry it. A bind may also scale each bone on its own
// (`bone_scale`, from embed_skeleton in rig/embed.h), on top of the placement:
// forward kinematics becomes p_b = p_parent + bone_scale[b] * R * offset[b]
// (fk.h; the root's position is scaled by the placement only), so bone
// lengths follow the mesh's limbs while every frame keeps the capture's
// rotations. Empty bone_scale: every factor 1.
#pragma once

#include <mocap/core/fk.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/mesh.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <span>
#include <vector>

namespace mocap {

using SkinMatrix = Eigen::Matrix<float, 3, 4, Eigen::RowMajor>;

// p_mesh = axes * (scale * Ry(yaw) * p_skeleton + translation); metres.
// `axes` turns the library's frame (Y up, facing +Z) into the mesh's own
// (a Z-up mesh: its columns are the mesh's left, up and forward; see
// rig/mesh_orientation.h); the identity for a mesh that stands as CMU's
// skeletons do.
struct Placement {
  double scale = 1.0;
  double yaw_radians = 0.0;
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();  // a rotation
  Eigen::Affine3d matrix() const;
};

// The placement that stands the skeleton, posed by `bind_pose`, in `mesh`
// (Y-up, H its height), after a yaw of `yaw_radians`:
//  - scale: the skeleton's joint height (highest minus lowest joint, Y)
//    becomes (1 - kFootRatio - kHeadRatio) * H. CMU skeletons end at the
//    ankle/toe joints and at the middle of the head, not at the sole and the
//    crown: about 0.04 H each (anthropometric ankle height 0.039 H; on the
//    MakeHuman mesh the ankle is 0.044 H up and the CMU head end would sit
//    0.039 H below the crown);
//  - Y: the lowest joint at kFootRatio * H above the mesh's lowest point
//    (feet on the ground);
//  - X, Z: the root over the centre of the mesh's cross-section at the root's
//    height (vertices within 0.025 H of it and within 0.1 H of the mesh's
//    centre line in X, so that hands hanging beside the hips are ignored),
//    then moved in Z by the offset from joints to the centre of the mesh's slice
//    at their height (vertices within 0.02 H in Y and 0.08 H across): the
//    mean of the median over joints below the root and the median over
//    joints above it, so that legs and trunk both run inside the mesh's.
inline constexpr double kFootRatio = 0.04;
inline constexpr double kHeadRatio = 0.04;
Placement fit_placement(const Skeleton& skeleton, const Pose& bind_pose, const Mesh& mesh, double yaw_radians = 0.0);

// The frame of every bone in mesh space, as described above, written to
// `frames` (one per bone), with bone factors `bone_scale` (one per bone,
// each > 0; empty: all 1, see above). `positions` receive the bones' end
// points in the skeleton's frame before the placement (factors applied). `positions` and `rotations` are scratch with
// one entry per bone. No allocation.
void bone_frames(const Skeleton& skeleton, const Pose& pose, const Placement& placement,
                 std::span<Eigen::Vector3d> positions, std::span<Eigen::Quaterniond> rotations,
                 std::span<Eigen::Affine3d> frames, std::span<const double> bone_scale = {});

// A bone as a segment in mesh space (metres), the input of automatic weights
// (rig/auto_weights.h).
struct BoneSegment {
  Eigen::Vector3f start = Eigen::Vector3f::Zero();
  Eigen::Vector3f end = Eigen::Vector3f::Zero();
  int parent = -1;      // index of the parent bone, -1 for none
  bool deforms = true;  // false: never given weight (e.g. a zero-length root)
};

// A bone that keeps its direction in the bind pose and takes from a capture
// only its turn away from the pose the bind started from (pose_for_bind).
struct RestRelativeBone {
  int bone = 0;
  Eigen::Quaterniond turn = Eigen::Quaterniond::Identity();  // start local rotation^-1 * bind local rotation
};

// What a skeleton bound to a mesh keeps from its bind pose.
struct SkeletonBind {
  Placement placement;
  std::vector<double> bone_scale;               // per bone on top of the placement (see above); empty: all 1
  std::vector<Eigen::Affine3d> inverse_bind;    // B_b^-1 per bone: mesh space to bone frame
  std::vector<BoneSegment> segments;            // per bone, in mesh space; the root and zero-length bones do not deform
  std::vector<RestRelativeBone> rest_relative;  // see pose_for_bind; empty: a capture's rotations as they are
};

// Binds `skeleton` posed by `bind_pose`, placed by `placement`, with bone
// factors `bone_scale` (empty or one per bone, each > 0).
SkeletonBind bind_skeleton(const Skeleton& skeleton, const Pose& bind_pose, const Placement& placement,
                           std::span<const double> bone_scale = {});

// A capture's pose (pose_from_channels) as `bind`'s skeleton takes it, in
// place; the pose a bound skeleton is skinned, drawn and exported with. Its
// bones take the capture's local rotations, so each limb points where the
// capture's does, whatever direction it had in the bind pose. A bone of
// bind.rest_relative instead keeps its bind direction and takes the capture's
// turn from the start pose: with F its capture rotation and T its turn,
//   rotation[b] = F * T,   rotation[c] = T^-1 * rotation[c] for its children,
// so the children's world rotations stay the capture's. The embedding
// (rig/embed.h) makes the clavicles and thumbs so: a character keeps its own
// shoulder line and takes the capture's shrugs. Posed with the capture's clavicles,
// which rise 20 degrees to the shoulder, a big head's, fitted sloping 27
// degrees down, lift the vertices they weigh by up to 19 cm and tear the skin
// between them and the upper back. No allocation.
void pose_for_bind(const Skeleton& skeleton, const SkeletonBind& bind, Pose& pose);

// Scratch for skinning_matrices, sized once per skeleton.
struct SkinScratch {
  std::vector<Eigen::Vector3d> positions;
  std::vector<Eigen::Quaterniond> rotations;
  std::vector<Eigen::Affine3d> frames;
  explicit SkinScratch(const Skeleton& skeleton);
  explicit SkinScratch(std::size_t bone_count);
};

// K_b = M_b B_b^-1 for every bone of `pose` (the bound skeleton's: a
// capture's through pose_for_bind), into `matrices` (one per bone).
// No allocation.
void skinning_matrices(const Skeleton& skeleton, const Pose& pose, const SkeletonBind& bind, SkinScratch& scratch,
                       std::span<SkinMatrix> matrices);
}  // namespace mocap
