// io/bvh.h's reader: BVH text to a Skeleton and Motion; length units and
// .bvh paths.
#include <mocap/io/bvh.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "io/bvh_format.h"
#include "io/text.h"

namespace mocap {
namespace {

using bvh::equal_nocase;
using bvh::kChannelNames;
using bvh::kDegrees;
using text::quote;

// Deeper than any real skeleton; keeps the recursive parser's stack bounded.
constexpr int kMaxDepth = 256;
// Largest magnitude read (file units or degrees): 1000 km in centimetres.
// Beyond it the writer's 6 decimals would exceed a double's precision and
// a written file would no longer read back to the same text.
constexpr double kMaxMagnitude = 1e8;

// 0..2 Xposition..Zposition, 3..5 Xrotation..Zrotation.
std::optional<int> parse_bvh_channel(std::string_view word) {
  for (int i = 0; i < 6; ++i) {
    if (equal_nocase(word, kChannelNames[static_cast<std::size_t>(i)])) return i;
  }
  return std::nullopt;
}

struct RawJoint {
  std::string name;
  int parent = -1;
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();  // file units
  std::vector<int> channels;                         // file order, parse_bvh_channel codes
  bool end_site = false;
};

class BvhParser {
 public:
  BvhParser(text::LineReader& in, double metres_per_unit) : in_(in), scale_(metres_per_unit) {}

  Result<BvhFile> run() {
    if (!(std::isfinite(scale_) && scale_ > 0.0))
      return fail(in_.name(), 0, "length unit " + std::to_string(scale_) + " m: expected a positive number");
    std::string_view word;
    if (!next(word)) return end_error("empty file: expected HIERARCHY");
    if (word != "HIERARCHY") return here("found " + quote(word) + ": expected HIERARCHY");
    if (!next(word)) return end_error("end of file: expected ROOT");
    if (word != "ROOT") return here("found " + quote(word) + ": expected ROOT");
    if (auto e = joint(-1, 0)) return *e;
    if (!next(word)) return end_error("end of file after the hierarchy: expected MOTION");
    if (word == "ROOT") return here("a second ROOT: mocap reads one skeleton per file (one hierarchy, one root)");
    if (word != "MOTION") return here("found " + quote(word) + " after the hierarchy: expected MOTION");
    if (!text::trim(rest_).empty())
      return here("found " + quote(text::trim(rest_)) + " after MOTION: expected a line end");
    if (auto e = motion()) return *e;
    return build();
  }

 private:
  std::unexpected<Error> here(std::string message) const {
    return fail(in_.name(), in_.line_number(), std::move(message));
  }
  // At the end of input: the reader's own error (binary file, long line) first.
  std::unexpected<Error> end_error(std::string message) const {
    if (in_.error()) return std::unexpected(*in_.error());
    return here(std::move(message));
  }

  // The next word of the hierarchy, across lines.
  bool next(std::string_view& word) {
    for (;;) {
      word = text::next_word(rest_);
      if (!word.empty()) return true;
      if (!in_.next(rest_)) return false;
    }
  }

  std::optional<std::unexpected<Error>> number(double& v, std::string_view what) {
    std::string_view word;
    if (!next(word)) return end_error("end of file: expected " + std::string(what));
    const auto n = text::parse_number(word);
    if (!n || std::abs(*n) > kMaxMagnitude)
      return here("found " + quote(word) + ": expected " + std::string(what) + " (a finite number within +-1e8)");
    v = *n;
    return std::nullopt;
  }

  std::optional<std::unexpected<Error>> offset(Eigen::Vector3d& o, const std::string& joint_name) {
    for (int k = 0; k < 3; ++k) {
      if (auto e = number(o[k], "a number of the OFFSET of " + quote(joint_name))) return e;
    }
    return std::nullopt;
  }

