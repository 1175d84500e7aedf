// The window's state and its frame: the clip and everything shown with it
// (playback, view, the panels' states, the motions beside it, the skin and
// the model), and one pass of the loop over them: panels, pose, scene,
// exports. main.cc owns the loop (poll, App::frame, swap), as in Dear ImGui's
// example_glfw_opengl3; each panel is a free function taking the state it
// edits (panels.h and the *_panel.h files), and animation is the library's.
#pragma once

#include "camera_flags.h"
#include "compare.h"
#include "compare_panel.h"
#include "eyes_panel.h"
#include "keyframes_panel.h"
#include "model_panel.h"
#include "options.h"
#include "panels.h"
#include "playback.h"
#include "posed_capture.h"
#include "render.h"
#include "scene.h"
#include "skin_panel.h"

#include <mocap/io/bvh.h>
#include <mocap/io/movie.h>

#include <Eigen/Core>
#include <optional>
#include <string>
#include <utility>
#include <vector>

struct GLFWwindow;

namespace mocap::viewer {

class App {
 public:
  // `window` (window.h) with Dear ImGui started on it.
  explicit App(GLFWwindow* window) : window_(window) {}

  // The renderer's GL objects; the error when there are none.
  std::optional<std::string> init() { return renderer_.init(); }

  // What the command line asks for: the clip (or the bundled one), the
  // motions beside it, the camera flags, the frame (paused there; none:
  // playing), keyframes, eyes, the mesh and the model. A file that fails is
  // one line on stderr and the panel's status; the window opens anyway.
  void start(const Options& options);

  // Dropped files: with a clip loaded, motions to compare (an AMC of its
  // skeleton, a BVH, or an ASF and an AMC); without one, or with shift held,
  // the main clip.
  void take_drops();

  // One pass of the loop after polling.
  void frame(double dt);

 private:
  // Loads a pair (or a BVH alone, amc empty); on failure keeps what is loaded
  // and shows the parser's message.
  void load(const std::string& asf, const std::string& amc) { adopt(load_capture(asf, amc, bvh_metres_), asf, amc); }
  void set_bvh_metres(double metres_per_unit) { bvh_metres_ = metres_per_unit; }
  void adopt(Result<PosedCapture> clip, const std::string& asf, const std::string& amc);

  // Adds a motion beside the main clip; the message says what happened.
  void add_compare(const std::string& first, const std::string& second);
  std::optional<std::string> add_compare(const Options& options);

  void set_xray(bool on) { view_.options.xray = on; }
  // The window takes the direction, field of view and turntable; distance and
  // target are the headless pictures' (the window frames the figure and
  // follows its root).
  void set_camera_flags(const CameraFlags& flags);

  // Shows the frame numbered `number` in the file (or the next one).
  void seek_number(int number) { playback_.seek(playback_.frame_at(number)); }
  void load_mesh(const SkinForm& form);
  void load_mesh();

  // Retargets the clip onto a rigged character (model_panel.h); on failure
  // keeps the clip and shows the library's message.
  void load_model(const ModelForm& form);
  void load_model();

  void show_eyes();
  void extract_keys(const Options& options);
  void play() { playback_.play(); }

  void set_status(std::string text, bool error) { status_ = {std::move(text), error}; }

  // The panels' additions for the frame the clip is posed at.
  SceneExtras extras();

  void follow_root();

  void apply(ViewRequest request);

  // The screenshot and the sequence (one frame per pass, so the window stays live).
  void export_pictures(int w, int h);

  // The movie of frames First to Last (Export panel), one frame per pass of
  // the loop; ffmpeg is checked before the first frame is rendered.
  void export_movie(int w, int h);

  GLFWwindow* window_;
  Renderer renderer_;
  Offscreen offscreen_;
  std::optional<PosedCapture> clip_;
  Playback playback_;
  ViewState view_;
  OpenForm form_;
  ExportState export_;
  KeyframeState keyframes_;
  EyesState eyes_;
  SkinForm skin_form_;
  SkinState skin_;
  ModelForm model_form_;
  ModelState model_;
  std::vector<Eigen::Vector3d> gaze_;  // this frame's gaze lines
  Status status_;
  CompareState compare_;
  CompareForm compare_form_;
  CameraFlags camera_flags_;
  // Frames to frame the figure in: two, since an auto-sized window (the
  // legend) has its size one frame after it appears.
  int needs_framing_ = 2;
  double bvh_metres_ = kBvhCentimetres;  // of BVH files opened or dropped
  MovieWriter movie_;
};

}  // namespace mocap::viewer
