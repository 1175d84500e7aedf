#include <mocap/io/asf.h>
#include <mocap/io/asf_skeleton.h>
#include <mocap/io/atomic_write.h>

#include <cmath>
#include <unordered_set>

#include "io/text.h"

namespace mocap {
namespace {

using text::quote;

enum class Section { None, Units, Documentation, Root, BoneData, Hierarchy };

// Reads "(min max)" pairs from `s` into `out`; an error message otherwise.
std::optional<std::string> parse_limit_pairs(std::string_view s, std::vector<Limit>& out) {
  for (;;) {
    s = text::trim(s);
    if (s.empty()) return std::nullopt;
    if (s.front() != '(') return "expected '(' to open a limit pair, found " + quote(s);
    const std::size_t close = s.find(')');
    if (close == std::string_view::npos) return "expected ')' to close the limit pair " + quote(s);
    std::string_view inner = s.substr(1, close - 1);
    const std::string_view lo_word = text::next_word(inner);
    const std::string_view hi_word = text::next_word(inner);
    const auto lo = text::parse_bound(lo_word);
    const auto hi = text::parse_bound(hi_word);
    if (!lo || !hi || !text::trim(inner).empty()) {
      return "expected two numbers in a limit pair, found " + quote(s.substr(0, close + 1));
    }
    out.push_back({*lo, *hi});
    s.remove_prefix(close + 1);
  }
}

std::optional<Eigen::Vector3d> parse_vector3(std::string_view& rest) {
  Eigen::Vector3d v;
  for (int i = 0; i < 3; ++i) {
    const auto x = text::parse_number(text::next_word(rest));
    if (!x) return std::nullopt;
    v[i] = *x;
  }
  return v;
}

class AsfParser {
 public:
  explicit AsfParser(text::LineReader& in) : in_(in) {}

  Result<AsfSkeleton> run() {
    AsfBone root;
    root.name = "root";
    skeleton_.bones.push_back(root);
    std::string_view line;
    bool any_line = false;
    while (in_.next(line)) {
      const std::string_view trimmed = text::trim(line);
      if (trimmed.empty()) continue;
      any_line = true;
      if (trimmed.front() == '#' && section_ != Section::Documentation) continue;
      if (trimmed.front() == ':') {
        if (auto e = close_section()) return *e;
        if (auto e = open_section(trimmed)) return *e;
        continue;
      }
      if (auto e = section_line(line, trimmed)) return *e;
    }
    if (in_.error()) return std::unexpected(*in_.error());
    if (!any_line) return error_at(0, "empty file: expected an ASF skeleton");
    if (auto e = close_section()) return *e;
    if (!saw_bonedata_) return error_at(0, "no :bonedata section: expected the skeleton's bones");
    if (!saw_hierarchy_ && skeleton_.bones.size() > 1) {
      return error_at(0, "no :hierarchy section: expected the bones' parents");
    }
    // Every check above has its own line; what is left is the tree as a
    // whole, which only :hierarchy decides.
    if (auto valid = validate(skeleton_); !valid) return error_at(hierarchy_line_, valid.error().message);
    return std::move(skeleton_);
  }

 private:
  std::unexpected<Error> error_at(int line, std::string message) const {
    return fail(in_.name(), line, std::move(message));
  }
  std::unexpected<Error> error_here(std::string message) const {
    return error_at(in_.line_number(), std::move(message));
  }

  std::optional<std::unexpected<Error>> open_section(std::string_view trimmed) {
    std::string_view rest = trimmed;
    const std::string_view keyword = text::next_word(rest);
    const std::string_view value = text::trim(rest);
    section_ = Section::None;
    if (keyword == ":version") {
      skeleton_.version = std::string(value);
    } else if (keyword == ":name") {
      skeleton_.name = std::string(value);
    } else if (keyword == ":units") {
      section_ = Section::Units;
    } else if (keyword == ":documentation") {
      section_ = Section::Documentation;
      documentation_.clear();
    } else if (keyword == ":root") {
      section_ = Section::Root;
    } else if (keyword == ":bonedata") {
      if (saw_bonedata_) return error_here("a second :bonedata section: expected one");
      section_ = Section::BoneData;
      saw_bonedata_ = true;
    } else if (keyword == ":hierarchy") {
      if (!saw_bonedata_) return error_here(":hierarchy before :bonedata: expected the bones first");
      section_ = Section::Hierarchy;
      saw_hierarchy_ = true;
      hierarchy_line_ = in_.line_number();
    } else {
      return error_here("unknown section " + quote(keyword) +
                        ": expected :version, :name, :units, :documentation, :root, :bonedata or :hierarchy");
    }
    return std::nullopt;
  }

