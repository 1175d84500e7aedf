// Skeleton embedding: the capture's skeleton fitted into a mesh before
// binding, so that every joint lies inside the mesh where the mesh's own
// joint is (the "initial matching of skeleton and skin"). Baran and Popovic
// 2007 embed a skeleton in a medial approximation of the mesh; here the
// medial curve of each limb comes from cross-sections:
//  1. Start: the skeleton in `start_pose`, placed by `start` (fit_placement
//     in bind.h: one scale from the mesh's height).
//  2. The hips (hipjoint ends): above the centroid of each thigh's
//     cross-section just below the crotch (the lowest point of the mesh on
//     its plane of symmetry), 6% of the height above the crotch (the hip
//     joint at 53% of standing height, the crotch at about 47%: Winter,
//     "Biomechanics and Motor Control of Human Movement"). Kept from the
//     start when no crotch is found between 35% and 60% of the height (a
//     robe).
//  3. Each limb is marched from its root joint: the mesh is sliced by the
//     plane perpendicular to the limb every `step` metres, the closed loop of
//     the slice nearest the march is kept and its centroid is the next point
//     of the limb's centre line; the direction follows the centroids. The
//     march ends where no loop is found (the finger tips, the sole).
//  3b. The trunk: the neck found by horizontal cuts from the shoulders up
//     (the first narrowest, its base the lowest cut within 1.4 times its
//     perimeter); the spine from the root (lowerback, upperback) scaled and
//     turned as one so that lowerneck would end at the neck's base, as it
//     does on the humanoid placed by height alone; thorax ends there
//     instead, where artists' rigs end the chest and start the neck and the
//     clavicles (MakeHuman's neck01, RiggedFigure's and CesiumMan's neck
//     joint), taking the chest's top that CMU's lowerneck spans. The neck
//     keeps the capture's length, upperneck's, from the base to the skull's
//     joint: lowerneck and upperneck share it (each about half its placed
//     length). With lowerneck ending at the base, the chest's top moved with
//     the neck (a nod lifted it): MakeHuman's joints lowerneck 9.5 cm and
//     upperneck 6.2 cm off (now 0.6, 2.1), RiggedFigure's agreement 0.652
//     (now 0.710); the back scaled as one to the thorax's end instead put
//     upperback's flanks at the armpits (a limb edge 2.04x in the humanoid's
//     cartwheel; MakeHuman 0.824). A big head or a short neck puts the placed
//     neck inside the head, where the neck's bones turned the head about its
//     chin and tore the neck (CesiumMan 4.80x, the big head 4.78x; fitted:
//     3.74x, 3.73x). Kept as placed when no neck is found or the factor lies
//     outside 0.5-2.
//  4. The shoulders (clavicle ends): moved onto the upper arm's axis (the
//     line through the arm's centre line's first 12 cm past the armpit).
//     On the centre line: the wrist (CMU's radius end: its lwrist is the
//     palm) a hand's length, 10.8% of the height, short of the finger tip;
//     the ankle on the shin's axis (through its narrowest cross-section,
//     3-12% of the height above the sole) at 3.9% of the height; elbow and
//     knee divide the line to them in the capture's own ratio of upper to
//     lower limb; palm, hand and finger ends lie on the line beyond the wrist
//     in the capture's ratio, the fingers' end 1.5 cm short of the tip; the
//     foot's end (the ball) and the toes' end are the centroids of the foot's
//     cross-sections at 72% of the way from ankle to toe tip and 2 cm short
//     of it.
//  5. The bind pose: each fitted bone turned (the least rotation, in the
//     world) from its direction to the fitted one, its children carried with
//     it; each bone's factor on its length (SkeletonBind::bone_scale, bind.h)
//     is the fitted length over the placed one. Bones not fitted keep their
//     local rotation (the thumb takes the hand's factor).
//  6. The clavicles and the thumbs, when fitted, are rest-relative (bind.h,
//     pose_for_bind): the shoulders' line and the thumbs' set are the
//     mesh's and a capture only turns them from there. A big head's
//     shoulders slope 27 degrees: with the capture's clavicles, which rise
//     20, its walk stretched an edge 4.95x, rest-relative 3.13x (CesiumMan
//     3.80x to 3.01x). A thumb fitted to the mesh's, posed with the
//     capture's own direction, tore the web by the index finger: the
//     humanoid's walk 3.25x, rest-relative 2.35x (thin 3.54x to 2.36x). No
//     body worse. The hip bones stay absolute: rest-relative, the crotch of
//     two bodies stretched more in the cartwheel (3.39x to 3.47x, 3.17x to
//     3.28x).
//  7. For the voxel weights (voxel_weights.h): the pelvis a girdle between
//     the hip joints (lhipjoint's and rhipjoint's ends), and the spine's
//     bones (lowerback, upperback, thorax) as thick as the trunk, so that
//     the crotch goes with the pelvis and a wide trunk's flanks with the
//     spine, not with the thighs and the upper arms whose joints are nearer
//     (see there for what each did).
// The skeleton must be an Acclaim one (ASF) with CMU's bone names
// (lhumerus, lradius, lwrist, lhand, lfingers, lthumb, lfemur, ltibia,
// lfoot, ltoes and the r ones; the hip is moved where lfemur hangs from
// lhipjoint); for any other the start is kept and `note` says why. A limb
// whose march fails is named in `limb_error`.
// An arm that the cone from the placed shoulder does not find (a body of
// other proportions: a big head puts CMU's shoulder in the neck) is found
// from its far end: the vertex farthest out on its side above 40% of the
// height, marched in until its cross-section meets the trunk's; the
// shoulder is where that march ends.
// A mesh that does not stand as the library does (start.axes, bind.h) is
// embedded turned upright and the result turned back; one shorter than
// 0.8 m or taller than 2.5 m (a doll, a giant, a mesh read in the wrong
// unit), scaled to 1.7 m and the result scaled back: the steps and windows
// above are in metres, for people.
// Multi-part meshes: the slices run on whatever surface `mesh` is, every
// part at once (bind_mesh gives the welded mesh). A part's cut is a loop of
// its own: open shells (armour plates) give open loops and are dropped,
// closed parts beside a limb (a pouch, a belt) and boxes inside one (joint
// locators) are loops the march does not take while the limb's own is
// nearer, and a limb part reaching into the torso keeps its loop there
// (tests/rig/test_embed_bodies.cc measures each). What would mislead it: a
// closed part wider than the gap between two limbs (a skirt or coat joining
// the legs: no crotch is found, the hips stay as placed) or a closed shell
// whose cut lies nearer the march than the limb's. For those, pass the
// outer surface of the parts' union instead of the parts (the boundary of
// the voxel solid, rig/voxel_solid.h): the method is unchanged.
#pragma once

