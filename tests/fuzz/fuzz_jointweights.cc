// libFuzzer target: the keyframe joint-weights text (parse_joint_weights in
// keyframes.h) against a real CMU skeleton. Any bytes give weights or an
// error, never a crash; weights are one per bone, finite, in [0, 1], summing
// to one.
#include <mocap/compress/keyframes.h>
#include <mocap/io/asf.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_skeleton.h"

using mocap::fuzz::skeleton;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto weights = mocap::parse_joint_weights(text, "fuzz.jointweights", skeleton());
  if (!weights) {
    if (weights.error().message.empty()) std::abort();
    return 0;
  }
  if (weights->size() != skeleton().bones.size()) std::abort();
  double sum = 0.0;
  for (const double w : *weights) {
    if (!std::isfinite(w) || w < 0.0 || w > 1.0) std::abort();
    sum += w;
  }
  if (std::abs(sum - 1.0) > 1e-9) std::abort();
  return 0;
}