  std::optional<std::unexpected<Error>> close_section() {
    if (section_ == Section::Documentation) {
      skeleton_.documentation = std::move(documentation_);
      documentation_.clear();
    }
    if (section_ == Section::BoneData && in_bone_) return error_here("bone block not closed: expected 'end'");
    if (section_ == Section::Hierarchy && in_hierarchy_) {
      return error_here("hierarchy not closed: expected 'end'");
    }
    return std::nullopt;
  }

  std::optional<std::unexpected<Error>> section_line(std::string_view line, std::string_view trimmed) {
    switch (section_) {
      case Section::None: return error_here("unexpected text " + quote(trimmed) + ": expected a ':' section keyword");
      case Section::Documentation:
        if (!documentation_.empty()) documentation_ += '\n';
        documentation_.append(line);
        return std::nullopt;
      case Section::Units: return units_line(trimmed);
      case Section::Root: return root_line(trimmed);
      case Section::BoneData: return bone_line(trimmed);
      case Section::Hierarchy: return hierarchy_line(trimmed);
    }
    return std::nullopt;
  }

  std::optional<std::unexpected<Error>> units_line(std::string_view trimmed) {
    std::string_view rest = trimmed;
    const std::string_view key = text::next_word(rest);
    const std::string_view value = text::next_word(rest);
    if (key == "angle") {
      if (value == "deg") {
        skeleton_.angles_in_degrees = true;
      } else if (value == "rad") {
        skeleton_.angles_in_degrees = false;
      } else {
        return error_here("angle unit " + quote(value) + ": expected 'deg' or 'rad'");
      }
      return std::nullopt;
    }
    if (key != "mass" && key != "length") {
      return error_here("unknown unit " + quote(key) + ": expected mass, length or angle");
    }
    const auto v = text::parse_number(value);
    if (!v || *v <= 0.0)
      return error_here("units " + std::string(key) + " " + quote(value) + ": expected a positive number");
    (key == "mass" ? skeleton_.mass_unit : skeleton_.length_unit) = *v;
    return std::nullopt;
  }

  std::optional<std::unexpected<Error>> root_line(std::string_view trimmed) {
    AsfBone& root = skeleton_.bones[0];
    std::string_view rest = trimmed;
    const std::string_view key = text::next_word(rest);
    if (key == "order") {
      root.dofs.clear();
      for (std::string_view w = text::next_word(rest); !w.empty(); w = text::next_word(rest)) {
        const auto c = parse_channel(w);
        if (!c || *c == Channel::L) return error_here("root order " + quote(w) + ": expected TX TY TZ RX RY RZ");
        for (Channel seen : root.dofs) {
          if (seen == *c) return error_here("root order repeats " + quote(w));
        }
        root.dofs.push_back(*c);
      }
      return std::nullopt;
    }
    if (key == "axis") {
      const std::string_view order = text::next_word(rest);
      if (!text::is_axis_order(order))
        return error_here("root axis " + quote(order) + ": expected an order such as XYZ");
      root.axis_order = std::string(order);
      return std::nullopt;
    }
    if (key == "position" || key == "orientation") {
      const auto v = parse_vector3(rest);
      if (!v) return error_here("root " + std::string(key) + ": expected three numbers");
      (key == "position" ? skeleton_.root_position : root.axis) = *v;
      return std::nullopt;
    }
    return error_here("unknown root keyword " + quote(key) + ": expected order, axis, position or orientation");
  }

