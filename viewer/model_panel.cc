#include "model_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace mocap::viewer {

std::optional<std::string> load_model(ModelState& state, const ModelForm& form, const PosedCapture& clip) {
  state.loaded = false;
  state.skinner.reset();
  RetargetOptions options;
  options.map_path = form.map;
  // The animation's name as mocap retarget gives it: the motion file's stem.
  const std::string motion = clip.capture.amc_path.empty() ? clip.capture.asf_path : clip.capture.amc_path;
  auto result = retarget_model_file(clip.capture.skeleton, clip.capture.motion, clip.capture.asf_path, form.path,
                                    std::filesystem::path(motion).stem().string(), options);
  if (!result) return result.error().to_string();
  state.retarget = std::make_unique<RetargetFileResult>(std::move(*result));
  const RiggedModel& model = state.retarget->model;
  const RetargetRig& rig = state.retarget->rig;
  Result<Skinner> skinner = Skinner::create(model.mesh, model.weights, model.joints.size());
  if (!skinner) return form.path + ": " + skinner.error().message;
  state.skinner.emplace(std::move(*skinner));
  state.indices.clear();
  for (const MeshTriangle& t : model.mesh.triangles) {
    for (int v : t.vertex) state.indices.push_back(static_cast<std::uint32_t>(v));
  }
  // Nodes the clip does not key keep their bind transform (as the job leaves them).
  state.pose.translation = rig.bind_translation;
  state.pose.rotation = rig.bind_rotation;
  state.pose.scale = rig.bind_scale;
  state.world.assign(model.nodes.size(), Eigen::Affine3d::Identity());
  state.mapped_roles = 0;
  for (const RoleMatch& m : rig.target_map.roles) state.mapped_roles += m.joint >= 0;
  state.name = std::filesystem::path(form.path).filename().string();
  state.clip = &clip;
  state.posed_frame = -1;
  state.loaded = true;
  return std::nullopt;
}

void place_model(ModelState& state, const CompareState& compare, const PosedCapture& clip) {
  if (!state.loaded) return;
  const RetargetRig& rig = state.retarget->rig;
  // Over the ground the rig's hips = s * A * root + root_offset, undone;
  // along the model's up its floor (where retarget_clip puts the soles
  // during contacts) onto the viewer's ground. Then the step aside to the
  // place after the compared motions.
  const Eigen::Vector3d aside = beside_offset(compare, clip, static_cast<int>(compare.motions.size()) + 1);
  const Eigen::Vector3d across_ground = rig.root_offset - rig.root_offset.dot(rig.up) * rig.up;
  const Eigen::Affine3d placed = Eigen::Translation3d(aside) * Eigen::Scaling(1.0 / rig.scale) * rig.align.conjugate() *
                                 Eigen::Translation3d(-across_ground - rig.floor * rig.up);
  const Eigen::Affine3f world_from_model = placed.cast<float>();
  if (world_from_model.matrix() == state.world_from_model.matrix()) return;
  state.world_from_model = world_from_model;
  state.posed_frame = -1;  // the hips' position moves with it
}

void update_model(ModelState& state, const PosedCapture& clip) {
  if (!state.loaded || state.clip != &clip || clip.frame < 0) return;
  if (state.posed_frame == clip.frame) return;
  const RetargetedClip& retargeted = state.retarget->clip;
  retargeted_pose(retargeted, std::clamp(clip.frame, 0, retargeted.frame_count - 1), state.pose);
  model_skinning_matrices(state.retarget->model, state.pose, state.world, state.skinner->matrices());
  state.skinner->run();
  const int hips = state.retarget->rig.hips_node;
  if (hips >= 0) {
    state.hips = (state.world_from_model.cast<double>() * state.world[static_cast<std::size_t>(hips)].translation());
  }
  state.posed_frame = clip.frame;
}

void model_points(const ModelState& state, std::vector<Eigen::Vector3d>& points) {
  if (!state.loaded || !state.visible || state.posed_frame < 0) return;
  const auto vertices = state.skinner->positions();
  const std::size_t stride = std::max<std::size_t>(1, vertices.size() / 4096);
  for (std::size_t v = 0; v < vertices.size(); v += stride) {
    points.push_back((state.world_from_model * vertices[v]).cast<double>());
  }
}

std::string model_summary(const ModelState& state) {
  if (!state.loaded) return "";
  const RetargetRig& rig = state.retarget->rig;
  char line[256];
  std::snprintf(line, sizeof line, "%s: %d joints, %zu driven, %d of %d humanoid roles mapped, scale %.3g",
                state.name.c_str(), state.retarget->model.joint_count(), rig.driven.size(), state.mapped_roles,
                kRoleCount, rig.scale);
  return line;
}

bool model_panel(ModelForm& form, ModelState& state) {
  ImGui::InputText("Model", &form.path);
  ImGui::InputText("Map", &form.map);
  ImGui::TextDisabled("a rigged .glb, .gltf, .dae or .fbx; no map: by names and topology");
  const bool load = ImGui::Button("Retarget");
  if (!state.loaded) return load;
  ImGui::SameLine();
  ImGui::Checkbox("Show##model", &state.visible);
  ImGui::TextWrapped("%s", model_summary(state).c_str());
  const RetargetedClip& clip = state.retarget->clip;
  ImGui::Text("%d frames, %zu + %zu foot contacts, %d vertices: %.2f ms", clip.frame_count,
              clip.contacts[0].contacts.size(), clip.contacts[1].contacts.size(),
              state.retarget->model.mesh.vertex_count(), 1e3 * state.skinner->last_seconds());
  return load;
}

}  // namespace mocap::viewer
