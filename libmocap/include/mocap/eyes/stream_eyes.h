// A whole stream to two eye displays in one call, as `mocap eyes --left
// --right` runs it: the frames of an EyeTimeline through an EyeStreamer
// (eye_stream.h) until its duration ends or the process is asked to stop.
//
// The method, in order:
//   1. Both devices must open (open_serial) within open_timeout_s, each
//      tried every 0.1 s, and are closed again: a display missing at the
//      start is an error, while one lost later is retried by the streamer.
//   2. SIGINT and SIGTERM are blocked in the calling thread and taken
//      synchronously (the streamer's threads inherit the mask, so no handler
//      runs in the middle of a write); SIGPIPE is ignored from then on.
//   3. The streamer runs until it has published its last frame or one of
//      those signals arrives; then it stops (a neutral frame last) and the
//      signals are unblocked again.
#pragma once

#include <mocap/core/error.h>
#include <mocap/eyes/eye_body.h>
#include <mocap/eyes/eye_stream.h>

namespace mocap {

// Steps 1-3. `options` must be valid (EyeStreamOptions::validate); the
// timeline is advanced by the streamer's animation thread only. Fails with
// open_serial's error of the first device that did not open in time.
Result<EyeStreamStats> stream_eyes(const EyeStreamOptions& options, EyeTimeline& timeline, double open_timeout_s);

}  // namespace mocap
