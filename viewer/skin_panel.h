// The skin panel: a mesh bound to the clip's skeleton and deformed with the
// library's skinning (skin.h: placement, bind, weights from a file or
// automatic, linear blend or dual quaternion), drawn in place of or with the
// skeleton. The mesh is drawn in the skeleton's world frame (the placement
// undone), so it covers the bones.
#pragma once

#include "clip.h"
#include "render.h"

#include <mocap/io/mesh.h>
#include <mocap/skin/skin.h>
#include <mocap/io/skin_weights.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mocap::viewer {

// What to load: typed in the panel or given on the command line.
struct SkinForm {
  std::string obj;
  std::string weights;    // empty: automatic weights
  std::string bind_pose;  // AMC whose first frame poses the skeleton as the mesh stands; empty: rest pose
  std::string groups;     // OBJ groups to keep, separated by spaces; empty: all
  int units = 0;          // index into kMeshUnits
};

inline constexpr const char* kMeshUnitNames[] = {"m", "dm", "cm", "mm"};
inline constexpr double kMeshUnits[] = {1.0, 0.1, 0.01, 0.001};

struct SkinState {
  bool loaded = false;
  bool dual_quaternion = false;  // else linear blend
  const Clip* clip = nullptr;    // the clip the mesh is bound to
  Mesh mesh;
  std::vector<std::uint32_t> indices;
  SkeletonBind bind;
  std::vector<VertexWeights> weights;
  std::unique_ptr<SkinScratch> scratch;
  std::unique_ptr<SkinThreads> threads;
  std::vector<SkinMatrix> matrices;
  std::vector<DualQuaternion> dual_quaternions;
  std::vector<Eigen::Vector3f> positions, normals;  // the posed mesh, mesh space
  Eigen::Affine3f world_from_mesh = Eigen::Affine3f::Identity();
  int skinned_frame = -1;
  bool skinned_dual_quaternion = false;
  double skin_ms = 0.0;  // the last deformation's time
};

// Reads, binds and weights the mesh for `clip`. The error names the file.
std::optional<std::string> load_skin(SkinState& state, const SkinForm& form, const Clip& clip);

// Deforms the mesh to the clip's current pose (when it changed).
void update_skin(SkinState& state, const Clip& clip);

// The panel; returns true when Load was pressed. Its Skin and Skeleton boxes
// toggle the mesh against bones and joints.
bool skin_panel(SkinForm& form, SkinState& state, SceneOptions& options);

}  // namespace mocap::viewer
