// AMC parsing (MB/s) and load + forward kinematics (frames/s) on real CMU
// clips, with a naive iostream parser measured in the same run so that the
// parser's speed can be quoted as a ratio to it (issue 2, "Speed").
//
//   bench_parse [benchmark flags] [clip...]   clips by name ("14_02"); by
//                                             default the longest one found
//   bench_parse --memory [clip]               bytes a loaded clip holds
//
// Clips come from ../shared/data/cmu when present, else from data/.
#include <benchmark/benchmark.h>
#include <mocap/core/fk.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct ClipFiles {
  std::string name;  // "14_02"
  fs::path asf;
  fs::path amc;
};

fs::path data_dir() {
  const fs::path shared = fs::path(MOCAP_BENCH_SHARED_DATA_DIR) / "cmu";
  return fs::is_directory(shared) ? shared : fs::path(MOCAP_BENCH_BUNDLED_DATA_DIR);
}

// Every NN_MM.amc of `dir` with its NN.asf, longest file first.
std::vector<ClipFiles> clips_in(const fs::path& dir) {
  std::vector<ClipFiles> clips;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".amc") continue;
    const std::string stem = entry.path().stem().string();
    const fs::path asf = dir / (stem.substr(0, stem.find('_')) + ".asf");
    if (fs::exists(asf)) clips.push_back({stem, asf, entry.path()});
  }
  std::sort(clips.begin(), clips.end(),
            [](const ClipFiles& a, const ClipFiles& b) { return fs::file_size(a.amc) > fs::file_size(b.amc); });
  return clips;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A clip read once, before any timing.
struct Loaded {
  ClipFiles files;
  std::string text;
  mocap::Skeleton skeleton;
  mocap::Motion motion;
};

std::optional<Loaded> load(const ClipFiles& files) {
  auto skeleton = mocap::read_asf(files.asf.string());
  if (!skeleton) {
    std::cerr << skeleton.error().to_string() << "\n";
    return std::nullopt;
  }
  auto motion = mocap::read_amc(files.amc.string(), *skeleton);
  if (!motion) {
    std::cerr << motion.error().to_string() << "\n";
    return std::nullopt;
  }
  return Loaded{files, read_text(files.amc), std::move(*skeleton), std::move(*motion)};
}

// The baseline: how AMC is commonly read. std::getline per line, an
// istringstream and `>>` per token, bone names looked up in a std::map; the
// same values out, scaled to SI the same way, with no error reporting.
struct NaiveBone {
  int first_channel = 0;
  int dofs = 0;
};

struct NaiveMotion {
  std::vector<int> frame_numbers;
  std::vector<double> values;
};

NaiveMotion naive_parse(const std::string& text, const std::map<std::string, NaiveBone>& bones,
                        const std::vector<double>& scale) {
  const std::size_t channels = scale.size();
  NaiveMotion motion;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == ':' || line[0] == '\r') continue;
    std::istringstream words(line);
    if (std::isdigit(static_cast<unsigned char>(line[0]))) {
      int number = 0;
      words >> number;
      motion.frame_numbers.push_back(number);
      motion.values.resize(motion.values.size() + channels);
      continue;
    }
    std::string name;
    words >> name;
    const auto it = bones.find(name);
    if (it == bones.end() || motion.frame_numbers.empty()) continue;
    const std::size_t first = motion.values.size() - channels + it->second.first_channel;
    for (int k = 0; k < it->second.dofs; ++k) {
      double v = 0.0;
      words >> v;
      motion.values[first + k] = v * scale[it->second.first_channel + k];
    }
  }
  return motion;
}

void set_counters(benchmark::State& state, const Loaded& clip) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(clip.text.size()));
  state.counters["frames"] = clip.motion.frame_count();
}

void bm_parse_amc(benchmark::State& state, const Loaded* clip) {
  for (auto _ : state) {
    auto motion = mocap::parse_amc(clip->text, clip->files.name, clip->skeleton);
    if (!motion) state.SkipWithError(motion.error().to_string().c_str());
    benchmark::DoNotOptimize(motion);
  }
  set_counters(state, *clip);
}

