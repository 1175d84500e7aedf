// The model panel: the main clip retargeted onto a rigged character
// (`--model character.glb|.gltf|.dae|.fbx [--map F]`) and drawn beside the
// capture's skeleton, on the same timeline.
//
// Everything is the library's (retarget/gltf_splice.h retarget_model_file,
// the job `mocap retarget` runs): the model read, the bone map and rest
// offsets built once (build_retarget_rig), the clip retargeted with its feet
// planted and its soles on the floor (retarget_clip). Per frame the viewer
// only copies that frame's local transforms of the keyed nodes over the
// bind pose, takes the skinning matrices (rig/rigged_model.h
// model_skinning_matrices) and skins the model's mesh with its own weights
// (skin/skinner.h), so what it shows is the animation `mocap retarget -o`
// writes.
//
// Placement: the model's world is brought into the capture's (metres, Y up)
// by the rig's own mapping undone (hips = s * A * root + offset), so the
// character is drawn at the capture's scale (leg lengths equal), its hips
// over the capture's root, then stepped aside as --compare steps the next
// motion (compare.h beside_offset).
#pragma once

#include "compare.h"
#include "posed_capture.h"
#include "render.h"

#include <mocap/retarget/gltf_splice.h>
#include <mocap/skin/skinner.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mocap::viewer {

// What to load: typed in the panel or given on the command line.
struct ModelForm {
  std::string path;  // the rigged character
  std::string map;   // --map JSON overriding the bone map; empty: none
};

struct ModelState {
  bool loaded = false;
  bool visible = true;
  std::string name;                    // the model file's name, as the panel shows it
  const PosedCapture* clip = nullptr;  // the clip it was retargeted from
  // On the heap: the skinner keeps a pointer to the model's mesh.
  std::unique_ptr<RetargetFileResult> retarget;
  int mapped_roles = 0;                // humanoid roles found on the model (of kRoleCount)
  ModelPose pose;                      // this frame's local transforms, one per node
  std::vector<Eigen::Affine3d> world;  // scratch, one per node
  std::optional<Skinner> skinner;
  std::vector<std::uint32_t> indices;
  // Model world to the viewer's (capture metres), placement included.
  Eigen::Affine3f world_from_model = Eigen::Affine3f::Identity();
  Eigen::Vector3d hips = Eigen::Vector3d::Zero();  // this frame's hips, viewer world (the shadow)
  int posed_frame = -1;
};

// Retargets `clip` onto `form.path` and prepares the skinning; the error is
// the library's, naming the file (a model with no skin, a missing chain, a
// bad --map line).
std::optional<std::string> load_model(ModelState& state, const ModelForm& form, const PosedCapture& clip);

// Places the model beside the capture as `compare` lays its motions out.
void place_model(ModelState& state, const CompareState& compare, const PosedCapture& clip);

// Poses and skins the model at the clip's current frame (when it changed).
void update_model(ModelState& state, const PosedCapture& clip);

// The posed vertices in the viewer's world, for framing: every one up to
// 4096, else an even sample of about that many (a low-poly head has few).
void model_points(const ModelState& state, std::vector<Eigen::Vector3d>& points);

// "CesiumMan.glb: 19 joints, 19 driven, 17 of 25 humanoid roles mapped, scale 0.63"
std::string model_summary(const ModelState& state);

// The panel; returns true when Load was pressed.
bool model_panel(ModelForm& form, ModelState& state);

}  // namespace mocap::viewer
