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
//     A bone's segment is a line; two bodies are not:
//     - A girdle: the segment between two bones' ends seeded too, each half
//       for its bone. CMU has no bone across the pelvis, so the crotch,
//       below the hip joints, was nearer the thighs (both at 0.43 on
//       CesiumMan) and tore in a cartwheel's splits.
//     - A thick bone: across it, the solid cells nearest it (straight line)
//       in layers one cell deep, each layer taken as a filled ellipse (its
//       spread: variance a^2 / 4 along the major axis) and its medial
//       segment, a - b^2 / a either way from the layer's middle along the
//       major axis, seeded for the bone. A wide trunk's flank is nearer the
//       shoulder joint than the spine's line (the heavy body's, 5 cm below
//       the armpit, had the upper arm at 0.23-0.40) and was lifted with
//       the arm. A round limb's layers (a = b) add almost nothing (a
//       square bar's weights move by at most 0.075, by its joint).
//     Measured with the embedding's (embed.h step 7; test_embed_bodies.cc,
//     the cartwheel's longest edge, edge-frames past 3x in brackets), none,
//     the girdle, both: the humanoid in parts 3.52x (9), 3.38x (7), 3.39x
//     (7); with overlapping parts 3.38x (5), 3.12x (3), 2.75x (0); thin
//     3.14x (3), 2.79x (0), 2.55x (0); arms hanging 3.78x (7), 3.14x (2),
//     2.90x (0); heavy 4.01x (25), 4.01x (25), 4.04x (10, the stretch moved
//     up into the armpit); agreement with MakeHuman's artists 0.805, 0.810,
//     0.827 (spine and head 0.805, 0.819, 0.859).
//  3. Geodesic distances: Dijkstra from all seeds at once over the solid's
//     cells, 26-neighbour steps (1, sqrt 2, sqrt 3 cells), each cell keeping
//     the kMaxInfluences NEAREST bones (a label per bone, settled in order
//     of distance: the k nearest sources of every cell are exact, because a
//     source among a cell's k nearest is among the k nearest of every cell
//     on the shortest path to it). One pass for all bones, not one per bone.
//  4. Per solid cell, a weight per bone: the falloff (the paper's
//     w = ((1 - a) d + a d^2)^-2, on distances relative to the cell's
//     nearest bone, d_b / d_min, so that it does not depend on the body's
//     size or the cell's; `falloff` a = 0 is inverse square, a = 1 inverse
//     fourth power, sharper joints) over the bones of its labels and its 26
//     neighbours' (a neighbour's distance plus the step to it). Four kept,
//     the fifth's weight taken from them, so that a bone overtaken between
//     two cells leaves with a small weight, not the fourth's whole share.
//     The default a = 0.1 (0.5 before): a joint's blend a little wider, so
//     a cartwheel's steepest bends stretch less (test_embed_bodies.cc, the
//     longest edge: the parts 3.39x -> 3.19x, heavy 4.04x -> 3.51x, big
//     head 3.51x -> 3.16x, CesiumMan 3.80x -> 3.23x; the walks' 5-10%
//     shorter) and the artists agree a little more (MakeHuman 0.827 ->
//     0.828, CesiumMan 0.887 -> 0.897); at 0 a bar's end keeps 0.946 of
//     its bone, not 0.95.
//  5. Diffusion: `diffusion_passes` passes in which each solid cell takes
//     the mean of itself and its solid face neighbours (up to 8 bones a
//     cell), so that transitions the falloff made steep (the thumb's root,
//     the crotch, the armpit) are a few cells wide and never cross air.
//     Diffusion moves a transition towards the thinner side (a tip's mass
//     flows out through its base: the toes' tips went to the feet), so one
//     gain per bone, the same in every cell, is then set so that each bone
//     is again the heaviest in as many cells as before it.
//  6. A vertex's weights: the field at its position, interpolated between
//     the centres of the 8 cells around it (solid cells only, their shares
//     renormalised), so one continuous function of position for every
//     part: no jump where a vertex crosses a cell's face, and touching
//     parts get the same weights. Then at most four bones: the first one
//     left out, or `min_weight` of the total if larger, is the zero of the
//     kept ones, so that a bone fades out of a vertex, not cut off between
//     two neighbouring vertices (a cut stretched 2 mm edges of the chest 5x).
//     The vertices of a part the field does not reach (a piece of the solid
//     no bone meets) all take the bone nearest to their middle, rigidly.
//  7. Relaxed where a turn would tear: steps 4-6 bound how fast weights
//     change through the solid, not across a mesh edge that spans a
//     crease (the armpit: the arm's inner face and the flank touch only
//     along a line of cells, each side following its own bone, so one
//     2 cm edge went from the upper arm at 0.59 to 0.33 and stretched 3.5x
//     with the arm overhead). An edge's stretch when joint j (a bone's
//     start, `fixed_joints` aside) turns by half a turn is about
//     1 + 2 |dW_j| r_j / l: dW_j the change along the edge of the weight
//     of everything below j, r_j the edge's distance from the joint, l its
//     length; the root and `fixed_joints` never turn on a parent. A
//     girdle's two limbs turn apart at once (the legs in a split), so an
//     edge holding weight from both (the crotch) takes the sum of their
//     worst joints' terms. In each of up to `relax_passes` passes (fewer
//     when no edge is left past `relax_bound`) the ends of every edge past
//     it keep half their weights and take half from their neighbours,
//     weighted by 1 / distance^2 (evenly, a 0.5 mm edge next to 2 cm ones
//     got 0.03 of difference and stretched 4.9x), the four heaviest kept
//     (small shares too: they are how a bone spreads). A vertex is also
//     linked to the nearest vertex of each other part in its
//     cell or the neighbouring ones, and relaxed with it, so touching parts
//     keep the same weights. Measured on
//     test_embed_bodies.cc's bodies, the cartwheel's longest edge: heavy
//     3.51x -> 2.80x, the parts 3.19x -> 2.67x, big head 3.16x -> 2.57x,
//     CesiumMan 3.23x -> 2.85x (every body now under 3x); MakeHuman's base
//     mesh with its helpers 10.28x -> 6.52x. It costs a little agreement
//     with the artists: MakeHuman 0.828 (arms 0.871 -> 0.868), CesiumMan
//     0.897 -> 0.893, RiggedFigure 0.662 -> 0.652. A bound of 2.6 stretched
//     CesiumMan less (2.54x), the T-pose more (2.94x), agreed less
//     (RiggedFigure 0.646); 3.4 left CesiumMan at 3.18x. Twenty passes and
//     the girdle's sum, not ten and the worst joint alone: the heavy body
//     of test_embed_bodies.cc subdivided to 53k vertices (edges half as
//     long, so a pass reaches half as far) 3.06x -> 2.96x (3.01x with ten
//     passes), its crotch's 11 mm edge relaxed; CesiumMan 2.85x -> 2.15x;
//     the worst test body 2.85x -> 2.72x (arms hanging, 2.54x before; the
//     T-pose 2.23x -> 2.53x); base.obj's walk 3.42x -> 2.83x; the
//     agreements the same within 3 vertices.
// Cost: the solid, one Dijkstra over its cells with four labels each, and
// the diffusion's passes over them, then a pass over the vertices and step
// 7's passes over the edges (bench_bind, Release, one core: the humanoid
// subdivided to 53,514 vertices in 0.88 s, bone heat 0.73 s in the same
// run; 0.86 s with ten relaxing passes in another, 0.99 times heat's before
// step 7). Memory: about 150 bytes per solid cell
// (labels, the field twice while it diffuses, the neighbours) and 9 per
// grid cell (1.3 million cells for the humanoid at 192), growing with the
// cube of the resolution; step 7 about 150 bytes per vertex (its
// neighbours, the weights twice).
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/mesh.h>
#include <mocap/io/skin_weights.h>
#include <mocap/rig/heat_weights.h>
#include <mocap/rig/voxel_solid.h>
#include <mocap/skin/bind.h>

