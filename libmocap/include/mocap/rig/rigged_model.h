// Rigged models read through Assimp (glTF/GLB, COLLADA, FBX, ...): a mesh, the
// model's own node hierarchy, its joints with their inverse bind matrices,
// per-vertex weights and its animations, skinned with skin_job.h's SkinJob.
//
// Spaces. A node's world transform G_n is the product of the local transforms
// from the scene root down (the root's own transform included, e.g. the
// Z-up to Y-up turn of a COLLADA or COLLADA2GLTF file). The mesh is kept in
// model space, posed as it was bound: a vertex v of an Assimp mesh attached to
// node m is stored as G_m(rest) * v. A joint's inverse bind matrix maps model
// space to the joint node's space:
//   inverse_bind_j = offset_j * G_m(rest)^-1
// with offset_j Assimp's aiBone::mOffsetMatrix (glTF: the skin's inverse bind
// matrix; COLLADA: the controller's inverse bind times its bind shape
// matrix). The skinning matrix of joint j in a pose is then
//   K_j = G_j(pose) * inverse_bind_j,
// the K_b = M_b B_b^-1 of bind.h, so that a vertex moves to
// sum_i w_i K_ji v = sum_i w_i G_ji offset_ji v_mesh: glTF's and Assimp's rule
// (the mesh node's own transform does not move a skinned mesh). In the pose
// where every joint's world transform is G_m(rest) * offset_j^-1 (bind_pose
// below), every K_j is the identity and the mesh comes back unchanged; for
// the Khronos samples that is also the files' rest pose.
//
// glTF is read by its own rule, not Assimp's: a skinned mesh's vertices are
// in the skin's space (its node's transform does not place them) and the
// inverse bind matrix takes that space to the joint's. Exporters write the
// inverse binds against the scene's world, so there G_m(rest) above is the
// identity: the bind pose is the one every glTF viewer shows, also where an
// exporter put the skeleton or the mesh under a rotated, 0.01-scaled node.
// Where every joint's rest transform times its inverse bind is one same
// transform X instead (a node added above a skeleton resting in its bind
// pose), G_m(rest) is X: the character as the file's rest pose shows it;
// where they agree on no X (joints resting in an animation's frame), on
// the scale they share (their median), if not 1.
// Bones are the skin's joints by index (names may repeat).
//
// A mesh that no bone deforms is bound rigidly to its node (a joint of its
// own with inverse bind G_m(rest)^-1), and so is a vertex of a skinned mesh
// that no bone weights; several meshes are merged into one, one group each.
//
// Units are the file's as Assimp gives them (glTF: metres).
#pragma once

#include <mocap/core/error.h>
#include <mocap/io/mesh.h>
#include <mocap/io/skin_weights.h>
#include <mocap/skin/bind.h>
#include <mocap/skin/skin_frames.h>
#include <mocap/skin/skin_job.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mocap {

// A node of the model's hierarchy, with its local transform in the file
// (translation, then rotation, then scale applied to a point first:
// T * R * S).
struct ModelNode {
  std::string name;
  int parent = -1;  // index into RiggedModel::nodes, lower than this node's; -1 for the scene root
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();
  Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();  // unit
  Eigen::Vector3d scale = Eigen::Vector3d::Ones();
  // The index of the glTF node this node was read from (a glTF file), -1
  // otherwise and for a root Assimp adds above several scene roots. Names
  // may repeat in glTF: this is how a node is found again in the file.
  int source = -1;
};

// A skinning joint: the node that moves it and its inverse bind matrix (model
// space to node space, see above). VertexWeights::bone indices index joints.
struct ModelJoint {
  int node = 0;
  Eigen::Matrix4d inverse_bind = Eigen::Matrix4d::Identity();
};

// Keys of one node: times in seconds, increasing; values interpolated
// linearly (rotations by slerp) and held before the first key and after the
// last. An empty list leaves that part of the node at its rest value.
struct NodeTrack {
  int node = 0;
  std::vector<double> translation_times;
  std::vector<Eigen::Vector3d> translations;
  std::vector<double> rotation_times;
  std::vector<Eigen::Quaterniond> rotations;  // unit
  std::vector<double> scale_times;
  std::vector<Eigen::Vector3d> scales;
};

