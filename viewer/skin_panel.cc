#include "skin_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <sstream>

namespace mocap::viewer {

namespace {

// This frame's edges past stretch_ratio and their ends in the world.
void find_stretched_edges(SkinState& state) {
  state.stretched_ratio = state.stretch_ratio;
  state.stretched.clear();
  state.stretched_ends.clear();
  if (!(state.stretch_ratio > 0.0)) return;
  const std::span<const Eigen::Vector3f> posed = state.skinner->positions();
  edges_past(state.stretch, posed, state.stretch_ratio, state.stretched);
  for (const int e : state.stretched) {
    for (const int v : state.stretch.edges[static_cast<std::size_t>(e)]) {
      state.stretched_ends.push_back((state.world_from_mesh * posed[static_cast<std::size_t>(v)]).cast<double>());
    }
  }
}

}  // namespace

std::optional<std::string> load_skin(SkinState& state, const SkinForm& form, const PosedCapture& clip) {
  state.loaded = false;
  MeshBindOptions options;
  options.mesh_path = form.obj;
  options.units = kMeshUnits[std::clamp<std::size_t>(form.units, 0, kMeshUnits.size() - 1)].name;
  std::istringstream words(form.groups);
  for (std::string g; words >> g;) options.groups.push_back(g);
  options.bind_pose_amc = form.bind_pose;
  options.bind_pose_fps = clip.capture.motion.fps;
  options.weights_path = form.weights;
  Result<BoundMesh> bound = bind_mesh(clip.capture.skeleton, options);
  if (!bound) return bound.error().to_string();
  state.skinner.reset();
  state.bound = std::make_unique<BoundMesh>(std::move(*bound));
  const SkinMethod method = state.dual_quaternion ? SkinMethod::kDualQuaternion : SkinMethod::kLinear;
  Result<Skinner> skinner =
      Skinner::create(state.bound->mesh, state.bound->weights, clip.capture.skeleton.bones.size(), method);
  if (!skinner) return form.weights + ": " + skinner.error().message;
  state.skinner.emplace(std::move(*skinner));
  state.indices.clear();
  for (const MeshTriangle& t : state.bound->mesh.triangles) {
    for (int v : t.vertex) state.indices.push_back(static_cast<std::uint32_t>(v));
  }
  state.world_from_mesh = state.bound->bind.placement.matrix().inverse().cast<float>();
  const std::size_t bones = state.bound->bind.bone_scale.empty() ? 0 : clip.capture.skeleton.bones.size();
  state.fitted_positions.assign(bones, Eigen::Vector3d::Zero());
  state.fitted_rotations.assign(bones, Eigen::Quaterniond::Identity());
  state.fitted_frames.assign(bones, Eigen::Affine3d::Identity());
  state.stretch = make_edge_stretch(state.bound->mesh);
  state.stretch_measured.assign(static_cast<std::size_t>(clip.capture.motion.frame_count()), false);
  state.stretched_ratio = -1.0;
  state.clip = &clip;
  state.skinned_frame = -1;
  state.loaded = true;
  return std::nullopt;
}

void update_skin(SkinState& state, const PosedCapture& clip) {
  if (!state.loaded || state.clip != &clip || clip.frame < 0) return;
  const SkinMethod method = state.dual_quaternion ? SkinMethod::kDualQuaternion : SkinMethod::kLinear;
  if (state.skinned_frame == clip.frame && state.skinner->method() == method) {
    if (state.stretched_ratio != state.stretch_ratio) find_stretched_edges(state);
    return;
  }
  if (state.skinner->method() != method) {  // another method's stretch is another measure
    state.stretch = make_edge_stretch(state.bound->mesh);
    state.stretch_measured.assign(state.stretch_measured.size(), false);
  }
  state.skinner->set_method(method);
  state.bound_pose = clip.pose;  // same sizes after the first frame: no allocation
  pose_for_bind(clip.capture.skeleton, state.bound->bind, state.bound_pose);
  state.skinner->skin(clip.capture.skeleton, state.bound_pose, state.bound->bind);
  if (!state.fitted_positions.empty()) {
    bone_frames(clip.capture.skeleton, state.bound_pose, state.bound->bind.placement, state.fitted_positions,
                state.fitted_rotations, state.fitted_frames, state.bound->bind.bone_scale);
  }
  state.skinned_frame = clip.frame;
  const auto frame = static_cast<std::size_t>(clip.frame);
  if (frame < state.stretch_measured.size() && !state.stretch_measured[frame]) {
    state.stretch_measured[frame] = true;
    add_stretch_frame(state.stretch, clip.capture.motion.frame_numbers[frame], state.skinner->positions());
  }
  find_stretched_edges(state);
}

std::span<const Eigen::Vector3d> drawn_positions(const SkinState* state, const PosedCapture& clip) {
  if (state && state->loaded && state->clip == &clip && !state->fitted_positions.empty() &&
      state->skinned_frame == clip.frame) {
    return state->fitted_positions;
  }
  return clip.positions;
}

bool skin_panel(SkinForm& form, SkinState& state, SceneOptions& options) {
  ImGui::InputText("OBJ", &form.obj);
  auto unit_name = [](void*, int i, const char** out) {
    *out = kMeshUnits[static_cast<std::size_t>(i)].name.data();
    return true;
  };
  ImGui::Combo("Units", &form.units, unit_name, nullptr, static_cast<int>(kMeshUnits.size()));
  ImGui::InputText("Groups", &form.groups);
  ImGui::InputText("Weights", &form.weights);
  ImGui::InputText("Bind AMC", &form.bind_pose);
  if (ImGui::SmallButton("MakeHuman A-pose")) form.bind_pose = bundled_data_dir() + "/makehuman_apose.amc";
  ImGui::TextDisabled("no weights file: automatic weights");
  const bool load = ImGui::Button("Load mesh");
  if (!state.loaded) return load;
  ImGui::SameLine();
  ImGui::Checkbox("Skin", &options.show_mesh);
  ImGui::SameLine();
  bool skeleton = options.show_skeleton || options.show_joints;
  if (ImGui::Checkbox("Skeleton##skin", &skeleton)) options.show_skeleton = options.show_joints = skeleton;
  ImGui::SameLine();
  ImGui::Checkbox("X-ray", &options.xray);
  ImGui::Checkbox("Dual quaternion", &state.dual_quaternion);
  ImGui::Text("%d vertices, %zu triangles, %d threads: %.2f ms", state.bound->mesh.vertex_count(),
              state.indices.size() / 3, state.skinner->thread_count(), 1e3 * state.skinner->last_seconds());
  bool stretched = state.stretch_ratio > 0.0;
  if (ImGui::Checkbox("Stretched edges", &stretched)) state.stretch_ratio = stretched ? 3.0 : 0.0;
  if (stretched) {
    ImGui::SameLine();
    float ratio = static_cast<float>(state.stretch_ratio);
    ImGui::SetNextItemWidth(120.0f);
    if (ImGui::SliderFloat("##stretch", &ratio, 1.5f, 6.0f, "past %.1fx")) state.stretch_ratio = ratio;
    ImGui::Text("%zu edges past %.1fx this frame", state.stretched.size(), state.stretch_ratio);
  }
  // The frames shown so far: the longest edge named.
  ImGui::TextWrapped(
      "%s", format_edge_stretch(state.stretch, state.bound->mesh, state.bound->weights, state.clip->capture.bone_names)
                .c_str());
  return load;
}

}  // namespace mocap::viewer
