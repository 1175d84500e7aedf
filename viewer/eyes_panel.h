// The eyes panel: the library's procedural eyes (eyes.h) on the clip's
// timeline, driven by the captured head (eye_body.h). The track is generated
// for the whole clip whenever a control changes, and the Eyes window shows
// the current frame as the two serial displays show it (eye_display.h: the
// round panels, iris at the gaze, lids at the opening, the pupil's size).
//
// update_eyes and gaze_segments are GL-free (eyes_track.cc, in the viewer's
// core library, so the screenshot check makes the same track); the panel and
// the window are ImGui (eyes_panel.cc).
#pragma once

#include "posed_capture.h"

#include <mocap/eyes/eye_body.h>
#include <mocap/eyes/eye_display.h>
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
  const PosedCapture* clip = nullptr;
  std::optional<HeadTrack> head;
  std::vector<EyeFrame> track;       // one per clip frame
  std::string message;               // why there is no head, if so
  EyeDisplayGeometry display;        // the displays the window draws
  std::vector<std::uint8_t> pixels;  // the window's picture (draw_eye_pair)
  unsigned texture = 0;              // its GL texture, made on first use
};

// Regenerates the track when a control changed or the clip is another.
void update_eyes(EyesState& state, const PosedCapture& clip);

// The controls (in the current window); regenerates the track on a change.
void eyes_panel(EyesState& state, const PosedCapture* clip);

// A window with the two displays at `frame` (a frame index), as a person
// facing the character sees them, drawn 1:1 in the displays' pixels.
void eyes_window(EyesState& state, int frame);

// Gaze lines of `frame` (left eye start, end, right eye start, end), 40 cm long;
// empty when off or without a head.
std::vector<Eigen::Vector3d> gaze_segments(const EyesState& state, int frame);

}  // namespace mocap::viewer
