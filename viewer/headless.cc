#include "headless.h"

#include "camera_flags.h"
#include "compare.h"
#include "eyes_panel.h"
#include "keyframes_panel.h"
#include "model_panel.h"
#include "outputs.h"
#include "panels.h"
#include "posed_capture.h"
#include "render.h"
#include "scene.h"
#include "skin_panel.h"
#include "startup.h"
#include "window.h"

#include <mocap/core/frame_range.h>
#include <mocap/io/atomic_write.h>
#include <mocap/io/movie.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace mocap::viewer {

int run_headless(const Options& options) {
  int width = 0, height = 0;
  if (!parse_size(options.size, width, height)) {
    std::cerr << "mocap-viewer: --size " << options.size << ": expected WxH, e.g. 1280x720\n";
    return kUsage;
  }
  Result<PosedCapture> clip = load_initial(options);
  if (!clip) {
    std::cerr << "mocap-viewer: " << clip.error().to_string() << "\n";
    return kInput;
  }
  // --frame, --last and --step by the file's frame numbers (core/frame_range.h).
  const std::vector<int>& numbers = clip->capture.motion.frame_numbers;
  if (numbers.empty()) {
    std::cerr << "mocap-viewer: " << clip->capture.amc_path << ": no frame to render\n";
    return kInput;
  }
  FrameRange range;
  range.first = options.frame.value_or(numbers.front());
  range.last = options.last_frame.value_or(options.record.empty() ? range.first : numbers.back());
  range.step = options.frame_step;
  std::vector<int> frames = select_frames(range, numbers);
  if (frame_index(*clip, range.first) < 0 || range.last < range.first || frames.empty()) {
    std::cerr << "mocap-viewer: --frame " << range.first << " --last " << range.last << ": the clip has frames "
              << numbers.front() << " to " << numbers.back() << " (and --last may not come before --frame)\n";
    return kUsage;
  }
  const bool movie = !options.record.empty();
  const double movie_fps = options.record_fps > 0.0 ? options.record_fps : clip->capture.motion.fps;
  // Every output is checked before anything is rendered.
  if (movie) {
    if (auto ok = check_movie(options.record, width, height, movie_fps); !ok) {
      std::cerr << "mocap-viewer: --record " << ok.error().to_string() << "\n";
      return kOutput;
    }
    const int count = movie_length(frames.front(), frames.back(), clip->capture.motion.fps, movie_fps);
    std::vector<int> shown;
    for (int i = 0; i < count; ++i) {
      shown.push_back(std::min(movie_frame(frames.front(), i, clip->capture.motion.fps, movie_fps), frames.back()));
    }
    frames = std::move(shown);
  } else {
    const std::string first =
        options.last_frame ? frame_file(options.screenshot, numbers[frames.front()]) : options.screenshot;
    if (auto ok = check_output_path(first); !ok) {
      std::cerr << "mocap-viewer: --screenshot " << ok.error().to_string() << "\n";
      return kOutput;
    }
  }
  Result<CameraTarget> target = parse_target(options.camera.target, clip->capture.skeleton);
  if (!target) {
    std::cerr << "mocap-viewer: " << target.error().to_string() << "\n";
    return kUsage;
  }
  CompareState compare;
  if (auto e = load_compare(compare, options, *clip)) {
    std::cerr << "mocap-viewer: " << *e << "\n";
    return kInput;
  }
  // The model is retargeted before any window opens: a bad one is exit 2 anywhere.
  ModelState model;
  if (!options.model.path.empty()) {
    if (auto e = load_model(model, options.model, *clip)) {
      std::cerr << "mocap-viewer: " << *e << "\n";
      return kInput;
    }
    place_model(model, compare, *clip);
  }
  GLFWwindow* window = open_window(64, 64, false, "mocap-viewer");
  if (!window) {
    std::cerr << "mocap-viewer: cannot open an OpenGL 3.3 window (no display? try xvfb-run -a)\n";
    return kNoGl;
  }
  int code = kOk;
  {
    Renderer renderer;
    Offscreen offscreen;
    std::optional<std::string> error = renderer.init();
    if (!error) error = offscreen.resize(width, height);
    if (error) {
      std::cerr << "mocap-viewer: " << *error << "\n";
      code = kNoGl;
    } else {
      pose_frame(*clip, frames.front());
      pose_motions(compare, *clip);
      update_model(model, *clip);
      ViewState view;
      view.options.xray = options.xray;
      // The camera frames the first picture (every motion and the model in
      // it) and follows the root over the ground, as the window's camera
      // does by default.
      std::vector<Eigen::Vector3d> framed = scene_points(compare, *clip);
      model_points(model, framed);
      const Camera first =
          flags_camera(options.camera, *target, framed, clip->positions, static_cast<double>(width) / height);
      view.camera = first;
      view.followed_root = followed_point(compare, *clip);
      const bool follow = options.camera.target.empty();
      KeyframeState keyframes;
      if (start_keyframes(keyframes, options)) run_keyframes(keyframes, *clip);
      EyesState eyes;
      if (options.eyes) {
        eyes.enabled = true;
        update_eyes(eyes, *clip);
      }
      SkinState skin;
      skin.stretch_ratio = options.stretch;
      if (const auto form = skin_form(options)) {
        if (auto e = load_skin(skin, *form, *clip)) {
          std::cerr << "mocap-viewer: " << *e << "\n";
          code = kInput;
        }
      }
      MovieWriter writer;
      if (code == kOk && movie) {
        if (auto ok = writer.open(options.record, width, height, movie_fps, RowOrder::kBottomFirst); !ok) {
          std::cerr << "mocap-viewer: --record " << ok.error().to_string() << "\n";
          code = kOutput;
        }
      }
      // The mesh failed to load: nothing is written.
      for (std::size_t i = 0; i < frames.size(); ++i) {
        if (code != kOk) break;
        const int frame = frames[i];
        pose_frame(*clip, frame);
        pose_motions(compare, *clip);
        update_skin(skin, *clip);
        update_model(model, *clip);
        const Eigen::Vector3d followed = followed_point(compare, *clip);
        if (follow) {
          view.camera.target.x() += followed.x() - view.followed_root.x();
          view.camera.target.z() += followed.z() - view.followed_root.z();
        }
        view.followed_root = followed;
        const double seconds = movie ? i / movie_fps : (frame - frames.front()) / clip->capture.motion.fps;
        advance_camera(view.camera, first, options.camera, *target, clip->positions, seconds);
        const std::vector<Eigen::Vector3d> gaze = gaze_segments(eyes, frame);
        const SceneExtras extras{
            ghost_positions(keyframes, frame), error_colors(keyframes, frame), gaze, &skin, &compare, &model};
        if (movie) {
          offscreen.bind();
          draw_scene(renderer, &*clip, view, width, height, extras);
          const std::vector<std::uint8_t> rgb = offscreen.read_rgb(false);
          Offscreen::bind_default();
          if (auto ok = writer.write(rgb); !ok) {
            std::cerr << "mocap-viewer: --record " << ok.error().to_string() << "\n";
            code = kOutput;
          }
          continue;
        }
        const std::string path = options.last_frame
                                     ? frame_file(options.screenshot, numbers[static_cast<std::size_t>(frame)])
                                     : options.screenshot;
        if (auto e = save_png(renderer, offscreen, &*clip, view, path, extras)) {
          std::cerr << "mocap-viewer: " << *e << "\n";
          code = kOutput;
        }
      }
      if (movie && writer.is_open()) {
        const int written = writer.frames();
        if (auto ok = writer.close(); !ok) {
          std::cerr << "mocap-viewer: --record " << ok.error().to_string() << "\n";
          code = kOutput;
        } else if (code == kOk) {
          std::printf("mocap-viewer: wrote %s: %d frames of %dx%d at %g fps\n", options.record.c_str(), written, width,
                      height, movie_fps);
        }
      }
    }
  }
  close_window(window);
  return code;
}

}  // namespace mocap::viewer
