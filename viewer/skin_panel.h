// The skin panel: a mesh bound to the clip's skeleton and deformed with the
// library's skinning (rig/mesh_bind.h: units, groups, bind pose, placement,
// weights from a file or automatic; skin/skinner.h: linear blend or dual
// quaternion, frame after frame), drawn in place of or with the skeleton.
// The mesh is drawn in the skeleton's world frame (the placement undone), so
// it covers the bones.
#pragma once

#include "posed_capture.h"
#include "render.h"

#include <mocap/rig/mesh_bind.h>
#include <mocap/skin/edge_stretch.h>
#include <mocap/skin/skinner.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mocap::viewer {

// What to load: typed in the panel or given on the command line.
struct SkinForm {
  std::string obj;
  std::string weights;    // empty: automatic weights
  std::string bind_pose;  // AMC whose first frame poses the skeleton as the mesh stands; empty: rest pose
  std::string groups;     // OBJ groups to keep, separated by spaces; empty: all
  int units = 0;          // index into kMeshUnits (io/mesh.h)
};

struct SkinState {
  bool loaded = false;
  bool dual_quaternion = false;        // else linear blend
  const PosedCapture* clip = nullptr;  // the clip the mesh is bound to
  std::unique_ptr<BoundMesh> bound;    // on the heap: the skinner keeps a pointer to its mesh
  std::optional<Skinner> skinner;
  std::vector<std::uint32_t> indices;
  Eigen::Affine3f world_from_mesh = Eigen::Affine3f::Identity();
  int skinned_frame = -1;
  Pose bound_pose;  // the clip's pose as the bound skeleton takes it (pose_for_bind)
  // The skeleton as fitted into the mesh (bind.bone_scale applied), posed
  // like the clip, in the clip's world frame: drawn in place of the
  // capture's own bones, so the bones lie inside the mesh they move. Empty
  // when the bind scales no bone.
  std::vector<Eigen::Vector3d> fitted_positions;
  std::vector<Eigen::Quaterniond> fitted_rotations;
  std::vector<Eigen::Affine3d> fitted_frames;
  // Edge stretch (skin/edge_stretch.h) over the frames shown since the mesh
  // was loaded or the method changed, each counted once, and this frame's
  // edges past stretch_ratio (0: none), their ends in the clip's world
  // frame, drawn over the mesh: where it tears.
  double stretch_ratio = 0.0;
  EdgeStretch stretch;
  std::vector<bool> stretch_measured;  // per frame index of the clip
  std::vector<int> stretched;
  std::vector<Eigen::Vector3d> stretched_ends;
  double stretched_ratio = -1.0;  // the ratio `stretched` was found with
};

// The bone end points to draw for `clip`: the fitted skeleton's when a mesh
// bound with bone factors is shown, else the clip's own.
std::span<const Eigen::Vector3d> drawn_positions(const SkinState* state, const PosedCapture& clip);

// Reads, binds and weights the mesh for `clip`. The error names the file.
std::optional<std::string> load_skin(SkinState& state, const SkinForm& form, const PosedCapture& clip);

// Deforms the mesh to the clip's current pose (when it changed), measures
// its stretch and finds the edges past stretch_ratio.
void update_skin(SkinState& state, const PosedCapture& clip);

// The panel; returns true when Load was pressed. Its Skin and Skeleton boxes
// toggle the mesh against bones and joints.
bool skin_panel(SkinForm& form, SkinState& state, SceneOptions& options);

}  // namespace mocap::viewer
