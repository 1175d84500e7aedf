// The keyframe panel: runs the library's extraction (keyframes.h) at a
// threshold, rebuilds the motion from the keys and measures it against the
// original (motion_error.h). The viewer draws the rebuild as a ghost, the keys
// as ticks on the timeline and the error over time under it.
#pragma once

#include "clip.h"
#include "colors.h"
#include "panels.h"
#include "playback.h"

#include <mocap/compress/keyframes.h>
#include <mocap/compress/motion_error.h>

#include <Eigen/Core>
#include <span>
#include <string>
#include <vector>

namespace mocap::viewer {

struct KeyframeState {
  bool enabled = false;        // extraction runs and its results are drawn
  float threshold = 0.05f;     // pose distance (weighted radians, see keyframes.h)
  bool show_ghost = true;      // the rebuilt motion over the original
  bool color_by_error = true;  // joints coloured by their current error
  float color_max_cm = 5.0f;   // error drawn fully red

  // Results for the clip they were computed for (`frames` == 0: none).
  int frames = 0;
  const Clip* clip = nullptr;
  PoseTrack track;
  std::vector<double> weights;
  std::vector<int> keys;
  MotionError error;
  std::vector<float> error_per_frame;  // position error, cm (the graph)
  // World positions and rotations of every frame, frame-major (f * bones + j).
  std::vector<Eigen::Vector3d> original_positions, rebuilt_positions;
  std::vector<Eigen::Quaterniond> original_rotations, rebuilt_rotations;
  std::vector<colors::Rgb> joint_colors;  // of the current frame
  std::string message;                    // the last failure, if any
};

// Recomputes keys, rebuild and error for `clip` at state.threshold.
void run_keyframes(KeyframeState& state, const Clip& clip);

// The panel; returns a frame to jump to (the worst frame), or -1.
int keyframes_panel(KeyframeState& state, const Clip* clip, const Playback& playback);

// The rebuilt pose of `frame` (state.frames bones long), empty when there is none.
std::span<const Eigen::Vector3d> ghost_positions(const KeyframeState& state, int frame);

// Per-joint colours of `frame` by the distance between original and rebuilt
// joint (green 0, yellow, red at color_max_cm); empty when off.
std::span<const colors::Rgb> error_colors(KeyframeState& state, int frame);

TimelineMarks timeline_marks(const KeyframeState& state);

}  // namespace mocap::viewer
