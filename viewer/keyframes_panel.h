// The keyframe panel: runs the library's key compression (key_pipeline.h)
// with the selections `mocap compress` offers (key count, ratio, max joint
// error, threshold; default the refined selection at 10 % keys), and shows
// the error as the CLI does, the worst joint named with its AMC frame number. The viewer draws the rebuild as a ghost,
// the keys as ticks on the timeline and the error over time under it.
#pragma once

#include "colors.h"
#include "panels.h"
#include "playback.h"
#include "posed_capture.h"

#include <mocap/compress/key_pipeline.h>
#include <mocap/compress/motion_error.h>

#include <Eigen/Core>
#include <span>
#include <string>
#include <vector>

namespace mocap::viewer {

struct KeyframeState {
  bool enabled = false;  // compression runs and its results are drawn
  // The selection, as mocap compress --keys / --ratio / --max-error / --threshold.
  enum class Mode { kCount, kRatio, kMaxError, kThreshold };
  Mode mode = Mode::kRatio;
  int key_count = 30;          // keys (kCount)
  float ratio = 0.1f;          // share of frames as keys (kRatio)
  float max_error = 2.0f;      // cm, every joint on every frame (kMaxError)
  float threshold = 0.05f;     // pose distance (weighted radians, see extract.h) (kThreshold)
  bool show_ghost = true;      // the rebuilt motion over the original
  bool color_by_error = true;  // joints coloured by their current error
  float color_max_cm = 5.0f;   // error drawn fully red

  // Results for the clip they were computed for (`frames` == 0: none).
  int frames = 0;
  const PosedCapture* clip = nullptr;
  std::vector<int> keys;
  MotionError error;
  std::vector<float> error_per_frame;  // position error, cm (the graph)
  // World positions and rotations of every frame, frame-major (f * bones + j).
  std::vector<Eigen::Vector3d> original_positions, rebuilt_positions;
  std::vector<Eigen::Quaterniond> original_rotations, rebuilt_rotations;
  std::vector<colors::Rgb> joint_colors;  // of the current frame
  std::string message;                    // the last failure, if any
};

// Recomputes keys, rebuild and error for `clip` by state.mode.
void run_keyframes(KeyframeState& state, const PosedCapture& clip);

// The panel; returns a frame to jump to (the worst frame), or -1.
int keyframes_panel(KeyframeState& state, const PosedCapture* clip, const Playback& playback);

// The rebuilt pose of `frame` (state.frames bones long), empty when there is none.
std::span<const Eigen::Vector3d> ghost_positions(const KeyframeState& state, int frame);

// Per-joint colours of `frame` by the distance between original and rebuilt
// joint (green 0, yellow, red at color_max_cm); empty when off.
std::span<const colors::Rgb> error_colors(KeyframeState& state, int frame);

TimelineMarks timeline_marks(const KeyframeState& state);

}  // namespace mocap::viewer
