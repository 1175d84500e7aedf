#include <mocap/eyes/capture_eyes.h>

#include <algorithm>
#include <array>
#include <utility>

namespace mocap {

Result<CaptureEyes> capture_eyes(const Capture* capture, const CaptureEyesRequest& request) {
  const Emotion& e = request.params.emotion;
  const std::array pad{e.pleasure, e.arousal, e.dominance};
  if (!std::all_of(pad.begin(), pad.end(), [](double v) { return v >= -1.0 && v <= 1.0; })) {
    return fail("", 0, "emotion: expected pleasure, arousal, dominance each in [-1, 1]");
  }
  CaptureEyes eyes;
  if (capture) {
    Result<HeadTrack> track = head_track(capture->skeleton, capture->motion);
    if (!track) return fail(capture->amc_path, 0, track.error().message);
    eyes.head = std::make_unique<HeadTrack>(std::move(*track));
  }
  eyes.options.params = request.params;
  eyes.options.seed = request.seed;
  eyes.options.head = eyes.head.get();
  eyes.options.world_target = request.world_target;
  if (auto valid = eyes.options.validate(); !valid) return std::unexpected(valid.error());
  const bool capture_rate = capture && !request.to_displays;
  eyes.fps = request.rate_hz.value_or(capture_rate ? capture->motion.fps : 40.0);
  eyes.seconds =
      request.duration_s.value_or(capture ? capture->motion.duration_seconds() : (request.to_displays ? 0.0 : 10.0));
  if (!(eyes.fps > 0.0) || !(eyes.seconds >= 0.0)) {
    return fail("", 0, "rate and duration: expected a rate > 0 Hz and a duration >= 0 s");
  }
  return eyes;
}

}  // namespace mocap
