// Skinning throughput: vertices per second with four influences, positions
// only and positions + normals, LBS and DQS, one thread and all threads, next
// to a memcpy of the bytes a skinning pass reads and writes, in the same run;
// on one thread also each kernel (the label names it), so that the SIMD
// kernels are measured against the scalar reference in the same run.
// "vertices/s" counts wall-clock time; "vertices/cpu-s" divides by the CPU
// time of the whole process (every thread), the per-core throughput, which
// other programs sharing the cores disturb much less.
// Synthetic mesh (a property of the kernel, not of a model): 65,536 vertices
// (about a MakeHuman body and a half), 31 bones (a CMU skeleton), four
// distinct bones per vertex with random weights.
#include <benchmark/benchmark.h>
#include <mocap/skin/skin.h>

#include <cstring>
#include <ctime>
#include <random>

namespace {

constexpr int kVertices = 65536;
constexpr int kBones = 31;

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void count_vertices(benchmark::State& state, double cpu_seconds) {
  const double vertices = static_cast<double>(kVertices) * static_cast<double>(state.iterations());
  state.counters["vertices/s"] = benchmark::Counter(vertices, benchmark::Counter::kIsRate);
  state.counters["vertices/cpu-s"] = vertices / cpu_seconds;
}

struct Scene {
  std::vector<Eigen::Vector3f> positions, normals, out_positions, out_normals;
  std::vector<mocap::VertexWeights> weights;
  std::vector<mocap::SkinMatrix> matrices;
  std::vector<mocap::DualQuaternion> dqs;
  std::vector<mocap::InfluenceRun> runs;
  Scene() : positions(kVertices), normals(kVertices), out_positions(kVertices), out_normals(kVertices) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (int v = 0; v < kVertices; ++v) {
      positions[v] = Eigen::Vector3f(unit(rng), unit(rng), unit(rng));
      normals[v] = Eigen::Vector3f(unit(rng), unit(rng), unit(rng)).normalized();
      std::vector<std::pair<int, float>> influences;
      const int first = static_cast<int>(rng() % (kBones - 4));
      for (int k = 0; k < 4; ++k) influences.emplace_back(first + k, 0.1f + std::abs(unit(rng)));
      weights.push_back(*mocap::make_vertex_weights(influences));
    }
    for (int b = 0; b < kBones; ++b) {
      Eigen::Affine3f m = Eigen::Affine3f::Identity();
      m.rotate(Eigen::AngleAxisf(unit(rng), Eigen::Vector3f(unit(rng), unit(rng), 1.0f).normalized()));
      m.translate(Eigen::Vector3f(unit(rng), unit(rng), unit(rng)));
      matrices.push_back(m.matrix().topRows<3>());
    }
    dqs.resize(kBones);
    mocap::dual_quaternions_from(matrices, dqs);
    runs = mocap::make_influence_runs(weights);
  }
};

Scene& scene() {
  static Scene s;
  return s;
}

constexpr mocap::SkinKernel kKernels[] = {mocap::SkinKernel::kAuto, mocap::SkinKernel::kPortable,
                                          mocap::SkinKernel::kScalar};

