// Writing a skinned, animated mesh as glTF 2.0 binary (.glb), for Blender,
// three.js and any other glTF viewer.
//
// The file holds one scene: the joints' node hierarchy, one node with the
// mesh and its skin at the scene root (glTF ignores a skinned mesh node's
// transform), and animations that key each joint node's local translation
// and rotation (and scale, when given) at the same times, linearly
// interpolated. Vertex attributes: POSITION (with min/max), NORMAL,
// TEXCOORD_0 (when the mesh has per-vertex texture coordinates), JOINTS_0
// (unsigned short) and WEIGHTS_0 (float); indices are unsigned int.
// A viewer computes a joint's matrix as G_j * inverse_bind_j with G_j the
// node's world transform: the K_b of bind.h.
//
// A document without a mesh (mesh null, no weights, joints or inverse
// binds) is a skeleton-only animation: the nodes and their animations, no
// mesh, skin or mesh node (gltf_from_motion).
//
// Layout (glTF 2.0 spec, "GLB File Format Specification"): a 12-byte header
// (magic "glTF", version 2, total length), a JSON chunk padded with spaces
// to 4 bytes, a BIN chunk padded with zeros to 4 bytes. Every buffer view
// starts 4-byte aligned.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/fk.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/mesh.h>
#include <mocap/io/skin_weights.h>
#include <mocap/rig/rigged_model.h>
#include <mocap/skin/bind.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <span>
#include <string>
#include <vector>

namespace mocap {

// A node with its local transform at rest (the skin's bind pose for joints).
struct GltfNode {
  std::string name;
  int parent = -1;  // index into GltfDocument::nodes (any order, no cycle); -1: a scene root
  Eigen::Vector3f translation = Eigen::Vector3f::Zero();
  Eigen::Quaternionf rotation = Eigen::Quaternionf::Identity();  // unit
  Eigen::Vector3f scale = Eigen::Vector3f::Ones();
};

// One node's keys: one value per GltfAnimation::times entry; an empty list
// leaves that part of the node unanimated.
struct GltfTrack {
  int node = 0;
  std::vector<Eigen::Vector3f> translations;
  std::vector<Eigen::Quaternionf> rotations;  // unit
  std::vector<Eigen::Vector3f> scales;
};

struct GltfAnimation {
  std::string name;
  std::vector<float> times;  // seconds, strictly increasing
  std::vector<GltfTrack> tracks;
};

// What a .glb holds. The mesh and weights are the caller's (not copied).
struct GltfDocument {
  const Mesh* mesh = nullptr;                 // positions and normals in metres, bind pose; null: no mesh, no skin
  std::span<const VertexWeights> weights;     // one per vertex; bone = index into `joints`
  std::vector<GltfNode> nodes;                // the joints and any node above them
  std::vector<int> joints;                    // node index per skin joint (at most 65535)
  std::vector<Eigen::Matrix4f> inverse_bind;  // one per joint: mesh space to the joint node's space
  std::vector<GltfAnimation> animations;
};

// A CMU skeleton bound to a mesh (skin/bind.h, mesh_bind.h), animated by `frames` of `motion`
// (frame indices, increasing). One joint node per bone, named as the bone,
// whose world transform is the bone's frame (bone_frames) in mesh space; the
// rest values are the bind pose, the inverse binds `bind.inverse_bind`, and
// one animation named `animation_name` keys every bone's local translation
// and rotation (the frame's pose through pose_for_bind) at
// (frame - frames[0]) / motion.fps seconds.
GltfDocument gltf_from_clip(const Skeleton& skeleton, const Motion& motion, const Pose& bind_pose,
                            const SkeletonBind& bind, const Mesh& mesh, std::span<const VertexWeights> weights,
                            std::span<const int> frames, const std::string& animation_name);

// A skeleton-only animation of any motion (ASF/AMC, BVH, rebuilt): no mesh
// and no skin. The nodes are the BVH joints of to_bvh (io/bvh.h): for a BVH
// skeleton its joints and End Sites, for an Acclaim one a node per bone at
// the bone's start (named as the bone) and an End Site node "<bone>_end" at
// each leaf's end. A node's local translation is the joint's OFFSET (with
// its position channels), its rotation the joint's channel rotation, in
// metres, Y up as the skeleton is; the rest values are the rest pose
// (every channel 0). One animation named `animation_name` keys every frame
// at (f / motion.fps) seconds: translation for the nodes with position
// channels (the root), rotation for the nodes with rotation channels.
// A node's world position is then the joint's world position (core/fk.h).
// Fails as to_bvh (translation or length dofs below the root) or for a
// motion without frames.
Result<GltfDocument> gltf_from_motion(const Skeleton& skeleton, const Motion& motion,
                                      const std::string& animation_name);

// A rigged model (rigged_model.h) with `animation` sampled at `times`
// (seconds, strictly increasing): every node of the model, its joints and
// inverse binds, translation, rotation and scale keys for the nodes the
// animation moves.
GltfDocument gltf_from_model(const RiggedModel& model, const ModelAnimation& animation, std::span<const float> times);

// The .glb bytes. Fails (naming what) when the document is inconsistent:
// no nodes, weights or normals not one per vertex (or, without a mesh,
// weights, joints or inverse binds given), a joint or weight bone out of range,
// track values not one per time, times not increasing.
Result<std::string> format_glb(const GltfDocument& document);
// format_glb written atomically to `path`.
Result<void> write_glb(const std::string& path, const GltfDocument& document);

}  // namespace mocap
