#include "eyes_panel.h"

#include <imgui.h>

#include <algorithm>

namespace mocap::viewer {
namespace {

constexpr double kHalfEyeDistance_m = 0.032;
// Gaze lines end 40 cm out: far enough to read the direction, short enough to
// stay on screen when the camera frames the figure.
constexpr double kGazeLength_m = 0.4;

// One eye, as seen facing the character: gaze x toward the character's right
// is to the viewer's left.
void draw_eye(ImDrawList* draw, ImVec2 centre, float radius, const EyeSample& eye, double brow) {
  const ImU32 skin = IM_COL32(214, 170, 140, 255);
  const ImU32 lid_line = IM_COL32(120, 80, 60, 255);
  draw->AddRectFilled(ImVec2(centre.x - radius - 6, centre.y - radius - 22),
                      ImVec2(centre.x + radius + 6, centre.y + radius + 6), skin, 6.0f);
  draw->AddCircleFilled(centre, radius, IM_COL32(245, 245, 240, 255), 40);
  const float iris_r = 0.48f * radius;
  const ImVec2 iris(centre.x - static_cast<float>(eye.x) * (radius - iris_r),
                    centre.y - static_cast<float>(eye.y) * (radius - iris_r));
  draw->AddCircleFilled(iris, iris_r, IM_COL32(70, 120, 160, 255), 32);
  draw->AddCircleFilled(iris, iris_r * static_cast<float>(0.25 + 0.6 * eye.pupil), IM_COL32(15, 15, 18, 255), 24);
  draw->AddCircle(centre, radius, lid_line, 40, 1.5f);
  // Lids close from above (most of the way) and below toward a line a little
  // under the centre.
  const float closed = 1.0f - static_cast<float>(std::clamp(eye.openness, 0.0, 1.0));
  const float meet = centre.y + 0.2f * radius;
  const float top = centre.y - radius - 1.0f, bottom = centre.y + radius + 1.0f;
  const float upper = top + closed * (meet - top), lower = bottom - closed * (bottom - meet);
  draw->AddRectFilled(ImVec2(centre.x - radius - 1, top), ImVec2(centre.x + radius + 1, upper), skin);
  draw->AddRectFilled(ImVec2(centre.x - radius - 1, lower), ImVec2(centre.x + radius + 1, bottom), skin);
  if (closed > 0.02f) {
    draw->AddLine(ImVec2(centre.x - radius, upper), ImVec2(centre.x + radius, upper), lid_line, 2.0f);
  }
  // The brow: raised up to 8 px, lowered down to 6 px.
  const float brow_y = centre.y - radius - 12.0f - static_cast<float>(brow) * (brow > 0 ? 8.0f : 6.0f);
  draw->AddLine(ImVec2(centre.x - radius, brow_y + 3), ImVec2(centre.x + radius, brow_y), IM_COL32(80, 55, 40, 255),
                4.0f);
}

}  // namespace

void update_eyes(EyesState& state, const Clip& clip) {
  if (!state.dirty && state.clip == &clip) return;
  if (state.clip != &clip) {
    state.head.reset();
    state.message.clear();
    Result<HeadTrack> head = head_track(clip.skeleton, clip.motion);
    if (head) {
      state.head = std::move(*head);
    } else {
      state.message = head.error().to_string();
    }
    state.clip = &clip;
  }
  EyeTimelineOptions options;
  options.params = state.params;
  options.seed = static_cast<std::uint64_t>(state.seed);
  options.head = state.use_head && state.head ? &*state.head : nullptr;
  EyeTimeline timeline(options);
  state.track = eye_track(timeline, clip.motion.fps, clip.motion.duration_seconds());
  state.dirty = false;
}

void eyes_panel(EyesState& state, const Clip* clip) {
  if (!clip) {
    ImGui::TextDisabled("no clip loaded");
    return;
  }
  bool changed = ImGui::Checkbox("Generate eyes", &state.enabled);
  if (!state.enabled) return;
  EyeParams& p = state.params;
  int model = static_cast<int>(p.model);
  if (ImGui::Combo("Model", &model, "design\0physiological\0")) p.model = static_cast<EyeModel>(model), changed = true;
  int mode = static_cast<int>(p.mode);
  if (ImGui::Combo("Mode", &mode, "free\0listening\0speaking\0thinking\0")) {
    p.mode = static_cast<ConversationMode>(mode), changed = true;
  }
  auto slider = [&](const char* label, double& value, float lo, float hi, bool log = false) {
    float v = static_cast<float>(value);
    if (ImGui::SliderFloat(label, &v, lo, hi, "%.2f", log ? ImGuiSliderFlags_Logarithmic : 0)) {
      value = v, changed = true;
    }
  };
  ImGui::TextDisabled("emotion");
  slider("Pleasure", p.emotion.pleasure, -1.0f, 1.0f);
  slider("Arousal", p.emotion.arousal, -1.0f, 1.0f);
  slider("Dominance", p.emotion.dominance, -1.0f, 1.0f);
  ImGui::TextDisabled("factors");
  slider("Gaze scale", p.factors.gaze_scale, 0.1f, 10.0f, true);
  slider("Move speed", p.factors.move_speed, 0.1f, 10.0f, true);
  slider("Blink freq", p.factors.blink_freq, 0.1f, 10.0f, true);
  slider("Blink speed", p.factors.blink_speed, 0.1f, 10.0f, true);
  slider("Light", p.ambient_light, 0.0f, 1.0f);
  changed |= ImGui::InputInt("Seed", &state.seed);
  changed |= ImGui::Checkbox("Head drives the eyes", &state.use_head);
  ImGui::SameLine();
  ImGui::Checkbox("Gaze lines", &state.show_gaze);
  if (changed) state.dirty = true;
  update_eyes(state, *clip);
  if (!state.message.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.40f, 1.0f), "%s", state.message.c_str());
}

