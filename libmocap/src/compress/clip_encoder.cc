#include <mocap/compress/clip_encoder.h>

namespace mocap {

Result<void> ClipEncodeOptions::validate() const { return {}; }

Result<CompressedClip> encode_clip(const Skeleton&, const Motion&, const ClipEncodeOptions&, ClipEncodeStats*) {
  return fail("", 0, "not implemented yet");
}

}  // namespace mocap
