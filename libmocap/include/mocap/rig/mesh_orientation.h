// Which way a character mesh stands: its up axis and the way it faces, found
// from its shape, so that a mesh from any tool (Blender's Z up, an OBJ facing
// -Z, a file facing +X) is rigged in the library's frame: Y up, facing +Z,
// the character's left toward +X (CMU skeletons and MakeHuman stand so).
// The method, in order, on the mesh's surface sampled into a grid of cubes
// (48 along the longest extent, each triangle sampled finer than a cube):
//  1. left-right: of the three axes, the one across which the occupied cells
//     are most mirror-symmetric (about the mean of the cells along it);
//  2. up: of the other two, the longer (a standing body is taller than it is
//     deep, in a T-pose as in any other);
//  3. which end is down: the feet stand apart, the crown of the head is one
//     point on the middle: the end whose cells within 5% of the height lie
//     farther, on average, from the left-right middle is the feet;
//  4. forward: the remaining axis, toward the toes: the side on which the
//     cells within 5% of the height above the sole lie, on average, beyond
//     those of the shins (15-25% of the height up); under half a cell the
//     line says the finding is weak (CesiumMan's boots: 0.2 cells).
// Given axes (--up, --forward) replace the found ones; when only one is
// given, the other is found among the axes perpendicular to it (step 2 or
// step 4 alone, then the signs).
#pragma once

#include <mocap/core/error.h>
#include <mocap/io/mesh.h>

#include <Eigen/Core>
#include <optional>
#include <string>
#include <string_view>

namespace mocap {

// A signed axis of the mesh's coordinates: 0 x, 1 y, 2 z.
struct SignedAxis {
  int axis = 1;
  int sign = 1;  // +1 or -1
  Eigen::Vector3d vector() const;
  std::string name() const;  // "+y", "-z"
};
// "+x", "-x", "x" (= +x), "+y", ... any case. Fails (no file) naming the
// text and the expected spellings.
Result<SignedAxis> parse_signed_axis(std::string_view text);

struct MeshOrientation {
  SignedAxis up{1, 1};
  SignedAxis forward{2, 1};
  // The library's frame in mesh coordinates, as columns: the character's
  // left, up, forward (a rotation). p_mesh = axes * p_library.
  Eigen::Matrix3d axes() const;
  bool identity() const { return up.axis == 1 && up.sign == 1 && forward.axis == 2 && forward.sign == 1; }
  // One line: "up +z, facing -y (found: ...)" or "(given)".
  std::string how;
};

// Steps 1-4 with `up` and `forward` when given. Fails (naming `what`, the
// mesh's file) when the given axes are not perpendicular or the mesh has no
// triangle.
Result<MeshOrientation> find_mesh_orientation(const Mesh& mesh, std::optional<SignedAxis> up,
                                              std::optional<SignedAxis> forward, const std::string& what);

// `mesh` with positions and normals turned by `rotation` (p' = rotation * p).
Mesh turned_mesh(const Mesh& mesh, const Eigen::Matrix3d& rotation);

}  // namespace mocap