  std::optional<std::unexpected<Error>> joint(int parent, int depth) {
    if (depth > kMaxDepth) return here("joints nested deeper than " + std::to_string(kMaxDepth));
    std::string_view word;
    if (!next(word)) return end_error("end of file: expected a joint name");
    if (word == "{" || word == "}") return here("found " + quote(word) + ": expected a joint name");
    const int index = static_cast<int>(joints_.size());
    joints_.push_back({std::string(word), parent, Eigen::Vector3d::Zero(), {}, false});
    const std::string name(word);
    const int opened = in_.line_number();
    if (!next(word)) return end_error("end of file: expected '{' after joint " + quote(name));
    if (word != "{") return here("found " + quote(word) + ": expected '{' after joint " + quote(name));
    bool has_offset = false, has_channels = false;
    for (;;) {
      if (!next(word))
        return end_error("end of file inside joint " + quote(name) + " (opened at line " + std::to_string(opened) +
                         "): expected '}'");
      if (word == "}") break;
      if (word == "OFFSET") {
        if (has_offset) return here("a second OFFSET in joint " + quote(name));
        has_offset = true;
        Eigen::Vector3d o;
        if (auto e = offset(o, name)) return e;
        joints_[static_cast<std::size_t>(index)].offset = o;
      } else if (word == "CHANNELS") {
        if (has_channels) return here("a second CHANNELS in joint " + quote(name));
        has_channels = true;
        if (auto e = channels(index, name)) return e;
      } else if (word == "JOINT") {
        if (auto e = joint(index, depth + 1)) return e;
      } else if (word == "End") {
        if (!next(word) || word != "Site") return here("expected 'End Site' in joint " + quote(name));
        if (auto e = end_site(index, name)) return e;
      } else {
        return here("found " + quote(word) + " in joint " + quote(name) +
                    ": expected OFFSET, CHANNELS, JOINT, End Site or '}'");
      }
    }
    if (!has_offset) return here("joint " + quote(name) + " has no OFFSET");
    return std::nullopt;
  }

  std::optional<std::unexpected<Error>> channels(int index, const std::string& name) {
    std::string_view word;
    if (!next(word)) return end_error("end of file: expected the channel count of " + quote(name));
    const auto count = text::parse_int(word);
    if (!count || *count < 0 || *count > 6)
      return here("found " + quote(word) + ": expected the channel count of " + quote(name) + " (0 to 6)");
    std::vector<int>& list = joints_[static_cast<std::size_t>(index)].channels;
    for (int k = 0; k < *count; ++k) {
      if (!next(word)) return end_error("end of file: expected " + std::to_string(*count) + " channel names");
      const auto c = parse_bvh_channel(word);
      if (!c)
        return here("unknown channel " + quote(word) + " in joint " + quote(name) +
                    ": expected Xposition, Yposition, Zposition, Xrotation, Yrotation or Zrotation");
      if (std::find(list.begin(), list.end(), *c) != list.end())
        return here("channel " + quote(word) + " twice in joint " + quote(name));
      list.push_back(*c);
    }
    channel_count_ += *count;
    return std::nullopt;
  }

  std::optional<std::unexpected<Error>> end_site(int parent, const std::string& parent_name) {
    std::string_view word;
    const int opened = in_.line_number();
    if (!next(word) || word != "{") return end_error("expected '{' after End Site in " + quote(parent_name));
    if (!next(word) || word != "OFFSET") return end_error("expected OFFSET in the End Site of " + quote(parent_name));
    RawJoint site{parent_name + "_end", parent, Eigen::Vector3d::Zero(), {}, true};
    if (auto e = offset(site.offset, site.name)) return e;
    if (!next(word))
      return end_error("end of file inside the End Site of " + quote(parent_name) + " (opened at line " +
                       std::to_string(opened) + "): expected '}'");
    if (word != "}") return here("found " + quote(word) + " in an End Site: expected '}'");
    joints_.push_back(std::move(site));
    return std::nullopt;
  }

  // A line's words after `MOTION`, skipping blank lines; false at the end.
  bool next_line(std::string_view& line) {
    while (in_.next(line)) {
      if (!text::trim(line).empty()) return true;
    }
    return false;
  }

