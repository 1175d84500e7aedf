// Several motions on one timeline: the main clip (clip.h) and any number of
// others, each with its own colour, name, visibility and offset, posed at the
// main clip's frame (by frame number where the rates agree, by time where
// they differ). For a motion of the main clip's skeleton, the error between
// the two is `mocap eval`'s (compress/motion_error.h: ErrorMeasure on world
// positions, cm), kept per frame and per joint for the timeline and the
// joints, with its jitter (compress/jitter.h: the joint velocity error per
// frame, the planted feet). The main clip's foot contacts
// (core/foot_contacts.h) mark the timeline.
//
// GL-free, so that the screenshot check lays motions out and frames them with
// the code that drew them.
#pragma once

#include "camera.h"
#include "colors.h"
#include "posed_capture.h"

#include <mocap/compress/jitter.h>
#include <mocap/compress/motion_error.h>

#include <Eigen/Core>
#include <span>
#include <string>
#include <vector>

namespace mocap::viewer {

// The colour of motion `i` (0: the main clip's orange); distinct hues, then
// they repeat.
colors::Rgb motion_color(int i);
// Its joints: the same hue, lighter.
colors::Rgb joint_color(const colors::Rgb& bone);

// The error of one motion against the main clip, by `mocap eval`'s measure.
struct CompareError {
  bool valid = false;
  std::string note;  // why there is none (another skeleton, other frame numbers)
  MotionError summary;
  std::vector<float> mean_cm;   // per frame: mean over joints (eval's "position")
  std::vector<float> worst_cm;  // per frame: worst joint (eval's "joint")
  std::vector<float> joint_cm;  // per frame and joint, frame-major: that joint's distance
  // Jitter, as mocap eval's (measure_jitter): the velocity error over every
  // joint and frame, and the planted feet on the main clip's contacts.
  JointVelocityError velocity;
  PlantedFeetSpeed planted;
  std::vector<float> velocity_cm_s;  // per frame: the worst joint's velocity error |v' - v|, cm/s
};

// The main clip's foot contacts (clip_foot_contacts), per frame, for the
// timeline's two thin bars.
struct ContactBars {
  bool feet = false;  // two feet found; else `note` says why not
  std::string note;
  std::vector<unsigned char> left;  // per frame: 1 while the left foot is in contact
  std::vector<unsigned char> right;
};
ContactBars contact_bars(const PosedCapture& main);

struct CompareMotion {
  PosedCapture clip;
  std::string name;  // the motion file's name, as the legend shows it
  colors::Rgb color{};
  bool visible = true;
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();  // metres, added to every joint when drawn
  std::vector<Eigen::Vector3d> placed;               // this frame's joints with the offset
  CompareError error;
};

struct CompareState {
  std::vector<CompareMotion> motions;  // besides the main clip
  bool side_by_side = true;            // else overlaid on the main clip
  double spacing_m = 1.2;              // between neighbours side by side
  bool color_by_error = true;          // a same-skeleton motion's joints by their error
  float red_at_cm = 5.0f;              // per-joint distance drawn fully red
  bool graph_worst = true;             // the timeline graph: worst joint (else mean over joints)
  bool show_contacts = true;           // the main clip's foot contacts on the timeline
  ContactBars contacts;                // of the main clip (set_main)
};

// The main clip is `main` (loaded or replaced): its foot contacts.
void set_main(CompareState& state, const PosedCapture& main);

// Loads `first` (+ `second`) as read_capture does: an ASF and an AMC, a BVH
// alone (lengths times `bvh_metres_per_unit`), or an AMC alone of the main
// clip's skeleton (`main_asf`).
Result<PosedCapture> load_other(const std::string& first, const std::string& second, const std::string& main_asf,
                                double bvh_metres_per_unit = 0.01);

// Adds a loaded motion: its colour, name, offset by the layout, its error
// against `main` when it is a motion of the same skeleton.
void add_motion(CompareState& state, PosedCapture clip, const PosedCapture& main);

// Offsets every motion: side by side, each one's first root over the ground
// moved to the main clip's, then stepped across the main clip's direction of
// travel; overlaid, the same first root and no step.
void lay_out(CompareState& state, const PosedCapture& main);

// The step across the main clip's direction of travel that puts something
// in place `slot` beside it (slot 1: the first motion's), zero when the
// motions are overlaid: lay_out's, for what is placed beside the motions
// (a retargeted model, model_panel.h).
Eigen::Vector3d beside_offset(const CompareState& state, const PosedCapture& main, int slot);

// The frame of `other` shown when the main clip shows frame `frame`.
int matching_frame(const PosedCapture& main, int frame, const PosedCapture& other);

// Poses every motion at the main clip's frame and places its joints.
void pose_motions(CompareState& state, const PosedCapture& main);

// The main clip's and every visible motion's placed joints of the current
// frame, for framing.
std::vector<Eigen::Vector3d> scene_points(const CompareState& state, const PosedCapture& main);

// Per-joint colours of motion `m` at its frame by its error (green 0, yellow,
// red at red_at_cm), into `out`; empty when it has none or colouring is off.
std::span<const colors::Rgb> error_colors(const CompareState& state, int m, std::vector<colors::Rgb>& out);

// True when both clips have the same bones of the same lengths (the error
// between them is then mocap eval's).
bool same_skeleton_as(const PosedCapture& a, const PosedCapture& b);

// What the camera follows over the ground: the mean of the main clip's root
// and the visible motions' placed roots.
Eigen::Vector3d followed_point(const CompareState& state, const PosedCapture& main);

// The green-yellow-red scale for t in [0, 1].
colors::Rgb error_scale(float t);

}  // namespace mocap::viewer
