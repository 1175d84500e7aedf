// What the viewer has loaded: a capture (io/capture.h) and the pose of the
// frame on screen. Loading and posing call the library (read_capture,
// read_bvh_capture, pose_from_channels, forward_kinematics); the viewer adds
// no animation logic.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/fk.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/capture.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <string>
#include <vector>

namespace mocap::viewer {

struct PosedCapture {
  // As loaded; for a BVH alone amc_path is empty (the viewer's paths as given).
  Capture capture;
  // The pose of `frame` and its forward kinematics (one entry per bone).
  int frame = -1;
  Pose pose;
  std::vector<Eigen::Vector3d> positions;  // bone end points, metres (bone 0: the root)
  std::vector<Eigen::Quaterniond> rotations;

  int frame_count() const { return capture.motion.frame_count(); }
};

// Reads `asf_path` and `amc_path` (or a BVH alone, `amc_path` empty, its
// lengths times `bvh_metres_per_unit`) and poses the first frame. The error
// is the parser's, naming the file and the line.
Result<PosedCapture> load_capture(const std::string& asf_path, const std::string& amc_path,
                                  double bvh_metres_per_unit = 0.01);

// Poses frame `frame` (clamped to the capture) into .pose / positions / rotations.
void pose_frame(PosedCapture& clip, int frame);

// The frame (index) whose file frame number is `number`, or -1: the viewer
// takes and shows the file's numbers, as the CLI does.
int frame_index(const PosedCapture& clip, int number);

// Joint positions of every `stride`-th frame (and the last), for framing the
// whole clip in view.
std::vector<Eigen::Vector3d> sampled_positions(const PosedCapture& clip, int stride);

// The directory of the bundled clips (compile definition), and the default
// clip in it.
std::string bundled_data_dir();
std::string default_asf();
std::string default_amc();

}  // namespace mocap::viewer