void eyes_window(const EyesState& state, int frame) {
  if (!state.enabled || state.track.empty()) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 250.0f, 10.0f), ImGuiCond_FirstUseEver);
  ImGui::Begin("Eyes", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoFocusOnAppearing);
  const EyeFrame& f = state.track[std::clamp(frame, 0, static_cast<int>(state.track.size()) - 1)];
  // Facing the character: its right eye on the viewer's left.
  const float radius = 34.0f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw_eye(draw, ImVec2(origin.x + 55.0f, origin.y + 64.0f), radius, f.right, f.brow);
  draw_eye(draw, ImVec2(origin.x + 165.0f, origin.y + 64.0f), radius, f.left, f.brow);
  ImGui::Dummy(ImVec2(220.0f, 108.0f));
  ImGui::Text("gaze %+.2f %+.2f  open %.2f", f.left.x, f.left.y, f.left.openness);
  ImGui::Text("pupil %.2f  brow %+.2f  t %.3f s", f.left.pupil, f.brow, f.time_s);
  ImGui::End();
}

std::vector<Eigen::Vector3d> gaze_segments(const EyesState& state, int frame) {
  std::vector<Eigen::Vector3d> out;
  if (!state.enabled || !state.show_gaze || !state.head || state.track.empty()) return out;
  const HeadTrack& head = *state.head;
  if (frame < 0 || frame >= head.frame_count() || frame >= static_cast<int>(state.track.size())) return out;
  const Eigen::Quaterniond& rotation = head.rotation[frame];
  const Eigen::Vector3d& middle = head.eye_position[frame];
  // The character's left is +X in an Acclaim rest pose (eye_body.h).
  const Eigen::Vector3d left = rotation * Eigen::Vector3d::UnitX();
  const EyeFrame& f = state.track[frame];
  const double range = clamped(state.params).range_rad;
  for (const auto& [eye, side] : {std::pair{f.left, 1.0}, std::pair{f.right, -1.0}}) {
    const Eigen::Vector3d from = middle + side * kHalfEyeDistance_m * left;
    out.push_back(from);
    out.push_back(from + kGazeLength_m * gaze_direction(head, rotation, Eigen::Vector2d(eye.x, eye.y), range));
  }
  return out;
}

}  // namespace mocap::viewer