// Arguments: normals (0/1), method (0 LBS, 1 DQS), threads (0: all), kernel
// (0 the default, 1 portable, 2 scalar: the reference, in the same run).
void BM_Skin(benchmark::State& state) {
  Scene& s = scene();
  const bool normals = state.range(0) != 0;
  const mocap::SkinKernel kernel = kKernels[state.range(3)];
  mocap::SkinJob job;
  job.method = state.range(1) == 0 ? mocap::SkinMethod::kLinear : mocap::SkinMethod::kDualQuaternion;
  job.matrices = s.matrices;
  job.dual_quaternions = s.dqs;
  job.weights = s.weights;
  job.influence_runs = s.runs;
  job.positions = s.positions;
  job.out_positions = s.out_positions;
  if (normals) {
    job.normals = s.normals;
    job.out_normals = s.out_normals;
  }
  if (!job.validate()) {
    state.SkipWithError("invalid job");
    return;
  }
  mocap::SkinThreads threads(static_cast<int>(state.range(2)));
  if (kernel != mocap::SkinKernel::kAuto && threads.thread_count() != 1) {
    state.SkipWithError("kernels are chosen on one thread only");
    return;
  }
  state.SetLabel(mocap::skin_kernel_name(kernel));
  const double cpu_start = process_cpu_seconds();
  for (auto _ : state) {
    if (kernel == mocap::SkinKernel::kAuto) {
      threads.run(job);
    } else {
      job.run(0, kVertices, kernel);
    }
    benchmark::DoNotOptimize(s.out_positions.data());
    benchmark::ClobberMemory();
  }
  const double cpu_seconds = process_cpu_seconds() - cpu_start;
  state.counters["threads"] = threads.thread_count();
  count_vertices(state, cpu_seconds);
}
BENCHMARK(BM_Skin)
    ->ArgNames({"normals", "dqs", "threads", "kernel"})
    ->Args({0, 0, 1, 0})
    ->Args({0, 0, 0, 0})
    ->Args({1, 0, 1, 0})
    ->Args({1, 0, 0, 0})
    ->Args({0, 1, 1, 0})
    ->Args({0, 1, 0, 0})
    ->Args({1, 1, 1, 0})
    ->Args({1, 1, 0, 0})
    ->ArgsProduct({{0, 1}, {0, 1}, {1}, {1, 2}})
    ->UseRealTime();

