// The viewer's state in plain structs and its ImGui panels, each a free
// function taking the state it edits (Dear ImGui's example is the model).
#pragma once

#include "camera.h"
#include "playback.h"
#include "posed_capture.h"
#include "render.h"

#include <Eigen/Core>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mocap::viewer {

// Camera, what is shown, and the selected joint.
struct ViewState {
  Camera camera;
  bool follow_root = true;                                  // the camera target moves with the root over the ground
  Eigen::Vector3d followed_root = Eigen::Vector3d::Zero();  // root position the target last moved with
  SceneOptions options;
  int selected = -1;  // bone whose joint is highlighted and named; -1: none
};

// A message shown in the window: the last load's or export's result.
struct Status {
  std::string text;
  bool error = false;
};

// Paths typed into the Open panel.
struct OpenForm {
  std::string asf;
  std::string amc;
};

// Screenshot and PNG sequence.
struct ExportState {
  std::string screenshot_path = "mocap-screenshot.png";
  std::string sequence_prefix = "frames/frame_";  // + the file's frame number, 5 digits, + ".png"
  int first = 0;                                  // frames (indices); the panel shows their file numbers
  int last = 0;
  bool screenshot_requested = false;
  bool sequence_running = false;
  int next = 0;  // the sequence's next frame while running
  // A movie of frames first to last through ffmpeg (io/movie.h), one frame per
  // pass of the loop, at the clip's rate or `movie_fps`.
  std::string movie_path = "mocap-movie.mp4";
  float movie_fps = 0.0f;  // 0: the clip's rate
  bool movie_requested = false;
  bool movie_running = false;
  int movie_frame = 0;  // the movie's next output frame while running
};

// What a panel asks the main loop to do.
enum class ViewRequest { kNone, kFrameAll, kFrameFigure };

// Marks on the timeline: key frames as ticks on the scrubber, and a graph of
// the error over time under it.
struct TimelineMarks {
  std::span<const int> keys;                   // frame indices
  std::span<const float> error;                // one value per frame, cm
  float error_max = 0.0f;                      // the graph's top
  const char* statistic = "mean over joints";  // what a frame's value is, as the graph and legend name it
  // Beside the error graph: the worst joint's velocity error per frame
  // (cm/s, compare.h), when there is one.
  std::span<const float> velocity;
  float velocity_max = 0.0f;  // its graph's top
  // The main clip's foot contacts (compare.h ContactBars): per frame 1 while
  // in contact; two thin bars under the scrubber, left above right.
  std::span<const unsigned char> contact_left, contact_right;
};

// The contact bars' colours: left magenta, right yellow (hues the scene
// and the error scale do not use).
inline constexpr unsigned char kLeftContactRgb[3] = {255, 0, 255};
inline constexpr unsigned char kRightContactRgb[3] = {255, 255, 0};

// The timeline's height in pixels, with or without the error graph.
float timeline_height(const TimelineMarks& marks);

// The timeline across the bottom of the window: transport buttons, scrubber,
// speed presets, loop and the readout; key ticks and the error graph (a click
// on it jumps to that frame) when `marks` has them. Returns true while the
// scrubber is being dragged.
bool timeline_panel(Playback& playback, const TimelineMarks& marks = {});

// Scene toggles, camera presets and joint selection.
ViewRequest scene_panel(ViewState& view, const PosedCapture* clip);

// A path field that, while not edited, shows the end of a long path (the
// file's name) rather than its start; the whole path in a tooltip.
bool path_field(const char* label, std::string& path);

// Paths of an ASF and AMC (or a BVH alone) to load; returns true when Load was pressed.
bool open_panel(OpenForm& form, const Status& status);

// Screenshot and sequence controls.
void export_panel(ExportState& state, const Playback& playback);

// The selected joint's name beside it in the scene (drawn over the scene).
void joint_label(const ViewState& view, const PosedCapture& clip);

// The bone whose joint is nearest to the screen point (x, y) within
// `radius_px`, or -1.
int pick_joint(const Camera& camera, std::span<const Eigen::Vector3d> positions, double x, double y, int width,
               int height, double radius_px);

// Keyboard (timeline keys and camera keys) and mouse (orbit, pan, zoom, pick),
// each only when ImGui does not want it.
ViewRequest handle_input(Playback& playback, ViewState& view, const PosedCapture* clip);

}  // namespace mocap::viewer
