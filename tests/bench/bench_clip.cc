// .mkc sampling speed on a real 31-bone CMU clip (14_02, or 09_06 when the
// shared data is absent), in ns per pose, with its baseline in the same run:
//   Baseline_PoseFromChannels   core/fk.h pose_from_channels on the raw
//                               channels of the same frame (double)
//   SampleClip_Sequential       sample_clip at 120 Hz with one cursor
//   SampleClip_Random           sample_clip at random times, same cursor
//   SampleClip_WholePose*       the same on a whole-pose clip (keys every 12
//                               frames, slerp rebuild; *Cubic: the cubic one)
//   Sampler_*                   the same through a ClipSampler (make_sampler
//                               once; kernels chosen at run time)
//   SamplerPortable_*           the same with the portable kernels forced
// The goal (issue 13): Sampler_Sequential <= 500 ns, Sampler_Random <= 1 us.
// Compare the rows as ratios; the figures move with the machine.
#include <benchmark/benchmark.h>
#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/clip_encoder.h>
#include <mocap/core/fk.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace mocap;

struct Data {
  Skeleton skeleton;
  Motion motion;
  CompressedClip clip, pose_clip, cubic_clip;
  std::vector<double> random_times;
};

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "bench_clip: %s\n", why.c_str());
  std::abort();
}

const Data& data() {
  static const Data d = [] {
    Data d;
    const std::filesystem::path shared = std::string(MOCAP_BENCH_SHARED_DATA_DIR) + "/cmu";
    const bool have_shared = std::filesystem::exists(shared / "14_02.amc");
    const auto dir = have_shared ? shared : std::filesystem::path(MOCAP_BENCH_BUNDLED_DATA_DIR);
    const std::string subject = have_shared ? "14" : "09", clip = have_shared ? "14_02" : "09_06";
    auto s = read_asf((dir / (subject + ".asf")).string());
    if (!s) fail(s.error().to_string());
    auto m = read_amc((dir / (clip + ".amc")).string(), *s);
    if (!m) fail(m.error().to_string());
    d.skeleton = std::move(*s);
    d.motion = std::move(*m);
    auto c = encode_clip(d.skeleton, d.motion, {});
    if (!c) fail(c.error().to_string());
    d.clip = std::move(*c);
    ClipEncodeOptions pose;
    for (int f = 0; f < d.motion.frame_count() - 1; f += 12) pose.pose_keys.push_back(f);
    pose.pose_keys.push_back(d.motion.frame_count() - 1);
    auto p = encode_clip(d.skeleton, d.motion, pose);
    if (!p) fail(p.error().to_string());
    d.pose_clip = std::move(*p);
    pose.interpolation = Interpolation::kCubic;
    auto q = encode_clip(d.skeleton, d.motion, pose);
    if (!q) fail(q.error().to_string());
    d.cubic_clip = std::move(*q);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> t(0.0, d.motion.duration_seconds());
    for (int i = 0; i < 4096; ++i) d.random_times.push_back(t(rng));
    return d;
  }();
  return d;
}

void Baseline_PoseFromChannels(benchmark::State& state) {
  const Data& d = data();
  Pose pose = make_pose(d.skeleton);
  int f = 0;
  for (auto _ : state) {
    pose_from_channels(d.skeleton, d.motion.frame(f), pose);
    benchmark::DoNotOptimize(pose.rotation.data());
    if (++f == d.motion.frame_count()) f = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["bones"] = static_cast<double>(d.skeleton.bones.size());
}

template <class Source>
void sequential(benchmark::State& state, const CompressedClip& clip, const Source& source) {
  std::vector<Eigen::Quaternionf> q(clip.bones.size());
  Eigen::Vector3f root;
  ClipCursor cursor = make_cursor(clip);
  const double dt = 1.0 / clip.fps, end = clip.duration_seconds();
  double t = 0.0;
  for (auto _ : state) {
    sample_clip(source, t, cursor, q, root);
    benchmark::DoNotOptimize(q.data());
    benchmark::DoNotOptimize(root);
    t += dt;
    if (t >= end) t = 0.0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["bytes"] = static_cast<double>(clip.byte_size);
}

template <class Source>
void random(benchmark::State& state, const CompressedClip& clip, const Source& source) {
  const Data& d = data();
  std::vector<Eigen::Quaternionf> q(clip.bones.size());
  Eigen::Vector3f root;
  ClipCursor cursor = make_cursor(clip);
  std::size_t i = 0;
  for (auto _ : state) {
    sample_clip(source, d.random_times[i], cursor, q, root);
    benchmark::DoNotOptimize(q.data());
    benchmark::DoNotOptimize(root);
    i = (i + 1) & 4095;
  }
  state.SetItemsProcessed(state.iterations());
}

void SampleClip_Sequential(benchmark::State& state) {
  sequential(state, data().clip, data().clip);
}
void SampleClip_Random(benchmark::State& state) {
  random(state, data().clip, data().clip);
}
void SampleClip_WholePoseSequential(benchmark::State& state) {
  sequential(state, data().pose_clip, data().pose_clip);
}
void SampleClip_WholePoseRandom(benchmark::State& state) {
  random(state, data().pose_clip, data().pose_clip);
}

template <void (*Run)(benchmark::State&, const CompressedClip&, const ClipSampler&)>
void with_sampler(benchmark::State& state, const CompressedClip& clip, ClipKernel kernel) {
  const ClipSampler sampler = make_sampler(clip, kernel);
  state.SetLabel(clip_kernel_name(sampler_kernel(sampler)));
  Run(state, clip, sampler);
}
void Sampler_Sequential(benchmark::State& state) {
  with_sampler<sequential<ClipSampler>>(state, data().clip, ClipKernel::kAuto);
}
void Sampler_Random(benchmark::State& state) {
  with_sampler<random<ClipSampler>>(state, data().clip, ClipKernel::kAuto);
}
void Sampler_WholePoseSequential(benchmark::State& state) {
  with_sampler<sequential<ClipSampler>>(state, data().pose_clip, ClipKernel::kAuto);
}
void Sampler_WholePoseRandom(benchmark::State& state) {
  with_sampler<random<ClipSampler>>(state, data().pose_clip, ClipKernel::kAuto);
}
void Sampler_WholePoseCubicSequential(benchmark::State& state) {
  with_sampler<sequential<ClipSampler>>(state, data().cubic_clip, ClipKernel::kAuto);
}
void Sampler_WholePoseCubicRandom(benchmark::State& state) {
  with_sampler<random<ClipSampler>>(state, data().cubic_clip, ClipKernel::kAuto);
}
void SamplerPortable_Sequential(benchmark::State& state) {
  with_sampler<sequential<ClipSampler>>(state, data().clip, ClipKernel::kPortable);
}
void SamplerPortable_Random(benchmark::State& state) {
  with_sampler<random<ClipSampler>>(state, data().clip, ClipKernel::kPortable);
}

}  // namespace

BENCHMARK(Baseline_PoseFromChannels);
BENCHMARK(SampleClip_Sequential);
BENCHMARK(SampleClip_Random);
BENCHMARK(SampleClip_WholePoseSequential);
BENCHMARK(SampleClip_WholePoseRandom);
BENCHMARK(Sampler_Sequential);
BENCHMARK(Sampler_Random);
BENCHMARK(Sampler_WholePoseSequential);
BENCHMARK(Sampler_WholePoseRandom);
BENCHMARK(Sampler_WholePoseCubicSequential);
BENCHMARK(Sampler_WholePoseCubicRandom);
BENCHMARK(SamplerPortable_Sequential);
BENCHMARK(SamplerPortable_Random);
