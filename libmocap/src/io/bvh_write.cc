// io/bvh.h's writer: BVH text of any motion (through to_bvh), written whole
// or not at all.
#include <mocap/io/atomic_write.h>
#include <mocap/io/bvh.h>

#include <array>
#include <charconv>
#include <cmath>
#include <span>
#include <utility>
#include <vector>

#include "io/bvh_format.h"
#include "io/text.h"

namespace mocap {
namespace {

using bvh::kChannelNames;
using bvh::kDegrees;

void append_fixed(std::string& out, double v) {
  std::array<char, 64> buf;
  auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::fixed, 6);
  if (ec != std::errc()) return text::append_number(out, v);
  char* end = ptr;
  while (end[-1] == '0') --end;
  if (end[-1] == '.') --end;
  const std::string_view s(buf.data(), static_cast<std::size_t>(end - buf.data()));
  out += s == "-0" ? "0" : s;
}

void append_fixed_vector(std::string& out, const Eigen::Vector3d& v) {
  for (int k = 0; k < 3; ++k) {
    out += ' ';
    append_fixed(out, v[k]);
  }
}

struct Writer {
  const Skeleton& s;
  double scale;
  std::vector<std::vector<int>> children;
  std::vector<std::vector<int>> file_order;  // per bone: dof indices in file order
  std::string out;
  // Bones in the order the hierarchy lists them (depth first), which is the
  // order of the MOTION columns; bone order need not be (an ASF's bonedata).
  std::vector<int> hierarchy_order;

  void joint(int b, int depth) {
    const Bone& bone = s.bones[static_cast<std::size_t>(b)];
    hierarchy_order.push_back(b);
    const std::string indent(static_cast<std::size_t>(depth), '\t');
    const Eigen::Vector3d o = bone.parent < 0 ? s.root_position : Eigen::Vector3d(bone.length * bone.direction);
    if (bone.parent >= 0 && bone.dofs.empty() && children[static_cast<std::size_t>(b)].empty()) {
      out += indent + "End Site\n" + indent + "{\n" + indent + "\tOFFSET";
      append_fixed_vector(out, o / scale);
      out += "\n" + indent + "}\n";
      return;
    }
    out += indent + (bone.parent < 0 ? "ROOT " : "JOINT ") + bone.name + "\n" + indent + "{\n" + indent + "\tOFFSET";
    append_fixed_vector(out, o / scale);
    out += "\n" + indent + "\tCHANNELS " + std::to_string(bone.dofs.size());
    for (const int d : file_order[static_cast<std::size_t>(b)]) {
      const Channel c = bone.dofs[static_cast<std::size_t>(d)];
      out += ' ';
      out +=
          kChannelNames[static_cast<std::size_t>(is_rotation(c) ? static_cast<int>(c) + 3 : static_cast<int>(c) - 3)];
    }
    out += '\n';
    for (const int c : children[static_cast<std::size_t>(b)]) joint(c, depth + 1);
    out += indent + "}\n";
  }
};

}  // namespace

Result<std::string> format_bvh(const Skeleton& skeleton, const Motion& motion, double metres_per_unit) {
  if (!(std::isfinite(metres_per_unit) && metres_per_unit > 0.0))
    return fail("", 0, "length unit " + std::to_string(metres_per_unit) + " m: expected a positive number");
  if (!(std::isfinite(motion.fps) && motion.fps > 0.0)) return fail("", 0, "the motion has no positive frame rate");
  Result<BvhFile> converted = to_bvh(skeleton, motion);
  if (!converted) return std::unexpected(converted.error());
  const Skeleton& s = converted->skeleton;
  const Motion& m = converted->motion;
  Writer w{s, metres_per_unit, {}, {}, {}, {}};
  w.children.resize(s.bones.size());
  for (std::size_t b = 1; b < s.bones.size(); ++b) {
    w.children[static_cast<std::size_t>(s.bones[b].parent)].push_back(static_cast<int>(b));
  }
  w.file_order.resize(s.bones.size());
  for (std::size_t b = 0; b < s.bones.size(); ++b) {
    const std::vector<Channel>& dofs = s.bones[b].dofs;
    for (std::size_t d = 0; d < dofs.size(); ++d) {
      if (!is_rotation(dofs[d])) w.file_order[b].push_back(static_cast<int>(d));
    }
    for (std::size_t d = dofs.size(); d-- > 0;) {
      if (is_rotation(dofs[d])) w.file_order[b].push_back(static_cast<int>(d));
    }
  }
  w.out.reserve(static_cast<std::size_t>(m.frame_count()) * static_cast<std::size_t>(m.channel_count) * 10 + 4096);
  w.out += "HIERARCHY\n";
  w.joint(0, 0);
  w.out += "MOTION\nFrames: " + std::to_string(m.frame_count()) + "\nFrame Time: ";
  {
    std::array<char, 64> buf;
    const auto [ptr, ec] =
        std::to_chars(buf.data(), buf.data() + buf.size(), 1.0 / m.fps, std::chars_format::general, 10);
    w.out.append(buf.data(), ptr);
  }
  w.out += '\n';
  // The file's columns: per bone, its dofs in file order, each with its scale.
  std::vector<int> columns;
  std::vector<double> scales;
  for (const int joint : w.hierarchy_order) {
    const std::size_t b = static_cast<std::size_t>(joint);
    for (const int d : w.file_order[b]) {
      columns.push_back(s.bones[b].first_channel + d);
      scales.push_back(is_rotation(s.bones[b].dofs[static_cast<std::size_t>(d)]) ? 1.0 / kDegrees
                                                                                 : 1.0 / metres_per_unit);
    }
  }
  for (int f = 0; f < m.frame_count(); ++f) {
    const std::span<const double> row = m.frame(f);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c > 0) w.out += ' ';
      append_fixed(w.out, row[static_cast<std::size_t>(columns[c])] * scales[c]);
    }
    w.out += '\n';
  }
  return std::move(w.out);
}

Result<void> write_bvh(const Skeleton& skeleton, const Motion& motion, const std::string& path,
                       double metres_per_unit) {
  Result<std::string> content = format_bvh(skeleton, motion, metres_per_unit);
  if (!content) return std::unexpected(Error{path, 0, content.error().message});
  return write_file_atomically(path, *content);
}

}  // namespace mocap