// The physical limit for this design: every number of the same AMC text
// converted with std::from_chars into one reused array, with the rest skipped
// as cheaply as possible (memchr per line; comment, keyword and frame lines
// skipped on their first byte; a bone name skipped to its first space). No
// validation, no bone lookup, no scaling. ParseAmc over this row's time is the
// share of the work that is tokenising (issue 19).
std::size_t from_chars_numbers(const std::string& text, std::vector<double>& out) {
  const char* p = text.data();
  const char* const end = p + text.size();
  std::size_t n = 0;
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* const line_end = nl ? nl : end;
    const char c = *p;
    if (c != '#' && c != ':' && !(c >= '0' && c <= '9')) {
      while (p < line_end && *p != ' ') ++p;  // the bone name
      for (;;) {
        while (p < line_end && (*p == ' ' || *p == '\r')) ++p;
        if (p >= line_end) break;
        double v = 0.0;
        const auto [next, ec] = std::from_chars(p, line_end, v);
        if (ec != std::errc()) break;
        out[n++] = v;
        p = next;
      }
    }
    p = line_end + 1;
  }
  return n;
}

void bm_from_chars_only(benchmark::State& state, const Loaded* clip) {
  std::vector<double> out(clip->motion.values.size());
  if (from_chars_numbers(clip->text, out) != out.size()) {
    state.SkipWithError("the from_chars loop read a different number of values than parse_amc");
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(from_chars_numbers(clip->text, out));
    benchmark::ClobberMemory();
  }
  set_counters(state, *clip);
}

// The same clip as BVH text (format_bvh, centimetres), parsed from memory:
// the reader of io/bvh.h beside the AMC parser.
struct BvhText {
  std::string text;
  int frames = 0;
};

void bm_parse_bvh(benchmark::State& state, const BvhText* bvh) {
  for (auto _ : state) {
    auto file = mocap::parse_bvh(bvh->text, "bench.bvh");
    if (!file) state.SkipWithError(file.error().to_string().c_str());
    benchmark::DoNotOptimize(file);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bvh->text.size()));
  state.counters["frames"] = bvh->frames;
}

// The same physical limit for BVH: every number of the MOTION rows through
// std::from_chars into one reused array, the hierarchy skipped by one search.
std::size_t from_chars_bvh_numbers(const std::string& text, std::vector<double>& out) {
  const std::size_t motion = text.find("\nMOTION");
  const std::size_t rows = text.find("Frame Time:", motion == std::string::npos ? 0 : motion);
  if (rows == std::string::npos) return 0;
  const char* p = text.data() + text.find('\n', rows);
  const char* const end = text.data() + text.size();
  std::size_t n = 0;
  while (p < end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
    if (p == end) break;
    double v = 0.0;
    const auto r = std::from_chars(p, end, v);
    if (r.ec != std::errc()) break;
    if (n == out.size()) out.resize(out.size() * 2 + 64);
    out[n++] = v;
    p = r.ptr;
  }
  return n;
}

void bm_from_chars_only_bvh(benchmark::State& state, const BvhText* bvh) {
  std::vector<double> values;
  for (auto _ : state) {
    benchmark::DoNotOptimize(from_chars_bvh_numbers(bvh->text, values));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bvh->text.size()));
}

// The naive baseline for BVH: the MOTION rows read with an istringstream,
// value by value (what a first BVH loader does; the hierarchy skipped).
void bm_naive_parse_bvh(benchmark::State& state, const BvhText* bvh) {
  const std::size_t rows = bvh->text.find("Frame Time:");
  for (auto _ : state) {
    std::istringstream in(bvh->text.substr(bvh->text.find('\n', rows)));
    std::vector<double> values;
    double v = 0.0;
    while (in >> v) values.push_back(v);
    benchmark::DoNotOptimize(values);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bvh->text.size()));
}

void bm_read_amc(benchmark::State& state, const Loaded* clip) {
  const std::string path = clip->files.amc.string();
  for (auto _ : state) {
    auto motion = mocap::read_amc(path, clip->skeleton);
    if (!motion) state.SkipWithError(motion.error().to_string().c_str());
    benchmark::DoNotOptimize(motion);
  }
  set_counters(state, *clip);
}

void bm_naive_parse(benchmark::State& state, const Loaded* clip) {
  const mocap::Skeleton& skeleton = clip->skeleton;
  std::map<std::string, NaiveBone> bones;
  std::vector<double> scale(skeleton.channel_count);
  const double radians = skeleton.units.radians_per_angle();  // CMU AMC files keep the ASF's degrees
  for (const mocap::Bone& bone : skeleton.bones) {
    bones[bone.name] = {bone.first_channel, static_cast<int>(bone.dofs.size())};
    for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
      scale[bone.first_channel + k] = mocap::is_rotation(bone.dofs[k]) ? radians : skeleton.metres_per_unit();
    }
  }
  const NaiveMotion check = naive_parse(clip->text, bones, scale);
  if (check.values.size() != clip->motion.values.size()) {
    state.SkipWithError("the naive parser read a different number of values than parse_amc");
  }
  for (auto _ : state) {
    NaiveMotion motion = naive_parse(clip->text, bones, scale);
    benchmark::DoNotOptimize(motion);
  }
  set_counters(state, *clip);
}

