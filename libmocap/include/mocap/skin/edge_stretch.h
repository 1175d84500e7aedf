// Edge stretch: how much longer than at rest a skinned mesh's edges get,
// frame after frame. An edge pulled to three times its length is a tear an
// animator sees (auto-rigging's bound, issue 29), and a bound on joint
// positions alone does not show it. The longest is named: its two
// vertices, their weights and the frame.
//   EdgeStretch stretch = make_edge_stretch(mesh);
//   for each frame: add_stretch_frame(stretch, frame_number, skinner.positions());
//                   (or edges_past: that frame's edges past a ratio)
//   std::puts(format_edge_stretch(stretch, mesh, weights, bone_names).c_str());
#pragma once

#include <mocap/io/mesh.h>
#include <mocap/io/skin_weights.h>

#include <Eigen/Core>
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mocap {

struct EdgeStretch {
  std::vector<std::array<int, 2>> edges;  // the mesh's edges longer than kMinRestLength at rest
  std::vector<float> rest;                // their rest lengths, metres
  double bound = 3.0;                     // posed / rest ratio that past_bound counts past

  // Over the frames added:
  int frames = 0;
  double longest = 0.0;    // the largest posed / rest ratio (infinity for a posed position not finite)
  int longest_edge = -1;   // index into edges, -1 before any frame
  int longest_frame = -1;  // its frame number, as added
  long past_bound = 0;     // edge-frames whose ratio passed `bound`

  // Coincident vertices (a seam split by position) have no ratio.
  static constexpr float kMinRestLength = 1e-5f;
};

// The mesh's edges and rest lengths (its positions), nothing measured yet.
EdgeStretch make_edge_stretch(const Mesh& mesh, double bound = 3.0);

// One skinned frame: `positions` one per vertex of the mesh the stretch was
// made from (fewer: the edges past them are skipped). No allocation.
void add_stretch_frame(EdgeStretch& stretch, int frame_number, std::span<const Eigen::Vector3f> positions);

// The edges (indices into stretch.edges) whose posed / rest ratio in
// `positions` passes `ratio`, into `out` (cleared first; it allocates only
// to grow): one frame's tears, to draw. Edges past the positions are skipped.
void edges_past(const EdgeStretch& stretch, std::span<const Eigen::Vector3f> positions, double ratio,
                std::vector<int>& out);

// One line: "stretch: longest edge 3.80x its rest length (18.1 mm), vertices
// 1500 and 2007 at frame 241, at (-1.8, 60.6, 0.7) cm in the mesh at rest
// (rfemur 0.77 lfemur 0.12 | rfemur 0.52 lfemur 0.26); 5 edge-frames past 3x
// in 9 frames". The bones are named from `weights` (one per vertex, may be
// empty) and `bone_names`. `units`: "m" for a mesh in metres (lengths
// printed in mm and cm), else the mesh's own unit's name, its numbers
// printed as they are (a rigged model's, which Assimp does not scale).
std::string format_edge_stretch(const EdgeStretch& stretch, const Mesh& mesh, std::span<const VertexWeights> weights,
                                std::span<const std::string> bone_names, std::string_view units = "m");

}  // namespace mocap
