#include "panels.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mocap::viewer {
namespace {

const ImVec4 kErrorColor(1.0f, 0.45f, 0.40f, 1.0f);
const ImVec4 kOkColor(0.55f, 0.85f, 0.55f, 1.0f);

// A button drawn as pressed while `active`.
bool toggle_button(const char* label, bool active) {
  if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  const bool pressed = ImGui::Button(label);
  if (active) ImGui::PopStyleColor();
  return pressed;
}

}  // namespace

bool has_contacts(const TimelineMarks& marks) {
  return !marks.contact_left.empty() || !marks.contact_right.empty();
}

float timeline_height(const TimelineMarks& marks) {
  return (marks.error.empty() ? 64.0f : 136.0f) + (has_contacts(marks) ? 10.0f : 0.0f);
}

bool timeline_panel(Playback& playback, const TimelineMarks& marks) {
  const ImGuiIO& io = ImGui::GetIO();
  const float height = timeline_height(marks);
  ImGui::SetNextWindowPos(ImVec2(0.0f, io.DisplaySize.y - height));
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x, height));
  ImGui::Begin("Timeline", nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoBringToFrontOnFocus);
  const bool empty = playback.frame_count == 0;
  if (empty) ImGui::BeginDisabled();
  if (ImGui::Button("|< Reset")) playback.reset();
  ImGui::SameLine();
  if (ImGui::Button("< Back")) playback.step(-1);
  ImGui::SameLine();
  if (toggle_button("Play", playback.playing)) playback.play();
  ImGui::SameLine();
  if (toggle_button("Pause", !playback.playing)) playback.pause();
  ImGui::SameLine();
  if (ImGui::Button("Fwd >")) playback.step(1);
  ImGui::SameLine();
  ImGui::TextUnformatted("  Speed");
  for (double speed : kSpeedPresets) {
    ImGui::SameLine();
    char label[16];
    std::snprintf(label, sizeof label, "%gx", speed);
    if (toggle_button(label, playback.speed == speed)) playback.speed = speed;
  }
  ImGui::SameLine();
  ImGui::Checkbox("Loop", &playback.loop);
  ImGui::SameLine();
  ImGui::TextUnformatted(("   " + readout(playback)).c_str());

  int frame = playback.frame();
  ImGui::SetNextItemWidth(-1.0f);
  bool scrubbing = false;
  // Slides over frames, shows the file's number of the frame (no '%': ImGui prints it as it is).
  const std::string number = std::to_string(playback.number());
  if (ImGui::SliderInt("##frame", &frame, 0, std::max(playback.frame_count - 1, 0), number.c_str())) {
    playback.seek(frame);
  }
  scrubbing = ImGui::IsItemActive();
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  const int last = std::max(playback.frame_count - 1, 1);
  // Where ImGui's slider puts the centre of its grab for frame f (2 px
  // padding, a grab of one frame's width or GrabMinSize).
  const float slider = hi.x - lo.x - 4.0f;
  const float grab = std::max(slider / (last + 1), ImGui::GetStyle().GrabMinSize);
  auto frame_x = [&](float f) { return lo.x + 2.0f + grab / 2.0f + (slider - grab) * f / last; };
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int key : marks.keys) {
    const float x = frame_x(static_cast<float>(key));
    draw->AddLine(ImVec2(x, hi.y - 6.0f), ImVec2(x, hi.y), IM_COL32(255, 200, 80, 255), 1.0f);
  }
  if (has_contacts(marks)) {
    // Two bars of 3 px, left above right, each run of contact frames from
    // its first frame's centre to its last's (half a frame either side).
    ImGui::Dummy(ImVec2(hi.x - lo.x, 8.0f));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("foot contacts: left (magenta, top), right (yellow)");
    const float top = ImGui::GetItemRectMin().y + 1.0f;
    const float half = (slider - grab) / last / 2.0f;
    for (int s = 0; s < 2; ++s) {
      const std::span<const unsigned char> on = s == 0 ? marks.contact_left : marks.contact_right;
      const unsigned char* rgb = s == 0 ? kLeftContactRgb : kRightContactRgb;
      const ImU32 colour = IM_COL32(rgb[0], rgb[1], rgb[2], 255);
      const float y = top + 4.0f * s;
      for (std::size_t f = 0; f < on.size();) {
        if (!on[f]) {
          ++f;
          continue;
        }
        std::size_t end = f;
        while (end + 1 < on.size() && on[end + 1]) ++end;
        const float x0 = frame_x(static_cast<float>(f)) - half, x1 = frame_x(static_cast<float>(end)) + half;
        draw->AddRectFilled(ImVec2(x0, y), ImVec2(std::max(x1, x0 + 1.0f), y + 3.0f), colour);
        f = end + 1;
      }
    }
  }
  if (!marks.error.empty()) {
    // The position graph, and the velocity graph beside it when there is one.
    const bool velocity = !marks.velocity.empty();
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float width = velocity ? (ImGui::GetContentRegionAvail().x - gap) / 2.0f : -1.0f;
    if (velocity) {
      const ImVec2 at = ImGui::GetCursorScreenPos();
      ImGui::SetCursorScreenPos(ImVec2(at.x + width + gap, at.y));
      char title[64];
      std::snprintf(title, sizeof title, "velocity error: worst joint, cm/s");
      ImGui::PlotLines("##velocity", marks.velocity.data(), static_cast<int>(marks.velocity.size()), 0, title, 0.0f,
                       marks.velocity_max * 1.05f, ImVec2(width, 64.0f));
      const ImVec2 vlo = ImGui::GetItemRectMin(), vhi = ImGui::GetItemRectMax();
      const float v_lo = vlo.x + ImGui::GetStyle().FramePadding.x, v_hi = vhi.x - ImGui::GetStyle().FramePadding.x;
      const int n = static_cast<int>(marks.velocity.size());
      const float x = v_lo + (v_hi - v_lo) * playback.frame() / std::max(n - 1, 1);
      draw->AddLine(ImVec2(x, vlo.y), ImVec2(x, vhi.y), IM_COL32(64, 217, 255, 255), 1.5f);
      char top[32];
      std::snprintf(top, sizeof top, "%.1f cm/s", marks.velocity_max * 1.05f);
      const ImU32 label = IM_COL32(200, 200, 200, 255);
      draw->AddText(ImVec2(v_lo + 2.0f, vlo.y + 1.0f), label, top);
      draw->AddText(ImVec2(v_lo + 2.0f, vhi.y - ImGui::GetTextLineHeight() - 1.0f), label, "0");
      if (playback.frame() < n) {
        char now[48];
        std::snprintf(now, sizeof now, "%.1f cm/s", marks.velocity[static_cast<std::size_t>(playback.frame())]);
        draw->AddText(ImVec2(x + 4.0f, vlo.y + ImGui::GetTextLineHeight() + 2.0f), IM_COL32(64, 217, 255, 255), now);
      }
      if (ImGui::IsItemHovered() && ImGui::IsMouseClicked(ImGuiMouseButton_Left) && n > 1) {
        const float t = (io.MousePos.x - v_lo) / (v_hi - v_lo);
        playback.pause();
        playback.seek(static_cast<int>(std::lround(t * (n - 1))));
      }
      ImGui::SetCursorScreenPos(at);
    }
    ImGui::SetNextItemWidth(width);
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "error: %s, cm", marks.statistic);
    ImGui::PlotLines("##error", marks.error.data(), static_cast<int>(marks.error.size()), 0, overlay, 0.0f,
                     marks.error_max * 1.05f, ImVec2(velocity ? width : 0.0f, 64.0f));
    const ImVec2 glo = ImGui::GetItemRectMin(), ghi = ImGui::GetItemRectMax();
    const float inner_lo = glo.x + ImGui::GetStyle().FramePadding.x;
    const float inner_hi = ghi.x - ImGui::GetStyle().FramePadding.x;
    const int n = static_cast<int>(marks.error.size());
    const float x = inner_lo + (inner_hi - inner_lo) * playback.frame() / std::max(n - 1, 1);
    draw->AddLine(ImVec2(x, glo.y), ImVec2(x, ghi.y), IM_COL32(64, 217, 255, 255), 1.5f);
    // The y scale: the top is 1.05 x the max, the bottom 0.
    char top[32];
    std::snprintf(top, sizeof top, "%.2f cm", marks.error_max * 1.05f);
    const ImU32 label = IM_COL32(200, 200, 200, 255);
    draw->AddText(ImVec2(inner_lo + 2.0f, glo.y + 1.0f), label, top);
    draw->AddText(ImVec2(inner_lo + 2.0f, ghi.y - ImGui::GetTextLineHeight() - 1.0f), label, "0 cm");
    if (playback.frame() < n) {
      char now[48];
      std::snprintf(now, sizeof now, "%.2f cm", marks.error[static_cast<std::size_t>(playback.frame())]);
      // Under the graph's title (PlotLines' overlay, centred on the top row).
      draw->AddText(ImVec2(x + 4.0f, glo.y + ImGui::GetTextLineHeight() + 2.0f), IM_COL32(64, 217, 255, 255), now);
    }
    if (ImGui::IsItemHovered() && ImGui::IsMouseClicked(ImGuiMouseButton_Left) && n > 1) {
      const float t = (io.MousePos.x - inner_lo) / (inner_hi - inner_lo);
      playback.pause();
      playback.seek(static_cast<int>(std::lround(t * (n - 1))));
    }
  }
  if (empty) ImGui::EndDisabled();
  ImGui::End();
  return scrubbing;
}

