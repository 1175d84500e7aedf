// The scene of one frame: grid, axes, contact shadows, the skinned mesh and
// the rigged model, the clip's skeleton, the motions beside it, the keyframe
// ghost and the gaze lines, drawn by the renderer (render.h) in that order.
// The window and the headless pictures draw it with the same call, so that
// a screenshot is what the window shows.
#pragma once

#include "colors.h"
#include "compare.h"
#include "model_panel.h"
#include "panels.h"
#include "posed_capture.h"
#include "render.h"
#include "skin_panel.h"

#include <Eigen/Core>
#include <span>

namespace mocap::viewer {

// What panels add to the scene for the current frame.
struct SceneExtras {
  std::span<const Eigen::Vector3d> ghost;     // a second pose of the clip's skeleton (keyframe rebuild)
  std::span<const colors::Rgb> joint_colors;  // per joint, e.g. by error
  std::span<const Eigen::Vector3d> gaze;      // line segments (eyes)
  const SkinState* skin = nullptr;            // a skinned mesh, posed
  const CompareState* compare = nullptr;      // motions beside the main clip, posed and placed
  const ModelState* model = nullptr;          // the clip retargeted onto a rigged character, posed
};

// The scene for the current pose of `clip` (none: grid and axes only).
void draw_scene(Renderer& renderer, const PosedCapture* clip, const ViewState& view, int width, int height,
                const SceneExtras& extras = {});

}  // namespace mocap::viewer
