#include "app.h"

#include "outputs.h"
#include "startup.h"
#include "window.h"

#include <epoxy/gl.h>
// GLFW after the GL loader, which it must not replace.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <numbers>

namespace mocap::viewer {
namespace {

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

}  // namespace

void App::start(const Options& options) {
  set_bvh_metres(options.bvh_metres());
  const bool given = options.files.size() >= options.clip_files();
  adopt(load_initial(options), given ? options.files[0] : default_asf(),
        given ? (options.main_is_bvh() ? "" : options.files[1]) : default_amc());
  if (auto e = add_compare(options)) {
    std::cerr << "mocap-viewer: " << *e << "\n";
    set_status(*e, true);
  }
  set_camera_flags(options.camera);
  set_xray(options.xray);
  skin_.stretch_ratio = options.stretch;
  compare_.show_contacts = !options.no_contacts;
  if (options.frame) seek_number(*options.frame);
  extract_keys(options);
  if (options.eyes) show_eyes();
  if (!options.frame) play();
  if (const auto form = skin_form(options)) load_mesh(*form);
  if (!options.model.path.empty()) load_model(options.model);
}

void App::add_compare(const std::string& first, const std::string& second) {
  if (!clip_) return set_status("open a clip before comparing motions", true);
  Result<PosedCapture> other = load_other(first, second, clip_->capture.asf_path, bvh_metres_);
  if (!other) {
    std::cerr << "mocap-viewer: " << other.error().to_string() << "\n";
    return set_status(other.error().to_string(), true);
  }
  add_motion(compare_, std::move(*other), *clip_);
  const CompareMotion& m = compare_.motions.back();
  set_status("added " + m.name + (m.error.valid ? "" : " (" + m.error.note + ")"), false);
  needs_framing_ = 2;
}

std::optional<std::string> App::add_compare(const Options& options) {
  if (!clip_) return std::nullopt;
  if (auto e = load_compare(compare_, options, *clip_)) return e;
  needs_framing_ = 2;
  return std::nullopt;
}

void App::set_camera_flags(const CameraFlags& flags) {
  camera_flags_ = flags;
  if (flags.azimuth_deg) view_.camera.yaw = *flags.azimuth_deg * std::numbers::pi / 180.0;
  if (flags.elevation_deg) view_.camera.pitch = *flags.elevation_deg * std::numbers::pi / 180.0;
  if (flags.fov_deg) view_.camera.fov_y = *flags.fov_deg * std::numbers::pi / 180.0;
}

void App::adopt(Result<PosedCapture> clip, const std::string& asf, const std::string& amc) {
  form_.asf = asf, form_.amc = amc;
  if (!clip) {
    status_ = {clip.error().to_string(), true};
    std::cerr << "mocap-viewer: " << status_.text << "\n";
    return;
  }
  clip_ = std::move(*clip);
  // The motions beside it stay, measured against the new clip.
  std::vector<CompareMotion> kept = std::move(compare_.motions);
  compare_.motions.clear();
  for (CompareMotion& m : kept) add_motion(compare_, std::move(m.clip), *clip_);
  set_main(compare_, *clip_);
  playback_.load(clip_->capture.motion.frame_numbers, clip_->capture.motion.fps);
  export_ = ExportState{export_.screenshot_path, export_.sequence_prefix};
  export_.last = clip_->frame_count() - 1;
  view_.selected = -1;
  keyframes_.clip = nullptr;  // recomputed for the new clip when enabled
  eyes_.clip = nullptr;
  if (skin_.loaded) load_mesh();    // rebind to the new skeleton
  if (model_.loaded) load_model();  // retarget the new clip
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  const Camera framed = initial_camera(clip_->positions, h > 0 ? static_cast<double>(w) / h : 16.0 / 9.0);
  view_.camera.target = framed.target, view_.camera.distance = framed.distance;
  view_.followed_root = clip_->positions[0];
  needs_framing_ = 2;  // again once the panels' sizes are known
  status_ = {"loaded " + asf + (amc.empty() ? "" : " + " + amc) + " (" + std::to_string(clip_->frame_count()) +
                 " frames, " + std::to_string(clip_->capture.skeleton.bones.size()) + " bones)",
             false};
}

void App::load_mesh(const SkinForm& form) {
  skin_form_ = form;
  load_mesh();
}

void App::load_mesh() {
  if (!clip_) return set_status("open a clip before a mesh", true);
  if (auto e = load_skin(skin_, skin_form_, *clip_)) {
    std::cerr << "mocap-viewer: " << *e << "\n";
    return set_status(*e, true);
  }
  view_.options.show_mesh = true;
  // The skin in place of the bones, unless they are to show through it.
  view_.options.show_skeleton = view_.options.show_joints = view_.options.xray;
  set_status("bound " + skin_form_.obj + " (" + std::to_string(skin_.bound->mesh.vertex_count()) + " vertices)", false);
}

void App::load_model(const ModelForm& form) {
  model_form_ = form;
  load_model();
}

void App::load_model() {
  if (!clip_) return set_status("open a clip before a model", true);
  if (auto e = mocap::viewer::load_model(model_, model_form_, *clip_)) {
    std::cerr << "mocap-viewer: " << *e << "\n";
    return set_status(*e, true);
  }
  place_model(model_, compare_, *clip_);
  set_status("retargeted onto " + model_summary(model_), false);
  needs_framing_ = 2;
}

void App::show_eyes() {
  eyes_.enabled = true;
  if (clip_) update_eyes(eyes_, *clip_);
}

void App::extract_keys(const Options& options) {
  if (start_keyframes(keyframes_, options) && clip_) run_keyframes(keyframes_, *clip_);
}

void App::take_drops() {
  const std::vector<std::string> dropped = take_dropped_files();
  if (dropped.empty()) return;
  std::string asf, amc;
  std::vector<std::string> bvhs, amcs;
  for (const std::string& path : dropped) {
    const std::string ext = lower_extension(path);
    if (ext == ".asf") {
      asf = path;
    } else if (ext == ".amc") {
      amcs.push_back(path);
    } else if (is_bvh_path(path)) {
      bvhs.push_back(path);
    } else {
      status_ = {path + ": not an ASF, AMC or BVH file", true};
    }
  }
  const bool replace = !clip_ || glfwGetKey(window_, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                       glfwGetKey(window_, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
  if (replace) {
    if (!bvhs.empty()) return load(bvhs.front(), "");
    if (!amcs.empty() && asf.empty() && clip_) asf = clip_->capture.asf_path;  // another motion of the same subject
    if (!asf.empty() && !amcs.empty()) return load(asf, amcs.front());
    if (!asf.empty()) status_ = {asf + ": dropped without an AMC; drop an ASF and an AMC together", true};
    if (!amcs.empty()) status_ = {amcs.front() + ": dropped without an ASF; drop an ASF and an AMC together", true};
    return;
  }
  for (const std::string& path : bvhs) add_compare(path, "");
  for (const std::string& path : amcs) add_compare(asf.empty() ? path : asf, asf.empty() ? "" : path);
  if (!asf.empty() && amcs.empty()) status_ = {asf + ": dropped without an AMC; drop an ASF and an AMC together", true};
}

void App::frame(double dt) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  const ImGuiIO& io = ImGui::GetIO();

  ViewRequest request = handle_input(playback_, view_, clip_ ? &*clip_ : nullptr);
  if (!io.WantCaptureKeyboard && ImGui::IsKeyPressed(GLFW_KEY_P, false)) export_.screenshot_requested = true;

  // The keyframe panel's graph when it is on, else the compared motion's.
  TimelineMarks marks = timeline_marks(keyframes_);
  if (marks.error.empty()) marks = compare_marks(compare_);
  add_contact_marks(compare_, marks);
  const float timeline_h = timeline_height(marks);
  // The side panel stays above the timeline and scrolls when it is longer.
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(380, std::max(io.DisplaySize.y - timeline_h - 20, 80.0f)), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSizeConstraints(ImVec2(260, 80),
                                      ImVec2(10000, std::max(io.DisplaySize.y - timeline_h - 20, 80.0f)));
  ImGui::Begin("mocap-viewer");
  if (ImGui::CollapsingHeader("Open", ImGuiTreeNodeFlags_DefaultOpen) && open_panel(form_, status_)) {
    load(form_.asf, is_bvh_path(form_.asf) ? "" : form_.amc);
  }
  if (ImGui::CollapsingHeader("Compare", compare_.motions.empty() ? 0 : ImGuiTreeNodeFlags_DefaultOpen)) {
    const CompareRequest r = compare_panel(compare_form_, compare_, clip_ ? &*clip_ : nullptr);
    if (r.add)
      add_compare(compare_form_.asf.empty() ? compare_form_.motion : compare_form_.asf,
                  compare_form_.asf.empty() ? "" : compare_form_.motion);
    if (r.remove >= 0) compare_.motions.erase(compare_.motions.begin() + r.remove);
    if ((r.relayout || r.remove >= 0) && clip_) lay_out(compare_, *clip_);
  }
  if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) {
    const ViewRequest r = scene_panel(view_, clip_ ? &*clip_ : nullptr);
    if (r != ViewRequest::kNone) request = r;
    ImGui::Checkbox("Shadow", &view_.options.show_shadow);
    ImGui::SameLine();
    float turn = static_cast<float>(camera_flags_.turntable_deg_per_s);
    ImGui::SetNextItemWidth(140.0f);
    if (ImGui::SliderFloat("Turntable", &turn, -90.0f, 90.0f, "%.0f deg/s")) camera_flags_.turntable_deg_per_s = turn;
  }
  if (ImGui::CollapsingHeader("Skin", skin_.loaded ? ImGuiTreeNodeFlags_DefaultOpen : 0) &&
      skin_panel(skin_form_, skin_, view_.options)) {
    load_mesh();
  }
  if (ImGui::CollapsingHeader("Model", model_.loaded ? ImGuiTreeNodeFlags_DefaultOpen : 0) &&
      model_panel(model_form_, model_)) {
    load_model();
  }
  if (ImGui::CollapsingHeader("Keyframes", keyframes_.enabled ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
    const int jump = keyframes_panel(keyframes_, clip_ ? &*clip_ : nullptr, playback_);
    if (jump >= 0) playback_.pause(), playback_.seek(jump);
  }
  if (ImGui::CollapsingHeader("Eyes", eyes_.enabled ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
    eyes_panel(eyes_, clip_ ? &*clip_ : nullptr);
  }
  if (ImGui::CollapsingHeader("Export")) export_panel(export_, playback_);
  // The free part of the window: right of the panel (unless it is
  // collapsed or moved away) and above the timeline.
  const ImVec2 panel_at = ImGui::GetWindowPos(), panel_size = ImGui::GetWindowSize();
  ImGui::End();
  const float W = std::max(io.DisplaySize.x, 1.0f), H = std::max(io.DisplaySize.y, 1.0f);
  Camera::Region free;
  const float panel_right = panel_at.x + panel_size.x;
  if (panel_at.x < 0.5f * W && panel_right < 0.6f * W && panel_size.y > 0.3f * H) free.left = (panel_right + 4.0f) / W;
  free.bottom = std::max(0.2f, (H - timeline_h) / H);

  const bool scrubbing = timeline_panel(playback_, marks);
  eyes_window(eyes_, playback_.frame());
  LegendExtras legend;
  legend.ghost = !ghost_positions(keyframes_, clip_ ? clip_->frame : -1).empty();
  legend.key_red_at_cm = keyframes_.enabled && keyframes_.color_by_error ? keyframes_.color_max_cm : 0.0f;
  legend.marks = marks.error.empty() ? nullptr : &marks;
  const ImVec2 legend_size = legend_window(compare_, clip_ ? &*clip_ : nullptr, legend, W);
  if (legend_size.x > 0.0f) {
    // The legend sits in the free part's top right corner: the free part
    // loses its width or its height there, whichever leaves more.
    const float w_free = (free.right - free.left) * W, h_free = (free.bottom - free.top) * H;
    const float lw = legend_size.x + 14.0f, lh = legend_size.y + 14.0f;
    if ((w_free - lw) * h_free > w_free * (h_free - lh)) {
      free.right = std::max(free.left + 0.2, 1.0 - lw / W);
    } else {
      free.top = std::min(free.bottom - 0.2, static_cast<double>(lh / H));
    }
  }
  view_.camera.region = free;

  if (!scrubbing) playback_.advance(dt);
  if (playback_.playing && camera_flags_.turntable_deg_per_s != 0.0) {
    view_.camera.orbit(camera_flags_.turntable_deg_per_s * std::numbers::pi / 180.0 * dt * playback_.speed, 0.0);
  }
  if (clip_) {
    pose_frame(*clip_, playback_.frame());
    pose_motions(compare_, *clip_);
    update_skin(skin_, *clip_);
    place_model(model_, compare_, *clip_);
    update_model(model_, *clip_);
    follow_root();
    if (needs_framing_ > 0) request = ViewRequest::kFrameFigure, --needs_framing_;
    apply(request);
    joint_label(view_, *clip_);
  }
  ImGui::Render();

  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  if (w > 0 && h > 0) {
    draw_scene(renderer_, clip_ ? &*clip_ : nullptr, view_, w, h, extras());
    export_pictures(w, h);
  }
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

SceneExtras App::extras() {
  SceneExtras e;
  if (!clip_) return e;
  e.ghost = ghost_positions(keyframes_, clip_->frame);
  e.joint_colors = error_colors(keyframes_, clip_->frame);
  gaze_ = gaze_segments(eyes_, clip_->frame);
  e.gaze = gaze_;
  e.skin = &skin_;
  e.compare = &compare_;
  e.model = &model_;
  return e;
}

void App::follow_root() {
  const Eigen::Vector3d root = followed_point(compare_, *clip_);
  if (view_.follow_root) {
    // Over the ground only, so that the view does not bob with every step.
    view_.camera.target.x() += root.x() - view_.followed_root.x();
    view_.camera.target.z() += root.z() - view_.followed_root.z();
  }
  view_.followed_root = root;
}

void App::apply(ViewRequest request) {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  const double aspect = h > 0 ? static_cast<double>(w) / h : 16.0 / 9.0;
  if (request == ViewRequest::kFrameAll) {
    std::vector<Eigen::Vector3d> points = sampled_positions(*clip_, 4);
    for (const CompareMotion& m : compare_.motions) {
      if (!m.visible) continue;
      for (const Eigen::Vector3d& p : sampled_positions(m.clip, 4)) points.push_back(p + m.offset);
    }
    frame_points(view_.camera, points, aspect);
    view_.follow_root = false;  // the whole path stays in view
  } else if (request == ViewRequest::kFrameFigure) {
    std::vector<Eigen::Vector3d> points = scene_points(compare_, *clip_);
    // The skin reaches past the joints (the top of the head, the toes).
    if (skin_.loaded && view_.options.show_mesh) {
      const auto vertices = skin_.skinner->positions();
      for (std::size_t v = 0; v < vertices.size(); v += 16) {
        points.push_back((skin_.world_from_mesh * vertices[v]).cast<double>());
      }
    }
    model_points(model_, points);
    frame_points(view_.camera, points, aspect);
  }
}

void App::export_pictures(int w, int h) {
  export_movie(w, h);
  if (!export_.screenshot_requested && !export_.sequence_running) return;
  if (auto e = offscreen_.resize(w, h)) {
    set_status(*e, true);
    export_.screenshot_requested = export_.sequence_running = false;
    return;
  }
  if (export_.screenshot_requested) {
    export_.screenshot_requested = false;
    const auto e = save_png(renderer_, offscreen_, clip_ ? &*clip_ : nullptr, view_, export_.screenshot_path, extras());
    set_status(e ? *e : "saved " + export_.screenshot_path, e.has_value());
  }
  if (export_.sequence_running && clip_) {
    const int shown = clip_->frame;
    pose_frame(*clip_, export_.next);
    update_skin(skin_, *clip_);
    update_model(model_, *clip_);
    const std::string path = frame_file(export_.sequence_prefix, playback_.number_of(export_.next));
    const auto e = save_png(renderer_, offscreen_, &*clip_, view_, path, extras());
    pose_frame(*clip_, shown);
    update_skin(skin_, *clip_);
    update_model(model_, *clip_);
    if (e) {
      set_status(*e, true);
      export_.sequence_running = false;
    } else if (++export_.next > export_.last) {
      const int first = playback_.number_of(export_.first), last = playback_.number_of(export_.last);
      set_status("saved frames " + std::to_string(first) + " to " + std::to_string(last) + " as " +
                     frame_file(export_.sequence_prefix, first) + " ...",
                 false);
      export_.sequence_running = false;
    }
  }
}

void App::export_movie(int w, int h) {
  if (!clip_) return;
  // H.264 wants an even size: the window's, less its odd last column or row.
  const int mw = w & ~1, mh = h & ~1;
  const double rate = export_.movie_fps > 0.0f ? export_.movie_fps : clip_->capture.motion.fps;
  if (export_.movie_requested) {
    export_.movie_requested = false;
    if (auto ok = movie_.open(export_.movie_path, mw, mh, rate, RowOrder::kBottomFirst); !ok) {
      return set_status(ok.error().to_string(), true);
    }
    if (auto e = offscreen_.resize(mw, mh)) return set_status(*e, true);
    export_.movie_running = true;
    export_.movie_frame = 0;
  }
  if (!movie_.is_open()) return;
  const int count = movie_length(export_.first, export_.last, clip_->capture.motion.fps, rate);
  if (export_.movie_running && export_.movie_frame < count) {
    if (auto e = offscreen_.resize(mw, mh)) {
      movie_.close();
      export_.movie_running = false;
      return set_status(*e, true);
    }
    const int shown = clip_->frame;
    pose_frame(*clip_, std::min(movie_frame(export_.first, export_.movie_frame, clip_->capture.motion.fps, rate),
                                export_.last));
    pose_motions(compare_, *clip_);
    update_skin(skin_, *clip_);
    update_model(model_, *clip_);
    offscreen_.bind();
    draw_scene(renderer_, &*clip_, view_, mw, mh, extras());
    const std::vector<std::uint8_t> rgb = offscreen_.read_rgb(false);
    Offscreen::bind_default();
    pose_frame(*clip_, shown);
    pose_motions(compare_, *clip_);
    update_skin(skin_, *clip_);
    update_model(model_, *clip_);
    if (auto ok = movie_.write(rgb); !ok) {
      export_.movie_running = false;
      set_status(ok.error().to_string(), true);
    } else {
      ++export_.movie_frame;
    }
    if (export_.movie_frame < count && export_.movie_running) return;
  }
  // Done or stopped: ffmpeg finishes the file.
  const int written = movie_.frames();
  export_.movie_running = false;
  if (auto ok = movie_.close(); !ok) return set_status(ok.error().to_string(), true);
  set_status("saved " + export_.movie_path + " (" + std::to_string(written) + " frames)", false);
}

}  // namespace mocap::viewer
