#include <mocap/compress/clip_file.h>

#include <cmath>

namespace mocap {

double step_of(int step_code) { return std::ldexp(8.0 + (step_code & 7), (step_code >> 3) - 3); }

Result<CompressedClip> parse_compressed_clip(std::span<const std::uint8_t>, const std::string& name) {
  return fail(name, 0, "not implemented yet");
}
Result<CompressedClip> read_compressed_clip(const std::string& path) { return fail(path, 0, "not implemented yet"); }
std::vector<std::uint8_t> format_compressed_clip(const CompressedClip&) { return {}; }
Result<void> write_compressed_clip(const std::string& path, const CompressedClip&) {
  return fail(path, 0, "not implemented yet");
}
bool looks_like_compressed_clip(std::span<const std::uint8_t>) { return false; }
Result<void> check_skeleton(const CompressedClip&, const Skeleton&, const std::string& skeleton_name) {
  return fail(skeleton_name, 0, "not implemented yet");
}
ClipSummary summarize(const CompressedClip&) { return {}; }

}  // namespace mocap
