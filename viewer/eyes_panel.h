// The eyes panel: the library's procedural eyes (eyes.h) on the clip's
// timeline, driven by the captured head (eye_body.h). The track is generated
// for the whole clip whenever a control changes, and the panel draws the two
// eyes of the current frame: iris disc, pupil at its gaze and size, lids at
// their openness, brows.
#pragma once

#include "clip.h"

#include <mocap/eyes/eye_body.h>
#include <mocap/eyes/eyes.h>

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mocap::viewer {

struct EyesState {
  bool enabled = false;
  EyeParams params;
  int seed = 1;
  bool use_head = true;   // the capture's head drives leads and blinks
  bool show_gaze = true;  // gaze lines from the eyes in the scene
  bool dirty = true;      // a control changed: regenerate
  const Clip* clip = nullptr;
  std::optional<HeadTrack> head;
  std::vector<EyeFrame> track;  // one per clip frame
  std::string message;          // why there is no head, if so
};

// Regenerates the track when a control changed or the clip is another.
void update_eyes(EyesState& state, const Clip& clip);

// The controls (in the current window); regenerates the track on a change.
void eyes_panel(EyesState& state, const Clip* clip);

// A window with the two eyes at `frame`, as seen facing the character.
void eyes_window(const EyesState& state, int frame);

// Gaze lines of `frame` (left eye start, end, right eye start, end), 40 cm long;
// empty when off or without a head.
std::vector<Eigen::Vector3d> gaze_segments(const EyesState& state, int frame);

}  // namespace mocap::viewer
