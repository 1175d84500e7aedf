#include "clip.h"

#include <mocap/io/bvh.h>
#include <mocap/io/clip.h>

#include <algorithm>

namespace mocap::viewer {

Result<Clip> load_clip(const std::string& asf_path, const std::string& amc_path, double bvh_metres_per_unit) {
  Result<ClipFile> file = amc_path.empty() && is_bvh_path(asf_path) ? read_bvh_clip(asf_path, bvh_metres_per_unit)
                                                                    : read_clip(asf_path, amc_path);
  if (!file) return std::unexpected(file.error());
  Clip clip;
  clip.asf_path = asf_path;
  clip.amc_path = amc_path;
  clip.skeleton = std::move(file->skeleton);
  clip.motion = std::move(file->motion);
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

int frame_index(const Clip& clip, int number) {
  const std::vector<int>& numbers = clip.motion.frame_numbers;
  const auto it = std::lower_bound(numbers.begin(), numbers.end(), number);
  return it != numbers.end() && *it == number ? static_cast<int>(it - numbers.begin()) : -1;
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
