#include "keyframes_panel.h"

#include "compare.h"

#include <mocap/core/fk.h>

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace mocap::viewer {

void run_keyframes(KeyframeState& state, const PosedCapture& clip) {
  const Skeleton& skeleton = clip.capture.skeleton;
  const Motion& motion = clip.capture.motion;
  const int frames = motion.frame_count();
  const int bones = static_cast<int>(skeleton.bones.size());
  state.message.clear();
  if (state.clip != &clip || state.frames != frames) {
    state.original_positions.assign(static_cast<std::size_t>(frames) * bones, Eigen::Vector3d::Zero());
    state.original_rotations.assign(static_cast<std::size_t>(frames) * bones, Eigen::Quaterniond::Identity());
    world_transforms(skeleton, motion, state.original_positions, state.original_rotations);
    state.clip = &clip;
    state.frames = frames;
  }
  KeyCompressOptions options;
  options.uniform_baseline = false;
  switch (state.mode) {
    case KeyframeState::Mode::kCount:
      options.budget = KeyBudget::kCount;
      options.value = std::max(state.key_count, 1);
      break;
    case KeyframeState::Mode::kRatio:
      options.budget = KeyBudget::kRatio;
      options.value = state.ratio;
      break;
    case KeyframeState::Mode::kMaxError:
      options.budget = KeyBudget::kMaxJointError;
      options.value = state.max_error;
      break;
    case KeyframeState::Mode::kThreshold:
      options.budget = KeyBudget::kThreshold;
      options.value = state.threshold;
      break;
  }
  auto result = compress_keys(skeleton, motion, options, clip.capture.amc_path);
  if (!result) {
    state.message = result.error().to_string();
    state.keys.clear();
    state.error_per_frame.clear();
    state.rebuilt_positions.clear();
    return;
  }
  state.keys = std::move(result->keys);
  state.error = result->error;
  state.error_per_frame.assign(result->position_per_frame_cm.begin(), result->position_per_frame_cm.end());
  // For drawing: the rebuilt pose of every frame.
  state.rebuilt_positions.assign(static_cast<std::size_t>(frames) * bones, Eigen::Vector3d::Zero());
  state.rebuilt_rotations.assign(static_cast<std::size_t>(frames) * bones, Eigen::Quaterniond::Identity());
  world_transforms(skeleton, result->rebuilt, state.rebuilt_positions, state.rebuilt_rotations);
}

int keyframes_panel(KeyframeState& state, const PosedCapture* clip, const Playback& playback) {
  int jump = -1;
  if (!clip) {
    ImGui::TextDisabled("no clip loaded");
    return jump;
  }
  bool changed = ImGui::Checkbox("Compress", &state.enabled) && state.enabled;
  int mode = static_cast<int>(state.mode);
  changed |= ImGui::Combo("Keys by", &mode, "key count\0ratio\0max joint error\0threshold\0");
  state.mode = static_cast<KeyframeState::Mode>(mode);
  switch (state.mode) {
    case KeyframeState::Mode::kCount:
      changed |= ImGui::SliderInt("Keys", &state.key_count, 2, std::max(2, clip->capture.motion.frame_count()), "%d",
                                  ImGuiSliderFlags_Logarithmic);
      break;
    case KeyframeState::Mode::kRatio:
      changed |= ImGui::SliderFloat("Ratio", &state.ratio, 0.005f, 1.0f, "%.3f", ImGuiSliderFlags_Logarithmic);
      break;
    case KeyframeState::Mode::kMaxError:
      changed |=
          ImGui::SliderFloat("Max error", &state.max_error, 0.1f, 20.0f, "%.2f cm", ImGuiSliderFlags_Logarithmic);
      break;
    case KeyframeState::Mode::kThreshold:
      changed |= ImGui::SliderFloat("Threshold", &state.threshold, 0.001f, 1.0f, "%.4f", ImGuiSliderFlags_Logarithmic);
      break;
  }
  if (changed || (state.enabled && state.clip != clip)) run_keyframes(state, *clip);
  if (!state.enabled) return jump;
  if (!state.message.empty()) {
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.40f, 1.0f), "%s", state.message.c_str());
    return jump;
  }
  const int keys = static_cast<int>(state.keys.size());
  const ErrorStats& e = state.error.position;
  ImGui::Text("keys %d of %d frames (ratio %.1f : 1)", keys, state.frames,
              keys > 0 ? static_cast<double>(state.frames) / keys : 0.0);
  ImGui::Text("position error, cm: mean %.2f  p99 %.2f  (mean over joints)", e.mean, e.p99);
  // The honest max: the worst joint on the worst frame, named, its frame by
  // the AMC's own number as the CLI prints it.
  const ErrorStats& worst = state.error.joint;
  if (worst.worst_frame >= 0 && worst.worst_joint >= 0) {
    const int number = clip->capture.motion.frame_numbers[worst.worst_frame];
    ImGui::Text("worst joint %.2f cm: %s", worst.max, clip->capture.skeleton.bones[worst.worst_joint].name.c_str());
    ImGui::SameLine();
    char label[48];
    std::snprintf(label, sizeof label, "frame %d##jump", number);
    if (ImGui::SmallButton(label)) jump = worst.worst_frame;
    const ErrorStats& shell = state.error.shell;
    ImGui::Text("worst shell point %.2f cm: %s at frame %d", shell.max,
                clip->capture.skeleton.bones[shell.worst_joint].name.c_str(),
                clip->capture.motion.frame_numbers[shell.worst_frame]);
  }
  ImGui::Checkbox("Ghost", &state.show_ghost);
  ImGui::SameLine();
  ImGui::Checkbox("Colour joints by error", &state.color_by_error);
  if (state.color_by_error) ImGui::SliderFloat("Red at", &state.color_max_cm, 0.5f, 30.0f, "%.1f cm per joint");
  // Both statistics of the frame: the joints are coloured per joint, the
  // graph is the mean over joints.
  const int frame = playback.frame();
  if (frame < static_cast<int>(state.error_per_frame.size())) {
    double worst = 0.0;
    const std::size_t bones = clip->capture.skeleton.bones.size();
    for (std::size_t j = 0; j < bones && state.rebuilt_positions.size() >= static_cast<std::size_t>(frame + 1) * bones;
         ++j) {
      const std::size_t i = frame * bones + j;
      worst = std::max(worst, 100.0 * (state.rebuilt_positions[i] - state.original_positions[i]).norm());
    }
    ImGui::Text("this frame: mean over joints %.2f cm, worst joint %.2f cm", state.error_per_frame[frame], worst);
  }
  return jump;
}

