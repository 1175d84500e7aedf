// The ASF skeleton as the file gave it (the raw, offline half of the pair;
// core/skeleton.h's Skeleton is the runtime half), and the one builder from
// it to the runtime skeleton.
//
// Everything here is in the file's own terms and units: lengths, positions
// and translation limits in file length units, angles and rotation limits in
// the file's angle unit, the axis as Euler angles with their order string.
// It is what the writer needs to give the file back (format_asf in asf.h)
// and what `mocap info` prints; algorithms use the runtime Skeleton.
#pragma once

#include <mocap/core/error.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

namespace mocap {

// Limits of one dof, in the file's unit for that dof (angle unit for
// rotations, length unit otherwise). `inf` in the file is an infinite bound.
struct Limit {
  double min = 0.0;
  double max = 0.0;
};

struct AsfBone {
  std::string name;
  int id = 0;       // the ASF `id`; 0 for the root
  int parent = -1;  // index into AsfSkeleton::bones from :hierarchy; -1 for the root
  // As written (not renormalised); zero for the root.
  Eigen::Vector3d direction = Eigen::Vector3d::Zero();
  double length = 0.0;  // file length units, >= 0
  // The bone's local frame C: Euler angles (file angle unit) about X, Y, Z,
  // composed in `axis_order` (a permutation of "XYZ", either case) with the
  // first letter applied first. For the root: `orientation` and its `axis` line.
  Eigen::Vector3d axis = Eigen::Vector3d::Zero();
  std::string axis_order = "XYZ";
  std::vector<Channel> dofs;  // the dof line (the root's order line), in AMC value order
  std::vector<Limit> limits;  // one per dof, or empty when the file gives none
};

struct AsfSkeleton {
  std::string version;
  std::string name;
  std::string documentation;  // lines of :documentation, joined by '\n', without line ends
  double mass_unit = 1.0;     // `:units mass`, > 0
  // `:units length`: file length units per inch (CMU: 0.45), > 0. A file
  // length v is v * (1 / length_unit) * 0.0254 metres.
  double length_unit = 1.0;
  bool angles_in_degrees = true;                            // `:units angle`: deg or rad
  Eigen::Vector3d root_position = Eigen::Vector3d::Zero();  // `:root position`, file length units
  std::vector<AsfBone> bones;                               // bones[0] is the root, then :bonedata in file order

  // Metres per file length unit: 0.0254 / length_unit.
  double metres_per_unit() const { return 0.0254 / length_unit; }
  // Radians per file angle unit: pi / 180 or 1.
  double radians_per_unit() const;
  // Index of the bone called `name`, or -1.
  int find_bone(std::string_view name) const;
};

// What build_skeleton would refuse, as an Error (no file: the caller names
// it) whose message names the bone: no bones; units not positive and finite; an axis order that is
// not a permutation of XYZ; a root that is not bone 0 without a parent, or
// that has an `l` dof; limits neither empty nor one per dof; a dof given
// twice; parents that do not form a tree rooted at bone 0.
Result<void> validate(const AsfSkeleton& raw);

// The runtime skeleton of `raw`: lengths and the root position in metres,
// each axis as the rotation C, dof axes, first channels, parents-first
// evaluation order and the units its AMC motions use. Fails with
// validate()'s message (file `name`, line 0) on what validate refuses.
Result<Skeleton> build_skeleton(const AsfSkeleton& raw, const std::string& name = "");

}  // namespace mocap
