#include <gtest/gtest.h>
#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/clip_encoder.h>
#include <mocap/compress/compress_clip.h>
#include <mocap/compress/extract.h>
#include <mocap/compress/jitter.h>
#include <mocap/compress/key_pipeline.h>
#include <mocap/core/fk.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>
#include <mocap/report/report_format.h>
#include <mocap/report/report_summary.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "numbers_only.h"
#include "test_data.h"

namespace mocap {
namespace {

using test::read_text;
using test::TempDir;

namespace fs = std::filesystem;

// Small budgets keep the tests fast (and the sanitizer run bearable): one
// refinement pass, two ratios.
ReportOptions quick_options(int threads = 2) {
  ReportOptions o;
  o.kind = BudgetKind::kRatio;
  o.budgets = {0.05, 0.15};
  o.selection_passes = 1;
  o.under_cm = {0.5, 1.0};
  o.worst_clips = 2;
  o.threads = threads;
  o.track_bounds_cm = {2.0};
  return o;
}

std::vector<std::string> paths_of(const std::vector<test::ClipFiles>& clips) {
  std::vector<std::string> paths;
  for (const auto& c : clips) paths.push_back(c.amc.string());
  return paths;
}

// The shortest few shared clips, for tests that should see more skeletons than the bundled ones.
std::vector<std::string> short_shared_clips() {
  std::vector<std::string> paths;
  for (const char* name : {"09_06", "16_35", "87_03", "16_05", "02_01"}) {
    paths.push_back((test::shared_data_dir() / "cmu" / (std::string(name) + ".amc")).string());
  }
  return paths;
}

using test::numbers_only;

// ---------------------------------------------------------------------------
// Pairing

TEST(ReportPairing, CmuSubjectBeatsSameStemBeatsOnlyAsfBeatsFallback) {
  TempDir dir;
  const auto cmu = dir.touch("cmu/12_01.amc");
  dir.touch("cmu/12.asf");
  dir.touch("cmu/12_01.asf");  // the subject's skeleton wins over the same stem
  const auto stem = dir.touch("stem/walk.amc");
  dir.touch("stem/walk.asf");
  dir.touch("stem/other.asf");
  const auto only = dir.touch("only/anything.amc");
  dir.touch("only/Skeleton.ASF");  // extensions in any case
  const auto many = dir.touch("many/jump.amc");
  dir.touch("many/a.asf");
  dir.touch("many/b.asf");
  const auto none = dir.touch("none/7_1.amc");

  EXPECT_EQ(pair_asf(cmu.string()).value(), (dir.path() / "cmu/12.asf").string());
  EXPECT_EQ(pair_asf(stem.string()).value(), (dir.path() / "stem/walk.asf").string());
  EXPECT_EQ(pair_asf(only.string()).value(), (dir.path() / "only/Skeleton.ASF").string());
  // Two candidates and no rule to choose: only --asf helps.
  auto ambiguous = pair_asf(many.string());
  ASSERT_FALSE(ambiguous);
  EXPECT_EQ(ambiguous.error().file, many.string());
  EXPECT_NE(ambiguous.error().message.find("--asf"), std::string::npos);
  EXPECT_EQ(pair_asf(many.string(), "/skel/given.asf").value(), "/skel/given.asf");
  EXPECT_FALSE(pair_asf(none.string()));
  EXPECT_EQ(pair_asf(none.string(), "given.asf").value(), "given.asf");
  // The fallback is the last resort: a folder's own skeleton comes first.
  EXPECT_EQ(pair_asf(cmu.string(), "given.asf").value(), (dir.path() / "cmu/12.asf").string());
}

TEST(ReportPairing, FindClipsWalksFoldersSortsAndKeepsProblems) {
  TempDir dir;
  dir.touch("db/02/02.asf");
  dir.touch("db/02/02_02.amc");
  dir.touch("db/02/02_01.amc");
  dir.touch("db/01/01.asf");
  dir.touch("db/01/01_01.AMC");
  dir.touch("db/readme.txt");
  dir.touch("lonely/x_1.amc");
  dir.touch("lonely/a.asf");
  dir.touch("lonely/b.asf");
  const auto text = dir.touch("notes.txt");
  const std::string db = (dir.path() / "db").string();
  const std::vector<std::string> inputs = {db,
                                           (dir.path() / "db/02/02_01.amc").string(),  // again: kept once
                                           (dir.path() / "db/02/02.asf").string(),     // a skeleton: skipped
                                           (dir.path() / "lonely").string(),
                                           text.string(),
                                           (dir.path() / "missing.amc").string()};
  const auto clips = find_clips(inputs);
  ASSERT_EQ(clips.size(), 6u);
  std::vector<std::string> names, errors;
  for (const auto& c : clips) {
    names.push_back(c.name);
    if (!c.error.empty()) errors.push_back(c.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"01_01", "02_01", "02_02", "x_1", "missing", "notes"}));
  EXPECT_EQ(errors, (std::vector<std::string>{"x_1", "missing", "notes"}));
  EXPECT_EQ(clips[0].asf, (dir.path() / "db/01/01.asf").string());
  for (std::size_t i = 1; i < clips.size(); ++i) EXPECT_LT(clips[i - 1].path, clips[i].path);
  EXPECT_NE(clips[4].error.find("no such file"), std::string::npos);
  EXPECT_NE(clips[5].error.find("not an AMC"), std::string::npos);
  // --asf rescues the folder with two skeletons.
  const auto rescued = find_clips(std::vector<std::string>{(dir.path() / "lonely").string()}, "/given.asf");
  ASSERT_EQ(rescued.size(), 1u);
  EXPECT_EQ(rescued[0].asf, "/given.asf");
  EXPECT_TRUE(rescued[0].error.empty());
}

TEST(ReportPairing, BundledAndSharedDataPairTheCmuWay) {
  for (const auto& clip : test::bundled_clips()) {
    EXPECT_EQ(fs::path(pair_asf(clip.amc.string()).value()), clip.asf) << clip.name;
  }
  for (const auto& clip : test::shared_clips()) {
    EXPECT_EQ(fs::path(pair_asf(clip.amc.string()).value()), clip.asf) << clip.name;
  }
}

// ---------------------------------------------------------------------------
// Options

TEST(ReportOptionsCheck, RejectsWhatCannotRun) {
  EXPECT_TRUE(validate(quick_options()));
  auto with = [](auto change) {
    ReportOptions o = quick_options();
    change(o);
    return static_cast<bool>(validate(o));
  };
  EXPECT_FALSE(with([](ReportOptions& o) { o.budgets.clear(); }));
  EXPECT_FALSE(with([](ReportOptions& o) { o.budgets = {0.0}; }));
  EXPECT_FALSE(with([](ReportOptions& o) { o.budgets = {1.5}; }));
  EXPECT_FALSE(with([](ReportOptions& o) { o.budgets = {std::nan("")}; }));
  EXPECT_TRUE(with([](ReportOptions& o) { o.kind = BudgetKind::kThreshold, o.budgets = {0.0, 3.0}; }));
  EXPECT_FALSE(with([](ReportOptions& o) { o.kind = BudgetKind::kThreshold, o.budgets = {-1.0}; }));
  EXPECT_FALSE(with([](ReportOptions& o) { o.kind = BudgetKind::kMaxError, o.budgets = {0.0}; }));
  EXPECT_FALSE(with([](ReportOptions& o) { o.fps = 0; }));
  EXPECT_FALSE(with([](ReportOptions& o) { o.bvh_metres_per_unit = 0; }));
  EXPECT_FALSE(with([](ReportOptions& o) { o.under_cm = {-1}; }));
  EXPECT_FALSE(with([](ReportOptions& o) { o.threads = -1; }));
}

TEST(ReportHistogram, QuantileIsTheUpperEdgeOfTheBinWithinOnePointTwoPercent) {
  ErrorHistogram h;
  EXPECT_EQ(h.quantile(0.99), 0.0);
  for (int i = 1; i <= 1000; ++i) h.add(i * 0.01);  // 0.01 .. 10 cm
  EXPECT_EQ(h.total(), 1000);
  const double p99 = h.quantile(0.99);  // exact: 9.9
  EXPECT_GE(p99, 9.9);
  EXPECT_LE(p99, 9.9 * 1.012);
  EXPECT_EQ(ErrorHistogram::bin(0.0), 0);
  EXPECT_EQ(ErrorHistogram::bin(1e9), ErrorHistogram::kBins - 1);
}

// ---------------------------------------------------------------------------
// Running

TEST(ReportRun, MeasuresRealClipsAgainstTheUniformBaseline) {
  const auto clips = find_clips(paths_of(test::bundled_clips()));
  ASSERT_EQ(clips.size(), 3u);
  const ReportOptions o = quick_options();
  int calls = 0;
  const Report report = run_report(clips, o, [&](const ReportProgress& p) {
    ++calls;
    EXPECT_EQ(p.done, calls);
    EXPECT_EQ(p.total, 3);
    ASSERT_NE(p.last, nullptr);
  });
  EXPECT_EQ(calls, 3);
  ASSERT_EQ(report.clips.size(), 3u);
  for (const ClipResult& c : report.clips) {
    ASSERT_TRUE(c.status) << c.error_text();
    ASSERT_EQ(c.budgets.size(), 2u);
    EXPECT_EQ(c.joints.size(), 31u);
    for (const BudgetResult& b : c.budgets) {
      EXPECT_NEAR(b.key_ratio, b.budget, 1.0 / c.frames + 1e-12) << c.name;
      EXPECT_GT(b.position.max, 0.0);
      EXPECT_LE(b.position.mean, b.position.p99);
      EXPECT_LE(b.position.p99, b.position.max);
      // The selection starts from the better of threshold and uniform keys.
      EXPECT_LE(b.position.mean, b.uniform_position.mean * (1 + 1e-9)) << c.name;
      EXPECT_EQ(b.joint_error_cm.size(), c.joints.size());
      EXPECT_TRUE(b.frame_error_cm.empty());  // folded in and dropped
      EXPECT_FALSE(b.worst_joint.empty());
    }
    // More keys, less error.
    EXPECT_LT(c.budgets[1].position.mean, c.budgets[0].position.mean) << c.name;
  }
  const ReportSummary s = summarise(report);
  EXPECT_EQ(s.ok, 3);
  EXPECT_EQ(s.frames, 141 + 295 + 481);
  EXPECT_NEAR(s.hours, (141 + 295 + 481) / 120.0 / 3600.0, 1e-12);
  ASSERT_EQ(s.budgets.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const BudgetSummary& b = s.budgets[i];
    EXPECT_EQ(report.aggregate[i].selection.total(), s.frames);
    EXPECT_GT(b.position.mean, 0.0);
    EXPECT_LE(b.position.p99, b.position.max);
    EXPECT_GE(b.share_under[1], b.share_under[0]);  // 1 cm admits more frames than 0.5 cm
    EXPECT_EQ(b.worst.front().max_cm, b.position.max);
    EXPECT_LE(b.best.front().max_cm, b.worst.front().max_cm);
    ASSERT_EQ(report.aggregate[i].worst.size(), 2u);
    EXPECT_EQ(report.aggregate[i].worst[0].max_cm, b.position.max);
    EXPECT_LE(report.aggregate[i].worst[0].error_cm.size(), static_cast<std::size_t>(kCurvePoints));
    EXPECT_EQ(b.joints.size(), 31u);
  }
}

TEST(ReportRun, EveryBudgetKindRuns) {
  const auto clips = find_clips(std::vector<std::string>{(test::bundled_data_dir() / "09_06.amc").string()});
  for (const auto& [kind, budget] :
       std::vector<std::pair<BudgetKind, double>>{{BudgetKind::kThreshold, 0.2}, {BudgetKind::kMaxError, 2.0}}) {
    ReportOptions o = quick_options();
    o.kind = kind;
    o.budgets = {budget};
    const Report r = run_report(clips, o);
    ASSERT_EQ(r.clips.size(), 1u);
    ASSERT_TRUE(r.clips[0].status) << r.clips[0].error_text();
    const BudgetResult& b = r.clips[0].budgets[0];
    EXPECT_GE(b.keys, 2);
    if (kind == BudgetKind::kMaxError) {
      EXPECT_LE(b.position.max, 2.0 + 1e-9);
    }
  }
}

TEST(ReportRun, AFailedClipIsListedAndTheRestStillRun) {
  TempDir dir;
  for (const auto& clip : test::bundled_clips()) {
    fs::copy_file(clip.amc, dir.path() / clip.amc.filename());
    fs::copy_file(clip.asf, dir.path() / clip.asf.filename(), fs::copy_options::skip_existing);
  }
  dir.touch("09_99.amc", ":FULLY-SPECIFIED\n:DEGREES\n1\nroot 0 0 0 0 0 0\nlfemur not-a-number 0 0\n");
  dir.touch("77_01.amc", "1\n");  // no 77.asf, and 3 skeletons in the folder
  const auto clips = find_clips(std::vector<std::string>{dir.path().string()});
  ASSERT_EQ(clips.size(), 5u);
  const Report report = run_report(clips, quick_options());
  const ReportSummary s = summarise(report);
  EXPECT_EQ(s.clips, 5);
  EXPECT_EQ(s.ok, 3);
  EXPECT_EQ(s.failed, 2);
  for (const ClipResult& c : report.clips) {
    if (c.name == "09_99") {
      EXPECT_FALSE(c.status);
      EXPECT_NE(c.error_text().find("09_99.amc:"), std::string::npos) << c.error_text();  // names the file and line
      EXPECT_TRUE(c.budgets.empty());
    } else if (c.name == "77_01") {
      EXPECT_FALSE(c.status);
      EXPECT_NE(c.error_text().find("--asf"), std::string::npos) << c.error_text();
    } else {
      EXPECT_TRUE(c.status) << c.error_text();
    }
  }
  // Failures are in every format.
  EXPECT_NE(format_csv(report).find(",failed,"), std::string::npos);
  EXPECT_NE(format_html(report).find("Failed clips (2)"), std::string::npos);
  auto parsed = parse_report_json(format_json(report), "r.json");
  ASSERT_TRUE(parsed) << parsed.error().to_string();
  EXPECT_EQ(summarise(*parsed).failed, 2);
}

// A folder of BVH files beside an AMC: each .bvh is a clip of its own (no
// ASF paired), read in --bvh-units at its own rate.
TEST(ReportRun, BvhFilesAreClipsOfTheirOwn) {
  TempDir dir;
  const test::LoadedClip clip = test::load_bundled("09_06");
  fs::copy_file(test::bundled_data_dir() / "09_06.amc", dir.path() / "09_06.amc");
  fs::copy_file(test::bundled_data_dir() / "09.asf", dir.path() / "09.asf");
  Motion half = clip.motion;
  half.fps = 60.0;                                     // the rate the file says, not --fps
  auto text = format_bvh(clip.skeleton, half, 0.001);  // millimetres
  ASSERT_TRUE(text) << text.error().to_string();
  dir.touch("bvh/run.BVH", *text);
  const auto clips = find_clips(std::vector<std::string>{dir.path().string()});
  ASSERT_EQ(clips.size(), 2u);
  EXPECT_EQ(clips[1].name, "run");
  EXPECT_TRUE(clips[1].asf.empty());
  EXPECT_TRUE(clips[1].error.empty()) << clips[1].error;
  ReportOptions o = quick_options();
  o.budgets = {0.1};
  o.track_bounds_cm.clear();
  o.bvh_metres_per_unit = 0.001;
  const Report report = run_report(clips, o);
  ASSERT_EQ(report.clips.size(), 2u);
  const ClipResult& amc = report.clips[0];
  const ClipResult& bvh = report.clips[1];
  ASSERT_TRUE(amc.status) << amc.error_text();
  ASSERT_TRUE(bvh.status) << bvh.error_text();
  EXPECT_EQ(bvh.frames, 141);
  EXPECT_EQ(bvh.fps, 60.0);
  EXPECT_EQ(bvh.joints.size(), 38u);  // 31 joints and 7 End Sites
  // The same motion in the right unit: errors of the same size as the AMC's
  // (not 10x off, as a wrong unit would make them).
  const double ratio = bvh.budgets[0].position.max / amc.budgets[0].position.max;
  EXPECT_GT(ratio, 0.3) << bvh.budgets[0].position.max << " vs " << amc.budgets[0].position.max;
  EXPECT_LT(ratio, 3.0) << bvh.budgets[0].position.max << " vs " << amc.budgets[0].position.max;
  // The wrong unit, and the error follows the lengths.
  o.bvh_metres_per_unit = 0.01;
  const Report wrong = run_report(std::vector<ClipInput>{clips[1]}, o);
  ASSERT_TRUE(wrong.clips[0].status) << wrong.clips[0].error_text();
  EXPECT_GT(wrong.clips[0].budgets[0].position.max, 5.0 * bvh.budgets[0].position.max);
}

TEST(ReportRun, ThreadCountDoesNotChangeTheNumbers) {
  auto inputs = paths_of(test::bundled_clips());
  if (fs::is_directory(test::shared_data_dir() / "cmu")) {
    for (const auto& p : short_shared_clips()) inputs.push_back(p);
  }
  const auto clips = find_clips(inputs);
  const Report one = run_report(clips, quick_options(1));
  const Report two = run_report(clips, quick_options(2));
  EXPECT_EQ(one.threads, 1);
  EXPECT_EQ(two.threads, 2);
  EXPECT_EQ(numbers_only(one), numbers_only(two));
}

// ---------------------------------------------------------------------------
// Sharding and merging

TEST(ReportShard, ShardsPartitionTheClipList) {
  std::vector<ClipInput> clips(11);
  for (std::size_t i = 0; i < clips.size(); ++i) clips[i].path = std::to_string(100 + i);
  for (const int n : {1, 2, 3, 4, 11, 13}) {
    std::vector<std::string> seen;
    for (int k = 0; k < n; ++k) {
      const auto shard = shard_clips(clips, k, n);
      for (std::size_t i = 0; i < shard.size(); ++i) {
        EXPECT_EQ(shard[i].path, clips[static_cast<std::size_t>(k) + i * static_cast<std::size_t>(n)].path);
        seen.push_back(shard[i].path);
      }
    }
    std::sort(seen.begin(), seen.end());
    ASSERT_EQ(seen.size(), clips.size()) << n;
    for (std::size_t i = 0; i < clips.size(); ++i) EXPECT_EQ(seen[i], clips[i].path);
  }
  EXPECT_TRUE(shard_clips(clips, 3, 3).empty());
  EXPECT_TRUE(shard_clips(clips, -1, 3).empty());
}

void expect_merge_matches_one_run(const std::vector<std::string>& inputs, int shards) {
  const auto clips = find_clips(inputs);
  const ReportOptions o = quick_options(1);
  const Report whole = run_report(clips, o);
  std::vector<Report> parts;
  for (int k = 0; k < shards; ++k) {
    Report part = run_report(shard_clips(clips, k, shards), o);
    part.shard_index = k;
    part.shard_count = shards;
    // Through JSON, as the shards of a cluster job reach the merge.
    auto read = parse_report_json(format_json(part), "part" + std::to_string(k) + ".json");
    ASSERT_TRUE(read) << read.error().to_string();
    EXPECT_EQ(read->shard_index, k);
    parts.push_back(std::move(*read));
  }
  // Shards given in any order.
  std::reverse(parts.begin(), parts.end());
  auto merged = merge_reports(parts);
  ASSERT_TRUE(merged) << merged.error().to_string();
  EXPECT_EQ(merged->clips.size(), clips.size());
  EXPECT_EQ(numbers_only(*merged), numbers_only(whole));

  // The same shard twice is refused, as are parts of other options.
  parts.push_back(parts.front());
  EXPECT_FALSE(merge_reports(parts));
  parts.pop_back();
  parts.back().options.budgets = {0.5};
  EXPECT_FALSE(merge_reports(parts));
}

TEST(ReportShard, MergedShardsGiveTheNumbersOfOneRun) {
  expect_merge_matches_one_run(paths_of(test::bundled_clips()), 2);
}

TEST(ReportShard, MergedShardsGiveTheNumbersOfOneRunOnSharedClips) {
  MOCAP_REQUIRE_SHARED_DATA();
  expect_merge_matches_one_run(short_shared_clips(), 3);
}

// ---------------------------------------------------------------------------
// Compressed clip files

// The .mkc of `keys` as the report stores it, written by write_compressed_clip.
struct WrittenFile {
  std::uintmax_t bytes = 0;
  CompressedClip clip;
};
WrittenFile write_file(const Skeleton& skeleton, const Motion& motion, const ClipEncodeOptions& encode,
                       const fs::path& path) {
  auto clip = encode_clip(skeleton, motion, encode);
  EXPECT_TRUE(clip) << clip.error().to_string();
  if (!clip) return {};
  EXPECT_TRUE(write_compressed_clip(path.string(), *clip));
  return {fs::file_size(path), std::move(*clip)};
}

// Every joint on every frame of the file as decoded: the worst (cm), its bone and frame index.
struct Worst {
  double cm = -1.0;
  int joint = -1, frame = -1;
};
Worst brute_force_worst(const Skeleton& skeleton, const Motion& motion, const CompressedClip& clip) {
  auto decoded = decode_motion(clip, skeleton);
  EXPECT_TRUE(decoded) << decoded.error().to_string();
  if (!decoded) return {};
  const auto original = world_positions(skeleton, motion);
  const auto rebuilt = world_positions(skeleton, *decoded);
  const std::size_t bones = skeleton.bones.size();
  Worst w;
  for (std::size_t i = 0; i < original.size(); ++i) {
    const double cm = (original[i] - rebuilt[i]).norm() * 100.0;
    if (cm > w.cm) w = {cm, static_cast<int>(i % bones), static_cast<int>(i / bones)};
  }
  return w;
}

// Per budget: the bytes are the file's as written, bytes per second and
// ratio follow from them, and the worst joint named is the brute-force worst.
void expect_files_match(const fs::path& asf_path, const fs::path& amc_path) {
  TempDir dir;
  const ReportOptions o = quick_options(1);
  const auto inputs = find_clips(std::vector<std::string>{amc_path.string()});
  ASSERT_EQ(inputs.size(), 1u);
  const ClipResult c = run_clip(inputs[0], o);
  ASSERT_TRUE(c.status) << c.error_text();
  auto skeleton = read_asf(asf_path.string());
  ASSERT_TRUE(skeleton);
  auto motion = read_amc(amc_path.string(), *skeleton, o.fps);
  ASSERT_TRUE(motion);
  EXPECT_EQ(c.raw_bytes, static_cast<std::int64_t>(motion->frame_count()) * motion->channel_count * 4);
  ASSERT_EQ(c.budgets.size(), o.budgets.size());
  for (const BudgetResult& b : c.budgets) {
    KeyCompressOptions k;
    k.budget = KeyBudget::kRatio;
    k.value = b.budget;
    k.selection.max_passes = o.selection_passes;
    k.error = o.error;
    auto keys = compress_keys(*skeleton, *motion, k);
    ASSERT_TRUE(keys);
    ASSERT_EQ(static_cast<int>(keys->keys.size()), b.keys);
    const std::vector<int> uniform = uniform_keys(motion->frame_count(), b.keys);
    for (const auto& [file, key_frames, label] :
         {std::tuple{&b.file, keys->keys, "selected"}, std::tuple{&b.uniform_file, uniform, "uniform"}}) {
      SCOPED_TRACE(c.name + " " + label + " at " + std::to_string(b.budget));
      ClipEncodeOptions encode;
      encode.max_joint_error_cm = o.clip_file_error_cm;
      encode.pose_keys = key_frames;
      const WrittenFile written = write_file(*skeleton, *motion, encode, dir.path() / "k.mkc");
      EXPECT_EQ(static_cast<std::uintmax_t>(file->bytes), written.bytes);
      EXPECT_DOUBLE_EQ(file->bytes_per_second, static_cast<double>(written.bytes) / c.duration_seconds());
      EXPECT_DOUBLE_EQ(file->ratio, static_cast<double>(c.raw_bytes) / static_cast<double>(written.bytes));
      const Worst worst = brute_force_worst(*skeleton, *motion, written.clip);
      ASSERT_GE(worst.joint, 0);
      EXPECT_NEAR(file->joint_max_cm, worst.cm, 1e-6 * std::max(1.0, worst.cm));
      EXPECT_EQ(file->joint_max_joint, skeleton->bones[static_cast<std::size_t>(worst.joint)].name);
      EXPECT_EQ(file->joint_max_frame, motion->frame_numbers[static_cast<std::size_t>(worst.frame)]);
      EXPECT_GT(file->encode_seconds, 0.0);
    }
  }
  // Per-track keys under each bound: the same checks, and the bound holds.
  ASSERT_EQ(c.track_files.size(), o.track_bounds_cm.size());
  for (std::size_t i = 0; i < o.track_bounds_cm.size(); ++i) {
    SCOPED_TRACE(c.name + " per-track within " + std::to_string(o.track_bounds_cm[i]) + " cm");
    ClipEncodeOptions encode;
    encode.max_joint_error_cm = o.track_bounds_cm[i];
    const WrittenFile written = write_file(*skeleton, *motion, encode, dir.path() / "t.mkc");
    const ClipFileResult& t = c.track_files[i];
    EXPECT_EQ(static_cast<std::uintmax_t>(t.bytes), written.bytes);
    EXPECT_DOUBLE_EQ(t.bytes_per_second, static_cast<double>(written.bytes) / c.duration_seconds());
    const Worst worst = brute_force_worst(*skeleton, *motion, written.clip);
    EXPECT_NEAR(t.joint_max_cm, worst.cm, 1e-6 * std::max(1.0, worst.cm));
    EXPECT_LE(t.joint_max_cm, o.track_bounds_cm[i]);
    ASSERT_GE(worst.joint, 0);
    EXPECT_EQ(t.joint_max_joint, skeleton->bones[static_cast<std::size_t>(worst.joint)].name);
    EXPECT_EQ(t.joint_max_frame, motion->frame_numbers[static_cast<std::size_t>(worst.frame)]);
  }
}

TEST(ReportClipFiles, BytesAreTheWrittenFileAndTheWorstJointIsTheBruteForceWorst) {
  const fs::path data = test::bundled_data_dir();
  expect_files_match(data / "09.asf", data / "09_06.amc");
}

TEST(ReportClipFiles, BytesAndWorstJointOnASharedClip) {
  MOCAP_REQUIRE_SHARED_DATA();
  const fs::path cmu = test::shared_data_dir() / "cmu";
  expect_files_match(cmu / "16.asf", cmu / "16_35.amc");
}

TEST(ReportClipFiles, SummaryKbPerSecondIsTotalBytesOverTotalSeconds) {
  const auto clips = find_clips(paths_of(test::bundled_clips()));
  const Report report = run_report(clips, quick_options());
  const ReportSummary s = summarise(report);
  double seconds = 0.0;
  std::int64_t raw = 0;
  for (const ClipResult& c : report.clips) {
    seconds += c.duration_seconds();
    raw += c.raw_bytes;
  }
  EXPECT_DOUBLE_EQ(s.motion_seconds, seconds);
  EXPECT_EQ(s.raw_bytes, raw);
  for (std::size_t i = 0; i < s.budgets.size(); ++i) {
    const BudgetSummary& b = s.budgets[i];
    std::int64_t bytes = 0, uniform_bytes = 0;
    double worst = 0.0;
    std::string worst_clip;
    for (const ClipResult& c : report.clips) {
      bytes += c.budgets[i].file.bytes;
      uniform_bytes += c.budgets[i].uniform_file.bytes;
      if (c.budgets[i].file.joint_max_cm > worst) worst = c.budgets[i].file.joint_max_cm, worst_clip = c.name;
    }
    EXPECT_GT(bytes, 0);
    EXPECT_EQ(b.file.bytes, bytes);
    EXPECT_EQ(b.uniform_file.bytes, uniform_bytes);
    EXPECT_DOUBLE_EQ(b.file.kb_per_second, static_cast<double>(bytes) / 1000.0 / seconds);
    EXPECT_DOUBLE_EQ(b.uniform_file.kb_per_second, static_cast<double>(uniform_bytes) / 1000.0 / seconds);
    EXPECT_DOUBLE_EQ(b.file.ratio, static_cast<double>(raw) / static_cast<double>(bytes));
    EXPECT_EQ(b.file.joint_max_cm, worst);
    EXPECT_EQ(b.file.joint_max_clip, worst_clip);
  }
  ASSERT_EQ(s.track_files.size(), 1u);
  std::int64_t track_bytes = 0;
  for (const ClipResult& c : report.clips) track_bytes += c.track_files[0].bytes;
  EXPECT_EQ(s.track_files[0].bytes, track_bytes);
  EXPECT_DOUBLE_EQ(s.track_files[0].kb_per_second, static_cast<double>(track_bytes) / 1000.0 / seconds);
  EXPECT_LE(s.track_files[0].joint_max_cm, 2.0);
  // More keys, more bytes.
  ASSERT_EQ(s.budgets.size(), 2u);
  EXPECT_GT(s.budgets[1].file.bytes, s.budgets[0].file.bytes);
  EXPECT_GT(s.budgets[1].uniform_file.bytes, s.budgets[0].uniform_file.bytes);
}

TEST(ReportClipFiles, OffMeansNoFilesAndNoBytes) {
  ReportOptions o = quick_options(1);
  o.clip_files = false;
  const Report report =
      run_report(find_clips(std::vector<std::string>{(test::bundled_data_dir() / "09_06.amc").string()}), o);
  ASSERT_TRUE(report.clips[0].status);
  for (const BudgetResult& b : report.clips[0].budgets) {
    EXPECT_EQ(b.file.bytes, 0);
    EXPECT_EQ(b.uniform_file.bytes, 0);
  }
  EXPECT_EQ(summarise(report).budgets[0].file.kb_per_second, 0.0);
  EXPECT_EQ(format_html(report).find("bytes-ours"), std::string::npos);
  o.clip_file_error_cm = 0.0;
  EXPECT_FALSE(validate(o));
}

// ---------------------------------------------------------------------------
// Writers

// Splits a CSV line written by format_csv (quotes double themselves).
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

TEST(ReportWrite, CsvAndJsonCarryTheSameNumbers) {
  const auto clips = find_clips(paths_of(test::bundled_clips()));
  const Report report = run_report(clips, quick_options());
  const nlohmann::json j = nlohmann::json::parse(format_json(report));
  std::istringstream csv(format_csv(report));
  std::string line;
  std::getline(csv, line);
  const auto header = split_csv(line);
  auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return static_cast<std::size_t>(it - header.begin());
  };
  // CSV column -> JSON pointer under clips[c].budgets[b].
  const std::vector<std::pair<std::string, std::string>> numbers = {
      {"budget", "/budget"},
      {"keys", "/keys"},
      {"key_ratio", "/key_ratio"},
      {"pos_mean_cm", "/pos_cm/mean"},
      {"pos_p99_cm", "/pos_cm/p99"},
      {"pos_max_cm", "/pos_cm/max"},
      {"vel_mean_cm_per_frame", "/vel_cm_per_frame/mean"},
      {"vel_max_cm_per_frame", "/vel_cm_per_frame/max"},
      {"shell_p99_cm", "/shell_cm/p99"},
      {"shell_max_cm", "/shell_cm/max"},
      {"worst_frame", "/worst_frame"},
      {"uniform_pos_mean_cm", "/uniform_pos_cm/mean"},
      {"uniform_pos_p99_cm", "/uniform_pos_cm/p99"},
      {"uniform_pos_max_cm", "/uniform_pos_cm/max"},
      {"uniform_shell_max_cm", "/uniform_shell_cm/max"},
      {"select_seconds", "/select_seconds"},
      {"mkc_bytes", "/mkc/bytes"},
      {"mkc_bytes_per_s", "/mkc/bytes_per_s"},
      {"mkc_ratio", "/mkc/ratio"},
      {"mkc_joint_max_cm", "/mkc/joint_max_cm"},
      {"mkc_joint_max_frame", "/mkc/joint_max_frame"},
      {"uniform_mkc_bytes", "/uniform_mkc/bytes"},
      {"uniform_mkc_bytes_per_s", "/uniform_mkc/bytes_per_s"},
      {"uniform_mkc_ratio", "/uniform_mkc/ratio"},
      {"uniform_mkc_joint_max_cm", "/uniform_mkc/joint_max_cm"},
      {"uniform_mkc_joint_max_frame", "/uniform_mkc/joint_max_frame"},
  };
  int rows = 0;
  std::size_t clip = 0, budget = 0;
  while (std::getline(csv, line)) {
    const auto fields = split_csv(line);
    ASSERT_EQ(fields.size(), header.size()) << line;
    const nlohmann::json& c = j["clips"][clip];
    EXPECT_EQ(fields[column("path")], c["path"].get<std::string>());
    EXPECT_EQ(std::stoi(fields[column("frames")]), c["frames"].get<int>());
    EXPECT_EQ(std::strtod(fields[column("duration_s")].c_str(), nullptr), c["duration_s"].get<double>());
    EXPECT_EQ(std::strtod(fields[column("clip_seconds")].c_str(), nullptr), c["seconds"].get<double>());
    const nlohmann::json& b = c["budgets"][budget];
    for (const auto& [name, pointer] : numbers) {
      EXPECT_EQ(std::strtod(fields[column(name)].c_str(), nullptr),
                b.at(nlohmann::json::json_pointer(pointer)).get<double>())
          << name << " of " << fields[0];
    }
    EXPECT_EQ(fields[column("worst_joint")], b["worst_joint"].get<std::string>());
    EXPECT_EQ(fields[column("mkc_joint_max_joint")], b["mkc"]["joint_max_joint"].get<std::string>());
    EXPECT_EQ(std::stoll(fields[column("raw_bytes")]), c["raw_bytes"].get<std::int64_t>());
    ++rows;
    if (++budget == c["budgets"].size()) budget = 0, ++clip;
  }
  EXPECT_EQ(rows, 3 * 2);
  // JSON reads back to the same report.
  auto read = parse_report_json(format_json(report), "r.json");
  ASSERT_TRUE(read) << read.error().to_string();
  EXPECT_EQ(format_json(*read), format_json(report));
  EXPECT_EQ(format_csv(*read), format_csv(report));
}

