#include "compare_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace mocap::viewer {
namespace {

ImVec4 to_imgui(const colors::Rgb& c) {
  return ImVec4(c[0], c[1], c[2], 1.0f);
}

// A square of the motion's colour, as drawn (unlit), then its name.
void swatch(const colors::Rgb& c, const char* name, bool dim = false) {
  ImGui::ColorButton(name, to_imgui(c), ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoDragDrop, ImVec2(16, 16));
  ImGui::SameLine();
  if (dim) {
    ImGui::TextDisabled("%s (hidden)", name);
  } else {
    ImGui::TextUnformatted(name);
  }
}

// The error scale as a bar of `steps` colours from 0 to `red_at` cm.
void scale_bar(float red_at) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = 180.0f, height = 10.0f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  constexpr int kSteps = 24;
  for (int i = 0; i < kSteps; ++i) {
    const colors::Rgb c = error_scale((i + 0.5f) / kSteps);
    draw->AddRectFilled(ImVec2(at.x + width * i / kSteps, at.y), ImVec2(at.x + width * (i + 1) / kSteps, at.y + height),
                        ImGui::ColorConvertFloat4ToU32(to_imgui(c)));
  }
  ImGui::Dummy(ImVec2(width, height));
  char mid[32], top[32];
  std::snprintf(mid, sizeof mid, "%.3g", red_at / 2.0f);
  std::snprintf(top, sizeof top, "%.3g cm+", red_at);
  ImGui::TextUnformatted("0");
  ImGui::SameLine(width / 2.0f - ImGui::CalcTextSize(mid).x / 2.0f + ImGui::GetStyle().WindowPadding.x);
  ImGui::TextUnformatted(mid);
  ImGui::SameLine(width - ImGui::CalcTextSize(top).x / 2.0f + ImGui::GetStyle().WindowPadding.x);
  ImGui::TextUnformatted(top);
}

}  // namespace

int error_motion(const CompareState& state) {
  for (std::size_t i = 0; i < state.motions.size(); ++i) {
    if (state.motions[i].error.valid && state.motions[i].visible) return static_cast<int>(i);
  }
  return -1;
}

TimelineMarks compare_marks(const CompareState& state) {
  const int m = error_motion(state);
  if (m < 0) return {};
  const CompareError& e = state.motions[static_cast<std::size_t>(m)].error;
  const std::vector<float>& values = state.graph_worst ? e.worst_cm : e.mean_cm;
  if (values.empty()) return {};
  TimelineMarks marks;
  marks.error = values;
  marks.error_max = std::max(*std::max_element(values.begin(), values.end()), 0.01f);
  marks.statistic = state.graph_worst ? "worst joint" : "mean over joints";
  if (!e.velocity_cm_s.empty()) {
    marks.velocity = e.velocity_cm_s;
    marks.velocity_max = std::max(*std::max_element(e.velocity_cm_s.begin(), e.velocity_cm_s.end()), 0.01f);
  }
  return marks;
}

void add_contact_marks(const CompareState& state, TimelineMarks& marks) {
  if (!state.show_contacts || !state.contacts.feet) return;
  marks.contact_left = state.contacts.left;
  marks.contact_right = state.contacts.right;
}