  std::optional<std::unexpected<Error>> bone_line(std::string_view trimmed) {
    std::string_view rest = trimmed;
    const std::string_view key = text::next_word(rest);
    if (!in_bone_) {
      if (key != "begin") return error_here(quote(key) + ": expected 'begin' to open a bone");
      in_bone_ = true;
      in_limits_ = false;
      bone_ = AsfBone{};
      bone_start_ = in_.line_number();
      has_length_ = has_direction_ = has_id_ = false;
      return std::nullopt;
    }
    if (in_limits_ && key.front() == '(') return limits(trimmed);
    in_limits_ = false;
    if (key == "end") return end_bone();
    if (key == "id") {
      const auto id = text::parse_int(text::next_word(rest));
      if (!id) return error_here("bone id: expected an integer");
      bone_.id = *id;
      has_id_ = true;
    } else if (key == "name") {
      const std::string_view name = text::next_word(rest);
      if (name.empty()) return error_here("bone name: expected a name");
      if (names_.count(std::string(name)) || name == "root") return error_here("duplicate bone " + quote(name));
      bone_.name = std::string(name);
    } else if (key == "direction") {
      const auto v = parse_vector3(rest);
      if (!v) return error_here("bone direction: expected three numbers");
      bone_.direction = *v;
      has_direction_ = true;
    } else if (key == "length") {
      const auto v = text::parse_number(text::next_word(rest));
      if (!v || *v < 0.0) return error_here("bone length: expected a number >= 0");
      bone_.length = *v;
      has_length_ = true;
    } else if (key == "axis") {
      const auto v = parse_vector3(rest);
      const std::string_view order = text::next_word(rest);
      if (!v || !text::is_axis_order(order))
        return error_here("bone axis: expected three angles and an order such as XYZ");
      bone_.axis = *v;
      bone_.axis_order = std::string(order);
    } else if (key == "dof") {
      bone_.dofs.clear();
      for (std::string_view w = text::next_word(rest); !w.empty(); w = text::next_word(rest)) {
        const auto c = parse_channel(w);
        if (!c) return error_here("dof " + quote(w) + ": expected rx, ry, rz, tx, ty, tz or l");
        for (Channel seen : bone_.dofs) {
          if (seen == *c) return error_here("dof " + quote(w) + " given twice");
        }
        bone_.dofs.push_back(*c);
      }
    } else if (key == "limits") {
      bone_.limits.clear();
      in_limits_ = true;
      return limits(rest);
    } else {
      return error_here("unknown bone keyword " + quote(key) +
                        ": expected id, name, direction, length, axis, dof, limits or end");
    }
    return std::nullopt;
  }

  std::optional<std::unexpected<Error>> limits(std::string_view s) {
    if (auto message = parse_limit_pairs(s, bone_.limits)) return error_here(*message);
    return std::nullopt;
  }

  std::optional<std::unexpected<Error>> end_bone() {
    in_bone_ = false;
    const std::string where = " (bone opened at line " + std::to_string(bone_start_) + ")";
    if (bone_.name.empty()) return error_here("bone without a name" + where);
    if (!has_direction_) return error_here("bone " + quote(bone_.name) + " has no direction" + where);
    if (!has_length_) return error_here("bone " + quote(bone_.name) + " has no length" + where);
    if (!has_id_) bone_.id = static_cast<int>(skeleton_.bones.size());
    if (!bone_.limits.empty() && bone_.limits.size() != bone_.dofs.size()) {
      return error_here("bone " + quote(bone_.name) + " has " + std::to_string(bone_.dofs.size()) + " dofs but " +
                        std::to_string(bone_.limits.size()) + " limit pairs: expected one pair per dof");
    }
    names_.insert(bone_.name);
    skeleton_.bones.push_back(std::move(bone_));
    return std::nullopt;
  }

  std::optional<std::unexpected<Error>> hierarchy_line(std::string_view trimmed) {
    std::string_view rest = trimmed;
    const std::string_view first = text::next_word(rest);
    if (!in_hierarchy_) {
      if (first != "begin") return error_here(quote(first) + ": expected 'begin' to open the hierarchy");
      in_hierarchy_ = true;
      return std::nullopt;
    }
    if (first == "end") {
      in_hierarchy_ = false;
      return std::nullopt;
    }
    const int parent = skeleton_.find_bone(first);
    if (parent < 0) return error_here("unknown parent bone " + quote(first) + " in :hierarchy");
    for (std::string_view w = text::next_word(rest); !w.empty(); w = text::next_word(rest)) {
      const int child = skeleton_.find_bone(w);
      if (child < 0) return error_here("unknown bone " + quote(w) + " in :hierarchy");
      if (child == 0) return error_here("the root cannot be a child in :hierarchy");
      if (child == parent) return error_here("bone " + quote(w) + " is its own parent: a cycle in :hierarchy");
      AsfBone& bone = skeleton_.bones[child];
      if (bone.parent >= 0) return error_here("bone " + quote(w) + " is given a second parent in :hierarchy");
      for (int up = parent; up >= 0; up = skeleton_.bones[up].parent) {
        if (up == child) {
          return error_here("bone " + quote(w) + " under " + quote(first) + " closes a cycle in :hierarchy");
        }
      }
      bone.parent = parent;
    }
    return std::nullopt;
  }

