#include <mocap/io/amc.h>
#include <mocap/io/atomic_write.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <numbers>
#include <unordered_map>

#include "io/text.h"

namespace mocap {
namespace {

using text::quote;

class AmcParser {
 public:
  AmcParser(text::LineReader& in, const Skeleton& skeleton, double fps) : in_(in), skeleton_(skeleton) {
    motion_.fps = fps;
    motion_.channel_count = skeleton.channel_count;
    for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
      index_.emplace(skeleton.bones[b].name, static_cast<int>(b));
    }
    seen_in_frame_.assign(skeleton.bones.size(), -1);
  }

  Result<AmcFile> run() {
    if (!fps_ok())
      return fail(in_.name(), 0, "frame rate " + std::to_string(motion_.fps) + ": expected a positive number");
    set_angle_unit(skeleton_.units.degrees);
    std::string_view line;
    bool any_line = false;
    while (in_.next(line)) {
      any_line = true;
      std::size_t i = 0;
      while (i < line.size() && text::is_blank(line[i])) ++i;
      if (i == line.size()) continue;
      const char c = line[i];
      if (c == '#' || c == ':') {
        if (auto e = header_line(text::trim(line))) return *e;
      } else if (c >= '0' && c <= '9') {
        if (auto e = frame_line(text::trim(line))) return *e;
      } else {
        if (auto e = bone_line(line.substr(i))) return *e;
      }
    }
    if (in_.error()) return std::unexpected(*in_.error());
    if (!any_line) return fail(in_.name(), 0, "empty file: expected an AMC motion");
    if (motion_.frame_numbers.empty())
      return fail(in_.name(), in_.line_number(), "no frames: expected a frame number line");
    if (auto e = close_frame()) return *e;
    // A copy costs a moment; keeping 1/8 unused costs memory as long as the clip lives.
    if (motion_.values.capacity() > motion_.values.size() + motion_.values.size() / 8) {
      motion_.values.shrink_to_fit();
      motion_.frame_numbers.shrink_to_fit();
    }
    return AmcFile{std::move(motion_), std::move(layout_)};
  }

 private:
  bool fps_ok() const { return std::isfinite(motion_.fps) && motion_.fps > 0.0; }

  std::unexpected<Error> error_here(std::string message) const {
    return fail(in_.name(), in_.line_number(), std::move(message));
  }

  void set_angle_unit(bool degrees) {
    layout_.degrees = degrees;
    const double radians = degrees ? std::numbers::pi / 180.0 : 1.0;
    scale_.assign(skeleton_.channel_count, 1.0);
    for (const Bone& bone : skeleton_.bones) {
      for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
        scale_[bone.first_channel + k] = is_rotation(bone.dofs[k]) ? radians : skeleton_.metres_per_unit();
      }
    }
  }

  std::optional<std::unexpected<Error>> header_line(std::string_view trimmed) {
    if (trimmed.front() == '#') {
      if (motion_.frame_numbers.empty()) layout_.header.emplace_back(trimmed);
      return std::nullopt;
    }
    if (!motion_.frame_numbers.empty())
      return error_here("keyword " + quote(trimmed) + " after the first frame: expected a bone or frame line");
    if (trimmed == ":DEGREES") {
      set_angle_unit(true);
    } else if (trimmed == ":RADIANS") {
      set_angle_unit(false);
    } else if (trimmed != ":FULLY-SPECIFIED") {
      return error_here("unknown keyword " + quote(trimmed) + ": expected :FULLY-SPECIFIED, :DEGREES or :RADIANS");
    }
    layout_.header.emplace_back(trimmed);
    return std::nullopt;
  }

  std::optional<std::unexpected<Error>> frame_line(std::string_view trimmed) {
    const auto number = text::parse_int(trimmed);
    if (!number) return error_here("frame number " + quote(trimmed) + ": expected a whole number alone on its line");
    if (!motion_.frame_numbers.empty()) {
      if (auto e = close_frame()) return e;
      if (*number <= motion_.frame_numbers.back()) {
        return error_here("frame number " + std::to_string(*number) + " after frame " +
                          std::to_string(motion_.frame_numbers.back()) + ": expected increasing frame numbers");
      }
    }
    if (motion_.frame_count() == 1) reserve_for_whole_file();
    motion_.frame_numbers.push_back(*number);
    motion_.values.resize(motion_.values.size() + skeleton_.channel_count, 0.0);
    frame_line_ = in_.line_number();
    frame_offset_ = in_.offset();
    position_in_frame_ = 0;
    return std::nullopt;
  }

