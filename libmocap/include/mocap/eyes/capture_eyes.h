// The eyes of a capture, or of none: what `mocap eyes` and the Python module
// make of a user's choices before they sample a track or stream it to the
// displays: the capture's head track, the timeline's options on it, a rate
// and a length.
#pragma once

#include <mocap/core/error.h>
#include <mocap/eyes/eye_body.h>
#include <mocap/eyes/eyes.h>
#include <mocap/io/capture.h>

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <optional>

namespace mocap {

struct CaptureEyesRequest {
  EyeParams params;  // params.emotion: each of pleasure, arousal, dominance in [-1, 1]
  std::uint64_t seed = 1;
  std::optional<Eigen::Vector3d> world_target;  // metres; needs a capture
  // Who reads the frames: a track file samples a capture on its own frames by
  // default; the displays run at 40 Hz and, without a capture, until stopped.
  bool to_displays = false;
  std::optional<double> rate_hz;     // > 0; default: the capture's frame rate for a track, else 40
  std::optional<double> duration_s;  // >= 0; default: the capture's length, else 10 s (displays: 0, until stopped)
};

struct CaptureEyes {
  std::unique_ptr<HeadTrack> head;  // null without a capture; a pointer so options.head survives a move
  EyeTimelineOptions options;       // valid; options.head is head.get()
  double fps = 40.0;
  double seconds = 10.0;
};

// The head track of `capture` (eye_body.h head_track, its bone "head") and
// the request made into valid timeline options, with the rate and length
// filled in. Fails naming the capture's motion file when it has no head, or
// with what the request breaks (emotion outside [-1, 1], a target without a
// capture, a rate <= 0 or a negative duration).
Result<CaptureEyes> capture_eyes(const Capture* capture, const CaptureEyesRequest& request);

}  // namespace mocap