TEST(ReportWrite, HtmlIsOneFileThatFetchesNothing) {
  TempDir dir;
  auto inputs = paths_of(test::bundled_clips());
  // A failure with markup in its path and error.
  inputs.push_back(dir.touch("x<&\"'>_1.amc", "1\n").string());
  dir.touch("x<&\"'>.asf", ":version 1.10\n:bogus\n");
  const Report report = run_report(find_clips(inputs), quick_options());
  const fs::path out = dir.path() / "report.html";
  ASSERT_TRUE(write_report(report, out.string()));
  const std::string html = read_text(out);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("</html>"), std::string::npos);
  EXPECT_GE(std::count(html.begin(), html.end(), '\n'), 1);
  // Four kinds of plot, each inline SVG.
  std::size_t svgs = 0;
  for (std::size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) ++svgs;
  EXPECT_GE(svgs, 4u);
  EXPECT_NE(html.find("<table class=\"sortable\""), std::string::npos);
  EXPECT_NE(html.find("<script>"), std::string::npos);
  // Nothing from elsewhere: no external src/href, stylesheets or imports.
  EXPECT_FALSE(std::regex_search(html, std::regex(R"((src|href)\s*=\s*["']?\s*(https?:)?//)", std::regex::icase)));
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  // The broken clip's text is escaped, not markup.
  EXPECT_EQ(html.find("x<&"), std::string::npos);
  EXPECT_NE(html.find("x&lt;&amp;&quot;&#39;&gt;_1"), std::string::npos);
  for (const auto& clip : test::bundled_clips()) EXPECT_NE(html.find(clip.name), std::string::npos);
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ReportWrite, HtmlHasTheBytesCurveTheRatioScatterTheRunAndEverySetting) {
  ReportOptions o = quick_options();
  o.budgets = {0.05, 0.1, 0.15};
  o.clip_file_error_cm = 0.5;
  Report report = run_report(find_clips(paths_of(test::bundled_clips())), o);
  report.run.tool_version = "9.8.7";
  report.run.command_line = "mocap report data --ratios 0.05,0.1,0.15 -o 'a b.html'";
  const std::string html = format_html(report);
  // The curve: one point per budget for each key set; the scatter: one per clip and budget.
  EXPECT_EQ(count_of(html, "class=\"bytes-ours\""), 3u);
  EXPECT_EQ(count_of(html, "class=\"bytes-uniform\""), 3u);
  EXPECT_EQ(count_of(html, "class=\"ratio-point\""), 3u * 3u);
  EXPECT_EQ(count_of(html, "class=\"bytes-track\""), 1u);  // one per-track bound
  EXPECT_EQ(count_of(html, "class=\"track-point\""), 3u);  // one per clip
  EXPECT_NE(html.find("KB per second of motion"), std::string::npos);
  // How it was made.
  EXPECT_NE(html.find("mocap 9.8.7"), std::string::npos);
  EXPECT_NE(html.find(report.run.date_utc), std::string::npos);
  EXPECT_NE(html.find("mocap report data --ratios 0.05,0.1,0.15 -o &#39;a b.html&#39;"), std::string::npos);
  EXPECT_TRUE(std::regex_search(report.run.date_utc, std::regex(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$)")))
      << report.run.date_utc;
  for (const char* setting :
       {"budget kind", "frame rate", "selection passes", "velocity weight", "shell radius", "frames counted under",
        "worst clips plotted", "threads", "shard", "quantised within 0.5 cm", "per-track .mkc bounds"}) {
    EXPECT_NE(html.find(setting), std::string::npos) << setting;
  }
  // The summary's KB/s per budget, as written.
  const ReportSummary s = summarise(report);
  EXPECT_NE(html.find("data-v=\"" +
                      [&] {
                        char v[48];
                        std::snprintf(v, sizeof v, "%.17g", s.budgets[1].file.kb_per_second);
                        return std::string(v);
                      }() +
                      "\""),
            std::string::npos);
  // The run reads back from JSON.
  auto read = parse_report_json(format_json(report), "r.json");
  ASSERT_TRUE(read) << read.error().to_string();
  EXPECT_EQ(read->run.tool_version, "9.8.7");
  EXPECT_EQ(read->run.command_line, report.run.command_line);
  EXPECT_EQ(read->run.date_utc, report.run.date_utc);
  EXPECT_EQ(read->options.clip_file_error_cm, 0.5);
}

TEST(ReportWrite, WritesByExtensionAtomicallyAndFailsOnBadPaths) {
  TempDir dir;
  const Report report = run_report(
      find_clips(std::vector<std::string>{(test::bundled_data_dir() / "09_06.amc").string()}), quick_options());
  for (const char* name : {"r.csv", "r.json", "r.HTML", "r.htm"}) {
    ASSERT_TRUE(write_report(report, (dir.path() / name).string())) << name;
  }
  EXPECT_EQ(read_text(dir.path() / "r.csv"), format_csv(report));
  EXPECT_EQ(read_text(dir.path() / "r.json"), format_json(report));
  EXPECT_FALSE(write_report(report, (dir.path() / "r.txt").string()));
  EXPECT_FALSE(write_report(report, (dir.path() / "no/such/dir/r.json").string()));
  // Only the finished files: no temporary left behind.
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++files;
  EXPECT_EQ(files, 4);
}

TEST(ReportWrite, ReadingJsonRejectsWhatIsNotAReport) {
  EXPECT_FALSE(parse_report_json("{", "a.json"));
  EXPECT_FALSE(parse_report_json("[]", "a.json"));
  // nlohmann throws out_of_range, not parse_error, for a number no double holds (a fuzz finding: it escaped).
  const auto huge = parse_report_json(R"({"format":"mocap-report","version":1e999})", "huge.json");
  ASSERT_FALSE(huge);
  EXPECT_NE(huge.error().message.find("not JSON"), std::string::npos) << huge.error().message;
  // A float where a count belongs was cast to an integer, undefined beyond its range (a fuzz finding).
  const auto fractional = parse_report_json(R"({"format":"mocap-report","version":3.0})", "float.json");
  ASSERT_FALSE(fractional);
  EXPECT_NE(fractional.error().message.find("expected a whole number"), std::string::npos)
      << fractional.error().message;
  EXPECT_FALSE(parse_report_json(R"({"format":"mocap-report","version":99})", "a.json"));
  auto missing = parse_report_json(R"({"format":"mocap-report","version":1})", "a.json");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().file, "a.json");
  EXPECT_FALSE(read_report_json("/nonexistent/part.json"));
  // A report of the previous format, and one missing a field: the error names what was expected.
  auto old = parse_report_json(R"({"format":"mocap-report","version":3})", "old.json");
  ASSERT_FALSE(old);
  EXPECT_NE(old.error().message.find("version 3, expected 4"), std::string::npos) << old.error().message;
  const Report report = run_report(
      find_clips(std::vector<std::string>{(test::bundled_data_dir() / "09_06.amc").string()}), quick_options());
  nlohmann::json j = nlohmann::json::parse(format_json(report));
  j["clips"][0]["budgets"][1].erase("uniform_mkc");
  auto missing_field = parse_report_json(j.dump(), "cut.json");
  ASSERT_FALSE(missing_field);
  EXPECT_EQ(missing_field.error().file, "cut.json");
  EXPECT_NE(missing_field.error().message.find("uniform_mkc"), std::string::npos) << missing_field.error().message;
  j = nlohmann::json::parse(format_json(report));
  j["options"]["budget_kind"] = "bytes";
  auto bad_kind = parse_report_json(j.dump(), "kind.json");
  ASSERT_FALSE(bad_kind);
  EXPECT_NE(bad_kind.error().message.find("unknown budget kind \"bytes\""), std::string::npos)
      << bad_kind.error().message;
}

// ---------------------------------------------------------------------------
// Jitter: the joint velocity error and the planted feet (compress/jitter.h)

void expect_same_jitter(const JitterResult& got, const JitterError& want, const Skeleton& skeleton,
                        const Motion& motion) {
  EXPECT_NEAR(got.velocity.mean, want.velocity.mean_cm_s, 1e-9 * std::max(1.0, want.velocity.mean_cm_s));
  EXPECT_NEAR(got.velocity.p99, want.velocity.p99_cm_s, 1e-9 * std::max(1.0, want.velocity.p99_cm_s));
  EXPECT_NEAR(got.velocity.max, want.velocity.max_cm_s, 1e-9 * std::max(1.0, want.velocity.max_cm_s));
  ASSERT_GE(want.velocity.worst_joint, 0);
  EXPECT_EQ(got.velocity_max_joint, skeleton.bones[static_cast<std::size_t>(want.velocity.worst_joint)].name);
  EXPECT_EQ(got.velocity_max_frame, motion.frame_numbers[static_cast<std::size_t>(want.velocity.worst_frame)]);
  EXPECT_EQ(got.feet, want.planted.feet);
  EXPECT_EQ(got.planted_frames, want.planted.frames);
  EXPECT_NEAR(got.planted_capture_cm_s, want.planted.reference_cm_s, 1e-9);
  EXPECT_NEAR(got.planted_cm_s, want.planted.other_cm_s, 1e-9);
  EXPECT_NEAR(got.planted_difference_cm_s, want.planted.difference_cm_s, 1e-9);
}

// Every figure is measure_jitter's: of the rebuild from the report's keys,
// and of each .mkc file as decoded (the bytes compress_clip gives for the
// same request as the report's).
TEST(ReportJitter, RebuildAndFilesAreMeasureJitterOfWhatWasMeasured) {
  const fs::path data = test::bundled_data_dir();
  const ReportOptions o = quick_options(1);
  const auto inputs = find_clips(std::vector<std::string>{(data / "09_06.amc").string()});
  ASSERT_EQ(inputs.size(), 1u);
  const ClipResult c = run_clip(inputs[0], o);
  ASSERT_TRUE(c.status) << c.error_text();
  Capture capture;
  capture.asf_path = (data / "09.asf").string();
  capture.amc_path = (data / "09_06.amc").string();
  auto skeleton = read_asf(capture.asf_path);
  ASSERT_TRUE(skeleton);
  capture.skeleton = *skeleton;
  auto motion = read_amc(capture.amc_path, capture.skeleton, o.fps);
  ASSERT_TRUE(motion);
  capture.motion = *motion;
  auto file_jitter = [&](CompressRequest request) {
    request.format = CompressFormat::kMkc;
    request.time_decoder = false;
    auto report = compress_clip(capture, request);
    EXPECT_TRUE(report) << report.error().to_string();
    const std::span bytes(reinterpret_cast<const std::uint8_t*>(report->key_file.data()), report->key_file.size());
    auto clip = parse_compressed_clip(bytes, "k.mkc");
    EXPECT_TRUE(clip) << clip.error().to_string();
    auto decoded = decode_motion(*clip, *skeleton);
    EXPECT_TRUE(decoded) << decoded.error().to_string();
    auto jitter = measure_jitter(*skeleton, *motion, *decoded);
    EXPECT_TRUE(jitter);
    return *jitter;
  };
  ASSERT_EQ(c.budgets.size(), o.budgets.size());
  for (const BudgetResult& b : c.budgets) {
    SCOPED_TRACE("budget " + std::to_string(b.budget));
    KeyCompressOptions k;
    k.budget = KeyBudget::kRatio;
    k.value = b.budget;
    k.selection.max_passes = o.selection_passes;
    k.error = o.error;
    auto keys = compress_keys(*skeleton, *motion, k);
    ASSERT_TRUE(keys);
    auto rebuild = measure_jitter(*skeleton, *motion, keys->rebuilt);
    ASSERT_TRUE(rebuild);
    expect_same_jitter(b.jitter, *rebuild, *skeleton, *motion);
    CompressRequest request;
    request.pose_key_error_cm = o.clip_file_error_cm;
    request.pose_keys = keys->keys;
    expect_same_jitter(b.file.jitter, file_jitter(request), *skeleton, *motion);
  }
  ASSERT_EQ(c.track_files.size(), 1u);
  CompressRequest request;
  request.budget = KeyBudget::kMaxJointError;
  request.value = o.track_bounds_cm[0];
  expect_same_jitter(c.track_files[0].jitter, file_jitter(request), *skeleton, *motion);
}

// The bundled clips (a run, a jump, a walk): every figure there and
// positive, the worst joint a bone of the clip, and the summary the
// aggregate its header defines.
TEST(ReportJitter, BundledClipsAndTheSummary) {
  const auto clips = find_clips(paths_of(test::bundled_clips()));
  const Report report = run_report(clips, quick_options());
  ASSERT_EQ(report.clips.size(), 3u);
  auto expect_plausible = [](const JitterResult& j, const ClipResult& c) {
    EXPECT_GT(j.velocity.mean, 0.0);
    EXPECT_GE(j.velocity.p99, j.velocity.mean);
    EXPECT_GE(j.velocity.max, j.velocity.p99);
    EXPECT_NE(std::find(c.joints.begin(), c.joints.end(), j.velocity_max_joint), c.joints.end())
        << j.velocity_max_joint;
    EXPECT_GE(j.velocity_max_frame, 1);
    EXPECT_LE(j.velocity_max_frame, c.frames);  // CMU frames 1..frames
    EXPECT_TRUE(j.feet);
    EXPECT_GT(j.planted_frames, 0);
    EXPECT_LT(j.planted_frames, 2 * c.frames + 1);
    EXPECT_GT(j.planted_capture_cm_s, 0.0);
    EXPECT_GT(j.planted_cm_s, 0.0);
    EXPECT_DOUBLE_EQ(j.planted_difference_cm_s, j.planted_cm_s - j.planted_capture_cm_s);
  };
  for (const ClipResult& c : report.clips) {
    SCOPED_TRACE(c.name);
    ASSERT_TRUE(c.status) << c.error_text();
    int planted = -1;
    double capture = 0.0;
    for (const BudgetResult& b : c.budgets) {
      for (const JitterResult* j : {&b.jitter, &b.file.jitter, &b.uniform_file.jitter}) {
        expect_plausible(*j, c);
        // The capture's contacts and speeds are the clip's, whatever is measured against them.
        if (planted < 0) planted = j->planted_frames, capture = j->planted_capture_cm_s;
        EXPECT_EQ(j->planted_frames, planted);
        EXPECT_DOUBLE_EQ(j->planted_capture_cm_s, capture);
      }
    }
    for (const ClipFileResult& t : c.track_files) expect_plausible(t.jitter, c);
    // More keys, less buzz: the rebuild from 15 % of the frames against 5 %.
    EXPECT_LT(c.budgets[1].jitter.velocity.p99, c.budgets[0].jitter.velocity.p99);
  }
  const ReportSummary s = summarise(report);
  auto expect_summary = [&](const JitterSummary& got, auto of) {
    double p99 = -1, max = -1, mean = 0, samples = 0, worst = -1e300, capture = 0, other = 0;
    std::string p99_clip, max_clip, max_joint, worst_clip;
    std::int64_t frames = 0;
    for (const ClipResult& c : report.clips) {
      const JitterResult& j = of(c);
      if (j.velocity.p99 > p99) p99 = j.velocity.p99, p99_clip = c.name;
      if (j.velocity.max > max) max = j.velocity.max, max_clip = c.name, max_joint = j.velocity_max_joint;
      const double n = static_cast<double>(c.joints.size()) * c.frames;
      mean += j.velocity.mean * n, samples += n;
      if (j.planted_difference_cm_s > worst) worst = j.planted_difference_cm_s, worst_clip = c.name;
      frames += j.planted_frames;
      capture += j.planted_capture_cm_s * j.planted_frames, other += j.planted_cm_s * j.planted_frames;
    }
    EXPECT_DOUBLE_EQ(got.velocity_p99_cm_s, p99);
    EXPECT_EQ(got.velocity_p99_clip, p99_clip);
    EXPECT_DOUBLE_EQ(got.velocity_max_cm_s, max);
    EXPECT_EQ(got.velocity_max_clip, max_clip);
    EXPECT_EQ(got.velocity_max_joint, max_joint);
    EXPECT_NEAR(got.velocity_mean_cm_s, mean / samples, 1e-9 * got.velocity_mean_cm_s);
    EXPECT_EQ(got.planted_frames, frames);
    EXPECT_EQ(got.clips_without_feet, 0);
    EXPECT_NEAR(got.planted_capture_cm_s, capture / frames, 1e-9);
    EXPECT_NEAR(got.planted_cm_s, other / frames, 1e-9);
    EXPECT_NEAR(got.planted_difference_cm_s, got.planted_cm_s - got.planted_capture_cm_s, 1e-12);
    EXPECT_DOUBLE_EQ(got.planted_worst_difference_cm_s, worst);
    EXPECT_EQ(got.planted_worst_clip, worst_clip);
  };
  for (std::size_t i = 0; i < s.budgets.size(); ++i) {
    SCOPED_TRACE("budget " + std::to_string(i));
    expect_summary(s.budgets[i].jitter,
                   [i](const ClipResult& c) -> const JitterResult& { return c.budgets[i].jitter; });
    expect_summary(s.budgets[i].file.jitter,
                   [i](const ClipResult& c) -> const JitterResult& { return c.budgets[i].file.jitter; });
    expect_summary(s.budgets[i].uniform_file.jitter,
                   [i](const ClipResult& c) -> const JitterResult& { return c.budgets[i].uniform_file.jitter; });
  }
  ASSERT_EQ(s.track_files.size(), 1u);
  expect_summary(s.track_files[0].jitter,
                 [](const ClipResult& c) -> const JitterResult& { return c.track_files[0].jitter; });

  // JSON: the keys after the version-3 ones; CSV: the columns after clip_seconds, the same numbers.
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(format_json(report));  // in the written order
  const nlohmann::ordered_json& b0 = j["clips"][0]["budgets"][0];
  std::vector<std::string> keys;
  for (const auto& [key, value] : b0.items()) keys.push_back(key);
  ASSERT_FALSE(keys.empty());
  EXPECT_EQ(keys.back(), "jitter");
  EXPECT_EQ(keys[keys.size() - 2], "joint_error_cm");
  EXPECT_GT(b0["jitter"]["vel_cm_s"]["p99"].get<double>(), 0.0);
  EXPECT_GT(b0["mkc"]["jitter"]["planted_cm_s"].get<double>(), 0.0);
  EXPECT_EQ(b0["mkc"].items().begin().key(), "bytes");
  const nlohmann::ordered_json& sb = j["summary"]["budgets"][0];
  std::vector<std::string> summary_keys;
  for (const auto& [key, value] : sb.items()) summary_keys.push_back(key);
  ASSERT_GE(summary_keys.size(), 3u);
  EXPECT_EQ(summary_keys.back(), "jitter");
  EXPECT_EQ(summary_keys[summary_keys.size() - 2], "joint_error_cm");
  EXPECT_EQ(summary_keys[summary_keys.size() - 3], "uniform_mkc");
  EXPECT_DOUBLE_EQ(sb["jitter"]["vel_p99_cm_s"].get<double>(), s.budgets[0].jitter.velocity_p99_cm_s);
  EXPECT_DOUBLE_EQ(sb["mkc"]["jitter"]["planted_difference_cm_s"].get<double>(),
                   s.budgets[0].file.jitter.planted_difference_cm_s);
  EXPECT_EQ(j["summary"]["track_mkc"][0]["jitter"]["vel_max_clip"].get<std::string>(),
            s.track_files[0].jitter.velocity_max_clip);

  std::istringstream csv(format_csv(report));
  std::string line;
  std::getline(csv, line);
  const auto header = split_csv(line);
  const auto seconds = std::find(header.begin(), header.end(), "clip_seconds");
  ASSERT_NE(seconds, header.end());
  ASSERT_EQ(header.end() - seconds, 1 + 4 * 9);  // rebuild, mkc, uniform_mkc, track_mkc_2cm: 9 columns each
  EXPECT_EQ(*(seconds + 1), "rebuild_vel_mean_cm_s");
  EXPECT_EQ(header.back(), "track_mkc_2cm_planted_difference_cm_s");
  auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return static_cast<std::size_t>(it - header.begin());
  };
  std::size_t clip = 0, budget = 0;
  while (std::getline(csv, line)) {
    const auto fields = split_csv(line);
    ASSERT_EQ(fields.size(), header.size());
    const ClipResult& c = report.clips[clip];
    const BudgetResult& b = c.budgets[budget];
    for (const auto& [prefix, jr] :
         {std::pair{std::string("rebuild_"), &b.jitter}, std::pair{std::string("mkc_"), &b.file.jitter},
          std::pair{std::string("uniform_mkc_"), &b.uniform_file.jitter},
          std::pair{std::string("track_mkc_2cm_"), &c.track_files[0].jitter}}) {
      EXPECT_EQ(std::strtod(fields[column(prefix + "vel_p99_cm_s")].c_str(), nullptr), jr->velocity.p99) << prefix;
      EXPECT_EQ(fields[column(prefix + "vel_max_joint")], jr->velocity_max_joint) << prefix;
      EXPECT_EQ(std::stoi(fields[column(prefix + "planted_frames")]), jr->planted_frames) << prefix;
      EXPECT_EQ(std::strtod(fields[column(prefix + "planted_difference_cm_s")].c_str(), nullptr),
                jr->planted_difference_cm_s)
          << prefix;
    }
    if (++budget == c.budgets.size()) budget = 0, ++clip;
  }
  EXPECT_EQ(clip, 3u);

  const std::string html = format_html(report);
  EXPECT_NE(html.find("<h2>Jitter and planted feet</h2>"), std::string::npos);
  EXPECT_NE(html.find("class=\"sortable jitter-clips\""), std::string::npos);
  char p99[32];
  std::snprintf(p99, sizeof p99, "%.17g", s.budgets[0].jitter.velocity_p99_cm_s);
  EXPECT_NE(html.find(std::string("data-v=\"") + p99 + "\""), std::string::npos) << p99;
}

// A clip of one leg has no feet: velocity figures, no planted ones, and the
// summary counts it apart.
TEST(ReportJitter, AClipWithoutFeetHasNoPlantedFigures) {
  TempDir dir;
  const fs::path root = test::bundled_data_dir().parent_path();
  fs::copy_file(root / "tests" / "cli" / "malformed" / "09_leg.asf", dir.path() / "09.asf");
  {
    std::ifstream in(test::bundled_data_dir() / "09_06.amc");
    std::ofstream out(dir.path() / "09_06.amc");
    const std::regex keep("^(:|[0-9]|root |lhipjoint |lfemur |ltibia |lfoot |ltoes )");
    for (std::string line; std::getline(in, line);) {
      if (std::regex_search(line, keep)) out << line << "\n";
    }
  }
  const auto clips = find_clips(std::vector<std::string>{(dir.path() / "09_06.amc").string()});
  ReportOptions o = quick_options(1);
  o.track_bounds_cm.clear();
  const Report report = run_report(clips, o);
  ASSERT_EQ(report.clips.size(), 1u);
  const ClipResult& c = report.clips[0];
  ASSERT_TRUE(c.status) << c.error_text();
  for (const BudgetResult& b : c.budgets) {
    for (const JitterResult* j : {&b.jitter, &b.file.jitter}) {
      EXPECT_GT(j->velocity.p99, 0.0);
      EXPECT_FALSE(j->feet);
      EXPECT_EQ(j->planted_frames, 0);
      EXPECT_EQ(j->planted_cm_s, 0.0);
    }
  }
  const ReportSummary s = summarise(report);
  EXPECT_EQ(s.budgets[0].jitter.clips_without_feet, 1);
  EXPECT_EQ(s.budgets[0].jitter.planted_frames, 0);
  EXPECT_NE(format_html(report).find("1 clip has no two feet"), std::string::npos);
}

}  // namespace
}  // namespace mocap
