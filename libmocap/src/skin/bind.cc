// Binding: where a skeleton stands in a mesh, its bind pose and the
// skinning matrices of a posed frame (bind.h).
#include <mocap/skin/bind.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace mocap {

namespace {

// Positions again from the rotations forward kinematics gave, with each
// bone's offset scaled by its factor (fk.h's two conventions). No allocation.
void scale_bones(const Skeleton& skeleton, const Pose& pose, std::span<const double> bone_scale,
                 std::span<const Eigen::Quaterniond> rotations, std::span<Eigen::Vector3d> positions) {
  for (const int b : skeleton.eval_order) {
    const int parent = skeleton.bones[b].parent;
    if (parent < 0) continue;  // the root keeps its position
    const Eigen::Quaterniond& turn = skeleton.offsets_in_parent_frame ? rotations[parent] : rotations[b];
    positions[b] = positions[parent] + bone_scale[b] * (turn * pose.offset[b]);
  }
}

}  // namespace

Eigen::Affine3d Placement::matrix() const {
  Eigen::Affine3d m = Eigen::Affine3d::Identity();
  m.linear() = axes;
  m.translate(translation);
  m.rotate(Eigen::AngleAxisd(yaw_radians, Eigen::Vector3d::UnitY()));
  m.scale(scale);
  return m;
}

Placement fit_placement(const Skeleton& skeleton, const Pose& bind_pose, const Mesh& mesh, double yaw_radians) {
  const std::size_t bones = skeleton.bones.size();
  std::vector<Eigen::Vector3d> positions(bones);
  std::vector<Eigen::Quaterniond> rotations(bones);
  forward_kinematics(skeleton, bind_pose, positions, rotations);
  const Eigen::AngleAxisd yaw(yaw_radians, Eigen::Vector3d::UnitY());
  Eigen::AlignedBox3d joints;
  for (const auto& p : positions) joints.extend(yaw * p);
  Eigen::AlignedBox3d body;
  for (const auto& p : mesh.positions) body.extend(p.cast<double>());
  Placement placement;
  placement.yaw_radians = yaw_radians;
  const double height = body.sizes().y();
  const double joint_height = joints.sizes().y();
  placement.scale = joint_height > 0.0 ? (1.0 - kFootRatio - kHeadRatio) * height / joint_height : 1.0;
  placement.translation.y() = body.min().y() + kFootRatio * height - placement.scale * joints.min().y();
  const Eigen::Vector3d root = placement.scale * (yaw * positions[0]);
  const double root_y = root.y() + placement.translation.y();
  Eigen::AlignedBox3d section;
  for (const auto& p : mesh.positions) {
    if (std::abs(p.y() - root_y) <= 0.025 * height && std::abs(p.x() - body.center().x()) <= 0.1 * height) {
      section.extend(p.cast<double>());
    }
  }
  if (section.isEmpty()) section = body;
  placement.translation.x() = section.center().x() - root.x();
  placement.translation.z() = section.center().z() - root.z();

  // Refinement in Z (X is symmetric already): every joint should sit in the middle of the limb or trunk
  // around it. Per joint, the offset to the centre of the mesh's slice at its
  // height (within 0.08 H of it); medians so that a few odd joints (a hand, a
  // toe) do not pull; the joints below the root (legs) and above it (trunk,
  // arms) count as much as each other, because a capture's rest posture
  // rarely matches the mesh's (CMU hips stand ~3.5 cm in front of the spine,
  // MakeHuman's do not) and neither half should end up outside its limbs.
  std::array<std::vector<double>, 2> dz;
  for (std::size_t b = 1; b < bones; ++b) {
    const Eigen::Vector3d joint = placement.scale * (yaw * positions[b]) + placement.translation;
    Eigen::AlignedBox3d slice;
    for (const auto& p : mesh.positions) {
      const Eigen::Vector3d q = p.cast<double>();
      if (std::abs(q.y() - joint.y()) <= 0.02 * height &&
          Eigen::Vector2d(q.x() - joint.x(), q.z() - joint.z()).norm() <= 0.08 * height) {
        slice.extend(q);
      }
    }
    if (slice.isEmpty()) continue;
    const int half = joint.y() < root_y ? 0 : 1;
    dz[half].push_back(slice.center().z() - joint.z());
  }
  auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  double shift = 0.0;
  int halves = 0;
  for (int half = 0; half < 2; ++half) {
    if (dz[half].empty()) continue;
    shift += median(dz[half]);
    ++halves;
  }
  if (halves > 0) placement.translation.z() += shift / halves;
  return placement;
}

