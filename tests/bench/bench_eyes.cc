// The eye generator's speed (issue 5, "Speed"): nanoseconds per rig per frame
// and rig-frames per second, for 1 to 10,000 rigs advanced and sampled at
// 40 fps. Target: at most 50 ns per rig-frame and a rig's state in at most
// 256 bytes (printed as the counter rig_bytes).
#include <benchmark/benchmark.h>
#include <mocap/eyes/eyes.h>

#include <vector>

namespace {

void run(benchmark::State& state, mocap::EyeModel model) {
  const auto rigs = static_cast<std::size_t>(state.range(0));
  mocap::EyeParams params;
  params.model = model;
  params.mode = mocap::ConversationMode::kListening;
  std::vector<mocap::EyeRig> state_of(rigs);
  for (std::size_t i = 0; i < rigs; ++i) state_of[i] = mocap::make_eye_rig(params, i + 1);
  double t = 0.0;
  long frames = 0;
  double sink = 0.0;
  for (auto _ : state) {
    t += 1.0 / 40.0;
    for (mocap::EyeRig& rig : state_of) {
      mocap::advance(rig, params, t);
      const mocap::EyeFrame f = mocap::sample(rig, params, t);
      sink += f.left.x + f.left.openness;
    }
    ++frames;
  }
  benchmark::DoNotOptimize(sink);
  const double rig_frames = static_cast<double>(frames) * static_cast<double>(rigs);
  state.SetItemsProcessed(static_cast<std::int64_t>(rig_frames));
  state.counters["ns_per_rig_frame"] =
      benchmark::Counter(rig_frames * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["rig_bytes"] = sizeof(mocap::EyeRig);
}

void BM_EyesDesign(benchmark::State& state) {
  run(state, mocap::EyeModel::kDesign);
}
void BM_EyesPhysiological(benchmark::State& state) {
  run(state, mocap::EyeModel::kPhysiological);
}

BENCHMARK(BM_EyesDesign)->RangeMultiplier(10)->Range(1, 10000);
BENCHMARK(BM_EyesPhysiological)->RangeMultiplier(10)->Range(1, 10000);

}  // namespace