ViewRequest scene_panel(ViewState& view, const PosedCapture* clip) {
  ViewRequest request = ViewRequest::kNone;
  SceneOptions& o = view.options;
  ImGui::Checkbox("Skeleton", &o.show_skeleton);
  ImGui::SameLine();
  ImGui::Checkbox("Joints", &o.show_joints);
  ImGui::SameLine();
  ImGui::Checkbox("Lines", &o.bones_as_lines);
  ImGui::Checkbox("Grid", &o.show_grid);
  ImGui::SameLine();
  ImGui::Checkbox("Axes", &o.show_axes);
  ImGui::SliderFloat("Bone radius", &o.bone_radius_m, 0.003f, 0.05f, "%.3f m");
  ImGui::SliderFloat("Joint radius", &o.joint_radius_m, 0.005f, 0.08f, "%.3f m");

  ImGui::Separator();
  if (ImGui::Button("Front (1)")) apply_preset(view.camera, ViewPreset::kFront);
  ImGui::SameLine();
  if (ImGui::Button("Side (2)")) apply_preset(view.camera, ViewPreset::kSide);
  ImGui::SameLine();
  if (ImGui::Button("Top (3)")) apply_preset(view.camera, ViewPreset::kTop);
  if (ImGui::Button("Frame all (F)")) request = ViewRequest::kFrameAll;
  ImGui::SameLine();
  if (ImGui::Button("Frame figure (G)")) request = ViewRequest::kFrameFigure;
  ImGui::Checkbox("Follow root (C)", &view.follow_root);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
      "Mouse: left drag orbits, right or middle drag (or shift+left) pans, the wheel zooms; a click on a joint "
      "selects it. Keys: A/D and W/S orbit, Q/E zoom, ctrl+arrows pan; space plays, left/right step (shift: 10), "
      "home/end; P saves a screenshot.");
  ImGui::PopStyleColor();

  if (clip) {
    ImGui::Separator();
    const auto& bones = clip->capture.skeleton.bones;
    const char* current = view.selected >= 0 ? bones[view.selected].name.c_str() : "(none)";
    if (ImGui::BeginCombo("Joint", current)) {
      if (ImGui::Selectable("(none)", view.selected < 0)) view.selected = -1;
      for (int b = 0; b < static_cast<int>(bones.size()); ++b) {
        if (ImGui::Selectable(bones[b].name.c_str(), view.selected == b)) view.selected = b;
      }
      ImGui::EndCombo();
    }
    if (view.selected >= 0 && view.selected < static_cast<int>(clip->positions.size())) {
      const Eigen::Vector3d& p = clip->positions[view.selected];
      ImGui::Text("at (%.3f, %.3f, %.3f) m", p.x(), p.y(), p.z());
    }
  }
  return request;
}