// The bytes one skinning pass moves (positions + weights in, positions out;
// with normals, normals in and out too), copied with memcpy.
void BM_Memcpy(benchmark::State& state) {
  const bool normals = state.range(0) != 0;
  const std::size_t per_vertex = sizeof(Eigen::Vector3f) * (normals ? 2 : 1) + sizeof(mocap::VertexWeights);
  std::vector<char> in(per_vertex * kVertices, 1);
  std::vector<char> out(in.size());
  const double cpu_start = process_cpu_seconds();
  for (auto _ : state) {
    std::memcpy(out.data(), in.data(), in.size());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  count_vertices(state, process_cpu_seconds() - cpu_start);
}
BENCHMARK(BM_Memcpy)->ArgNames({"normals"})->Arg(0)->Arg(1);

// ------------------------------------------------- the peer case (issue 19)
// ozz-animation's skinning sample and benchmark shape: 1,000,000 vertices,
// 31 joints, tight float3 streams (12 bytes a vertex, Eigen::Vector3f), each
// vertex on 1, 2 or 4 distinct random joints (1: weight 1, a rigid mesh;
// otherwise random weights), one thread, beside a memcpy of the same bytes
// in the same run. "The same bytes" are the bytes the pass reads: positions
// and the 24-byte VertexWeights (and normals), copied to a buffer of that
// size, so the memcpy writes more than skinning does (12 or 24 bytes a
// vertex). Ratios: BM_PeerSkin vertices/cpu-s over BM_PeerMemcpy's with the
// same normals argument. Jobs carry make_influence_runs(weights), made with
// the scene as a bound mesh makes them, so each count runs its own loop.
// Argument `packed`: 0 reads the 24-byte VertexWeights (the layout before
// issue 26), 1 the packed weights a Skinner uses (packed_weights.h: 2 bytes
// an influence, 4 a weight but the last), so both are timed in one run.

constexpr int kPeerVertices = 1'000'000;

struct PeerScene {
  std::vector<Eigen::Vector3f> positions, normals, out_positions, out_normals;
  std::vector<mocap::VertexWeights> weights;
  std::vector<mocap::SkinMatrix> matrices;
  std::vector<mocap::DualQuaternion> dqs;
  std::vector<mocap::InfluenceRun> runs;
  mocap::PackedWeights packed;
  explicit PeerScene(int influences)
      : positions(kPeerVertices), normals(kPeerVertices), out_positions(kPeerVertices), out_normals(kPeerVertices) {
    std::mt19937 rng(19);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    weights.reserve(kPeerVertices);
    for (int v = 0; v < kPeerVertices; ++v) {
      positions[v] = Eigen::Vector3f(unit(rng), unit(rng), unit(rng));
      normals[v] = Eigen::Vector3f(unit(rng), unit(rng), unit(rng)).normalized();
      std::vector<std::pair<int, float>> influences_of_v;
      const int first = static_cast<int>(rng() % kBones);
      for (int k = 0; k < influences; ++k) {
        // Distinct joints: a stride coprime with 31 from a random start.
        influences_of_v.emplace_back((first + 7 * k) % kBones, influences == 1 ? 1.0f : 0.1f + std::abs(unit(rng)));
      }
      weights.push_back(*mocap::make_vertex_weights(influences_of_v));
    }
    for (int b = 0; b < kBones; ++b) {
      Eigen::Affine3f m = Eigen::Affine3f::Identity();
      m.rotate(Eigen::AngleAxisf(unit(rng), Eigen::Vector3f(unit(rng), unit(rng), 1.0f).normalized()));
      m.translate(Eigen::Vector3f(unit(rng), unit(rng), unit(rng)));
      matrices.push_back(m.matrix().topRows<3>());
    }
    dqs.resize(kBones);
    mocap::dual_quaternions_from(matrices, dqs);
    runs = mocap::make_influence_runs(weights);
    packed = mocap::pack_weights(weights, runs);
  }
};

PeerScene& peer_scene(int influences) {
  static PeerScene one(1), two(2), four(4);
  return influences == 1 ? one : influences == 2 ? two : four;
}

void count_peer_vertices(benchmark::State& state, double cpu_seconds) {
  const double vertices = static_cast<double>(kPeerVertices) * static_cast<double>(state.iterations());
  state.counters["vertices/cpu-s"] = vertices / cpu_seconds;
}

// Arguments: influences (1, 2, 4), normals (0/1), method (0 LBS, 1 DQS),
// kernel (0 the default, 1 portable), packed (0 VertexWeights, 1 packed).
void BM_PeerSkin(benchmark::State& state) {
  PeerScene& s = peer_scene(static_cast<int>(state.range(0)));
  const bool normals = state.range(1) != 0;
  const mocap::SkinKernel kernel = kKernels[state.range(3)];
  mocap::SkinJob job;
  job.method = state.range(2) == 0 ? mocap::SkinMethod::kLinear : mocap::SkinMethod::kDualQuaternion;
  job.matrices = s.matrices;
  job.dual_quaternions = s.dqs;
  job.weights = s.weights;
  job.influence_runs = s.runs;
  if (state.range(4) != 0) job.packed = &s.packed;
  job.positions = s.positions;
  job.out_positions = s.out_positions;
  if (normals) {
    job.normals = s.normals;
    job.out_normals = s.out_normals;
  }
  if (!job.validate()) {
    state.SkipWithError("invalid job");
    return;
  }
  state.SetLabel(mocap::skin_kernel_name(kernel));
  const double cpu_start = process_cpu_seconds();
  for (auto _ : state) {
    job.run(0, kPeerVertices, kernel);
    benchmark::DoNotOptimize(s.out_positions.data());
    benchmark::ClobberMemory();
  }
  count_peer_vertices(state, process_cpu_seconds() - cpu_start);
}
BENCHMARK(BM_PeerSkin)
    ->ArgNames({"influences", "normals", "dqs", "kernel", "packed"})
    ->ArgsProduct({{1, 2, 4}, {0, 1}, {0}, {0}, {0, 1}})
    ->ArgsProduct({{1, 2, 4}, {0, 1}, {0}, {1}, {0, 1}})
    ->ArgsProduct({{1, 2, 4}, {0, 1}, {1}, {0}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

// What BM_PeerSkin reads (positions + weights, and normals), copied.
void BM_PeerMemcpy(benchmark::State& state) {
  const bool normals = state.range(0) != 0;
  const std::size_t per_vertex = sizeof(Eigen::Vector3f) * (normals ? 2 : 1) + sizeof(mocap::VertexWeights);
  std::vector<char> in(per_vertex * kPeerVertices, 1);
  std::vector<char> out(in.size(), 2);
  const double cpu_start = process_cpu_seconds();
  for (auto _ : state) {
    std::memcpy(out.data(), in.data(), in.size());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  count_peer_vertices(state, process_cpu_seconds() - cpu_start);
}
BENCHMARK(BM_PeerMemcpy)->ArgNames({"normals"})->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
