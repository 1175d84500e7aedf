// The skeleton of an Acclaim ASF file, in SI units.
//
// Bones are kept in the order of the file's :bonedata section, with the root
// inserted as bone 0, so that a writer can give the file back and every
// report names bones in the order a user sees them in the file. Parents are
// bone indices; `eval_order` lists the bones parents-first for forward
// kinematics.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mocap {

// A degree of freedom of a bone, as named on an ASF `dof` line or the root's
// `order` line. Rotations are in radians, translations and `L` in metres.
enum class Channel : std::uint8_t { RX, RY, RZ, TX, TY, TZ, L };

bool is_rotation(Channel c);
// "rx", "ry", ... as ASF dof lines spell them (upper-case for the root's order).
std::string_view channel_name(Channel c, bool upper_case = false);
// Accepts either case. Returns nullopt for anything else.
std::optional<Channel> parse_channel(std::string_view word);

// Limits of one dof, in the dof's unit (radians or metres). An ASF may write
// `inf`; that is kept as an infinite bound.
struct Limit {
  double min = 0.0;
  double max = 0.0;
};

struct Bone {
  std::string name;
  int id = 0;       // the ASF `id`; 0 for the root
  int parent = -1;  // index into Skeleton::bones; -1 for the root
  // Unit vector in the world frame of the rest pose, as written in the file
  // (not renormalised: the file's values are what the writer gives back).
  Eigen::Vector3d direction = Eigen::Vector3d::Zero();
  double length = 0.0;  // metres
  // The bone's local frame C: Euler angles (radians) about X, Y, Z, composed
  // in `axis_order` with the first letter applied first. For the root this is
  // the `orientation` line and `axis_order` its `axis` line.
  Eigen::Vector3d axis = Eigen::Vector3d::Zero();
  std::string axis_order = "XYZ";
  std::vector<Channel> dofs;  // in the order AMC lines give the values
  std::vector<Limit> limits;  // one per dof, or empty when the file gives none
  // Filled by finalize(): `axis` as a rotation C; for each dof the unit axis
  // C * e_k it turns about (so C * M * C^-1 is a product of turns about these
  // axes); and this bone's first channel in a Motion frame (see motion.h).
  Eigen::Quaterniond axis_rotation = Eigen::Quaterniond::Identity();
  std::vector<Eigen::Vector3d> dof_axes;
  int first_channel = 0;
};

struct Skeleton {
  std::string version;
  std::string name;
  std::string documentation;  // raw lines of :documentation, without line ends
  double mass_unit = 1.0;     // `:units mass`, kept for the writer only
  // `:units length`: file length units per inch (CMU: 0.45). A file length v
  // is v * (1 / length_unit) * 0.0254 metres.
  double length_unit = 1.0;
  bool angles_in_degrees = true;                            // `:units angle`
  Eigen::Vector3d root_position = Eigen::Vector3d::Zero();  // metres
  std::vector<Bone> bones;                                  // bones[0] is the root
  std::vector<int> eval_order;                              // every bone index, parents first
  int channel_count = 0;                                    // values in one Motion frame

  // Metres per file length unit.
  double metres_per_unit() const { return 0.0254 / length_unit; }
  // Radians per file angle unit.
  double radians_per_unit() const;
  // Index of the bone called `name`, or -1.
  int find_bone(std::string_view name) const;
  // Indices of the children of bone `b`, in bone order.
  std::vector<int> children(int b) const;
};

// Fills the derived fields (`eval_order`, `axis_rotation`, `dof_axes`,
// `first_channel`, `channel_count`) once bones, parents and axes are set. Returns an error message
// when the parents do not form a tree rooted at bone 0.
std::optional<std::string> finalize(Skeleton& skeleton);

// The rotation of Euler angles (radians) about X, Y, Z applied in `order`
// ("XYZ": X first, so the matrix is Rz * Ry * Rx).
Eigen::Quaterniond euler_to_quaternion(const Eigen::Vector3d& angles, std::string_view order);

}  // namespace mocap
