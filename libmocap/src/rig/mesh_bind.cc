#include <mocap/core/parse_name.h>
#include <mocap/io/amc.h>
#include <mocap/rig/auto_weights.h>
#include <mocap/rig/embed.h>
#include <mocap/rig/heat_weights.h>
#include <mocap/rig/mesh_bind.h>
#include <mocap/rig/mesh_orientation.h>
#include <mocap/rig/voxel_weights.h>

#include <cstdio>

namespace mocap {

Result<void> MeshBindOptions::validate() const {
  if (mesh_path.empty()) return fail("", 0, "no mesh: expected an OBJ path");
  if (auto unit = metres_per_mesh_unit(units); !unit) return std::unexpected(unit.error());
  if (scale && !(*scale > 0.0)) return fail("", 0, "placement scale " + std::to_string(*scale) + ": expected > 0");
  if (!(bind_pose_fps > 0.0)) return fail("", 0, "bind-pose rate: expected > 0 frames per second");
  std::optional<SignedAxis> axes[2];
  for (int i = 0; i < 2; ++i) {
    const std::string& text = i == 0 ? up : forward;
    if (text.empty()) continue;
    auto axis = parse_signed_axis(text);
    if (!axis) return fail("", 0, std::string(i == 0 ? "--up: " : "--forward: ") + axis.error().message);
    axes[i] = *axis;
  }
  if (axes[0] && axes[1] && axes[0]->axis == axes[1]->axis) {
    return fail("", 0, "--up " + up + " and --forward " + forward + ": expected two different axes");
  }
  return {};
}

Result<BoundMesh> bind_mesh(const Skeleton& skeleton, const MeshBindOptions& options) {
  if (auto valid = options.validate(); !valid) return std::unexpected(valid.error());
  BoundMesh out;
  Result<Mesh> mesh = read_obj(options.mesh_path, ObjReadOptions{*metres_per_mesh_unit(options.units)});
  if (!mesh) return std::unexpected(mesh.error());
  if (!options.groups.empty()) {
    Result<Mesh> kept = extract_groups(*mesh, options.groups);
    if (!kept) return fail(options.mesh_path, 0, kept.error().message);
    mesh = std::move(kept);
  }
  out.mesh = std::move(*mesh);
  // A size no person has points at a wrong unit (a MakeHuman body read in
  // metres is 17 m tall); the bind goes on, as the unit may be right.
  if (const double size = out.mesh.size(); size > 0.0 && (size < 0.3 || size > 3.0)) {
    char note[160];
    std::snprintf(note, sizeof note, "the mesh is %.3g m tall in units %s, a person is 0.3-3 m: check its units", size,
                  options.units.c_str());
    out.units_note = note;
  }

  out.bind_pose = rest_pose(skeleton);
  if (!options.bind_pose_amc.empty()) {
    const Result<Motion> posed = read_amc(options.bind_pose_amc, skeleton, options.bind_pose_fps);
    if (!posed) return std::unexpected(posed.error());
    if (posed->frame_count() == 0) {
      return fail(options.bind_pose_amc, 0, "no frame: expected one frame posing the skeleton");
    }
    pose_from_channels(skeleton, posed->frame(0), out.bind_pose);
  }

  std::optional<SignedAxis> up, forward;
  if (!options.up.empty()) up = *parse_signed_axis(options.up);
  if (!options.forward.empty()) forward = *parse_signed_axis(options.forward);
  const Result<MeshOrientation> orientation = find_mesh_orientation(out.mesh, up, forward, options.mesh_path);
  if (!orientation) return std::unexpected(orientation.error());
  out.orientation = orientation->how;
  const Eigen::Matrix3d axes = orientation->axes();
  Placement placement =
      fit_placement(skeleton, out.bind_pose,
                    orientation->identity() ? out.mesh : turned_mesh(out.mesh, axes.transpose()), options.yaw_radians);
  placement.axes = axes;
  if (options.scale || options.translation) {
    // Explicit placement: what is given replaces the fit's scale and translation.
    placement.scale = options.scale.value_or(1.0);
    placement.translation = options.translation.value_or(Eigen::Vector3d::Zero());
  }
  // Embedding and automatic weights walk the surface: on a mesh split at UV
  // seams they would see pieces (cross-sections that never close, heat that
  // stops at a seam, and a skin that tears there), so they run on the welded
  // surface and every copy of a vertex takes its weights.
  const WeldedMesh surface = weld_by_position(out.mesh);
  std::vector<double> bone_scale;
  std::vector<RestRelativeBone> rest_relative;
  HeatWeightOptions heat;
  VoxelWeightOptions voxel;
  if (options.fit == BindFit::kEmbed && !options.scale && !options.translation) {
    Embedding embedded = embed_skeleton(skeleton, out.bind_pose, placement, surface.mesh);
    if (!embedded.limb_error.empty()) {
      return fail(options.mesh_path, 0,
                  embedded.limb_error +
                      " (expected arms and legs the embedding can follow; --fit height places "
                      "the skeleton by the mesh's height alone)");
    }
    out.bind_pose = std::move(embedded.bind_pose);
    bone_scale = std::move(embedded.bone_scale);
    out.fit_note = std::move(embedded.note);
    heat.rigid_parts = std::move(embedded.rigid_parts);
    voxel.girdles = std::move(embedded.girdles);
    voxel.thick_bones = std::move(embedded.thick_bones);
    rest_relative = std::move(embedded.rest_relative);
  }
  out.bind = bind_skeleton(skeleton, out.bind_pose, placement, bone_scale);
  out.bind.rest_relative = std::move(rest_relative);

  if (options.weights_path.empty()) {
    std::vector<VertexWeights> welded;
    if (options.weight_method == WeightMethod::kVoxel) {
      voxel.rigid_parts = heat.rigid_parts;
      voxel.fixed_joints = joints_without_rotation(skeleton);
      Result<VoxelBinding> bound = voxel_weights(surface.mesh, out.bind.segments, voxel);
      if (!bound) return fail(options.mesh_path, 0, bound.error().message);
      welded = std::move(bound->weights);
      if (!bound->untouched_bones.empty()) {
        out.weights_note = "voxel weights: bones outside the mesh's solid, given no weight:";
        for (const int b : bound->untouched_bones) out.weights_note += " " + skeleton.bones[b].name;
      }
    } else {
      welded = options.weight_method == WeightMethod::kHeat ? heat_weights(surface.mesh, out.bind.segments, heat)
                                                            : automatic_weights(surface.mesh, out.bind.segments);
    }
    out.weights.reserve(surface.index.size());
    for (const int v : surface.index) out.weights.push_back(welded[static_cast<std::size_t>(v)]);
    out.automatic_weights = true;
  } else {
    std::vector<std::string> names;
    names.reserve(skeleton.bones.size());
    for (const Bone& bone : skeleton.bones) names.push_back(bone.name);
    Result<std::vector<VertexWeights>> read = read_skin_weights(options.weights_path, names, out.mesh.vertex_count());
    if (!read) return std::unexpected(read.error());
    out.weights = std::move(*read);
  }
  return out;
}

Result<BindFit> parse_bind_fit(std::string_view name) {
  return parse_name<BindFit>(name, {{"embed", BindFit::kEmbed}, {"height", BindFit::kHeight}});
}

Result<WeightMethod> parse_weight_method(std::string_view name) {
  return parse_name<WeightMethod>(
      name, {{"voxel", WeightMethod::kVoxel}, {"heat", WeightMethod::kHeat}, {"distance", WeightMethod::kDistance}});
}

}  // namespace mocap