#include <mocap/core/fk.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/mesh.h>
#include <mocap/rig/heat_weights.h>
#include <mocap/rig/voxel_weights.h>
#include <mocap/skin/bind.h>

#include <Eigen/Core>
#include <span>
#include <string>
#include <vector>

namespace mocap {

struct EmbedOptions {
  double step = 0.01;  // metres between slices along a limb (> 0)
};

struct Embedding {
  Pose bind_pose;                  // the skeleton as the mesh stands, limbs along the mesh's
  Placement placement;             // the start's similarity, unchanged
  std::vector<double> bone_scale;  // per bone (bind.h); 1 for bones not fitted
  std::vector<int> fitted;         // bones whose end point was fitted, in bone order
  std::string note;                // what was not fitted and why (a BVH skeleton, bones it lacks)
  // The limbs (arms, legs, feet) that were not found, each named, and fitted
  // limb bones whose length factor lies outside 0.5-2 (kLimbFactor in
  // embed.cc): an error for bind_mesh, never a limb left as placed. Empty
  // when every limb was found.
  std::string limb_error;
  // For the weights (heat_weights.h): the head with the jaw and face, above
  // the neck's narrowest cross-section, on the head bone rather than the
  // neck's (CMU's head bone starts at the skull's base, above the chin).
  std::vector<RigidPart> rigid_parts;
  // Step 7, for VoxelWeightOptions: the pelvis (when the skeleton has both
  // hipjoints) and the spine's bones it has.
  std::vector<Girdle> girdles;
  std::vector<int> thick_bones;
  // Step 6: for SkeletonBind::rest_relative.
  std::vector<RestRelativeBone> rest_relative;
};

Embedding embed_skeleton(const Skeleton& skeleton, const Pose& start_pose, const Placement& start, const Mesh& mesh,
                         const EmbedOptions& options = {});

// How a bound skeleton sits in its mesh: per joint (a bone's end point, the
// root's position for the root), its position and signed distance to the
// surface (mesh_inside.h), negative inside, metres.
struct JointFit {
  int bone = 0;
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  // mesh space, metres
  double signed_distance = 0.0;                        // metres; < 0 inside; NaN when not measured
  bool measured() const { return signed_distance == signed_distance; }
};
struct FitReport {
  std::vector<JointFit> joints;  // one per bone, in bone order
  // The joint farthest outside among `bones` (all when empty), -1 when none
  // is outside (a joint not measured is never outside).
  int worst_outside(std::span<const int> bones = {}) const;
};

// The fit of `skeleton` posed by `pose` with `bind`'s placement and bone
// factors, against the surface `positions` + `triangles` (the bind-pose mesh,
// or a skinned frame's positions). `bones` (bone indices; those out of range
// are ignored) are the joints measured, all when empty: each signed distance
// is a pass over the triangles, so a caller that judges a few joints per
// frame asks for those. Every joint's position is set; the signed distance of
// a joint not measured is NaN.
FitReport fit_report(const Skeleton& skeleton, const Pose& pose, const SkeletonBind& bind,
                     std::span<const Eigen::Vector3f> positions, std::span<const MeshTriangle> triangles,
                     std::span<const int> bones = {});

// `report` as text, what `mocap skin --fit-report` prints: a header line,
// then per measured joint "fit: <bone> <signed distance, cm> inside|outside
// <length factor (bind's bone_scale, 1 without)>", then the worst of the
// elbows, wrists, knees and ankles (lhumerus ... rtibia) outside, or that all
// are inside.
std::string format_fit_report(const Skeleton& skeleton, const SkeletonBind& bind, const FitReport& report);

}  // namespace mocap
