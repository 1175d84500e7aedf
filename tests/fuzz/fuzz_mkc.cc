// libFuzzer target: .mkc bytes. Any bytes give a clip or an error, never a
// crash; a clip formats back to the same bytes, samples anywhere without a
// crash, and decodes against the CMU skeleton when its fingerprint fits.
#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/compressed_clip.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "fuzz_skeleton.h"

using mocap::fuzz::skeleton;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  const auto clip = mocap::parse_compressed_clip(bytes, "fuzz.mkc");
  if (!clip) {
    if (clip.error().message.empty()) std::abort();
    return 0;
  }
  if (mocap::format_compressed_clip(*clip) != std::vector<std::uint8_t>(bytes.begin(), bytes.end())) std::abort();
  std::vector<Eigen::Quaternionf> rotations(clip->bones.size());
  Eigen::Vector3f root;
  mocap::ClipCursor cursor = mocap::make_cursor(*clip);
  for (const double t : {0.0, 0.013, 0.5, -3.0, 1e12, 0.25, 0.0}) mocap::sample_clip(*clip, t, cursor, rotations, root);
  if (clip->frame_count <= 100000 && mocap::check_skeleton(*clip, skeleton(), "09.asf")) {
    if (!mocap::decode_motion(*clip, skeleton())) std::abort();
  }
  return 0;
}
