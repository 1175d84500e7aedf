// Packing skin weights by influence run (packed_weights.h).
#include <mocap/skin/packed_weights.h>

#include <algorithm>

namespace mocap {

int influences_used(const VertexWeights& w) {
  int used = 1;
  for (int k = 1; k < kMaxInfluences; ++k) {
    if (w.weight[k] != 0.0f || w.weight[k] != w.weight[k]) used = k + 1;
  }
  return used;
}

std::vector<InfluenceRun> make_influence_runs(std::span<const VertexWeights> weights) {
  constexpr int kBlock = 8;
  constexpr int kMinRun = 32;
  const int n = static_cast<int>(weights.size());
  auto block_count = [&](int begin) {
    int used = 1;
    for (int v = begin; v < std::min(n, begin + kBlock); ++v) used = std::max(used, influences_used(weights[v]));
    return used;
  };
  std::vector<InfluenceRun> runs;
  for (int v = 0; v < n;) {
    InfluenceRun run{v, std::min(n, v + kBlock), block_count(v)};
    while (run.end < n) {
      const int next = block_count(run.end);
      if (next != run.influences && run.end - run.begin >= kMinRun) break;
      run.influences = std::max(run.influences, next);
      run.end = std::min(n, run.end + kBlock);
    }
    if (!runs.empty() && runs.back().influences == run.influences) {
      runs.back().end = run.end;
    } else {
      runs.push_back(run);
    }
    v = run.end;
  }
  return runs;
}

PackedWeights pack_weights(std::span<const VertexWeights> weights, std::span<const InfluenceRun> runs) {
  std::vector<InfluenceRun> made;
  if (runs.empty()) {
    made = make_influence_runs(weights);
    runs = made;
  }
  PackedWeights packed;
  packed.runs.reserve(runs.size());
  std::size_t bone_count = 0, weight_count = 0;
  for (const InfluenceRun& run : runs) {
    const std::size_t n = static_cast<std::size_t>(run.end - run.begin);
    packed.runs.push_back({run.begin, run.end, run.influences, bone_count, weight_count});
    bone_count += n * static_cast<std::size_t>(run.influences);
    weight_count += n * static_cast<std::size_t>(run.influences - 1);
  }
  packed.bones.resize(bone_count);
  packed.weights.resize(weight_count);
  for (const PackedRun& run : packed.runs) {
    const int k = run.influences;
    for (int v = run.begin; v < run.end; ++v) {
      const std::size_t i = static_cast<std::size_t>(v - run.begin);
      for (int j = 0; j < k; ++j) packed.bones[run.bone_offset + k * i + j] = weights[v].bone[j];
      for (int j = 0; j + 1 < k; ++j) packed.weights[run.weight_offset + (k - 1) * i + j] = weights[v].weight[j];
    }
  }
  return packed;
}

VertexWeights PackedWeights::vertex(int v) const {
  const auto run = std::ranges::upper_bound(runs, v, {}, &PackedRun::end);
  const int k = run->influences;
  const std::size_t i = static_cast<std::size_t>(v - run->begin);
  const std::uint16_t* b = bones.data() + run->bone_offset + k * i;
  const float* w = weights.data() + run->weight_offset + (k - 1) * i;
  VertexWeights out;
  for (int j = 0; j < k; ++j) out.bone[j] = b[j];
  for (int j = 0; j + 1 < k; ++j) out.weight[j] = w[j];
  out.weight[k - 1] = last_weight(w, k - 1);
  return out;
}

}  // namespace mocap
