// Skin weights by bone heat (Baran and Popovic 2007, "Automatic rigging and
// animation of 3D characters"; Blender's "automatic weights"): each bone
// heats the surface near it and the heat diffuses over the surface, so a
// weight falls off along the skin, not through the air, and follows the
// mesh's own shape across a joint. The method, in order:
//  1. For each vertex, the nearest VISIBLE deforming bone: the segment from
//     the vertex to the nearest point of the bone must not cross the mesh
//     (a grid over the triangles, triangle_grid.h), so a hand resting on a
//     thigh never takes the femur. d_v is the distance to it; bones within
//     `tie` of d_v all count as nearest. Only bones within `reach` times the
//     nearest bone's distance (+ 2 cm) are tried. A vertex that sees none of
//     them (a toe beside the toe its bone runs through, inside the mouth)
//     heats from its nearest bone all the same (`blind_take_nearest`; off:
//     no heat, its weights from its neighbours by diffusion alone, as
//     Pinocchio does).
//  2. The cotangent Laplacian L of the surface (L_ij = (cot a + cot b) / 2
//     over the two angles facing edge ij; cotangents clamped at 0 so every
//     weight stays between 0 and 1) and the lumped vertex areas A.
//  3. Per bone b, the heat equilibrium (-L + A H) w_b = A H p_b, with
//     H_vv = `heat` / d_v^2 and p_b(v) = 1 where b is v's nearest visible
//     bone (split equally between ties), 0 elsewhere. The matrix is the same
//     for every bone: it is factored ONCE (sparse LDL^T) and each bone is a
//     back-substitution.
//  4. Per vertex, weights below `min_weight` dropped, the four largest kept,
//     renormalised to sum to 1 (io/skin_weights.h).
// Bones that get no vertex as nearest (zero-length, hidden) get no weight.
#pragma once

#include <mocap/io/mesh.h>
#include <mocap/io/skin_weights.h>
#include <mocap/rig/auto_weights.h>

#include <Eigen/Core>
#include <span>
#include <string>
#include <vector>

namespace mocap {

// A part of the body that moves with one bone although much of its surface
// is nearer another: the skull with the jaw and face, below the head bone's
// start and so nearer the neck. A vertex on the positive side of the plane
// (`point`, unit `normal`) and within `radius` of `point`, whose nearest
// visible bones are all among `instead_of`, heats from `bone` instead (at its
// distance to `bone`). embed.h finds the head's.
struct RigidPart {
  Eigen::Vector3f point = Eigen::Vector3f::Zero();  // metres, mesh space
  Eigen::Vector3f normal = Eigen::Vector3f::UnitY();
  float radius = 0.0f;  // metres
  int bone = -1;
  std::vector<int> instead_of;
};

struct HeatWeightOptions {
  float heat = 1.0f;                   // c in H = c / d^2 (Pinocchio's 1): larger keeps weights nearer their bone
  float tie = 1.0001f;                 // bones within tie * nearest distance are all nearest
  float reach = 2.0f;                  // bones tried for visibility: within reach * nearest distance + 2 cm
  float min_weight = 0.01f;            // smaller weights are dropped before the four are kept
  float grid_cell = 0.02f;             // metres: the visibility grid's cells
  bool visibility = true;              // false: the nearest bone, seen or not (for comparison)
  bool blind_take_nearest = true;      // a vertex that sees no bone heats from its nearest one (see 1.)
  std::vector<RigidPart> rigid_parts;  // applied after 1., in order
};

// Bone-heat weights for every vertex of `mesh` from `bones` (index = bone
// index, in mesh space, metres, at least one deforming). Deterministic.
// `diagnostics`, when given, receives a one-line account (vertices that saw
// no bone, bones with no vertex).
std::vector<VertexWeights> heat_weights(const Mesh& mesh, std::span<const BoneSegment> bones,
                                        const HeatWeightOptions& options = {}, std::string* diagnostics = nullptr);

}  // namespace mocap