std::span<const Eigen::Vector3d> ghost_positions(const KeyframeState& state, int frame) {
  if (!state.enabled || !state.show_ghost || !state.clip || frame < 0 || frame >= state.frames ||
      state.rebuilt_positions.empty()) {
    return {};
  }
  const std::size_t bones = state.clip->capture.skeleton.bones.size();
  return {state.rebuilt_positions.data() + frame * bones, bones};
}

std::span<const colors::Rgb> error_colors(KeyframeState& state, int frame) {
  if (!state.enabled || !state.color_by_error || !state.clip || frame < 0 || frame >= state.frames ||
      state.rebuilt_positions.empty()) {
    return {};
  }
  const std::size_t bones = state.clip->capture.skeleton.bones.size();
  state.joint_colors.resize(bones);
  for (std::size_t j = 0; j < bones; ++j) {
    const std::size_t i = frame * bones + j;
    const double cm = 100.0 * (state.rebuilt_positions[i] - state.original_positions[i]).norm();
    state.joint_colors[j] = error_scale(static_cast<float>(cm) / state.color_max_cm);
  }
  return state.joint_colors;
}

TimelineMarks timeline_marks(const KeyframeState& state) {
  if (!state.enabled || state.error_per_frame.empty()) return {};
  const float top = *std::max_element(state.error_per_frame.begin(), state.error_per_frame.end());
  TimelineMarks marks;
  marks.keys = state.keys;
  marks.error = state.error_per_frame;
  marks.error_max = std::max(top, 0.01f);
  marks.statistic = "mean over joints";
  return marks;
}

}  // namespace mocap::viewer
