#include "scene.h"

#include <algorithm>
#include <vector>

namespace mocap::viewer {
namespace {

// A contact cue under a figure's root: darker the nearer the root is to the
// ground (a standing root is about 1 m up).
void root_shadow(Renderer& renderer, const Eigen::Vector3d& root) {
  const float height = static_cast<float>(std::max(root.y(), 0.0));
  const float darkness = 0.5f * std::clamp(1.6f - 0.6f * height, 0.15f, 1.0f);
  renderer.shadow(root, 0.38f, darkness);
}

}  // namespace

void draw_scene(Renderer& renderer, const PosedCapture* clip, const ViewState& view, int width, int height,
                const SceneExtras& extras) {
  renderer.begin(view.camera, width, height);
  if (view.options.show_grid) renderer.grid(view.camera.target);
  if (view.options.show_axes) renderer.axes();
  if (!clip) return;
  if (view.options.show_shadow) {
    root_shadow(renderer, clip->positions[0]);
    if (extras.compare) {
      for (const CompareMotion& m : extras.compare->motions) {
        if (m.visible && !m.placed.empty()) root_shadow(renderer, m.placed[0]);
      }
    }
    if (extras.model && extras.model->loaded && extras.model->visible) root_shadow(renderer, extras.model->hips);
  }
  if (extras.skin && extras.skin->loaded && view.options.show_mesh) {
    const SkinState& skin = *extras.skin;
    renderer.mesh(skin.skinner->positions(), skin.skinner->normals(), skin.indices, skin.world_from_mesh,
                  colors::kSkin);
    if (!skin.stretched_ends.empty()) renderer.segments(skin.stretched_ends, colors::kStretch, true);
    if (view.options.xray) renderer.draw_over();
  }
  if (extras.model && extras.model->loaded && extras.model->visible && extras.model->posed_frame >= 0) {
    const ModelState& model = *extras.model;
    renderer.mesh(model.skinner->positions(), model.skinner->normals(), model.indices, model.world_from_model,
                  colors::kModel);
  }
  SkeletonStyle style;
  style.selected = view.selected;
  style.joint_colors = extras.joint_colors;
  renderer.skeleton(clip->capture.skeleton, drawn_positions(extras.skin, *clip), view.options, style);
  if (extras.compare) {
    std::vector<colors::Rgb> by_error;
    const CompareState& compare = *extras.compare;
    for (std::size_t i = 0; i < compare.motions.size(); ++i) {
      const CompareMotion& m = compare.motions[i];
      if (!m.visible) continue;
      SkeletonStyle other;
      other.bone = m.color;
      other.joint = joint_color(m.color);
      other.joint_colors = error_colors(compare, static_cast<int>(i), by_error);
      // Overlaid, thinner, so that the main clip shows through.
      other.radius_scale = compare.side_by_side ? 1.0f : 0.7f;
      renderer.skeleton(m.clip.capture.skeleton, m.placed, view.options, other);
    }
  }
  if (!extras.ghost.empty()) {
    // Thinner and blue: it shows where the rebuild leaves the original.
    SkeletonStyle ghost;
    ghost.bone = ghost.joint = colors::kGhost;
    ghost.radius_scale = 0.6f;
    renderer.skeleton(clip->capture.skeleton, extras.ghost, view.options, ghost);
  }
  if (!extras.gaze.empty()) renderer.segments(extras.gaze, colors::kSelected, true);
}

}  // namespace mocap::viewer
