#include "skin_panel.h"

#include <mocap/io/amc.h>

#include <imgui.h>
#include <imgui_stdlib.h>

#include <chrono>
#include <sstream>

namespace mocap::viewer {

std::optional<std::string> load_skin(SkinState& state, const SkinForm& form, const Clip& clip) {
  state.loaded = false;
  const int unit = std::clamp(form.units, 0, static_cast<int>(std::size(kMeshUnits)) - 1);
  Result<Mesh> mesh = read_obj(form.obj, ObjReadOptions{kMeshUnits[unit]});
  if (!mesh) return mesh.error().to_string();
  std::vector<std::string> groups;
  std::istringstream words(form.groups);
  for (std::string g; words >> g;) groups.push_back(g);
  if (!groups.empty()) {
    Result<Mesh> kept = extract_groups(*mesh, groups);
    if (!kept) return form.obj + ": " + kept.error().message;
    mesh = std::move(kept);
  }
  const Skeleton& skeleton = clip.skeleton;
  Pose bind_pose = rest_pose(skeleton);
  if (!form.bind_pose.empty()) {
    Result<Motion> posed = read_amc(form.bind_pose, skeleton);
    if (!posed) return posed.error().to_string();
    if (posed->frame_count() == 0) return form.bind_pose + ": no frame: expected one frame posing the skeleton";
    pose_from_channels(skeleton, posed->frame(0), bind_pose);
  }
  state.mesh = std::move(*mesh);
  state.bind = bind_skeleton(skeleton, bind_pose, fit_placement(skeleton, bind_pose, state.mesh));
  if (form.weights.empty()) {
    state.weights = automatic_weights(state.mesh, state.bind.segments);
  } else {
    std::vector<std::string> names;
    for (const Bone& bone : skeleton.bones) names.push_back(bone.name);
    Result<std::vector<VertexWeights>> read = read_skin_weights(form.weights, names, state.mesh.vertex_count());
    if (!read) return read.error().to_string();
    state.weights = std::move(*read);
  }
  state.indices.clear();
  for (const MeshTriangle& t : state.mesh.triangles) {
    for (int v : t.vertex) state.indices.push_back(static_cast<std::uint32_t>(v));
  }
  const std::size_t bones = skeleton.bones.size(), n = state.mesh.positions.size();
  state.scratch = std::make_unique<SkinScratch>(skeleton);
  if (!state.threads) state.threads = std::make_unique<SkinThreads>();
  state.matrices.assign(bones, SkinMatrix::Zero());
  state.dual_quaternions.assign(bones, DualQuaternion{});
  state.positions.assign(n, Eigen::Vector3f::Zero());
  state.normals.assign(n, Eigen::Vector3f::UnitY());
  state.world_from_mesh = state.bind.placement.matrix().inverse().cast<float>();
  state.clip = &clip;
  state.skinned_frame = -1;
  state.loaded = true;
  return std::nullopt;
}

void update_skin(SkinState& state, const Clip& clip) {
  if (!state.loaded || state.clip != &clip) return;
  if (state.skinned_frame == clip.frame && state.skinned_dual_quaternion == state.dual_quaternion) return;
  const auto start = std::chrono::steady_clock::now();
  skinning_matrices(clip.skeleton, clip.pose, state.bind, *state.scratch, state.matrices);
  SkinJob job;
  job.method = state.dual_quaternion ? SkinMethod::kDualQuaternion : SkinMethod::kLinear;
  if (state.dual_quaternion) dual_quaternions_from(state.matrices, state.dual_quaternions);
  job.matrices = state.matrices;
  job.dual_quaternions = state.dual_quaternions;
  job.weights = state.weights;
  job.positions = state.mesh.positions;
  job.normals = state.mesh.normals;
  job.out_positions = state.positions;
  job.out_normals = state.normals;
  if (job.validate()) return;
  state.threads->run(job);
  state.skin_ms = 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  state.skinned_frame = clip.frame;
  state.skinned_dual_quaternion = state.dual_quaternion;
}

bool skin_panel(SkinForm& form, SkinState& state, SceneOptions& options) {
  ImGui::InputText("OBJ", &form.obj);
  ImGui::Combo("Units", &form.units, "m\0dm\0cm\0mm\0");
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
  ImGui::Checkbox("Dual quaternion", &state.dual_quaternion);
  ImGui::Text("%d vertices, %zu triangles, %d threads: %.2f ms", state.mesh.vertex_count(), state.indices.size() / 3,
              state.threads->thread_count(), state.skin_ms);
  return load;
}

}  // namespace mocap::viewer