bool path_field(const char* label, std::string& path) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = ImGui::CalcItemWidth();
  const bool changed = ImGui::InputText(label, &path);
  if (ImGui::IsItemActive() || path.empty()) return changed;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float inner = width - 2.0f * style.FramePadding.x;
  if (ImGui::CalcTextSize(path.c_str()).x <= inner) return changed;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", path.c_str());
  // Cover the field's text and draw "..." and as much of the end as fits.
  std::size_t start = 0;
  const float dots = ImGui::CalcTextSize("...").x;
  while (start < path.size() && ImGui::CalcTextSize(path.c_str() + start).x + dots > inner) ++start;
  const std::string shown = "..." + path.substr(start);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 lo(at.x + 1.0f, at.y + 1.0f), hi(at.x + width - 1.0f, at.y + ImGui::GetFrameHeight() - 1.0f);
  // The frame's colour is translucent over the window's: both, as ImGui drew them.
  draw->AddRectFilled(lo, hi, ImGui::GetColorU32(ImGuiCol_WindowBg), 0.0f);
  draw->AddRectFilled(lo, hi, ImGui::GetColorU32(ImGui::IsItemHovered() ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg));
  draw->AddText(ImVec2(at.x + style.FramePadding.x, at.y + style.FramePadding.y), ImGui::GetColorU32(ImGuiCol_Text),
                shown.c_str());
  return changed;
}

