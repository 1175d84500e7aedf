// Binding the bundled humanoid (13,380 vertices) to CMU subject 09: the
// embedding with bone-heat weights (bind_mesh's default, issue 15: target
// under 2 s on one core) against the height fit with distance weights (the
// previous default), measured in the same run; the mesh and skeleton are read
// once, outside the timing.
#include <benchmark/benchmark.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/mesh.h>
#include <mocap/rig/auto_weights.h>
#include <mocap/rig/embed.h>
#include <mocap/rig/heat_weights.h>
#include <mocap/skin/bind.h>

#include <cstdlib>
#include <string>

namespace {

struct Inputs {
  mocap::Skeleton skeleton;
  mocap::Mesh mesh;
  mocap::Pose apose;
};

const Inputs& inputs() {
  static const Inputs in = [] {
    const std::string dir = MOCAP_BENCH_BUNDLED_DATA_DIR;
    Inputs out;
    auto skeleton = mocap::read_asf(dir + "/09.asf");
    auto mesh = mocap::read_obj(dir + "/humanoid.obj", mocap::ObjReadOptions{0.1});
    if (!skeleton || !mesh) std::abort();
    out.skeleton = std::move(*skeleton);
    out.mesh = std::move(*mesh);
    auto apose = mocap::read_amc(dir + "/makehuman_apose.amc", out.skeleton);
    if (!apose) std::abort();
    out.apose = mocap::make_pose(out.skeleton);
    mocap::pose_from_channels(out.skeleton, apose->frame(0), out.apose);
    return out;
  }();
  return in;
}

// Baseline: one scale from the height, distance-to-bone weights.
void BM_BindHeightDistance(benchmark::State& state) {
  const Inputs& in = inputs();
  for (auto _ : state) {
    const auto placement = mocap::fit_placement(in.skeleton, in.apose, in.mesh);
    const auto bind = mocap::bind_skeleton(in.skeleton, in.apose, placement);
    auto weights = mocap::automatic_weights(in.mesh, bind.segments);
    benchmark::DoNotOptimize(weights.data());
  }
}
BENCHMARK(BM_BindHeightDistance)->Unit(benchmark::kMillisecond);

// Issue 15: embedding + bone heat.
void BM_BindEmbedHeat(benchmark::State& state) {
  const Inputs& in = inputs();
  for (auto _ : state) {
    const auto placement = mocap::fit_placement(in.skeleton, in.apose, in.mesh);
    const auto embedded = mocap::embed_skeleton(in.skeleton, in.apose, placement, in.mesh);
    const auto bind = mocap::bind_skeleton(in.skeleton, embedded.bind_pose, embedded.placement, embedded.bone_scale);
    auto weights = mocap::heat_weights(in.mesh, bind.segments);
    benchmark::DoNotOptimize(weights.data());
  }
}
BENCHMARK(BM_BindEmbedHeat)->Unit(benchmark::kMillisecond);

// Its two stages apart.
void BM_EmbedOnly(benchmark::State& state) {
  const Inputs& in = inputs();
  const auto placement = mocap::fit_placement(in.skeleton, in.apose, in.mesh);
  for (auto _ : state) {
    auto embedded = mocap::embed_skeleton(in.skeleton, in.apose, placement, in.mesh);
    benchmark::DoNotOptimize(embedded.bone_scale.data());
  }
}
BENCHMARK(BM_EmbedOnly)->Unit(benchmark::kMillisecond);

void BM_HeatWeightsOnly(benchmark::State& state) {
  const Inputs& in = inputs();
  const auto placement = mocap::fit_placement(in.skeleton, in.apose, in.mesh);
  const auto embedded = mocap::embed_skeleton(in.skeleton, in.apose, placement, in.mesh);
  const auto bind = mocap::bind_skeleton(in.skeleton, embedded.bind_pose, embedded.placement, embedded.bone_scale);
  for (auto _ : state) {
    auto weights = mocap::heat_weights(in.mesh, bind.segments);
    benchmark::DoNotOptimize(weights.data());
  }
}
BENCHMARK(BM_HeatWeightsOnly)->Unit(benchmark::kMillisecond);

}  // namespace
