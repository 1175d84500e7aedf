// Binding the bundled humanoid (13,380 vertices) to CMU subject 09: the
// embedding with bone-heat weights (bind_mesh's default, issue 15: target
// under 2 s on one core) against the height fit with distance weights (the
// previous default), measured in the same run; the mesh and skeleton are read
// once, outside the timing. Then geodesic voxel weights (issue 29: a
// 50,000-vertex mesh in under 5 s on one core) and bone heat on the same
// mesh subdivided once (every triangle into four: 53,000 vertices).
#include <benchmark/benchmark.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/mesh.h>
#include <mocap/rig/auto_weights.h>
#include <mocap/rig/embed.h>
#include <mocap/rig/heat_weights.h>
#include <mocap/rig/voxel_weights.h>
#include <mocap/skin/bind.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>

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

// The humanoid subdivided once: each triangle into four at its edges'
// midpoints (the same surface, four times the triangles).
mocap::Mesh subdivided(const mocap::Mesh& mesh) {
  mocap::Mesh out;
  out.positions = mesh.positions;
  out.group_names = mesh.group_names;
  std::map<std::pair<int, int>, int> midpoint;
  auto mid = [&](int a, int b) {
    const auto key = std::minmax(a, b);
    const auto [it, added] = midpoint.try_emplace(key, out.vertex_count());
    if (added) out.positions.push_back(0.5f * (mesh.positions[a] + mesh.positions[b]));
    return it->second;
  };
  for (const mocap::MeshTriangle& t : mesh.triangles) {
    const int a = t.vertex[0], b = t.vertex[1], c = t.vertex[2];
    const int ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
    for (const auto& corners :
         {std::array{a, ab, ca}, std::array{ab, b, bc}, std::array{ca, bc, c}, std::array{ab, bc, ca}}) {
      mocap::MeshTriangle n;
      n.vertex = corners;
      n.group = t.group;
      out.triangles.push_back(n);
    }
  }
  mocap::compute_normals(out);
  return out;
}

// Issue 29: embedding + geodesic voxel weights on the humanoid itself.
void BM_BindEmbedVoxel(benchmark::State& state) {
  const Inputs& in = inputs();
  for (auto _ : state) {
    const auto placement = mocap::fit_placement(in.skeleton, in.apose, in.mesh);
    const auto embedded = mocap::embed_skeleton(in.skeleton, in.apose, placement, in.mesh);
    const auto bind = mocap::bind_skeleton(in.skeleton, embedded.bind_pose, embedded.placement, embedded.bone_scale);
    mocap::VoxelWeightOptions options;
    options.rigid_parts = embedded.rigid_parts;
    options.girdles = embedded.girdles;
    options.thick_bones = embedded.thick_bones;
    options.fixed_joints = mocap::joints_without_rotation(in.skeleton);
    auto weights = mocap::voxel_weights(in.mesh, bind.segments, options);
    if (!weights) std::abort();
    benchmark::DoNotOptimize(weights->weights.data());
  }
}
BENCHMARK(BM_BindEmbedVoxel)->Unit(benchmark::kMillisecond);

// The weights alone on the subdivided humanoid, the bones bound on the
// original (the same surface), voxel against heat.
struct Subdivided {
  mocap::Mesh mesh;
  mocap::SkeletonBind bind;
  mocap::VoxelWeightOptions voxel;  // the embedding's rigid parts, girdle and thick bones; fixed joints
};
const Subdivided& subdivided_inputs() {
  static const Subdivided s = [] {
    const Inputs& in = inputs();
    Subdivided out;
    out.mesh = subdivided(in.mesh);
    const auto placement = mocap::fit_placement(in.skeleton, in.apose, in.mesh);
    const auto embedded = mocap::embed_skeleton(in.skeleton, in.apose, placement, in.mesh);
    out.bind = mocap::bind_skeleton(in.skeleton, embedded.bind_pose, embedded.placement, embedded.bone_scale);
    out.voxel.rigid_parts = embedded.rigid_parts;
    out.voxel.girdles = embedded.girdles;
    out.voxel.thick_bones = embedded.thick_bones;
    out.voxel.fixed_joints = mocap::joints_without_rotation(in.skeleton);
    return out;
  }();
  return s;
}

void BM_VoxelWeightsSubdivided(benchmark::State& state) {
  const Subdivided& in = subdivided_inputs();
  for (auto _ : state) {
    auto weights = mocap::voxel_weights(in.mesh, in.bind.segments, in.voxel);
    if (!weights) std::abort();
    benchmark::DoNotOptimize(weights->weights.data());
  }
  state.counters["vertices"] = in.mesh.vertex_count();
}
BENCHMARK(BM_VoxelWeightsSubdivided)->Unit(benchmark::kMillisecond);

void BM_HeatWeightsSubdivided(benchmark::State& state) {
  const Subdivided& in = subdivided_inputs();
  mocap::HeatWeightOptions options;
  options.rigid_parts = in.voxel.rigid_parts;
  for (auto _ : state) {
    auto weights = mocap::heat_weights(in.mesh, in.bind.segments, options);
    benchmark::DoNotOptimize(weights.data());
  }
  state.counters["vertices"] = in.mesh.vertex_count();
}
BENCHMARK(BM_HeatWeightsSubdivided)->Unit(benchmark::kMillisecond);

}  // namespace
