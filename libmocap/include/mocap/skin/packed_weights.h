// PackedWeights: a mesh's skin weights in the layout the skinning kernels
// read, as ozz-animation's SkinningJob reads them: vertices grouped by how
// many influences they use, bone indices as uint16 and, for n influences,
// n - 1 weights, the last being 1 - the sum of the others. A rigid vertex
// costs one 2-byte index and no weight; four influences 8 + 12 bytes,
// against 24 for every vertex in VertexWeights (io/skin_weights.h).
//
// The mesh is not reordered: groups are the influence runs below, stretches
// of consecutive vertices, so a mesh whose vertices come grouped by count
// (as a game exporter sorts them) is packed tightest. Made once when the
// mesh is bound, never per frame.
//
// Results against the VertexWeights path: the same vertex counts give the
// same sums but for the last weight, which here is recomputed as 1 - sum
// (the stored one was normalised to sum to 1 within 4 float epsilons): a
// vertex moves by a few float ulps of its skinned position (under 1e-6 m on
// a 2 m body). A 1-influence vertex gets the same bits.
#pragma once

#include <mocap/io/skin_weights.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace mocap {

// Consecutive vertices [begin, end) that the SIMD kernels blend through
// their first `influences` slots (1..4), with a loop specialised on that
// count: a rigid vertex costs one matrix, not four. Every vertex of the run
// has weight 0 in the slots past it, and a zero-weight slot adds +-0 to the
// four-slot sum, so the results are the four-slot blend's bits (but for the
// sign of an exact zero). Made once when the mesh is bound, not per frame.
struct InfluenceRun {
  int begin = 0;
  int end = 0;
  int influences = kMaxInfluences;
};

// The slots vertex `w` uses: 1 + the last slot whose weight is not 0 (NaN
// counts), 1 when none is.
int influences_used(const VertexWeights& w);

// The runs of `weights` in their order (the mesh is not reordered): blocks of
// 8 vertices take their widest vertex's count, blocks of equal count join,
// and a run shorter than 32 vertices joins the next at the wider count, so
// that a mesh whose counts alternate vertex by vertex costs what the
// four-slot loop does and no run is too short to pay for its dispatch.
// Meshes whose vertices come grouped by count gain the most.
std::vector<InfluenceRun> make_influence_runs(std::span<const VertexWeights> weights);

// One influence run, packed: vertex begin + i has its `influences` bone
// indices at PackedWeights::bones[bone_offset + influences * i ...] and its
// first influences - 1 weights at weights[weight_offset + (influences - 1) * i ...].
struct PackedRun {
  int begin = 0;
  int end = 0;
  int influences = 1;             // 1..4
  std::size_t bone_offset = 0;    // into PackedWeights::bones
  std::size_t weight_offset = 0;  // into PackedWeights::weights
};

struct PackedWeights {
  std::vector<PackedRun> runs;       // tile the vertices in order
  std::vector<std::uint16_t> bones;  // by run, influences per vertex, slot order (decreasing weight)
  std::vector<float> weights;        // by run, influences - 1 per vertex

  int vertex_count() const { return runs.empty() ? 0 : runs.back().end; }
  // Bytes of indices and weights (what a skinning pass streams besides positions and normals).
  std::size_t bytes() const { return bones.size() * sizeof(std::uint16_t) + weights.size() * sizeof(float); }
  // Vertex `v` (< vertex_count()) as VertexWeights: its run's slots, the
  // last weight 1 - the others', zero slots past them.
  VertexWeights vertex(int v) const;
};

// The last of n weights: 1 - (((w_0 + w_1) + ...) + w_{n-2}), the one sum
// every kernel forms the same way. `first` holds n - 1 weights (none: 1).
inline float last_weight(const float* first, int n_minus_1) {
  float sum = 0.0f;
  for (int k = 0; k < n_minus_1; ++k) sum += first[k];
  return n_minus_1 == 0 ? 1.0f : 1.0f - sum;
}

// `weights` packed along `runs` (make_influence_runs(weights) when empty).
// Their weights are taken to sum to 1, as VertexWeights' do (io/skin_weights.h):
// a vertex whose do not is skinned as if its last slot made up the difference.
// Runs must tile the vertices in order and cover every slot a vertex uses
// (SkinJob::validate checks both); slots past a vertex's count in a wider
// run keep bone 0 and get what is left of 1, about 0.
PackedWeights pack_weights(std::span<const VertexWeights> weights, std::span<const InfluenceRun> runs = {});

}  // namespace mocap
