#include "posed_capture.h"

#include <mocap/io/bvh.h>
#include <mocap/io/capture.h>

#include <algorithm>

namespace mocap::viewer {

Result<PosedCapture> load_capture(const std::string& asf_path, const std::string& amc_path,
                                  double bvh_metres_per_unit) {
  Result<Capture> capture = amc_path.empty() && is_bvh_path(asf_path) ? read_bvh_capture(asf_path, bvh_metres_per_unit)
                                                                      : read_capture(asf_path, amc_path);
  if (!capture) return std::unexpected(capture.error());
  PosedCapture clip;
  clip.capture = std::move(*capture);
  clip.capture.asf_path = asf_path;
  clip.capture.amc_path = amc_path;
  clip.pose = make_pose(clip.capture.skeleton);
  clip.positions.assign(clip.capture.skeleton.bones.size(), Eigen::Vector3d::Zero());
  clip.rotations.assign(clip.capture.skeleton.bones.size(), Eigen::Quaterniond::Identity());
  pose_frame(clip, 0);
  return clip;
}

void pose_frame(PosedCapture& clip, int frame) {
  if (clip.frame_count() == 0) return;
  frame = std::clamp(frame, 0, clip.frame_count() - 1);
  if (frame == clip.frame) return;
  pose_from_channels(clip.capture.skeleton, clip.capture.motion.frame(frame), clip.pose);
  forward_kinematics(clip.capture.skeleton, clip.pose, clip.positions, clip.rotations);
  clip.frame = frame;
}

int frame_index(const PosedCapture& clip, int number) {
  const std::vector<int>& numbers = clip.capture.motion.frame_numbers;
  const auto it = std::lower_bound(numbers.begin(), numbers.end(), number);
  return it != numbers.end() && *it == number ? static_cast<int>(it - numbers.begin()) : -1;
}

std::vector<Eigen::Vector3d> sampled_positions(const PosedCapture& clip, int stride) {
  std::vector<Eigen::Vector3d> out;
  const int frames = clip.frame_count();
  if (frames == 0) return out;
  stride = std::max(stride, 1);
  Pose pose = make_pose(clip.capture.skeleton);
  std::vector<Eigen::Vector3d> positions(clip.capture.skeleton.bones.size());
  std::vector<Eigen::Quaterniond> rotations(clip.capture.skeleton.bones.size());
  for (int f = 0;; f = std::min(f + stride, frames - 1)) {
    pose_from_channels(clip.capture.skeleton, clip.capture.motion.frame(f), pose);
    forward_kinematics(clip.capture.skeleton, pose, positions, rotations);
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