  std::optional<std::unexpected<Error>> motion() {
    if (channel_count_ == 0) return here("the hierarchy has no channels: expected a motion of some");
    std::string_view line;
    if (!next_line(line)) return end_error("end of file: expected 'Frames: <count>'");
    std::string_view rest = line;
    std::string_view word = text::next_word(rest);
    if (word != "Frames:") return here("found " + quote(text::trim(line)) + ": expected 'Frames: <count>'");
    word = text::next_word(rest);
    const auto frames = text::parse_int(word);
    if (!frames || *frames < 0 || !text::trim(rest).empty())
      return here("found " + quote(text::trim(line)) + ": expected 'Frames: <count>' (a count >= 0)");
    if (!next_line(line)) return end_error("end of file: expected 'Frame Time: <seconds>'");
    rest = line;
    const std::string_view w1 = text::next_word(rest), w2 = text::next_word(rest);
    const std::string_view w3 = text::next_word(rest);
    const auto seconds = text::parse_number(w3);
    if (w1 != "Frame" || w2 != "Time:" || !seconds || *seconds <= 0.0 || !text::trim(rest).empty())
      return here("found " + quote(text::trim(line)) + ": expected 'Frame Time: <seconds>' (> 0)");
    double fps = 1.0 / *seconds;
    if (!std::isfinite(fps)) return here("Frame Time " + std::string(w3) + " is too small");
    if (const double whole = std::round(fps); whole > 0.0 && std::abs(fps - whole) <= 1e-4 * whole) fps = whole;
    motion_.fps = fps;
    build_columns();
    motion_.channel_count = channel_count_;
    const std::size_t n = static_cast<std::size_t>(channel_count_);
    // Frames: may lie; reserve no more than the rest of the file could hold.
    std::size_t expected = static_cast<std::size_t>(*frames);
    if (in_.size_hint() > 0) expected = std::min(expected, in_.size_hint() / (2 * n) + 1);
    motion_.values.reserve(expected * n);
    motion_.frame_numbers.reserve(expected);
    while (next_line(line)) {
      if (motion_.frame_count() == *frames)
        return here("more rows than 'Frames: " + std::to_string(*frames) + "': expected the end of the file");
      if (auto e = row(line, n)) return e;
    }
    if (in_.error()) return std::unexpected(*in_.error());
    if (motion_.frame_count() < *frames)
      return here("truncated motion: 'Frames: " + std::to_string(*frames) + "' but " +
                  std::to_string(motion_.frame_count()) + " rows");
    return std::nullopt;
  }

  // Where each file column goes in a Motion frame and its scale.
  void build_columns() {
    int channel = 0;
    for (const RawJoint& j : joints_) {
      std::vector<int> order;  // file column offsets within the joint, in dof order
      for (std::size_t k = 0; k < j.channels.size(); ++k) {
        if (j.channels[k] < 3) order.push_back(static_cast<int>(k));
      }
      for (std::size_t k = j.channels.size(); k-- > 0;) {
        if (j.channels[k] >= 3) order.push_back(static_cast<int>(k));
      }
      const int first_column = static_cast<int>(column_to_channel_.size());
      column_to_channel_.resize(column_to_channel_.size() + j.channels.size());
      column_scale_.resize(column_to_channel_.size());
      for (std::size_t d = 0; d < order.size(); ++d) {
        const int column = first_column + order[d];
        column_to_channel_[static_cast<std::size_t>(column)] = channel + static_cast<int>(d);
        column_scale_[static_cast<std::size_t>(column)] =
            j.channels[static_cast<std::size_t>(order[d])] < 3 ? scale_ : kDegrees;
      }
      channel += static_cast<int>(j.channels.size());
    }
  }