// FK over every frame of `motion` into `positions` (one frame's worth).
void all_frames_fk(const mocap::Skeleton& skeleton, const mocap::Motion& motion, mocap::Pose& pose,
                   std::vector<Eigen::Vector3d>& positions, std::vector<Eigen::Quaterniond>& rotations) {
  for (int f = 0; f < motion.frame_count(); ++f) {
    mocap::pose_from_channels(skeleton, motion.frame(f), pose);
    mocap::forward_kinematics(skeleton, pose, positions, rotations);
    benchmark::DoNotOptimize(positions.data());
    benchmark::ClobberMemory();
  }
}

void bm_fk(benchmark::State& state, const Loaded* clip) {
  mocap::Pose pose = mocap::make_pose(clip->skeleton);
  std::vector<Eigen::Vector3d> positions(clip->skeleton.bones.size());
  std::vector<Eigen::Quaterniond> rotations(clip->skeleton.bones.size());
  for (auto _ : state) all_frames_fk(clip->skeleton, clip->motion, pose, positions, rotations);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * clip->motion.frame_count());
}

// world_positions: every frame's positions into one array (frames on the
// lanes of core/fk.cc), what the Python module and `mocap fk` call.
void bm_world_positions(benchmark::State& state, const Loaded* clip) {
  for (auto _ : state) benchmark::DoNotOptimize(mocap::world_positions(clip->skeleton, clip->motion));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * clip->motion.frame_count());
}

// What a program that plays a clip pays: read the AMC file, then FK on every
// frame.
void bm_load_fk(benchmark::State& state, const Loaded* clip) {
  const std::string path = clip->files.amc.string();
  mocap::Pose pose = mocap::make_pose(clip->skeleton);
  std::vector<Eigen::Vector3d> positions(clip->skeleton.bones.size());
  std::vector<Eigen::Quaterniond> rotations(clip->skeleton.bones.size());
  for (auto _ : state) {
    auto motion = mocap::read_amc(path, clip->skeleton);
    if (!motion) {
      state.SkipWithError(motion.error().to_string().c_str());
      break;
    }
    all_frames_fk(clip->skeleton, *motion, pose, positions, rotations);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * clip->motion.frame_count());
  set_counters(state, *clip);
}

// "VmRSS" or "VmHWM" of this process, in bytes.
long status_bytes(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) return std::stol(line.substr(std::strlen(key) + 1)) * 1024;
  }
  return -1;
}