bool open_panel(OpenForm& form, const Status& status) {
  path_field("ASF or BVH", form.asf);
  path_field("AMC", form.amc);
  const bool load = ImGui::Button("Load");
  ImGui::SameLine();
  ImGui::TextDisabled("or drop an ASF + AMC, or a BVH");
  if (!status.text.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, status.error ? kErrorColor : kOkColor);
    ImGui::TextWrapped("%s", status.text.c_str());
    ImGui::PopStyleColor();
  }
  return load;
}

void export_panel(ExportState& state, const Playback& playback) {
  path_field("PNG", state.screenshot_path);
  if (ImGui::Button("Save screenshot (P)")) state.screenshot_requested = true;
  ImGui::Separator();
  path_field("Prefix", state.sequence_prefix);
  const int last = std::max(playback.frame_count - 1, 0);
  // Typed and shown as the file's frame numbers, kept as frames.
  int first_number = playback.number_of(state.first), last_number = playback.number_of(state.last);
  if (ImGui::InputInt("First", &first_number)) state.first = playback.frame_at(first_number);
  if (ImGui::InputInt("Last", &last_number)) state.last = playback.frame_at(last_number);
  state.first = std::clamp(state.first, 0, last);
  state.last = std::clamp(state.last, state.first, last);
  if (!state.sequence_running) {
    if (ImGui::Button("Whole clip")) state.first = 0, state.last = last;
    ImGui::SameLine();
    if (ImGui::Button("Save sequence") && playback.frame_count > 0) {
      state.sequence_running = true;
      state.next = state.first;
    }
  } else {
    const float done = static_cast<float>(state.next - state.first) / (state.last - state.first + 1);
    ImGui::ProgressBar(done);
    if (ImGui::Button("Stop")) state.sequence_running = false;
  }
  ImGui::Separator();
  path_field("Movie", state.movie_path);
  ImGui::SliderFloat("Movie rate", &state.movie_fps, 0.0f, 120.0f, state.movie_fps > 0.0f ? "%.0f fps" : "clip's rate");
  if (!state.movie_running) {
    if (ImGui::Button("Record movie (First to Last)") && playback.frame_count > 0) state.movie_requested = true;
    ImGui::SameLine();
    ImGui::TextDisabled("ffmpeg");
  } else if (ImGui::Button("Stop recording")) {
    state.movie_running = false;
  }
}

void joint_label(const ViewState& view, const PosedCapture& clip) {
  if (view.selected < 0 || view.selected >= static_cast<int>(clip.positions.size())) return;
  const ImGuiIO& io = ImGui::GetIO();
  const auto at = project(view.camera, clip.positions[view.selected], static_cast<int>(io.DisplaySize.x),
                          static_cast<int>(io.DisplaySize.y));
  if (!at) return;
  const char* name = clip.capture.skeleton.bones[view.selected].name.c_str();
  const ImVec2 text_at(static_cast<float>(at->x()) + 12.0f, static_cast<float>(at->y()) - 20.0f);
  const ImVec2 size = ImGui::CalcTextSize(name);
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->AddLine(ImVec2(static_cast<float>(at->x()), static_cast<float>(at->y())), ImVec2(text_at.x, text_at.y + size.y),
                IM_COL32(64, 217, 255, 255), 1.5f);
  draw->AddRectFilled(ImVec2(text_at.x - 4, text_at.y - 2), ImVec2(text_at.x + size.x + 4, text_at.y + size.y + 2),
                      IM_COL32(20, 24, 30, 210), 3.0f);
  draw->AddText(text_at, IM_COL32(64, 217, 255, 255), name);
}