struct ModelAnimation {
  std::string name;  // as in the file; may be empty
  double duration_seconds = 0.0;
  std::vector<NodeTrack> tracks;  // at most one per node
};

struct RiggedModel {
  std::string path;
  std::vector<ModelNode> nodes;  // parents before children; nodes[0] is the scene root
  std::vector<ModelJoint> joints;
  Mesh mesh;                           // model space, bind pose; one group per Assimp mesh
  std::vector<VertexWeights> weights;  // one per mesh vertex; bone = joint index
  std::vector<ModelAnimation> animations;

  int joint_count() const { return static_cast<int>(joints.size()); }
  // Index of the node called `name`, or -1.
  int find_node(std::string_view name) const;
  // The names of the joints' nodes, in joint order.
  std::vector<std::string> joint_names() const;
};

struct ModelReadOptions {
  // Merge vertices equal in every attribute (Assimp's JoinIdenticalVertices):
  // COLLADA files otherwise come in with one vertex per triangle corner.
  bool join_identical_vertices = true;
};

// Reads a rigged model. Polygons are triangulated; of each vertex's
// influences the four largest are kept, renormalised (as skin_weights.h);
// normals missing from the file are computed (compute_normals). Fails with
// the file and Assimp's message when Assimp cannot read it, and with what is
// missing when the file has no triangle mesh.
Result<RiggedModel> read_rigged_model(const std::string& path, const ModelReadOptions& options = {});

// The animation called `name`, or the first animation when `name` is empty.
// Fails naming the file and the animations it does have.
Result<const ModelAnimation*> find_animation(const RiggedModel& model, std::string_view name);

// Local transforms of every node (one entry each per node).
struct ModelPose {
  std::vector<Eigen::Vector3d> translation;
  std::vector<Eigen::Quaterniond> rotation;
  std::vector<Eigen::Vector3d> scale;
};

// The nodes' local transforms as the file gives them.
ModelPose rest_pose(const RiggedModel& model);
// The pose that gives back the mesh: each joint's node placed so that its
// world transform is inverse_bind^-1 (other nodes at rest). A joint whose
// bind transform is not a rotation, translation and positive scale keeps
// the nearest such transform.
ModelPose bind_pose(const RiggedModel& model);

// Sets `pose` to `animation` at `seconds` (held at the ends); nodes without a
// track, and parts of a node its track does not key, take their rest value.
// `pose` must have one entry per node. No allocation.
void sample_animation(const RiggedModel& model, const ModelAnimation& animation, double seconds, ModelPose& pose);

// World transform of every node of `pose` into `world` (one per node). No allocation.
void node_world_transforms(const RiggedModel& model, const ModelPose& pose, std::span<Eigen::Affine3d> world);

// K_j = G_j(pose) * inverse_bind_j for every joint into `matrices` (one per
// joint), the input of a SkinJob; `world` is scratch with one entry per node.
// No allocation.
void model_skinning_matrices(const RiggedModel& model, const ModelPose& pose, std::span<Eigen::Affine3d> world,
                             std::span<SkinMatrix> matrices);

// The joints' hierarchy, for a Skinner to set dual quaternions' signs along
// (Skinner::run(tree)): each joint's parent is the (first) joint of the
// nearest of its node's ancestors that has one, or for a joint with none
// the first such root (which alone has -1); the joints ordered by node
// (parents first).
BoneTree joint_tree(const RiggedModel& model);

// For skin_frames (skin/skin_frames.h): frame k of `animation` at k / fps
// seconds (fps > 0) sampled, its skinning matrices into the skinner's, and
// the mesh deformed (dual quaternions signed along joint_tree). Its pose and world scratch are allocated once here;
// `model` and `animation` must outlive it.
PoseFrame pose_from_animation(const RiggedModel& model, const ModelAnimation& animation, double fps);

// How many frames of `animation` there are at `fps` (> 0): frames 0 to
// floor(duration * fps), the last one kept when rounding puts it a hair
// short of the end.
int animation_frame_count(const ModelAnimation& animation, double fps);

}  // namespace mocap