void bone_frames(const Skeleton& skeleton, const Pose& pose, const Placement& placement,
                 std::span<Eigen::Vector3d> positions, std::span<Eigen::Quaterniond> rotations,
                 std::span<Eigen::Affine3d> frames, std::span<const double> bone_scale) {
  forward_kinematics(skeleton, pose, positions, rotations);
  if (!bone_scale.empty()) scale_bones(skeleton, pose, bone_scale, rotations, positions);
  const Eigen::Quaterniond yaw(Eigen::AngleAxisd(placement.yaw_radians, Eigen::Vector3d::UnitY()));
  for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
    const int parent = skeleton.bones[b].parent;
    const Eigen::Vector3d& origin = parent < 0 ? positions[b] : positions[parent];
    // Rigid frames: the placement's scale moves the origin, it does not scale
    // the frame, so K_b = M_b B_b^-1 stays a rotation plus translation.
    Eigen::Affine3d& frame = frames[b];
    frame.linear() = placement.axes * (yaw * rotations[b]).toRotationMatrix();
    frame.translation() = placement.axes * (placement.scale * (yaw * origin) + placement.translation);
    frame.makeAffine();
  }
}

SkeletonBind bind_skeleton(const Skeleton& skeleton, const Pose& bind_pose, const Placement& placement,
                           std::span<const double> bone_scale) {
  const std::size_t bones = skeleton.bones.size();
  std::vector<Eigen::Vector3d> positions(bones);
  std::vector<Eigen::Quaterniond> rotations(bones);
  std::vector<Eigen::Affine3d> frames(bones);
  bone_frames(skeleton, bind_pose, placement, positions, rotations, frames, bone_scale);
  SkeletonBind bind;
  bind.placement = placement;
  bind.bone_scale.assign(bone_scale.begin(), bone_scale.end());
  bind.inverse_bind.resize(bones);
  bind.segments.resize(bones);
  // positions[] already carry the bone factors; the placement only places them.
  const Eigen::Affine3d place = placement.matrix();
  for (std::size_t b = 0; b < bones; ++b) {
    bind.inverse_bind[b] = frames[b].inverse(Eigen::Isometry);
    const int parent = skeleton.bones[b].parent;
    BoneSegment& segment = bind.segments[b];
    segment.start = (place * (parent < 0 ? positions[b] : positions[parent])).cast<float>();
    segment.end = (place * positions[b]).cast<float>();
    segment.parent = parent;
    segment.deforms = parent >= 0 && (segment.end - segment.start).norm() > 0.0f;
  }
  return bind;
}

void pose_for_bind(const Skeleton& skeleton, const SkeletonBind& bind, Pose& pose) {
  // Order-free: a rest-relative child of a rest-relative bone takes its
  // parent's T^-1 before or after its own T on the right.
  for (const RestRelativeBone& r : bind.rest_relative) {
    pose.rotation[r.bone] = (pose.rotation[r.bone] * r.turn).normalized();
    const Eigen::Quaterniond back = r.turn.conjugate();
    for (std::size_t c = 0; c < skeleton.bones.size(); ++c) {
      if (skeleton.bones[c].parent == r.bone) pose.rotation[c] = (back * pose.rotation[c]).normalized();
    }
  }
}

SkinScratch::SkinScratch(const Skeleton& skeleton) : SkinScratch(skeleton.bones.size()) {}

SkinScratch::SkinScratch(std::size_t bone_count) : positions(bone_count), rotations(bone_count), frames(bone_count) {}

void skinning_matrices(const Skeleton& skeleton, const Pose& pose, const SkeletonBind& bind, SkinScratch& scratch,
                       std::span<SkinMatrix> matrices) {
  bone_frames(skeleton, pose, bind.placement, scratch.positions, scratch.rotations, scratch.frames, bind.bone_scale);
  for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
    const Eigen::Affine3d k = scratch.frames[b] * bind.inverse_bind[b];
    matrices[b] = k.matrix().topRows<3>().cast<float>();
  }
}

}  // namespace mocap
