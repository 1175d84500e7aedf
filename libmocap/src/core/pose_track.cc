#include <mocap/core/fk.h>
#include <mocap/core/pose_track.h>

namespace mocap {

PoseTrack make_pose_track(const Skeleton& skeleton, const Motion& motion) {
  PoseTrack track;
  const std::size_t n = static_cast<std::size_t>(motion.frame_count()) * skeleton.bones.size();
  track.rotation.resize(n);
  track.offset.resize(n);
  fill_pose_track(skeleton, motion, track);
  return track;
}

void fill_pose_track(const Skeleton& skeleton, const Motion& motion, PoseTrack& track) {
  track.frames = motion.frame_count();
  track.bones = static_cast<int>(skeleton.bones.size());
  const std::size_t bones = skeleton.bones.size();
  for (int f = 0; f < track.frames; ++f) {
    const std::size_t row = static_cast<std::size_t>(f) * bones;
    pose_from_channels(skeleton, motion.frame(f), std::span(track.rotation).subspan(row, bones),
                       std::span(track.offset).subspan(row, bones));
  }
}

}  // namespace mocap
