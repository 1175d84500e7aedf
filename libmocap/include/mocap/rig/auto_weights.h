// Automatic skin weights: which bones move each vertex of a mesh, computed
// from the bones' segments in mesh space (BoneSegment, skin/bind.h; the
// weights file is io/skin_weights.h).
#pragma once

#include <mocap/io/mesh.h>
#include <mocap/io/skin_weights.h>
#include <mocap/skin/bind.h>

#include <Eigen/Core>
#include <span>
#include <vector>

namespace mocap {

// Automatic weights, "distance to bones then smoothing over edges":
//  1. For each vertex, the distance d_b to every deforming bone segment.
//  2. Raw weight w_b = 1 / (d_b + epsilon)^falloff_power, for the bones with
//     d_b <= reach * d_min + epsilon (d_min: the nearest bone), so that a
//     bone much farther than the nearest one never pulls. The four largest
//     are kept and normalised. Where two bones are about as near (across a
//     joint, or a hanging arm beside the trunk) the vertex is shared between
//     them, smoothly, whether or not they are parent and child.
//  3. `smoothing_iterations` Jacobi passes over the mesh's edges:
//     w_v <- (1 - smoothing) * w_v + smoothing * mean of the neighbours' w,
//     each pass again keeping the four largest, normalised. This widens the
//     blend across joints (about one edge ring per pass) and removes the
//     seams that nearest-bone weights leave. More passes spread a thin tail
//     of small weights further along the limbs, which LBS turns into
//     stretching (a 4% weight on the shin 30 cm up the thigh moves it 1.5 cm
//     when the knee bends 90 degrees): the default is the measured best on
//     the MakeHuman body with CMU runs (tests/skin/test_skin.cc).
struct AutoWeightOptions {
  float falloff_power = 4.0f;  // larger: sharper transitions between bones
  float epsilon = 0.01f;       // metres; keeps vertices on a bone finite and the falloff smooth near it
  float reach = 1.6f;          // bones farther than reach * nearest distance get no weight
  int smoothing_iterations = 10;
  float smoothing = 0.5f;  // in (0, 1]
};

// Weights for every vertex of `mesh` from `bones` (index = bone index, at
// least one deforming). Deterministic.
std::vector<VertexWeights> automatic_weights(const Mesh& mesh, std::span<const BoneSegment> bones,
                                             const AutoWeightOptions& options = {});

// Step 3 alone, on any weights (one per vertex of `mesh`): `iterations`
// Jacobi passes w_v <- (1 - smoothing) w_v + smoothing * mean of the
// neighbours' w over the mesh's edges, each keeping the four largest,
// normalised. Deterministic.
void smooth_weights(const Mesh& mesh, std::vector<VertexWeights>& weights, int iterations, float smoothing);

}  // namespace mocap