  // Frames of one file are about equally long: size the storage from the
  // first one, so a loaded clip holds little more than its numbers.
  void reserve_for_whole_file() {
    const std::size_t frame_bytes = in_.offset() - frame_offset_;
    if (frame_bytes == 0 || in_.size_hint() == 0) return;
    const std::size_t frames = in_.size_hint() / frame_bytes + 2;
    motion_.frame_numbers.reserve(frames + frames / 32);
    motion_.values.reserve((frames + frames / 32) * skeleton_.channel_count);
  }

  // Every bone with dofs must have appeared in the frame just read.
  std::optional<std::unexpected<Error>> close_frame() {
    const int f = motion_.frame_count() - 1;
    for (std::size_t b = 0; b < skeleton_.bones.size(); ++b) {
      if (seen_in_frame_[b] != f && !skeleton_.bones[b].dofs.empty()) {
        return fail(in_.name(), in_.line_number(),
                    "frame " + std::to_string(motion_.frame_numbers.back()) + " (line " + std::to_string(frame_line_) +
                        ") has no line for bone " + quote(skeleton_.bones[b].name) +
                        ": expected every bone in every frame");
      }
    }
    return std::nullopt;
  }

  // The bone a line starts with and the length of its name; -1 when the
  // skeleton has no such bone.
  std::pair<int, std::size_t> bone_at_start(std::string_view line) const {
    // Files list the bones in the same order in every frame: try that first,
    // in place, before looking for the name's end.
    const auto& order = layout_.line_order;
    if (position_in_frame_ < order.size()) {
      const std::string& expected = skeleton_.bones[order[position_in_frame_]].name;
      const std::size_t n = expected.size();
      if (line.starts_with(expected) && (line.size() == n || text::is_blank(line[n])))
        return {order[position_in_frame_], n};
    }
    std::size_t name_end = 0;
    while (name_end < line.size() && !text::is_blank(line[name_end])) ++name_end;
    const auto it = index_.find(std::string(line.substr(0, name_end)));
    return {it == index_.end() ? -1 : it->second, name_end};
  }

  std::optional<std::unexpected<Error>> bone_line(std::string_view line) {
    if (motion_.frame_numbers.empty())
      return error_here("bone line before the first frame number: expected a frame number");
    const auto [b, name_end] = bone_at_start(line);
    const std::string_view name = line.substr(0, name_end);
    if (b < 0) return error_here("unknown bone " + quote(name) + ": expected a bone of " + quote(in_skeleton_name()));
    const int f = motion_.frame_count() - 1;
    if (seen_in_frame_[b] == f) return error_here("bone " + quote(name) + " given twice in one frame");
    seen_in_frame_[b] = f;
    if (f == 0) layout_.line_order.push_back(b);
    ++position_in_frame_;

    const Bone& bone = skeleton_.bones[b];
    const std::size_t dofs = bone.dofs.size();
    double* out = motion_.values.data() + static_cast<std::size_t>(f) * skeleton_.channel_count + bone.first_channel;
    const double* scale = scale_.data() + bone.first_channel;
    const char* p = line.data() + name_end;
    const char* const end = line.data() + line.size();
    std::size_t count = 0;
    for (;;) {
      while (p < end && (text::is_blank(*p) || *p == '\r')) ++p;
      if (p == end) break;
      if (count == dofs) return value_count_error(bone, count + count_words(p, end));
      double v = 0.0;
      // Read up to the block's end: the number stops at the line's CR or LF.
      const char* const next = text::parse_number_at(p, in_.block_end(), v);
      if (!next || next > end || (next < end && !text::is_blank(*next) && *next != '\r') || !std::isfinite(v)) {
        const char* word_end = p;
        while (word_end < end && !text::is_blank(*word_end)) ++word_end;
        return error_here("value " + quote(std::string_view(p, word_end - p)) + " for bone " + quote(name) +
                          ": expected a finite number");
      }
      out[count] = v * scale[count];
      ++count;
      p = next;
    }
    if (count != dofs) return value_count_error(bone, count);
    return std::nullopt;
  }

