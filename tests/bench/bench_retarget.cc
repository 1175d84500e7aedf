// Retargeting: the runtime job's time per frame (one capture pose to a
// character's locals, leg IK on) on CesiumMan (22 nodes, 19 joints) and on a
// 65-joint Mixamo-named character (the humanoid chains plus a thumb of three joints and
// four fingers of four per hand and twist joints), and a whole clip (retarget_clip, both
// passes) in frames per second. CMU 49_02 (2085 frames) from
// ../shared/data, else the bundled 16_05.
#include <benchmark/benchmark.h>
#include <mocap/io/capture.h>
#include <mocap/retarget/retarget.h>

#include <filesystem>
#include <string>

namespace {

using namespace mocap;

Capture load_capture() {
  const std::filesystem::path shared = MOCAP_BENCH_SHARED_DATA_DIR "/cmu";
  if (std::filesystem::exists(shared / "49_02.amc")) {
    return *read_capture((shared / "49.asf").string(), (shared / "49_02.amc").string());
  }
  const std::filesystem::path bundled = MOCAP_BENCH_BUNDLED_DATA_DIR;
  return *read_capture((bundled / "16.asf").string(), (bundled / "16_05.amc").string());
}

// A T-posed character facing +Z, Y up, metres: Mixamo names, 65 joints.
RiggedModel mixamo_65() {
  RiggedModel model;
  model.path = "mixamo_65";
  model.nodes.push_back({"Scene", -1, {}, Eigen::Quaterniond::Identity(), Eigen::Vector3d::Ones()});
  auto add = [&](const std::string& name, int parent, Eigen::Vector3d offset) {
    model.nodes.push_back(
        {"mixamorig:" + name, parent, offset, Eigen::Quaterniond::Identity(), Eigen::Vector3d::Ones()});
    const int n = static_cast<int>(model.nodes.size()) - 1;
    Eigen::Vector3d world = offset;
    for (int p = parent; p > 0; p = model.nodes[static_cast<std::size_t>(p)].parent)
      world += model.nodes[static_cast<std::size_t>(p)].translation;
    ModelJoint joint;
    joint.node = n;
    joint.inverse_bind = Eigen::Matrix4d::Identity();
    joint.inverse_bind.block<3, 1>(0, 3) = -world;
    model.joints.push_back(joint);
    return n;
  };
  const int hips = add("Hips", 0, {0, 1.0, 0});
  const int spine = add("Spine", hips, {0, 0.1, 0});
  const int spine1 = add("Spine1", spine, {0, 0.12, 0});
  const int spine2 = add("Spine2", spine1, {0, 0.12, 0});
  const int neck = add("Neck", spine2, {0, 0.15, 0});
  const int head = add("Head", neck, {0, 0.1, 0});
  add("HeadTop_End", head, {0, 0.18, 0});
  for (const auto& [side, x] : {std::pair<std::string, double>{"Left", 1.0}, {"Right", -1.0}}) {
    const int shoulder = add(side + "Shoulder", spine2, {x * 0.05, 0.1, 0});
    const int arm = add(side + "Arm", shoulder, {x * 0.12, 0, 0});
    const int twist = add(side + "ArmTwist", arm, {x * 0.13, 0, 0});
    const int fore = add(side + "ForeArm", twist, {x * 0.13, 0, 0});
    const int hand = add(side + "Hand", fore, {x * 0.25, 0, 0});
    int f = 0;
    for (const char* finger : {"Thumb", "Index", "Middle", "Ring", "Pinky"}) {
      int parent = hand;
      const int joints = std::string(finger) == "Thumb" ? 3 : 4;  // Mixamo's ends: Index4, Middle4, ...
      for (int k = 1; k <= joints; ++k)
        parent = add(side + "Hand" + finger + std::to_string(k), parent, {x * 0.03, 0, 0.02 * (f - 2) * (k == 1)});
      ++f;
    }
    const int up = add(side + "UpLeg", hips, {x * 0.1, -0.05, 0});
    const int leg = add(side + "Leg", up, {0, -0.43, 0});
    const int foot = add(side + "Foot", leg, {0, -0.42, 0});
    const int toe = add(side + "ToeBase", foot, {0, -0.08, 0.12});
    add(side + "Toe_End", toe, {0, 0, 0.06});
  }
  return model;
}

void run_job(benchmark::State& state, const RiggedModel& model) {
  const Capture clip = load_capture();
  auto rig = build_retarget_rig(clip.skeleton, "capture", model);
  if (!rig) {
    state.SkipWithError(rig.error().to_string().c_str());
    return;
  }
  RetargetScratch scratch(*rig);
  RetargetJob job;
  job.rig = &*rig;
  scratch.bind(job);
  job.floor_clamp = true;
  job.pins[0].weight = 1.0;
  int f = 0;
  for (auto _ : state) {
    job.channels = clip.motion.frame(f);
    job.pins[0].ankle = Eigen::Vector3d(0.1, 0.1, 0.0);
    job.run();
    benchmark::DoNotOptimize(scratch.rotation.data());
    f = (f + 1) % clip.motion.frame_count();
  }
  state.counters["joints"] = static_cast<double>(model.joints.size());
  state.counters["frames/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_RetargetJobCesiumMan(benchmark::State& state) {
  auto model = read_rigged_model(MOCAP_BENCH_SHARED_DATA_DIR "/meshes/khronos/CesiumMan.glb");
  if (!model) {
    state.SkipWithError("no CesiumMan.glb in ../shared/data");
    return;
  }
  run_job(state, *model);
}
BENCHMARK(BM_RetargetJobCesiumMan);

void BM_RetargetJobMixamo65(benchmark::State& state) {
  run_job(state, mixamo_65());
}
BENCHMARK(BM_RetargetJobMixamo65);

void BM_RetargetClipMixamo65(benchmark::State& state) {
  const Capture clip = load_capture();
  const RiggedModel model = mixamo_65();
  auto rig = build_retarget_rig(clip.skeleton, "capture", model);
  if (!rig) {
    state.SkipWithError(rig.error().to_string().c_str());
    return;
  }
  for (auto _ : state) {
    auto out = retarget_clip(*rig, clip.motion, "clip");
    benchmark::DoNotOptimize(out->rotations.data());
  }
  state.counters["frames/s"] = benchmark::Counter(static_cast<double>(state.iterations()) * clip.motion.frame_count(),
                                                  benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RetargetClipMixamo65)->Unit(benchmark::kMillisecond);

// The bound: a 60 s clip at 120 Hz retargets in <= 0.5 s on one core,
// file reading apart. CMU 14_02 (5,423 frames) played on backwards from its
// end (no jump) to 7,200 frames; per iteration the rig is built
// (build_retarget_rig) and the clip retargeted (retarget_clip: both passes,
// foot contacts, leg IK), so the time per iteration is seconds per clip.
Motion minute_at_120hz(const Motion& motion) {
  constexpr int kFrames = 60 * 120;
  Motion out;
  out.fps = 120.0;
  out.channel_count = motion.channel_count;
  const int n = motion.frame_count(), period = 2 * (n - 1);
  for (int k = 0; k < kFrames; ++k) {
    const int p = k % period, f = p < n ? p : period - p;
    out.frame_numbers.push_back(k + 1);
    const auto frame = motion.frame(f);
    out.values.insert(out.values.end(), frame.begin(), frame.end());
  }
  return out;
}

void retarget_minute(benchmark::State& state, const RiggedModel& model) {
  const std::filesystem::path shared = MOCAP_BENCH_SHARED_DATA_DIR "/cmu";
  auto clip = read_capture((shared / "14.asf").string(), (shared / "14_02.amc").string());
  if (!clip) {
    state.SkipWithError(("no 14_02 in ../shared/data: " + clip.error().to_string()).c_str());
    return;
  }
  const Motion minute = minute_at_120hz(clip->motion);
  std::size_t contacts = 0;
  for (auto _ : state) {
    auto rig = build_retarget_rig(clip->skeleton, "14.asf", model);
    if (!rig) {
      state.SkipWithError(rig.error().to_string().c_str());
      return;
    }
    auto out = retarget_clip(*rig, minute, "14_02");
    if (!out) {
      state.SkipWithError(out.error().to_string().c_str());
      return;
    }
    contacts = out->contacts[0].contacts.size() + out->contacts[1].contacts.size();
    benchmark::DoNotOptimize(out->rotations.data());
  }
  state.counters["frames"] = minute.frame_count();
  state.counters["contacts"] = static_cast<double>(contacts);  // pinned by leg IK
  state.counters["joints"] = static_cast<double>(model.joints.size());
}

void BM_RetargetMinuteCesiumMan(benchmark::State& state) {
  auto model = read_rigged_model(MOCAP_BENCH_SHARED_DATA_DIR "/meshes/khronos/CesiumMan.glb");
  if (!model) {
    state.SkipWithError("no CesiumMan.glb in ../shared/data");
    return;
  }
  retarget_minute(state, *model);
}
BENCHMARK(BM_RetargetMinuteCesiumMan)->Unit(benchmark::kMillisecond);

void BM_RetargetMinuteMixamo65(benchmark::State& state) {
  retarget_minute(state, mixamo_65());
}
BENCHMARK(BM_RetargetMinuteMixamo65)->Unit(benchmark::kMillisecond);

}  // namespace