  text::LineReader& in_;
  AsfSkeleton skeleton_;
  Section section_ = Section::None;
  std::string documentation_;
  std::unordered_set<std::string> names_;
  AsfBone bone_;
  int bone_start_ = 0;
  bool in_bone_ = false, in_limits_ = false, in_hierarchy_ = false;
  bool has_id_ = false, has_length_ = false, has_direction_ = false;
  bool saw_bonedata_ = false, saw_hierarchy_ = false;
  int hierarchy_line_ = 0;
};

void append_vector(std::string& out, const Eigen::Vector3d& v) {
  for (int i = 0; i < 3; ++i) {
    if (i) out += ' ';
    text::append_number(out, v[i]);
  }
}

}  // namespace

Result<AsfSkeleton> parse_asf_file(std::string_view content, const std::string& name) {
  text::LineReader in(content, name);
  return AsfParser(in).run();
}

Result<AsfSkeleton> read_asf_file(const std::string& path) {
  auto in = text::LineReader::open(path);
  if (!in) return std::unexpected(in.error());
  return AsfParser(*in).run();
}

Result<Skeleton> parse_asf(std::string_view content, const std::string& name) {
  auto raw = parse_asf_file(content, name);
  if (!raw) return std::unexpected(raw.error());
  return build_skeleton(*raw, name);
}

Result<Skeleton> read_asf(const std::string& path) {
  auto raw = read_asf_file(path);
  if (!raw) return std::unexpected(raw.error());
  return build_skeleton(*raw, path);
}

std::string format_asf(const AsfSkeleton& skeleton) {
  std::string out = "# ASF written by mocap\n";
  if (!skeleton.version.empty()) out += ":version " + skeleton.version + "\n";
  if (!skeleton.name.empty()) out += ":name " + skeleton.name + "\n";
  out += ":units\n  mass ";
  text::append_number(out, skeleton.mass_unit);
  out += "\n  length ";
  text::append_number(out, skeleton.length_unit);
  out += skeleton.angles_in_degrees ? "\n  angle deg\n" : "\n  angle rad\n";
  if (!skeleton.documentation.empty()) out += ":documentation\n" + skeleton.documentation + "\n";
  const AsfBone& root = skeleton.bones.at(0);
  out += ":root\n   order";
  for (Channel c : root.dofs) (out += ' ') += channel_name(c, true);
  out += "\n   axis " + root.axis_order + "\n   position ";
  append_vector(out, skeleton.root_position);
  out += "\n   orientation ";
  append_vector(out, root.axis);
  out += "\n:bonedata\n";
  for (std::size_t b = 1; b < skeleton.bones.size(); ++b) {
    const AsfBone& bone = skeleton.bones[b];
    out += "  begin\n     id " + std::to_string(bone.id) + "\n     name " + bone.name + "\n     direction ";
    append_vector(out, bone.direction);
    out += "\n     length ";
    text::append_number(out, bone.length);
    out += "\n     axis ";
    append_vector(out, bone.axis);
    out += "  " + bone.axis_order + "\n";
    if (!bone.dofs.empty()) {
      out += "    dof";
      for (Channel c : bone.dofs) (out += ' ') += channel_name(c);
      out += "\n";
    }
    for (std::size_t k = 0; k < bone.limits.size(); ++k) {
      out += k == 0 ? "    limits (" : "           (";
      text::append_number(out, bone.limits[k].min);
      out += ' ';
      text::append_number(out, bone.limits[k].max);
      out += ")\n";
    }
    out += "  end\n";
  }
  // Parents before their children (breadth-first from the root), so that a
  // reader that needs each parent named first is served too.
  out += ":hierarchy\n  begin\n";
  std::vector<int> order{0};
  for (std::size_t next = 0; next < order.size(); ++next) {
    const int parent = order[next];
    std::string line;
    for (std::size_t b = 1; b < skeleton.bones.size(); ++b) {
      if (skeleton.bones[b].parent != parent) continue;
      order.push_back(static_cast<int>(b));
      line += " " + skeleton.bones[b].name;
    }
    if (!line.empty()) out += "    " + skeleton.bones[parent].name + line + "\n";
  }
  out += "  end\n";
  return out;
}

Result<void> write_asf(const AsfSkeleton& skeleton, const std::string& path) {
  return write_file_atomically(path, format_asf(skeleton));
}

}  // namespace mocap
