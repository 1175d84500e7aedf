#include "clip.h"

#include <mocap/io/amc.h>
#include <mocap/io/asf.h>

#include <algorithm>

namespace mocap::viewer {

Result<Clip> load_clip(const std::string& asf_path, const std::string& amc_path) {
  Result<Skeleton> skeleton = read_asf(asf_path);
  if (!skeleton) return std::unexpected(skeleton.error());
  Result<Motion> motion = read_amc(amc_path, *skeleton);
  if (!motion) return std::unexpected(motion.error());
  Clip clip;
  clip.asf_path = asf_path;
  clip.amc_path = amc_path;
  clip.skeleton = std::move(*skeleton);
  clip.motion = std::move(*motion);
  clip.pose = make_pose(clip.skeleton);
  clip.positions.assign(clip.skeleton.bones.size(), Eigen::Vector3d::Zero());
  clip.rotations.assign(clip.skeleton.bones.size(), Eigen::Quaterniond::Identity());
  pose_clip(clip, 0);
  return clip;
}

void pose_clip(Clip& clip, int frame) {
  if (clip.frame_count() == 0) return;
  frame = std::clamp(frame, 0, clip.frame_count() - 1);
  if (frame == clip.frame) return;
  pose_from_channels(clip.skeleton, clip.motion.frame(frame), clip.pose);
  forward_kinematics(clip.skeleton, clip.pose, clip.positions, clip.rotations);
  clip.frame = frame;
}

std::vector<Eigen::Vector3d> sampled_positions(const Clip& clip, int stride) {
  std::vector<Eigen::Vector3d> out;
  const int frames = clip.frame_count();
  if (frames == 0) return out;
  stride = std::max(stride, 1);
  Pose pose = make_pose(clip.skeleton);
  std::vector<Eigen::Vector3d> positions(clip.skeleton.bones.size());
  std::vector<Eigen::Quaterniond> rotations(clip.skeleton.bones.size());
  for (int f = 0;; f = std::min(f + stride, frames - 1)) {
    pose_from_channels(clip.skeleton, clip.motion.frame(f), pose);
    forward_kinematics(clip.skeleton, pose, positions, rotations);
    out.insert(out.end(), positions.begin(), positions.end());
    if (f == frames - 1) break;
  }
  return out;
}

std::string bundled_data_dir() {
  return MOCAP_VIEWER_DATA_DIR;
}
std::string default_asf() {
  return bundled_data_dir() + "/09.asf";
}
std::string default_amc() {
  return bundled_data_dir() + "/09_06.amc";
}

}  // namespace mocap::viewer
