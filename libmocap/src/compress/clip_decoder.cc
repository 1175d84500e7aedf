#include <mocap/compress/clip_decoder.h>

namespace mocap {

ClipCursor make_cursor(const CompressedClip&) { return {}; }
void sample_clip(const CompressedClip&, double, ClipCursor&, std::span<Eigen::Quaternionf>, Eigen::Vector3f&) {}
double sample_channel(const CompressedClip&, int, double) { return 0.0; }
Result<Motion> decode_motion(const CompressedClip& clip, const Skeleton&) {
  return fail(clip.name, 0, "not implemented yet");
}

}  // namespace mocap
