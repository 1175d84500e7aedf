#include "eyes_panel.h"

#include <epoxy/gl.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace mocap::viewer {

void eyes_panel(EyesState& state, const PosedCapture* clip) {
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

void eyes_window(EyesState& state, int frame) {
  if (!state.enabled || state.track.empty()) return;
  const ImGuiIO& io = ImGui::GetIO();
  const EyePairSize size = eye_pair_size(state.display);
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - static_cast<float>(size.width) - 30.0f, 10.0f),
                          ImGuiCond_FirstUseEver);
  ImGui::Begin("Eyes", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoFocusOnAppearing);
  const EyeFrame& f = state.track[std::clamp(frame, 0, static_cast<int>(state.track.size()) - 1)];
  state.pixels.resize(static_cast<std::size_t>(size.width) * static_cast<std::size_t>(size.height) * 3);
  draw_eye_pair(state.display, f, state.pixels);
  if (state.texture == 0) {
    glGenTextures(1, &state.texture);
    glBindTexture(GL_TEXTURE_2D, state.texture);
    // Shown 1:1: every display pixel is one screen pixel.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  glBindTexture(GL_TEXTURE_2D, state.texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, size.width, size.height, 0, GL_RGB, GL_UNSIGNED_BYTE, state.pixels.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  // Whole pixels, so the picture lands 1:1 on the screen's.
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(ImVec2(std::floor(at.x), std::floor(at.y)));
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(state.texture)),
               ImVec2(static_cast<float>(size.width), static_cast<float>(size.height)));
  ImGui::TextDisabled("as the displays show it, facing the character: its right eye on the left");
  ImGui::Text("left  x %+.3f  y %+.3f  l %.3f  pupil %.2f", f.left.x, f.left.y, f.left.openness, f.left.pupil);
  ImGui::Text("right x %+.3f  y %+.3f  l %.3f  pupil %.2f", f.right.x, f.right.y, f.right.openness, f.right.pupil);
  ImGui::Text("brow %+.2f  t %.3f s", f.brow, f.time_s);
  ImGui::End();
}

}  // namespace mocap::viewer