#include <span>
#include <string>
#include <vector>

namespace mocap {

// Two bones whose ends a rigid girdle joins where the skeleton has no bone
// (step 2): CMU's hip joints, the ends of lhipjoint and rhipjoint, joined by
// the pelvis, whose pubis lies above the crotch.
struct Girdle {
  int bone_a = -1;
  int bone_b = -1;
};

struct VoxelWeightOptions {
  VoxelSolidOptions solid;             // resolution and hole closing (voxel_solid.h)
  float falloff = 0.1f;                // a in [0, 1] (step 4): larger, sharper transitions between bones
  float min_weight = 0.01f;            // in [0, 0.25): shares of the total below it fade to nothing (step 6)
  int diffusion_passes = 20;           // >= 0 passes over the solid's cells (step 5); 0: no diffusion, no gains
  float relax_bound = 3.0f;            // > 1 (step 7): an edge's stretch allowed with a joint turned half a turn
  int relax_passes = 20;               // >= 0 (step 7); 0: no relaxing
  std::vector<int> fixed_joints;       // step 7, bone indices that never turn on their parent (CMU's hipjoints)
  std::vector<RigidPart> rigid_parts;  // step 2 (embed.h finds the head's)
  std::vector<Girdle> girdles;         // steps 2 and 7 (embed.h gives the pelvis); two limbs apart
  std::vector<int> thick_bones;        // step 2, bone indices (embed.h gives the spine's)

  // Fails (no file) when the solid's options or any field is out of range.
  Result<void> validate() const;
};

struct VoxelBinding {
  std::vector<VertexWeights> weights;  // one per vertex of the mesh
  VoxelSolid solid;                    // step 1
  int parts = 0;                       // pieces of the mesh joined by edges
  int contact_vertices = 0;            // vertices linked to another part's nearest (step 7)
  int relaxed_vertices = 0;            // vertices step 7 relaxed at least once
  std::vector<int> untouched_bones;    // deforming bones that meet no solid cell: no weight
  std::string note;                    // one line: the bones that got no weight, empty when none
};

// The bones of `skeleton` without a rotation dof (CMU's lhipjoint and
// rhipjoint), for VoxelWeightOptions::fixed_joints: they never turn on
// their parents.
std::vector<int> joints_without_rotation(const Skeleton& skeleton);

// Weights for every vertex of `mesh` from `bones` (index = bone index, in
// mesh space, metres), as above. Deterministic. Fails (no file) when the
// options are invalid, a girdle, thick bone or fixed joint is no bone of
// `bones`, a bone's parents do not lead to a root, the mesh cannot be voxelised (no triangle, no extent) or no
// deforming bone meets the solid.
Result<VoxelBinding> voxel_weights(const Mesh& mesh, std::span<const BoneSegment> bones,
                                   const VoxelWeightOptions& options = {});

}  // namespace mocap