int pick_joint(const Camera& camera, std::span<const Eigen::Vector3d> positions, double x, double y, int width,
               int height, double radius_px) {
  int best = -1;
  double best_d2 = radius_px * radius_px;
  for (int b = 0; b < static_cast<int>(positions.size()); ++b) {
    const auto at = project(camera, positions[b], width, height);
    if (!at) continue;
    const double d2 = (*at - Eigen::Vector2d(x, y)).squaredNorm();
    if (d2 <= best_d2) best_d2 = d2, best = b;
  }
  return best;
}

ViewRequest handle_input(Playback& playback, ViewState& view, const PosedCapture* clip) {
  ViewRequest request = ViewRequest::kNone;
  const ImGuiIO& io = ImGui::GetIO();
  Camera& camera = view.camera;
  if (!io.WantCaptureKeyboard) {
    // Timeline.
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) playback.toggle();
    if (!io.KeyCtrl) {
      const int step = io.KeyShift ? 10 : 1;
      if (ImGui::IsKeyPressed(GLFW_KEY_LEFT)) playback.step(-step);
      if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) playback.step(step);
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_HOME, false)) playback.reset();
    if (ImGui::IsKeyPressed(GLFW_KEY_END, false)) {
      playback.pause();
      playback.seek(playback.frame_count - 1);
    }
    // Camera: held keys move at a rate per second.
    const double dt = io.DeltaTime;
    const double turn = 1.6 * dt;  // radians
    if (ImGui::IsKeyDown(GLFW_KEY_A)) camera.orbit(-turn, 0.0);
    if (ImGui::IsKeyDown(GLFW_KEY_D)) camera.orbit(turn, 0.0);
    if (ImGui::IsKeyDown(GLFW_KEY_W)) camera.orbit(0.0, turn);
    if (ImGui::IsKeyDown(GLFW_KEY_S)) camera.orbit(0.0, -turn);
    if (ImGui::IsKeyDown(GLFW_KEY_Q)) camera.zoom(std::exp(-1.5 * dt));
    if (ImGui::IsKeyDown(GLFW_KEY_E)) camera.zoom(std::exp(1.5 * dt));
    if (io.KeyCtrl) {
      const double pan = 0.5 * dt;  // view heights per second
      if (ImGui::IsKeyDown(GLFW_KEY_LEFT)) camera.pan(-pan, 0.0);
      if (ImGui::IsKeyDown(GLFW_KEY_RIGHT)) camera.pan(pan, 0.0);
      if (ImGui::IsKeyDown(GLFW_KEY_UP)) camera.pan(0.0, pan);
      if (ImGui::IsKeyDown(GLFW_KEY_DOWN)) camera.pan(0.0, -pan);
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_1, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_1, false)) {
      apply_preset(camera, ViewPreset::kFront);
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_2, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_3, false)) {
      apply_preset(camera, ViewPreset::kSide);
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_3, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_7, false)) {
      apply_preset(camera, ViewPreset::kTop);
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_F, false)) request = ViewRequest::kFrameAll;
    if (ImGui::IsKeyPressed(GLFW_KEY_G, false)) request = ViewRequest::kFrameFigure;
    if (ImGui::IsKeyPressed(GLFW_KEY_C, false)) view.follow_root = !view.follow_root;
  }
  if (!io.WantCaptureMouse) {
    const double h = std::max(io.DisplaySize.y, 1.0f);
    const ImVec2 d = io.MouseDelta;
    const bool pan = ImGui::IsMouseDown(ImGuiMouseButton_Right) || ImGui::IsMouseDown(ImGuiMouseButton_Middle) ||
                     (io.KeyShift && ImGui::IsMouseDown(ImGuiMouseButton_Left));
    if (pan) {
      camera.pan(d.x / h, -d.y / h);
    } else if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
      camera.orbit(-d.x * 0.008, d.y * 0.008);
    }
    if (io.MouseWheel != 0.0f) camera.zoom(std::pow(0.88, io.MouseWheel));
    // A click without a drag selects the nearest joint (or clears the selection).
    if (clip && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && io.MouseDragMaxDistanceSqr[0] < 16.0f &&
        !io.KeyShift) {
      view.selected = pick_joint(camera, clip->positions, io.MousePos.x, io.MousePos.y,
                                 static_cast<int>(io.DisplaySize.x), static_cast<int>(io.DisplaySize.y), 14.0);
    }
  }
  return request;
}

}  // namespace mocap::viewer
