// libFuzzer target: skin-weights text (skin_weights.h) against the bones of a
// real CMU skeleton and an 8-vertex mesh. Any bytes give weights or an error,
// never a crash. Weights keep the runtime form's promises (bones of the
// skeleton, largest weight first, finite, summing to one, unused slots 0 on
// bone 0) and read back bit-identical through format + parse.
#include <mocap/io/asf.h>
#include <mocap/io/skin_weights.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_skeleton.h"

namespace {

constexpr int kVertices = 8;  // tests/fuzz/seeds/fuzz_weights/ are written for 8 vertices

const std::vector<std::string>& bone_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& bone : mocap::fuzz::skeleton().bones) out.push_back(bone.name);
    return out;
  }();
  return names;
}

void check(const mocap::VertexWeights& v) {
  float sum = 0.0f;
  for (int k = 0; k < mocap::kMaxInfluences; ++k) {
    const float w = v.weight[k];
    if (!std::isfinite(w) || w < 0.0f || w > 1.0f) std::abort();
    if (v.bone[k] >= bone_names().size()) std::abort();
    if (k > 0 && w > v.weight[k - 1]) std::abort();
    if (w == 0.0f && v.bone[k] != 0) std::abort();
    sum += w;
  }
  if (!(v.weight[0] > 0.0f) || std::abs(sum - 1.0f) > 1e-5f) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto weights = mocap::parse_skin_weights(text, "fuzz.weights", bone_names(), kVertices);
  if (!weights) {
    if (weights.error().message.empty()) std::abort();
    return 0;
  }
  if (weights->size() != static_cast<std::size_t>(kVertices)) std::abort();
  for (const auto& v : *weights) check(v);
  const auto again =
      mocap::parse_skin_weights(mocap::format_skin_weights(*weights, bone_names()), "again", bone_names(), kVertices);
  if (!again) std::abort();
  for (int i = 0; i < kVertices; ++i) {
    if ((*again)[i].bone != (*weights)[i].bone || (*again)[i].weight != (*weights)[i].weight) std::abort();
  }
  return 0;
}
