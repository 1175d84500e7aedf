// Skin weights by geodesic voxel binding (Dionne and de Lasa 2013,
// "Geodesic voxel binding for production character meshes"; Maya's
// "geodesic voxel" bind): the mesh made one solid (voxel_solid.h), and each
// vertex weighted by how far each bone is from it walking INSIDE that solid.
// Unlike bone heat (heat_weights.h), which diffuses over one connected
// surface, it needs no clean surface: a character of many parts (armour
// plates, pouches, a visor, eyes, teeth), shells over a body, holes and
// self-intersections is one volume, a distance through it does not jump the
// air between the legs or from a hand to a thigh, and a vertex of any part
// takes its weights from where it sits in the volume, so parts that touch
// at rest get the weights of the body under them and move with it.
//
// The method, in order:
//  1. The solid of the whole mesh (voxelize, `solid`).
//  2. Seeds: each deforming bone's segment rasterised into the grid (every
//     cell it passes through, at the distance from the cell's centre to the
//     segment). Cells outside the solid a bone crosses are seeds too (a bone
//     poking out of a thin limb), but a bone must meet the solid somewhere:
//     one that does not gets no weight and is named in `note`. A rigid part
//     (heat_weights.h: the head with the jaw and face) seeds its bone at
//     distance 0 over the solid cells on its side of its plane and within
//     its radius whose nearest bone (straight line) is the part's or one of
//     `instead_of`, so that the face moves with the head, not the neck.
//  3. Geodesic distances: Dijkstra from all seeds at once over the solid's
//     cells, 26-neighbour steps (1, sqrt 2, sqrt 3 cells), each cell keeping
//     the kMaxInfluences NEAREST bones (a label per bone, settled in order
//     of distance: the k nearest sources of every cell are exact, because a
//     source among a cell's k nearest is among the k nearest of every cell
//     on the shortest path to it). One pass for all bones, not one per bone.
//  4. A vertex's distance to bone b: the least over the solid cells of the
//     3 x 3 x 3 block around its cell of (the cell's distance to b + the
//     straight line from the cell's centre to the vertex), so that it varies
//     inside a cell and is the same function of position for every part.
//  5. Falloff (the paper's w = ((1 - a) d + a d^2)^-2, on distances relative
//     to the vertex's nearest bone, d_b / d_min, so that it does not depend
//     on the body's size or the cell's): `falloff` a = 0 is inverse square,
//     a = 1 inverse fourth power (sharper joints). When more than four
//     bones reach the vertex, the fifth's weight is taken from the four kept
//     (so a bone leaves a vertex's four smoothly where another overtakes it,
//     not with a jump between neighbouring vertices: that jump stretched 2
//     mm edges of the chest 5x); weights below `min_weight` of the total
//     dropped, the rest normalised.
//  6. Smoothing over the mesh's edges (smooth_weights, auto_weights.h), as
//     distance weights do, EXCEPT at contacts: a vertex that has a vertex of
//     another part (a piece of the mesh not joined to it by edges) in its
//     cell or a neighbouring one keeps the weights of step 5, which are the
//     solid's at that place, so the two touching parts there have the same
//     weights and move together; the rest of each part is smoothed from them.
// Cost: the solid, then one Dijkstra over its cells with four labels each
// (about 1 s on one core for a body at 192 cells, whatever its vertex
// count: 1.0 s for the humanoid subdivided to 53,514 vertices, bench_bind),
// then a pass over the vertices. Memory: about 25 bytes per solid cell and 9
// per grid cell (1.3 million cells, about 14 MB, for the humanoid at 192),
// growing with the cube of the resolution.
#pragma once

#include <mocap/core/error.h>
#include <mocap/io/mesh.h>
#include <mocap/io/skin_weights.h>
#include <mocap/rig/heat_weights.h>
#include <mocap/rig/voxel_solid.h>
#include <mocap/skin/bind.h>

#include <span>
#include <string>
#include <vector>

namespace mocap {

struct VoxelWeightOptions {
  VoxelSolidOptions solid;             // resolution and hole closing (voxel_solid.h)
  float falloff = 0.5f;                // a in [0, 1] (step 5): larger, sharper transitions between bones
  float min_weight = 0.01f;            // in [0, 0.25): shares of the total below it are dropped
  int smoothing_iterations = 10;       // >= 0 Jacobi passes over the edges (step 6)
  float smoothing = 0.5f;              // in (0, 1]
  std::vector<RigidPart> rigid_parts;  // step 2 (embed.h finds the head's)

  // Fails (no file) when the solid's options or any field is out of range.
  Result<void> validate() const;
};

struct VoxelBinding {
  std::vector<VertexWeights> weights;  // one per vertex of the mesh
  VoxelSolid solid;                    // step 1
  int parts = 0;                       // pieces of the mesh joined by edges
  int contact_vertices = 0;            // vertices near another part (step 6), not smoothed
  std::vector<int> untouched_bones;    // deforming bones that meet no solid cell: no weight
  std::string note;                    // one line: the bones that got no weight, empty when none
};

// Weights for every vertex of `mesh` from `bones` (index = bone index, in
// mesh space, metres), as above. Deterministic. Fails (no file) when the
// options are invalid, the mesh cannot be voxelised (no triangle, no extent)
// or no deforming bone meets the solid.
Result<VoxelBinding> voxel_weights(const Mesh& mesh, std::span<const BoneSegment> bones,
                                   const VoxelWeightOptions& options = {});

}  // namespace mocap
