// The GL-free half of eyes_panel.h: the track and the gaze lines.
#include "eyes_panel.h"

namespace mocap::viewer {
namespace {

constexpr double kHalfEyeDistance_m = 0.032;
// Gaze lines end 40 cm out: far enough to read the direction, short enough to
// stay on screen when the camera frames the figure.
constexpr double kGazeLength_m = 0.4;

}  // namespace

void update_eyes(EyesState& state, const PosedCapture& clip) {
  if (!state.dirty && state.clip == &clip) return;
  if (state.clip != &clip) {
    state.head.reset();
    state.message.clear();
    Result<HeadTrack> head = head_track(clip.capture.skeleton, clip.capture.motion);
    if (head) {
      state.head = std::move(*head);
    } else {
      state.message = head.error().to_string();
    }
    state.clip = &clip;
  }
  EyeTimelineOptions options;
  options.params = state.params;
  options.seed = static_cast<std::uint64_t>(state.seed);
  options.head = state.use_head && state.head ? &*state.head : nullptr;
  EyeTimeline timeline(options);
  state.track = eye_track(timeline, clip.capture.motion.fps, clip.capture.motion.duration_seconds());
  state.dirty = false;
}

std::vector<Eigen::Vector3d> gaze_segments(const EyesState& state, int frame) {
  std::vector<Eigen::Vector3d> out;
  if (!state.enabled || !state.show_gaze || !state.head || state.track.empty()) return out;
  const HeadTrack& head = *state.head;
  if (frame < 0 || frame >= head.frame_count() || frame >= static_cast<int>(state.track.size())) return out;
  const Eigen::Quaterniond& rotation = head.rotation[frame];
  const Eigen::Vector3d& middle = head.eye_position[frame];
  // The character's left is +X in an Acclaim rest pose (eye_body.h).
  const Eigen::Vector3d left = rotation * Eigen::Vector3d::UnitX();
  const EyeFrame& f = state.track[frame];
  const double range = clamped(state.params).range_rad;
  for (const auto& [eye, side] : {std::pair{f.left, 1.0}, std::pair{f.right, -1.0}}) {
    const Eigen::Vector3d from = middle + side * kHalfEyeDistance_m * left;
    out.push_back(from);
    out.push_back(from + kGazeLength_m * gaze_direction(head, rotation, Eigen::Vector2d(eye.x, eye.y), range));
  }
  return out;
}

}  // namespace mocap::viewer
