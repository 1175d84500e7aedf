// The frame loop of skin_frames.h and its two stock callbacks.
#include <mocap/io/atomic_write.h>
#include <mocap/skin/skin_frames.h>

#include <charconv>
#include <memory>
#include <utility>

namespace mocap {

Result<SkinFramesResult> skin_frames(Skinner& skinner, std::span<const int> frames, const PoseFrame& pose,
                                     const WriteFrame& write) {
  SkinFramesResult result;
  const double seconds_before = skinner.total_seconds();
  for (const int frame : frames) {
    pose(frame, skinner);
    if (auto written = write(frame, skinner); !written) return std::unexpected(written.error());
    ++result.frames;
  }
  result.skin_seconds = skinner.total_seconds() - seconds_before;
  return result;
}

PoseFrame pose_from_motion(const Skeleton& skeleton, const Motion& motion, const SkeletonBind& bind) {
  // Shared so that the PoseFrame can be copied; the pose is scratch, filled afresh each frame.
  auto pose = std::make_shared<Pose>(make_pose(skeleton));
  return [&skeleton, &motion, &bind, pose](int frame, Skinner& skinner) {
    pose_from_channels(skeleton, motion.frame(frame), *pose);
    pose_for_bind(skeleton, bind, *pose);
    skinner.skin(skeleton, *pose, bind);
  };
}

std::string FramePathPattern::path(int number) const {
  std::string digits = std::to_string(number);
  if (static_cast<int>(digits.size()) < width) {
    digits.insert(0, static_cast<std::size_t>(width) - digits.size(), zero_pad ? '0' : ' ');
  }
  return before + digits + after;
}

std::optional<FramePathPattern> parse_frame_path_pattern(const std::string& text) {
  const std::size_t percent = text.find('%');
  if (percent == std::string::npos) return std::nullopt;
  FramePathPattern pattern;
  pattern.before = text.substr(0, percent);
  std::size_t i = percent + 1;
  if (i < text.size() && text[i] == '0') {
    pattern.zero_pad = true;
    ++i;
  }
  const std::size_t digits = i;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  if (i > digits) std::from_chars(text.data() + digits, text.data() + i, pattern.width);
  if (i >= text.size() || text[i] != 'd' || pattern.width > 12) return std::nullopt;
  pattern.after = text.substr(i + 1);
  if (pattern.after.find('%') != std::string::npos) return std::nullopt;
  return pattern;
}

WriteFrame obj_frame_writer(const Mesh& mesh, FramePathPattern pattern, std::span<const int> numbers,
                            double metres_per_unit) {
  auto text = std::make_shared<std::string>();
  return [&mesh, pattern = std::move(pattern), numbers, metres_per_unit, text](int frame,
                                                                               const Skinner& skinner) -> Result<void> {
    format_obj_into(*text, mesh, skinner.positions(), skinner.normals(), metres_per_unit);
    return write_file_atomically(pattern.path(numbers[frame]), *text);
  };
}

Result<SkinFramesResult> write_obj_frames(Skinner& skinner, std::span<const int> frames, const PoseFrame& pose,
                                          const Mesh& mesh, const FramePathPattern& pattern,
                                          std::span<const int> numbers, double metres_per_unit) {
  return skin_frames(skinner, frames, pose, obj_frame_writer(mesh, pattern, numbers, metres_per_unit));
}

std::string SkinOutputPlan::first_path(const std::string& output) const {
  return glb ? output : pattern.path(0);
}

Result<SkinOutputPlan> plan_skin_output(const std::string& output, std::string_view format) {
  SkinOutputPlan plan;
  plan.glb = format == "glb";
  if (!plan.glb) {
    auto pattern = parse_frame_path_pattern(output);
    if (!pattern) return fail(output, 0, "expected a path with one %d, e.g. out_%04d.obj, or a .glb path");
    plan.pattern = std::move(*pattern);
  }
  return plan;
}

}  // namespace mocap
