// bind_mesh: everything skinning a mesh with a skeleton needs, from files,
// in one call. The method, in order:
//  1. read the OBJ (io/mesh.h) in `units` and keep only `groups`, if any;
//  2. the bind pose: the skeleton's rest pose, or the first frame of the
//     `bind_pose_amc` AMC (the skeleton posed as the mesh stands);
//  3. the mesh's up axis and facing (rig/mesh_orientation.h: found from its
//     shape, or `up` / `forward`); the placement: fit_placement on the mesh
//     turned into the library's frame, after a yaw of `yaw_radians` (bind.h),
//     or, when `scale` or `translation` is given, those (yaw kept; a missing
//     one is 1 or zero; metres in the library's frame); the placement's
//     `axes` carry the turn, so that everything bound stays in the mesh's
//     own frame and outputs come out as the file stands;
//  4. with `fit` kEmbed and no explicit placement, the skeleton embedded in
//     the mesh from there (embed.h): the bind pose's limbs turned along the
//     mesh's and each bone's length fitted (SkeletonBind::bone_scale); a
//     limb the embedding does not find is an error naming it;
//  5. bind_skeleton with that pose, placement and bone factors;
//  6. the weights: read from `weights_path` (io/skin_weights.h, bones by
//     name), or automatic from the bound bone segments: geodesic voxel
//     binding (voxel_weights.h, the default: any mesh, of many parts,
//     shells, holes; with the embedding's rigid parts, so the face goes with
//     the head), bone heat (heat_weights.h, with the same rigid parts) or
//     distance (auto_weights.h). Voxel weights agree best with MakeHuman's
//     artists (tests/rig/test_makehuman_reference.cc: 0.828 of vertices on
//     the same bone against heat's 0.747) and keep touching parts together
//     (tests/rig/test_voxel_weights.cc). Cost (bench_bind, Release, one
//     core): the 13k-vertex humanoid embedded and bound in 0.77 s with
//     voxel weights; on the same body subdivided to 53k vertices the
//     weights alone take 0.88 s (voxel, the creases relaxed) and 0.73 s
//     (heat) in the same run.
// Steps 4 and 6 run on the surface welded by position (weld_by_position in
// io/mesh.h), so a mesh split at UV seams is fitted as one surface and the
// copies of a vertex get the same weights.
// The result feeds a Skinner (skin/skinner.h) or a glTF export (gltf.h).
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/fk.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/mesh.h>
#include <mocap/io/skin_weights.h>
#include <mocap/skin/bind.h>

#include <Eigen/Core>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mocap {

// How the skeleton is fitted to the mesh (step 4).
enum class BindFit {
  kHeight,  // one scale from the mesh's height (fit_placement) only
  kEmbed,   // then the limbs embedded in the mesh (embed.h)
};
// Which automatic weights (step 6).
enum class WeightMethod {
  kHeat,      // bone heat with visibility (heat_weights.h)
  kDistance,  // distance to bones, smoothed (auto_weights.h)
  kVoxel,     // geodesic distance inside the mesh's voxel solid (voxel_weights.h); the default
};

// The names `mocap skin --fit/--weight-method` and the Python module take:
// "height" or "embed"; "heat", "distance" or "voxel". Fail (no file) on
// any other name, the message listing the names.
Result<BindFit> parse_bind_fit(std::string_view name);
Result<WeightMethod> parse_weight_method(std::string_view name);

struct MeshBindOptions {
  std::string mesh_path;                       // OBJ, any up axis and facing (step 3)
  std::string units = "m";                     // the OBJ's unit, a name of kMeshUnits (io/mesh.h)
  std::vector<std::string> groups;             // OBJ groups to keep; empty: all
  std::string bind_pose_amc;                   // AMC whose first frame is the bind pose; empty: the rest pose
  double bind_pose_fps = 120.0;                // its rate (> 0; only its first frame is used)
  std::string up;                              // the mesh's up axis, "+x" ... "-z" (mesh_orientation.h); empty: found
  std::string forward;                         // the way the mesh faces, likewise; empty: found
  double yaw_radians = 0.0;                    // the skeleton turned about +Y before placing, radians
  std::optional<double> scale;                 // explicit placement: skeleton scale, > 0
  std::optional<Eigen::Vector3d> translation;  // explicit placement: metres
  std::string weights_path;                    // skin-weights file; empty: automatic weights
  BindFit fit = BindFit::kEmbed;               // ignored with an explicit placement
  WeightMethod weight_method = WeightMethod::kVoxel;

  // Fails (no file) when `units` is not a kMeshUnits name, `scale` is not
  // > 0, `bind_pose_fps` not > 0, `mesh_path` is empty, or `up` / `forward`
  // is not an axis (parse_signed_axis) or both name the same axis.
  Result<void> validate() const;
};

struct BoundMesh {
  Mesh mesh;                           // in metres, only the kept groups
  Pose bind_pose;                      // the skeleton as the mesh stands
  SkeletonBind bind;                   // placement, bone factors, inverse bind matrices, bone segments
  std::string orientation;             // step 3's one line: "up +z, facing -y (found: ...)"
  std::string units_note;              // the mesh's size in `units` is no person's (0.3-3 m); empty when it is
  std::string fit_note;                // embedding: what was not fitted and why; empty when all was
  std::string weights_note;            // automatic weights: bones given no weight and why; empty when none
  std::vector<VertexWeights> weights;  // one per vertex of `mesh`
  bool automatic_weights = false;      // computed, not read
};

// Steps 1-6 above. Validates `options` first; then every error names its
// file (and line where the parser gives one): the OBJ, a group it lacks, the
// bind-pose AMC (or that it has no frame), the weights file, a limb the
// embedding did not find (the mesh's file, each limb named); voxel weights
// fail naming the OBJ when no bone meets the mesh's solid.
Result<BoundMesh> bind_mesh(const Skeleton& skeleton, const MeshBindOptions& options);

}  // namespace mocap
