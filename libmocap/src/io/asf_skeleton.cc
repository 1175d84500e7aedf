#include <mocap/io/asf_skeleton.h>

#include "io/text.h"

#include <cmath>
#include <numbers>

namespace mocap {
namespace {

bool positive(double v) {
  return std::isfinite(v) && v > 0.0;
}

}  // namespace

double AsfSkeleton::radians_per_unit() const {
  return angles_in_degrees ? std::numbers::pi / 180.0 : 1.0;
}

int AsfSkeleton::find_bone(std::string_view bone_name) const {
  for (std::size_t i = 0; i < bones.size(); ++i) {
    if (bones[i].name == bone_name) return static_cast<int>(i);
  }
  return -1;
}

Result<void> validate(const AsfSkeleton& raw) {
  const int n = static_cast<int>(raw.bones.size());
  if (n == 0 || raw.bones[0].parent != -1) return fail("", 0, "the root must be bone 0 and have no parent");
  if (!positive(raw.length_unit) || !positive(raw.mass_unit)) return fail("", 0, "units must be positive numbers");
  for (const AsfBone& bone : raw.bones) {
    const std::string at = "bone '" + bone.name + "'";
    if (!text::is_axis_order(bone.axis_order))
      return fail("", 0, at + " has axis order '" + bone.axis_order + "': expected XYZ in some order");
    if (!bone.limits.empty() && bone.limits.size() != bone.dofs.size())
      return fail("", 0, at + ": expected one limit pair per dof");
    unsigned seen = 0;
    for (const Channel c : bone.dofs) {
      const unsigned bit = 1u << static_cast<unsigned>(c);
      if (seen & bit) return fail("", 0, at + " gives dof " + std::string(channel_name(c)) + " twice");
      seen |= bit;
    }
    if (&bone == &raw.bones[0] && (seen & (1u << static_cast<unsigned>(Channel::L))))
      return fail("", 0, "the root cannot have an l dof");
  }
  // Breadth-first from the root; a bone never reached sits on a cycle or
  // under a parent that is not in the tree.
  std::vector<int> order{0};
  std::vector<bool> placed(n, false);
  placed[0] = true;
  for (std::size_t next = 0; next < order.size(); ++next) {
    for (int b = 1; b < n; ++b) {
      if (raw.bones[b].parent == order[next] && !placed[b]) {
        placed[b] = true;
        order.push_back(b);
      }
    }
  }
  for (int b = 1; b < n; ++b) {
    if (placed[b]) continue;
    const AsfBone& bone = raw.bones[b];
    if (bone.parent < 0) return fail("", 0, "bone '" + bone.name + "' has no parent in :hierarchy");
    if (bone.parent >= n) return fail("", 0, "bone '" + bone.name + "' has a parent out of range");
    return fail("", 0, "bone '" + bone.name + "' is not connected to the root (a cycle in :hierarchy)");
  }
  return {};
}

Result<Skeleton> build_skeleton(const AsfSkeleton& raw, const std::string& name) {
  if (auto valid = validate(raw); !valid) return fail(name, 0, valid.error().message);
  const double metres = raw.metres_per_unit();
  const double radians = raw.radians_per_unit();
  Skeleton skeleton;
  skeleton.name = raw.name;
  skeleton.root_position = raw.root_position * metres;
  skeleton.units.metres_per_length = metres;
  skeleton.units.degrees = raw.angles_in_degrees;
  skeleton.bones.reserve(raw.bones.size());
  for (const AsfBone& from : raw.bones) {
    Bone& bone = skeleton.bones.emplace_back();
    bone.name = from.name;
    bone.parent = from.parent;
    bone.direction = from.direction;
    bone.length = from.length * metres;
    bone.axis_rotation = euler_to_quaternion(from.axis * radians, from.axis_order);
    bone.dofs = from.dofs;
  }
  if (auto tree = finalize(skeleton); !tree) return fail(name, 0, tree.error().message);
  return skeleton;
}

}  // namespace mocap