// Bytes a loaded clip holds on the heap, against its file size, and what
// loading it added to this process's resident size.
int memory_report(const ClipFiles& files) {
  auto skeleton = mocap::read_asf(files.asf.string());
  if (!skeleton) {
    std::cerr << skeleton.error().to_string() << "\n";
    return 1;
  }
  const long rss_before = status_bytes("VmRSS:");
  const long peak_before = status_bytes("VmHWM:");
  auto file_read = mocap::read_amc_file(files.amc.string(), *skeleton);
  if (!file_read) {
    std::cerr << file_read.error().to_string() << "\n";
    return 1;
  }
  const mocap::Motion* motion = &file_read->motion;
  const mocap::AmcLayout& layout = file_read->layout;
  const long rss_after = status_bytes("VmRSS:");
  const long peak_after = status_bytes("VmHWM:");
  const std::size_t values = motion->values.capacity() * sizeof(double);
  const std::size_t frames = motion->frame_numbers.capacity() * sizeof(int);
  std::size_t other = layout.line_order.capacity() * sizeof(int) + layout.header.capacity() * sizeof(std::string);
  for (const std::string& line : layout.header) other += line.capacity() + 1;
  const std::size_t held = values + frames + other;
  const auto file = fs::file_size(files.amc);
  const auto mb = [](double bytes) { return bytes / 1e6; };
  std::printf("clip              %s (%d frames x %d channels)\n", files.name.c_str(), motion->frame_count(),
              motion->channel_count);
  std::printf("AMC file          %10.3f MB\n", mb(file));
  std::printf("Motion heap       %10.3f MB  (values %.3f, frame numbers %.3f, header/order %.3f)  = %.1f%% of file\n",
              mb(held), mb(values), mb(frames), mb(other), 100.0 * held / file);
  std::printf("RSS added by load %10.3f MB  (VmRSS %.3f -> %.3f MB)\n", mb(rss_after - rss_before), mb(rss_before),
              mb(rss_after));
  std::printf("peak RSS in load  %10.3f MB  (VmHWM %.3f -> %.3f MB)\n", mb(peak_after - peak_before), mb(peak_before),
              mb(peak_after));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  bool memory = false;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--memory") {
      memory = true;
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "bench_parse: unknown option " << arg << "\n";
      return 2;
    } else {
      names.push_back(arg);
    }
  }

  const fs::path dir = data_dir();
  const std::vector<ClipFiles> all = clips_in(dir);
  if (all.empty()) {
    std::cerr << "bench_parse: no NN_MM.amc with its NN.asf in " << dir << "\n";
    return 1;
  }
  std::vector<ClipFiles> chosen;
  if (names.empty()) chosen.push_back(all.front());
  for (const std::string& name : names) {
    const auto it = std::find_if(all.begin(), all.end(), [&](const ClipFiles& c) { return c.name == name; });
    if (it == all.end()) {
      std::cerr << "bench_parse: no clip " << name << " in " << dir << "\n";
      return 2;
    }
    chosen.push_back(*it);
  }
  if (memory) return memory_report(chosen.front());

  std::vector<std::unique_ptr<Loaded>> clips;
  for (const ClipFiles& files : chosen) {
    auto clip = load(files);
    if (!clip) return 1;
    clips.push_back(std::make_unique<Loaded>(std::move(*clip)));
  }
  std::vector<std::unique_ptr<BvhText>> bvh_texts;
  for (const auto& clip : clips) {
    auto text = mocap::format_bvh(clip->skeleton, clip->motion);
    if (!text) {
      std::cerr << "bench_parse: " << clip->files.name << ": " << text.error().to_string() << "\n";
      return 1;
    }
    bvh_texts.push_back(std::make_unique<BvhText>(BvhText{std::move(*text), clip->motion.frame_count()}));
  }
  // cgspeed's conversion of 09_06 as it is on disk, where present.
  std::unique_ptr<BvhText> cgspeed;
  if (const fs::path file = fs::path(MOCAP_BENCH_SHARED_DATA_DIR) / "cmu-bvh" / "09_06.bvh"; fs::exists(file)) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    cgspeed = std::make_unique<BvhText>(BvhText{bytes.str(), 0});
    for (const char* name :
         {"ParseBvh/cgspeed_09_06", "FromCharsOnlyBvh/cgspeed_09_06", "NaiveParseBvh/cgspeed_09_06"}) {
      const std::string_view kind(name);
      auto* fn = kind.starts_with("ParseBvh")    ? bm_parse_bvh
                 : kind.starts_with("FromChars") ? bm_from_chars_only_bvh
                                                 : bm_naive_parse_bvh;
      benchmark::RegisterBenchmark(name, fn, cgspeed.get())->Unit(benchmark::kMillisecond);
    }
  }
  for (std::size_t i = 0; i < clips.size(); ++i) {
    const Loaded* c = clips[i].get();
    const std::string& n = c->files.name;
    benchmark::RegisterBenchmark(("ParseAmc/" + n).c_str(), bm_parse_amc, c)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("FromCharsOnly/" + n).c_str(), bm_from_chars_only, c)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("ReadAmc/" + n).c_str(), bm_read_amc, c)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("ParseBvh/" + n).c_str(), bm_parse_bvh, bvh_texts[i].get())
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("FromCharsOnlyBvh/" + n).c_str(), bm_from_chars_only_bvh, bvh_texts[i].get())
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("NaiveParseBvh/" + n).c_str(), bm_naive_parse_bvh, bvh_texts[i].get())
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("NaiveParse/" + n).c_str(), bm_naive_parse, c)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("WorldPositions/" + n).c_str(), bm_world_positions, c)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("Fk/" + n).c_str(), bm_fk, c)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("LoadFk/" + n).c_str(), bm_load_fk, c)->Unit(benchmark::kMillisecond);
  }
  benchmark::AddCustomContext("clips", dir.string());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
