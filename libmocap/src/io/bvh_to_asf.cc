#include <mocap/io/bvh.h>
#include <mocap/io/bvh_to_asf.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>
#include <set>
#include <string>

namespace mocap {
namespace {

bool is_translation(Channel c) {
  return c == Channel::TX || c == Channel::TY || c == Channel::TZ;
}

bool has_translation(const Bone& bone) {
  return std::any_of(bone.dofs.begin(), bone.dofs.end(), is_translation);
}

// A bone of the ASF being built, and where its AMC values come from.
struct Planned {
  AsfBone bone;
  // Per ASF dof: the BVH channel (index into a BVH frame) and its sign.
  std::vector<int> source;
  std::vector<double> sign;
};

// The axis C and the rx ry rz dofs that apply `rotations` (BVH axes, first
// applied first, distinct) as C * Rz * Ry * Rx * C^-1: C sends X, Y, Z to
// the first, second and third axes applied, the third with the sign that
// keeps C a rotation. `third_sign` is that sign (the rz value's factor).
Eigen::Matrix3d axis_permutation(const std::vector<Channel>& rotations, double& third_sign) {
  std::vector<int> perm;
  for (const Channel c : rotations) perm.push_back(static_cast<int>(c));  // RX..RZ are 0..2
  for (int a = 0; a < 3; ++a) {
    if (std::find(perm.begin(), perm.end(), a) == perm.end()) perm.push_back(a);
  }
  // An even permutation of (0, 1, 2) keeps the orientation.
  const bool even = (perm[1] - perm[0] + 3) % 3 == 1;
  third_sign = even ? 1.0 : -1.0;
  Eigen::Matrix3d c = Eigen::Matrix3d::Zero();
  c(perm[0], 0) = 1.0;
  c(perm[1], 1) = 1.0;
  c(perm[2], 2) = third_sign;
  return c;
}

// Euler angles in degrees, XYZ (X first), of a signed axis permutation:
// multiples of 90, rounded so the file says 90 rather than 90.00000000000001.
Eigen::Vector3d axis_degrees(const Eigen::Matrix3d& c) {
  Eigen::Vector3d deg = xyz_euler_angles(Eigen::Quaterniond(c)) * (180.0 / std::numbers::pi);
  for (int k = 0; k < 3; ++k) deg[k] = std::round(deg[k]) == 0.0 ? 0.0 : std::round(deg[k]);
  return deg;
}

}  // namespace

Result<AsfFromBvh> bvh_to_asf(const Skeleton& skeleton, const Motion& motion) {
  if (motion.channel_count != skeleton.channel_count)
    return fail("", 0,
                "the motion has " + std::to_string(motion.channel_count) + " channels, the skeleton " +
                    std::to_string(skeleton.channel_count));
  // A BVH may say "Frames: 0"; an AMC holds at least one frame (io/amc.h
  // refuses one without), so writing none would give a file mocap cannot read.
  if (motion.frame_count() == 0) return fail("", 0, "the motion has no frames: an AMC file holds at least one");
  Result<BvhFile> converted = to_bvh(skeleton, motion);
  if (!converted) return std::unexpected(converted.error());
  const Skeleton& s = converted->skeleton;
  const Motion& m = converted->motion;
  const std::size_t n = s.bones.size();
  const double scale = s.metres_per_unit();
  std::vector<std::vector<int>> children(n);
  for (std::size_t b = 1; b < n; ++b)
    children[static_cast<std::size_t>(s.bones[b].parent)].push_back(static_cast<int>(b));
  const auto offset_of = [&](std::size_t b) -> Eigen::Vector3d { return s.bones[b].length * s.bones[b].direction; };
  const auto is_end_site = [&](std::size_t b) { return b > 0 && s.bones[b].dofs.empty() && children[b].empty(); };

  std::set<std::string> taken{"root"};
  // Words an ASF reader takes for its own: "begin"/"end" close blocks, ':'
  // starts a section, '#' a comment; and in an AMC a line that starts like a
  // number is a frame number, so a bone name may not (fuzz_bvh: "1eftUpLug").
  const auto reserved = [&](const std::string& name) {
    return taken.count(name) || name == "begin" || name == "end" || name.front() == ':' || name.front() == '#';
  };
  const auto unique_name = [&](std::string wanted) {
    if (wanted.front() == ':' || wanted.front() == '#') wanted.front() = '_';
    if (std::isdigit(static_cast<unsigned char>(wanted.front())) || wanted.front() == '-' || wanted.front() == '+' ||
        wanted.front() == '.')
      wanted.insert(wanted.begin(), '_');
    std::string name = wanted;
    for (int k = 2; reserved(name); ++k) name = wanted + "_" + std::to_string(k);
    taken.insert(name);
    return name;
  };
  const auto set_vector = [&](AsfBone& bone, const Eigen::Vector3d& metres) {
    const Eigen::Vector3d v = metres / scale;
    bone.length = v.norm();
    // A zero-length bone still gets a unit direction: readers that
    // normalise it must not divide by zero.
    bone.direction = bone.length > 0.0 ? Eigen::Vector3d(v / bone.length) : Eigen::Vector3d::UnitY();
  };

  std::vector<Planned> planned;
  AsfFromBvh out;
  out.bone_at.assign(n, 0);
  std::vector<int> asf_of(n, -1);  // BVH joint -> its ASF bone

  // The root: a point; its dofs are the BVH root's (translations, then
  // rotations first applied first), on the order line, with their values.
  {
    Planned root;
    root.bone.name = "root";
    root.bone.dofs = s.bones[0].dofs;
    for (std::size_t d = 0; d < root.bone.dofs.size(); ++d) {
      root.source.push_back(s.bones[0].first_channel + static_cast<int>(d));
      root.sign.push_back(1.0);
    }
    planned.push_back(std::move(root));
    asf_of[0] = 0;
  }
  out.asf.root_position = s.root_position / scale;

  // Parents come before children in a BVH skeleton's bone order.
  for (std::size_t j = 0; j < n; ++j) {
    if (is_end_site(j)) continue;
    const int bone_j = asf_of[j];
    if (bone_j < 0) return fail("", 0, "joint '" + s.bones[j].name + "' comes before its parent");
    // The vector of J's own bone: its children's common offset when they
    // share one and none has position channels, else 0 (the root always).
    Eigen::Vector3d vector = Eigen::Vector3d::Zero();
    if (j > 0 && !children[j].empty()) {
      const Eigen::Vector3d first = offset_of(static_cast<std::size_t>(children[j][0]));
      bool shared = true;
      for (const int k : children[j]) {
        shared = shared && !has_translation(s.bones[static_cast<std::size_t>(k)]) &&
                 offset_of(static_cast<std::size_t>(k)) == first;
      }
      if (shared) vector = first;
    }
    if (j > 0) set_vector(planned[static_cast<std::size_t>(bone_j)].bone, vector);
    for (const int k : children[j]) {
      const std::size_t kk = static_cast<std::size_t>(k);
      const Bone& child = s.bones[kk];
      int parent_of_child = bone_j;
      if (has_translation(child) || offset_of(kk) != vector) {
        // A link bone from J's point to K's: no rotation, K's offset and
        // K's position channels.
        Planned link;
        link.bone.name = unique_name(is_end_site(kk) ? child.name : s.bones[j].name + "_to_" + child.name);
        link.bone.parent = bone_j;
        set_vector(link.bone, offset_of(kk));
        for (std::size_t d = 0; d < child.dofs.size(); ++d) {
          if (!is_translation(child.dofs[d])) continue;
          link.bone.dofs.push_back(child.dofs[d]);
          link.source.push_back(child.first_channel + static_cast<int>(d));
          link.sign.push_back(1.0);
        }
        parent_of_child = static_cast<int>(planned.size());
        planned.push_back(std::move(link));
      }
      out.bone_at[kk] = parent_of_child;
      if (is_end_site(kk)) continue;
      // K's own bone: its rotation channels as rx ry rz about C's axes.
      Planned own;
      own.bone.name = unique_name(child.name);
      own.bone.parent = parent_of_child;
      std::vector<Channel> rotations;
      std::vector<int> columns;
      for (std::size_t d = 0; d < child.dofs.size(); ++d) {
        if (is_translation(child.dofs[d])) continue;
        if (child.dofs[d] == Channel::L) return fail("", 0, "joint '" + child.name + "' has a length dof");
        rotations.push_back(child.dofs[d]);
        columns.push_back(child.first_channel + static_cast<int>(d));
      }
      double third_sign = 1.0;
      const Eigen::Matrix3d c = axis_permutation(rotations, third_sign);
      own.bone.axis = axis_degrees(c);
      own.bone.axis_order = "XYZ";
      static constexpr Channel kXyz[] = {Channel::RX, Channel::RY, Channel::RZ};
      for (std::size_t d = 0; d < rotations.size(); ++d) {
        own.bone.dofs.push_back(kXyz[d]);
        own.source.push_back(columns[d]);
        own.sign.push_back(d == 2 ? third_sign : 1.0);
      }
      asf_of[kk] = static_cast<int>(planned.size());
      planned.push_back(std::move(own));
    }
  }

  AsfSkeleton& asf = out.asf;
  asf.version = "1.10";
  asf.length_unit = 0.0254 / scale;  // file units per inch: the BVH's numbers
  asf.angles_in_degrees = true;
  for (std::size_t b = 0; b < planned.size(); ++b) {
    planned[b].bone.id = static_cast<int>(b);
    asf.bones.push_back(planned[b].bone);
  }
  Result<Skeleton> built = build_skeleton(asf);
  if (!built) return std::unexpected(built.error());
  out.skeleton = std::move(*built);

  Motion& am = out.motion;
  am.fps = m.fps;
  am.channel_count = out.skeleton.channel_count;
  am.frame_numbers.resize(static_cast<std::size_t>(m.frame_count()));
  for (int f = 0; f < m.frame_count(); ++f) am.frame_numbers[static_cast<std::size_t>(f)] = f + 1;  // AMC counts from 1
  am.values.resize(static_cast<std::size_t>(m.frame_count()) * static_cast<std::size_t>(am.channel_count));
  for (int f = 0; f < m.frame_count(); ++f) {
    const std::span<const double> from = m.frame(f);
    const std::span<double> to = am.frame(f);
    for (std::size_t b = 0; b < planned.size(); ++b) {
      const int first = out.skeleton.bones[b].first_channel;
      for (std::size_t d = 0; d < planned[b].source.size(); ++d) {
        to[static_cast<std::size_t>(first) + d] =
            planned[b].sign[d] * from[static_cast<std::size_t>(planned[b].source[d])];
      }
    }
  }
  return out;
}

}  // namespace mocap