  static std::size_t count_words(const char* p, const char* end) {
    std::size_t n = 0;
    bool in_word = false;
    for (; p < end; ++p) {
      const bool space = text::is_blank(*p) || *p == '\r';
      if (!space && !in_word) ++n;
      in_word = !space;
    }
    return n;
  }

  std::unexpected<Error> value_count_error(const Bone& bone, std::size_t found) const {
    std::string dofs;
    for (Channel c : bone.dofs) (dofs += dofs.empty() ? "" : " ") += channel_name(c, bone.parent < 0);
    return error_here("bone " + quote(bone.name) + " has " + std::to_string(bone.dofs.size()) + " dofs (" + dofs +
                      ") but the line gives " + std::to_string(found) + " values");
  }

  std::string in_skeleton_name() const { return skeleton_.name.empty() ? "the skeleton" : skeleton_.name; }

  text::LineReader& in_;
  const Skeleton& skeleton_;
  Motion motion_;
  AmcLayout layout_;
  std::unordered_map<std::string, int> index_;
  std::vector<double> scale_;  // file unit -> SI, per channel
  std::vector<int> seen_in_frame_;
  std::size_t position_in_frame_ = 0;
  int frame_line_ = 0;
  std::size_t frame_offset_ = 0;
};

}  // namespace

Result<AmcFile> parse_amc_file(std::string_view content, const std::string& name, const Skeleton& skeleton,
                               double fps) {
  text::LineReader in(content, name);
  return AmcParser(in, skeleton, fps).run();
}

Result<AmcFile> read_amc_file(const std::string& path, const Skeleton& skeleton, double fps) {
  auto in = text::LineReader::open(path);
  if (!in) return std::unexpected(in.error());
  return AmcParser(*in, skeleton, fps).run();
}

Result<Motion> parse_amc(std::string_view content, const std::string& name, const Skeleton& skeleton, double fps) {
  auto file = parse_amc_file(content, name, skeleton, fps);
  if (!file) return std::unexpected(file.error());
  return std::move(file->motion);
}

Result<Motion> read_amc(const std::string& path, const Skeleton& skeleton, double fps) {
  auto file = read_amc_file(path, skeleton, fps);
  if (!file) return std::unexpected(file.error());
  return std::move(file->motion);
}

std::string format_amc(const Motion& motion, const Skeleton& skeleton, const AmcLayout& layout) {
  const double radians = layout.degrees ? std::numbers::pi / 180.0 : 1.0;
  const double metres = skeleton.metres_per_unit();
  std::string out;
  out.reserve(static_cast<std::size_t>(motion.frame_count()) *
              (skeleton.channel_count * 10 + skeleton.bones.size() * 10));
  bool wrote_angle_unit = false;
  for (const std::string& line : layout.header) {
    if (line == ":DEGREES" || line == ":RADIANS") {
      if (wrote_angle_unit) continue;
      out += layout.degrees ? ":DEGREES\n" : ":RADIANS\n";
      wrote_angle_unit = true;
      continue;
    }
    out += line;
    out += '\n';
  }
  if (layout.header.empty()) out += ":FULLY-SPECIFIED\n";
  if (!wrote_angle_unit) out += layout.degrees ? ":DEGREES\n" : ":RADIANS\n";

  std::vector<int> order = layout.line_order;
  if (order.empty()) {
    for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
      if (!skeleton.bones[b].dofs.empty()) order.push_back(static_cast<int>(b));
    }
  }
  for (int f = 0; f < motion.frame_count(); ++f) {
    out += std::to_string(motion.frame_numbers[f]);
    out += '\n';
    const std::span<const double> values = motion.frame(f);
    for (const int b : order) {
      const Bone& bone = skeleton.bones[b];
      out += bone.name;
      for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
        out += ' ';
        text::append_unscaled(out, values[bone.first_channel + k], is_rotation(bone.dofs[k]) ? radians : metres);
      }
      out += '\n';
    }
  }
  return out;
}

Result<void> write_amc(const Motion& motion, const Skeleton& skeleton, const std::string& path,
                       const AmcLayout& layout) {
  return write_file_atomically(path, format_amc(motion, skeleton, layout));
}

}  // namespace mocap
