// The command line: every flag the viewer takes, what it means, and its
// parsing (CLI11), with the exit codes the viewer returns. The flags share
// the CLI's vocabulary (README "One vocabulary"): file frame numbers, --keys
// as a key count, --mesh-units and --bvh-units from the library's tables.
#pragma once

#include "camera_flags.h"
#include "model_panel.h"

#include <mocap/io/bvh.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace mocap::viewer {

// Exit codes: 0 success, 1 usage, 2 bad input, 3 no window or OpenGL, 4 output.
enum ExitCode { kOk = 0, kUsage = 1, kInput = 2, kNoGl = 3, kOutput = 4 };

struct Options {
  std::vector<std::string> files;                 // asf amc | bvh, then [mesh.obj [weights.txt]]
  std::vector<std::vector<std::string>> compare;  // each --compare: a motion, or an ASF and an AMC
  std::optional<int> frame;                       // file frame number; none: the first (and, in a window, play)
  std::string screenshot;                         // headless when set
  std::optional<int> last_frame;  // >= frame: --screenshot is a prefix, one PNG per frame up to this one
  int frame_step = 1;
  std::string size = "1280x720";
  // Keyframes on from the start, as mocap compress --keys N / --threshold T.
  int key_count = -1;            // >= 2: this many keys (the refined selection)
  double keys_threshold = -1.0;  // >= 0: keys by the distance threshold
  std::string mesh_units = "m";
  std::string groups;        // OBJ groups to keep, separated by spaces
  std::string bind_pose;     // AMC posing the skeleton as the mesh stands
  bool eyes = false;         // the eyes panel on from the start
  bool xray = false;         // the (fitted) skeleton drawn over the skinned mesh
  double stretch = 0.0;      // > 0: the skinned mesh's edges past this ratio of their rest length drawn
  bool no_contacts = false;  // the main clip's foot contacts not marked on the timeline
  bool stats = false;
  int samples = -1;  // multisampling of the window; -1: 4, or 0 under software OpenGL (screenshots always use 4)
  double quit_after_s = 0.0;      // 0: run until closed
  std::string window_screenshot;  // the whole window, panels included, on closing
  std::string record;             // a movie of frames --frame to --last (headless)
  double record_fps = 0.0;        // 0: the clip's rate
  CameraFlags camera;
  std::string bvh_units = "cm";  // of BVH files, as mocap --bvh-units
  ModelForm model;               // --model, --map: the clip retargeted onto a rigged character

  double bvh_metres() const { return parse_length_unit(bvh_units).value_or(kBvhCentimetres); }
  bool main_is_bvh() const { return !files.empty() && is_bvh_path(files[0]); }
  // How many of `files` name the clip (2: ASF + AMC, 1: a BVH).
  std::size_t clip_files() const { return main_is_bvh() ? 1 : 2; }
};

// Reads the command line into `options`. An exit code when the viewer is to
// stop there: 0 after --help, 1 (kUsage) after a bad flag or a combination
// the viewer refuses, with one line on stderr.
std::optional<int> parse_options(int argc, char** argv, Options& options);

// "WxH" into width and height (each 16 to 8192).
bool parse_size(const std::string& text, int& width, int& height);

}  // namespace mocap::viewer