CompareRequest compare_panel(CompareForm& form, CompareState& state, const PosedCapture* main) {
  CompareRequest request;
  if (!main) {
    ImGui::TextDisabled("open a clip first");
    return request;
  }
  path_field("Motion##compare", form.motion);
  path_field("its ASF##compare", form.asf);
  if (ImGui::Button("Add motion")) request.add = true;
  ImGui::SameLine();
  ImGui::TextDisabled("AMC, BVH, or ASF + AMC; or drop");
  if (state.contacts.feet) {
    ImGui::Checkbox("Foot contacts on the timeline", &state.show_contacts);
  } else {
    ImGui::TextDisabled("no foot contacts: %s", state.contacts.note.c_str());
  }
  if (state.motions.empty()) return request;
  ImGui::Separator();
  if (ImGui::Checkbox("Side by side", &state.side_by_side)) request.relayout = true;
  if (state.side_by_side) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(120.0f);
    float spacing = static_cast<float>(state.spacing_m);
    if (ImGui::SliderFloat("apart", &spacing, 0.3f, 5.0f, "%.1f m")) state.spacing_m = spacing, request.relayout = true;
  }
  ImGui::Checkbox("Colour joints by error", &state.color_by_error);
  if (state.color_by_error) ImGui::SliderFloat("Red at", &state.red_at_cm, 0.5f, 30.0f, "%.1f cm per joint");
  int stat = state.graph_worst ? 0 : 1;
  if (ImGui::Combo("Graph", &stat, "worst joint per frame\0mean over joints per frame\0"))
    state.graph_worst = stat == 0;
  ImGui::TextDisabled("errors as mocap eval: joint distances, cm");
  for (std::size_t i = 0; i < state.motions.size(); ++i) {
    CompareMotion& m = state.motions[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::Separator();
    ImGui::ColorEdit3("##color", m.color.data(), ImGuiColorEditFlags_NoInputs);
    ImGui::SameLine();
    ImGui::Checkbox(m.name.c_str(), &m.visible);
    ImGui::SameLine();
    if (ImGui::SmallButton("remove")) request.remove = static_cast<int>(i);
    float offset[3] = {static_cast<float>(m.offset.x()), static_cast<float>(m.offset.y()),
                       static_cast<float>(m.offset.z())};
    if (ImGui::DragFloat3("offset m", offset, 0.01f)) m.offset = Eigen::Vector3d(offset[0], offset[1], offset[2]);
    ImGui::TextDisabled("%s, %d frames @ %g Hz", same_skeleton_as(*main, m.clip) ? "same skeleton" : "another skeleton",
                        m.clip.frame_count(), m.clip.capture.motion.fps);
    if (m.error.valid) {
      const MotionError& e = m.error.summary;
      const Skeleton& s = main->capture.skeleton;
      ImGui::Text("worst joint %.2f cm: %s at frame %d", e.joint.max,
                  e.joint.worst_joint >= 0 ? s.bones[static_cast<std::size_t>(e.joint.worst_joint)].name.c_str() : "-",
                  e.joint.worst_frame >= 0
                      ? main->capture.motion.frame_numbers[static_cast<std::size_t>(e.joint.worst_frame)]
                      : 0);
      ImGui::Text("mean over joints, cm: mean %.2f, max %.2f", e.position.mean, e.position.max);
      const JointVelocityError& v = m.error.velocity;
      ImGui::Text("velocity error, cm/s: mean %.2f, p99 %.2f", v.mean_cm_s, v.p99_cm_s);
      ImGui::Text("  max %.2f: %s at frame %d", v.max_cm_s,
                  v.worst_joint >= 0 ? s.bones[static_cast<std::size_t>(v.worst_joint)].name.c_str() : "-",
                  v.worst_frame >= 0 ? main->capture.motion.frame_numbers[static_cast<std::size_t>(v.worst_frame)] : 0);
      const PlantedFeetSpeed& p = m.error.planted;
      if (p.feet) {
        ImGui::Text("planted feet, %d frames: ball speed", p.frames);
        ImGui::Text("  %.2f -> %.2f cm/s (%+.2f)", p.reference_cm_s, p.other_cm_s, p.difference_cm_s);
      }
      const int f = m.clip.frame;
      if (f >= 0 && f < static_cast<int>(m.error.mean_cm.size())) {
        ImGui::Text("this frame: mean %.2f cm, worst joint %.2f cm", m.error.mean_cm[static_cast<std::size_t>(f)],
                    m.error.worst_cm[static_cast<std::size_t>(f)]);
      }
    } else {
      ImGui::TextDisabled("%s", m.error.note.c_str());
    }
    ImGui::PopID();
  }
  return request;
}

ImVec2 legend_window(const CompareState& state, const PosedCapture* main, const LegendExtras& extras,
                     float right_edge) {
  if (!main) return ImVec2(0, 0);
  const bool has_error = error_motion(state) >= 0 && state.color_by_error;
  if (state.motions.empty() && !extras.ghost && extras.key_red_at_cm <= 0.0f && !extras.marks) return ImVec2(0, 0);
  ImGui::SetNextWindowPos(ImVec2(right_edge - 10.0f, 10.0f), ImGuiCond_Always, ImVec2(1.0f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::Begin("Legend", nullptr,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse);
  const std::string main_name = std::filesystem::path(main->capture.amc_path).filename().string();
  swatch(colors::kBone, main_name.c_str());
  for (const CompareMotion& m : state.motions) swatch(m.color, m.name.c_str(), !m.visible);
  if (extras.ghost) swatch(colors::kGhost, "rebuilt from keys (thin)");
  if (has_error) {
    ImGui::Separator();
    const CompareMotion& m = state.motions[static_cast<std::size_t>(error_motion(state))];
    ImGui::Text("joints of %s:", m.name.c_str());
    ImGui::TextDisabled("each joint's distance to %s, cm", main_name.c_str());
    scale_bar(state.red_at_cm);
  } else if (extras.key_red_at_cm > 0.0f) {
    ImGui::Separator();
    ImGui::TextUnformatted("joints: each joint's distance to");
    ImGui::TextUnformatted("the rebuild, cm (per joint)");
    scale_bar(extras.key_red_at_cm);
  }
  if (extras.marks && !extras.marks->error.empty()) {
    ImGui::Separator();
    ImGui::Text("graph: %s per frame, cm", extras.marks->statistic);
    ImGui::TextDisabled("y from 0 to %.2f cm (its max)", extras.marks->error_max);
    if (!extras.marks->velocity.empty()) {
      ImGui::Text("beside it: worst joint's velocity error, cm/s");
      ImGui::TextDisabled("y from 0 to %.1f cm/s (its max)", extras.marks->velocity_max);
    }
  }
  if (extras.marks && (!extras.marks->contact_left.empty() || !extras.marks->contact_right.empty())) {
    ImGui::Separator();
    const auto bar = [](const unsigned char* rgb, const char* name) {
      const ImVec4 c(rgb[0] / 255.0f, rgb[1] / 255.0f, rgb[2] / 255.0f, 1.0f);
      ImGui::ColorButton(name, c, ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoDragDrop, ImVec2(16, 4));
      ImGui::SameLine();
      ImGui::TextUnformatted(name);
    };
    bar(kLeftContactRgb, "left foot in contact (timeline)");
    bar(kRightContactRgb, "right foot in contact");
  }
  const ImVec2 size = ImGui::GetWindowSize();
  ImGui::End();
  return size;
}

}  // namespace mocap::viewer