  std::optional<std::unexpected<Error>> row(std::string_view line, std::size_t n) {
    const std::size_t base = motion_.values.size();
    motion_.values.resize(base + n);
    double* out = motion_.values.data() + base;
    const char* p = line.data();
    const char* const end = p + line.size();
    std::size_t k = 0;
    for (;;) {
      while (p < end && (text::is_blank(*p) || *p == '\f')) ++p;
      if (p == end) break;
      if (k == n) {
        std::size_t count = k;
        for (std::string_view rest(p, static_cast<std::size_t>(end - p)); !text::next_word(rest).empty();) ++count;
        return here("frame " + std::to_string(motion_.frame_count()) + " has " + std::to_string(count) +
                    " values: expected " + std::to_string(n) + " (one per channel of the hierarchy)");
      }
      double v = 0.0;
      // Read up to the block's end, not the word's: the number stops at the
      // line's CR or LF, and the word is found only for a message.
      const char* q = text::parse_number_at(p, in_.block_end(), v);
      if (!q || q > end || (q < end && !text::is_blank(*q)) || !(std::abs(v) <= kMaxMagnitude)) {
        const char* word_end = p;
        while (word_end < end && !text::is_blank(*word_end)) ++word_end;
        return here("found " + quote(std::string_view(p, static_cast<std::size_t>(word_end - p))) + " in frame " +
                    std::to_string(motion_.frame_count()) + ": expected a finite number within +-1e8");
      }
      out[column_to_channel_[k]] = v * column_scale_[k];
      ++k;
      p = q;
    }
    if (k != n)
      return here("frame " + std::to_string(motion_.frame_count()) + " has " + std::to_string(k) +
                  " values: expected " + std::to_string(n) + " (one per channel of the hierarchy)");
    motion_.frame_numbers.push_back(motion_.frame_count());
    return std::nullopt;
  }

  Result<BvhFile> build() {
    BvhFile out;
    Skeleton& s = out.skeleton;
    s.name = joints_.front().name;
    s.offsets_in_parent_frame = true;
    s.units.metres_per_length = scale_;
    s.units.degrees = true;
    for (const RawJoint& j : joints_) {
      Bone bone;
      bone.name = j.name;
      bone.parent = j.parent;
      Eigen::Vector3d o = j.offset * scale_;
      for (const int c : j.channels) {
        if (c < 3) {
          o[c] = 0.0;  // the position channel replaces it
          bone.dofs.push_back(static_cast<Channel>(static_cast<int>(Channel::TX) + c));
        }
      }
      for (std::size_t k = j.channels.size(); k-- > 0;) {
        if (j.channels[k] >= 3) bone.dofs.push_back(static_cast<Channel>(j.channels[k] - 3));
      }
      if (j.parent < 0) {
        s.root_position = o;
      } else {
        bone.length = o.norm();
        if (bone.length > 0.0) bone.direction = o / bone.length;
      }
      s.bones.push_back(std::move(bone));
    }
    if (auto tree = finalize(s); !tree) return fail(in_.name(), 0, tree.error().message);
    out.motion = std::move(motion_);
    return out;
  }

  text::LineReader& in_;
  double scale_;
  std::string_view rest_;
  std::vector<RawJoint> joints_;
  int channel_count_ = 0;
  std::vector<int> column_to_channel_;
  std::vector<double> column_scale_;
  Motion motion_;
};

}  // namespace

Result<BvhFile> parse_bvh(std::string_view text, const std::string& name, double metres_per_unit) {
  text::LineReader in(text, name);
  return BvhParser(in, metres_per_unit).run();
}

Result<BvhFile> read_bvh(const std::string& path, double metres_per_unit) {
  auto in = text::LineReader::open(path);
  if (!in) return std::unexpected(in.error());
  return BvhParser(*in, metres_per_unit).run();
}

std::optional<double> parse_length_unit(std::string_view text) {
  static constexpr std::pair<std::string_view, double> kNames[] = {
      {"m", 1.0}, {"cm", 0.01}, {"mm", 0.001}, {"in", 0.0254}, {"ft", 0.3048}};
  for (const auto& [name, metres] : kNames) {
    if (text == name) return metres;
  }
  const auto v = text::parse_number(text);
  if (!v || *v <= 0.0) return std::nullopt;
  return v;
}

bool is_bvh_path(std::string_view path) {
  return path.size() > 4 && equal_nocase(path.substr(path.size() - 4), ".bvh");
}

}  // namespace mocap
