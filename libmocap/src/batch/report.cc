// Finding clips, the per-clip job, the thread pool, the summary, CSV and
// merging. JSON lives in report_json.cc, HTML in report_html.cc.
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/atomic_write.h>
#include <mocap/compress/keyframes.h>
#include <mocap/batch/report.h>
#include <mocap/compress/key_pipeline.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace mocap {
namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
bool has_extension(const fs::path& path, std::string_view ext) {
  return lower(path.extension().string()) == ext;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The .asf files directly in `dir`, by file name.
std::vector<fs::path> asf_files_in(const fs::path& dir) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir.empty() ? fs::path(".") : dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code file_ec;
    if (it->is_regular_file(file_ec) && has_extension(it->path(), ".asf")) found.push_back(it->path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

// The file of `candidates` whose stem is `stem`, or empty.
fs::path with_stem(const std::vector<fs::path>& candidates, const std::string& stem) {
  for (const fs::path& p : candidates) {
    if (p.stem().string() == stem) return p;
  }
  return {};
}

}  // namespace

// ---------------------------------------------------------------------------
// Finding clips

Result<std::string> pair_asf(const std::string& amc, const std::string& fallback_asf) {
  const fs::path path(amc);
  const fs::path dir = path.parent_path();
  const std::string stem = path.stem().string();
  const std::vector<fs::path> asfs = asf_files_in(dir);
  auto relative_to_input = [&](const fs::path& found) {
    return dir.empty() ? found.filename().string() : (dir / found.filename()).string();
  };
  const std::size_t underscore = stem.find('_');
  if (underscore != std::string::npos && underscore > 0) {
    if (fs::path p = with_stem(asfs, stem.substr(0, underscore)); !p.empty()) return relative_to_input(p);
  }
  if (fs::path p = with_stem(asfs, stem); !p.empty()) return relative_to_input(p);
  if (asfs.size() == 1) return relative_to_input(asfs.front());
  if (!fallback_asf.empty()) return fallback_asf;
  std::string tried = underscore != std::string::npos && underscore > 0 ? stem.substr(0, underscore) + ".asf, " : "";
  return fail(amc, 0,
              "no skeleton for this motion: looked for " + tried + stem + ".asf and a single .asf in its folder (" +
                  std::to_string(asfs.size()) + " found); pass --asf");
}

std::vector<ClipInput> find_clips(std::span<const std::string> inputs, const std::string& fallback_asf) {
  std::vector<ClipInput> clips;
  std::set<std::string> seen;  // canonical paths
  auto add = [&](const fs::path& path, std::string error) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(path, ec);
    if (!seen.insert(ec ? path.string() : canonical.string()).second) return;
    ClipInput clip;
    clip.path = path.string();
    clip.name = path.stem().string();
    clip.bytes = error.empty() ? fs::file_size(path, ec) : 0;
    if (ec) clip.bytes = 0;
    if (error.empty()) {
      if (auto asf = pair_asf(clip.path, fallback_asf)) {
        clip.asf = std::move(*asf);
      } else {
        error = asf.error().to_string();
      }
    }
    clip.error = std::move(error);
    clips.push_back(std::move(clip));
  };
  for (const std::string& input : inputs) {
    const fs::path path(input);
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (fs::is_directory(status)) {
      std::vector<fs::path> amcs;
      const auto options = fs::directory_options::skip_permission_denied;
      for (fs::recursive_directory_iterator it(path, options, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code file_ec;
        if (it->is_regular_file(file_ec) && has_extension(it->path(), ".amc")) amcs.push_back(it->path());
      }
      if (ec) add(path, input + ": cannot list the folder: " + ec.message());
      for (const fs::path& amc : amcs) add(amc, "");
    } else if (fs::is_regular_file(status)) {
      if (has_extension(path, ".asf")) continue;
      add(path, has_extension(path, ".amc") ? "" : input + ": not an AMC motion (expected a .amc file)");
    } else {
      add(path, input + ": no such file or folder");
    }
  }
  std::sort(clips.begin(), clips.end(), [](const ClipInput& a, const ClipInput& b) { return a.path < b.path; });
  return clips;
}

std::vector<ClipInput> shard_clips(std::span<const ClipInput> clips, int index, int count) {
  std::vector<ClipInput> shard;
  if (count <= 0 || index < 0 || index >= count) return shard;
  for (std::size_t i = static_cast<std::size_t>(index); i < clips.size(); i += static_cast<std::size_t>(count)) {
    shard.push_back(clips[i]);
  }
  return shard;
}

// ---------------------------------------------------------------------------
// Options

std::string_view budget_kind_name(BudgetKind kind) {
  switch (kind) {
    case BudgetKind::kRatio: return "ratio";
    case BudgetKind::kThreshold: return "threshold";
    case BudgetKind::kMaxError: return "max_error";
  }
  return "ratio";
}

Result<void> validate(const ReportOptions& o) {
  if (o.budgets.empty()) return fail("", 0, "no budgets: give at least one");
  for (const double b : o.budgets) {
    char value[32];
    std::snprintf(value, sizeof value, "%g", b);
    const std::string what = std::string(budget_kind_name(o.kind)) + " " + value;
    if (!std::isfinite(b)) return fail("", 0, "budget is not a finite number");
    if (o.kind == BudgetKind::kRatio && !(b > 0.0 && b <= 1.0)) {
      return fail("", 0, what + ": expected a share of frames in (0, 1]");
    }
    if (o.kind == BudgetKind::kThreshold && b < 0.0) return fail("", 0, what + ": expected a threshold >= 0");
    if (o.kind == BudgetKind::kMaxError && !(b > 0.0)) return fail("", 0, what + ": expected an error > 0 cm");
  }
  if (!(o.fps > 0.0) || !std::isfinite(o.fps)) return fail("", 0, "fps: expected a rate > 0");
  for (const double u : o.under_cm) {
    if (!(u > 0.0) || !std::isfinite(u)) return fail("", 0, "under: expected errors > 0 cm");
  }
  if (!(o.error.velocity_weight >= 0.0) || !(o.error.shell_radius >= 0.0)) {
    return fail("", 0, "error options: expected a velocity weight and shell radius >= 0");
  }
  if (o.worst_clips < 0 || o.threads < 0 || o.selection_passes < 0) {
    return fail("", 0, "selection passes, worst clips and threads: expected counts >= 0");
  }
  return {};
}

// ---------------------------------------------------------------------------
// Histogram

int ErrorHistogram::bin(double cm) {
  if (!(cm > kLowestCm)) return 0;  // also NaN
  const double b = std::floor((std::log10(cm) - std::log10(kLowestCm)) * kBinsPerDecade);
  return static_cast<int>(std::clamp(b, 0.0, static_cast<double>(kBins - 1)));
}

double ErrorHistogram::upper_edge(int bin) {
  return kLowestCm * std::pow(10.0, static_cast<double>(bin + 1) / kBinsPerDecade);
}

std::int64_t ErrorHistogram::total() const {
  std::int64_t n = 0;
  for (const std::int64_t c : counts) n += c;
  return n;
}

double ErrorHistogram::quantile(double q) const {
  const std::int64_t n = total();
  if (n == 0) return 0.0;
  const auto rank = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(q * static_cast<double>(n))));
  std::int64_t seen = 0;
  for (int b = 0; b < kBins; ++b) {
    seen += counts[static_cast<std::size_t>(b)];
    if (seen >= rank) return upper_edge(b);
  }
  return upper_edge(kBins - 1);
}

// ---------------------------------------------------------------------------
// The job

namespace {

ErrorSummary summary_of(const ErrorStats& s) {
  return {s.mean, s.p99, s.max};
}

}  // namespace

ClipResult run_clip(const ClipInput& input, const ReportOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ClipResult result;
  result.path = input.path;
  result.asf = input.asf;
  result.name = input.name;
  result.fps = options.fps;
  auto finish = [&](std::string error) {
    result.ok = error.empty();
    result.error = std::move(error);
    if (!result.ok) result.budgets.clear();
    result.seconds = seconds_since(start);
    return std::move(result);
  };
  if (!input.error.empty()) return finish(input.error);
  try {
    auto skeleton = read_asf(input.asf);
    if (!skeleton) return finish(skeleton.error().to_string());
    auto motion = read_amc(input.path, *skeleton, options.fps);
    if (!motion) return finish(motion.error().to_string());
    const int frames = motion->frame_count();
    result.frames = frames;
    if (frames == 0) return finish(input.path + ": no frames to compress");
    for (const Bone& bone : skeleton->bones) result.joints.push_back(bone.name);

    KeyCompressOptions compress;
    compress.budget = options.kind == BudgetKind::kRatio       ? KeyBudget::kRatio
                      : options.kind == BudgetKind::kThreshold ? KeyBudget::kThreshold
                                                               : KeyBudget::kMaxJointError;
    compress.selection.max_passes = options.selection_passes;
    compress.error = options.error;
    for (const double budget : options.budgets) {
      BudgetResult b;
      b.budget = budget;
      compress.value = budget;
      auto run = compress_keys(*skeleton, *motion, compress, input.path);
      if (!run) return finish(run.error().to_string());
      const MotionError& error = run->error;
      b.select_seconds = run->select_seconds;
      b.keys = static_cast<int>(run->keys.size());
      b.key_ratio = static_cast<double>(b.keys) / frames;
      b.frame_error_cm = std::move(run->position_per_frame_cm);
      b.joint_error_cm = std::move(run->joint_mean_cm);
      b.position = summary_of(error.position);
      b.velocity = summary_of(error.velocity);
      b.shell = summary_of(error.shell);
      if (error.position.worst_joint >= 0) b.worst_joint = result.joints[error.position.worst_joint];
      if (error.position.worst_frame >= 0) b.worst_frame = motion->frame_numbers[error.position.worst_frame];
      b.joint = summary_of(error.joint);
      if (error.joint.worst_frame >= 0) {
        b.joint_max_joint = result.joints[error.joint.worst_joint];
        b.joint_max_frame = motion->frame_numbers[error.joint.worst_frame];
        b.shell_max_joint = result.joints[error.shell.worst_joint];
        b.shell_max_frame = motion->frame_numbers[error.shell.worst_frame];
      }
      b.uniform_frame_error_cm = std::move(run->uniform_position_per_frame_cm);
      b.uniform_position = summary_of(run->uniform_error.position);
      b.uniform_shell = summary_of(run->uniform_error.shell);
      b.uniform_joint = summary_of(run->uniform_error.joint);
      result.budgets.push_back(std::move(b));
    }
  } catch (const std::exception& e) {
    return finish(input.path + ": " + e.what());
  }
  return finish("");
}

// ---------------------------------------------------------------------------
// The pool

namespace {

// Orders the worst curves: largest max first, then by path.
bool worse(const ErrorCurve& a, const ErrorCurve& b) {
  if (a.max_cm != b.max_cm) return a.max_cm > b.max_cm;
  return a.path < b.path;
}

ErrorCurve thin_curve(const ClipResult& clip, const BudgetResult& b) {
  ErrorCurve curve;
  curve.path = clip.path;
  curve.name = clip.name;
  curve.max_cm = b.position.max;
  curve.fps = clip.fps;
  const auto n = static_cast<int>(b.frame_error_cm.size());
  curve.stride = std::max(1, (n + kCurvePoints - 1) / kCurvePoints);
  for (int i = 0; i < n; i += curve.stride) {
    const auto first = b.frame_error_cm.begin() + i;
    curve.error_cm.push_back(*std::max_element(first, b.frame_error_cm.begin() + std::min(n, i + curve.stride)));
  }
  return curve;
}

void keep_worst(std::vector<ErrorCurve>& worst, ErrorCurve curve, int limit) {
  worst.push_back(std::move(curve));
  std::sort(worst.begin(), worst.end(), worse);
  if (worst.size() > static_cast<std::size_t>(limit)) worst.resize(static_cast<std::size_t>(limit));
}

std::vector<BudgetAggregate> empty_aggregate(const ReportOptions& options) {
  std::vector<BudgetAggregate> aggregate(options.budgets.size());
  for (BudgetAggregate& a : aggregate) {
    a.under.assign(options.under_cm.size(), 0);
    a.uniform_under.assign(options.under_cm.size(), 0);
  }
  return aggregate;
}

// Folds a clip's per-frame errors into the aggregate and drops them.
void fold(ClipResult& clip, const ReportOptions& options, std::vector<BudgetAggregate>& aggregate) {
  if (!clip.ok) return;
  for (std::size_t i = 0; i < clip.budgets.size() && i < aggregate.size(); ++i) {
    BudgetResult& b = clip.budgets[i];
    BudgetAggregate& a = aggregate[i];
    auto count = [&](const std::vector<double>& errors, ErrorHistogram& histogram, std::vector<std::int64_t>& under) {
      for (const double e : errors) {
        histogram.add(e);
        for (std::size_t u = 0; u < options.under_cm.size(); ++u) under[u] += e < options.under_cm[u] ? 1 : 0;
      }
    };
    count(b.frame_error_cm, a.selection, a.under);
    count(b.uniform_frame_error_cm, a.uniform, a.uniform_under);
    if (options.worst_clips > 0) {
      const bool qualifies = a.worst.size() < static_cast<std::size_t>(options.worst_clips) ||
                             worse(ErrorCurve{clip.path, "", b.position.max, 0, 1, {}}, a.worst.back());
      if (qualifies) keep_worst(a.worst, thin_curve(clip, b), options.worst_clips);
    }
    b.frame_error_cm = {};
    b.uniform_frame_error_cm = {};
  }
}

}  // namespace

Report run_report(std::span<const ClipInput> clips, const ReportOptions& options,
                  const std::function<void(const ReportProgress&)>& progress) {
  const auto start = std::chrono::steady_clock::now();
  Report report;
  report.options = options;
  report.aggregate = empty_aggregate(options);
  int threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
  threads = std::max(1, std::min<int>(threads, static_cast<int>(clips.size())));
  report.threads = threads;

  // Workers take the next clip, largest first so that a long clip does not
  // start last and leave the other threads idle; finished results queue up
  // for this thread, which folds them in at once. A worker holds one clip at
  // a time.
  std::vector<std::size_t> order(clips.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return clips[a].bytes > clips[b].bytes; });
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::pair<std::size_t, ClipResult>> finished;
  auto work = [&] {
    for (std::size_t n = next.fetch_add(1); n < clips.size(); n = next.fetch_add(1)) {
      const std::size_t i = order[n];
      ClipResult result = run_clip(clips[i], options);
      {
        std::lock_guard lock(mutex);
        finished.emplace_back(i, std::move(result));
      }
      ready.notify_one();
    }
  };
  std::vector<std::thread> pool;  // not jthread: libc++ 16 (the fuzz build) has none
  if (!clips.empty()) {
    for (int t = 0; t < threads; ++t) pool.emplace_back(work);
  }

  std::vector<ClipResult> results(clips.size());
  ReportProgress state;
  state.total = static_cast<int>(clips.size());
  state.threads = threads;
  for (const ClipInput& c : clips) state.bytes_total += c.bytes;
  for (std::size_t received = 0; received < clips.size(); ++received) {
    std::pair<std::size_t, ClipResult> item;
    {
      std::unique_lock lock(mutex);
      ready.wait(lock, [&] { return !finished.empty(); });
      item = std::move(finished.front());
      finished.pop_front();
    }
    ClipResult& clip = results[item.first];
    clip = std::move(item.second);
    fold(clip, options, report.aggregate);
    ++state.done;
    state.failed += clip.ok ? 0 : 1;
    state.frames += clip.frames;
    state.bytes_done += clips[item.first].bytes;
    state.elapsed_seconds = seconds_since(start);
    state.last = &clip;
    if (progress) progress(state);
  }
  for (std::thread& t : pool) t.join();
  std::sort(results.begin(), results.end(), [](const ClipResult& a, const ClipResult& b) { return a.path < b.path; });
  report.clips = std::move(results);
  report.wall_seconds = seconds_since(start);
  return report;
}

// ---------------------------------------------------------------------------
// Summary

ReportSummary summarise(const Report& report) {
  ReportSummary s;
  const ReportOptions& o = report.options;
  s.clips = static_cast<int>(report.clips.size());
  double seconds_of_motion = 0.0;
  for (const ClipResult& c : report.clips) {
    s.clip_seconds += c.seconds;
    if (!c.ok) {
      ++s.failed;
      continue;
    }
    ++s.ok;
    s.frames += c.frames;
    seconds_of_motion += c.duration_seconds();
  }
  s.hours = seconds_of_motion / 3600.0;

  for (std::size_t i = 0; i < o.budgets.size(); ++i) {
    BudgetSummary b;
    b.budget = o.budgets[i];
    double sum = 0.0, uniform_sum = 0.0;
    std::vector<ClipRank> ranks;
    std::map<std::string, std::size_t> joint_index;
    std::vector<double> joint_sum;
    std::vector<std::int64_t> joint_frames;
    for (const ClipResult& c : report.clips) {
      if (!c.ok || i >= c.budgets.size()) continue;
      const BudgetResult& r = c.budgets[i];
      b.keys += r.keys;
      sum += r.position.mean * c.frames;
      uniform_sum += r.uniform_position.mean * c.frames;
      b.position.max = std::max(b.position.max, r.position.max);
      b.uniform_position.max = std::max(b.uniform_position.max, r.uniform_position.max);
      b.shell_max = std::max(b.shell_max, r.shell.max);
      b.uniform_shell_max = std::max(b.uniform_shell_max, r.uniform_shell.max);
      b.uniform_joint_max = std::max(b.uniform_joint_max, r.uniform_joint.max);
      if (r.joint.max > b.joint_max || b.joint_max_clip.empty()) {
        b.joint_max = r.joint.max;
        b.joint_max_clip = c.name;
        b.joint_max_joint = r.joint_max_joint;
        b.joint_max_frame = r.joint_max_frame;
      }
      ranks.push_back({c.name, c.path, r.position.max});
      for (std::size_t j = 0; j < c.joints.size() && j < r.joint_error_cm.size(); ++j) {
        auto [it, added] = joint_index.try_emplace(c.joints[j], b.joints.size());
        if (added) {
          b.joints.push_back(c.joints[j]);
          joint_sum.push_back(0.0);
          joint_frames.push_back(0);
        }
        joint_sum[it->second] += r.joint_error_cm[j] * c.frames;
        joint_frames[it->second] += c.frames;
      }
    }
    if (s.frames > 0) {
      b.key_ratio = static_cast<double>(b.keys) / static_cast<double>(s.frames);
      b.position.mean = sum / static_cast<double>(s.frames);
      b.uniform_position.mean = uniform_sum / static_cast<double>(s.frames);
    }
    if (i < report.aggregate.size()) {
      const BudgetAggregate& a = report.aggregate[i];
      b.position.p99 = std::min(a.selection.quantile(0.99), b.position.max);
      b.uniform_position.p99 = std::min(a.uniform.quantile(0.99), b.uniform_position.max);
      const auto frames = static_cast<double>(a.selection.total());
      const auto uniform_frames = static_cast<double>(a.uniform.total());
      for (std::size_t u = 0; u < o.under_cm.size(); ++u) {
        b.share_under.push_back(frames > 0 && u < a.under.size() ? a.under[u] / frames : 0.0);
        b.uniform_share_under.push_back(
            uniform_frames > 0 && u < a.uniform_under.size() ? a.uniform_under[u] / uniform_frames : 0.0);
      }
    }
    for (std::size_t j = 0; j < joint_sum.size(); ++j) {
      b.joint_error_cm.push_back(joint_frames[j] > 0 ? joint_sum[j] / static_cast<double>(joint_frames[j]) : 0.0);
    }
    std::sort(ranks.begin(), ranks.end(), [](const ClipRank& x, const ClipRank& y) {
      return x.max_cm != y.max_cm ? x.max_cm < y.max_cm : x.path < y.path;
    });
    const std::size_t shown = std::min<std::size_t>(5, ranks.size());
    b.best.assign(ranks.begin(), ranks.begin() + static_cast<std::ptrdiff_t>(shown));
    b.worst.assign(ranks.rbegin(), ranks.rbegin() + static_cast<std::ptrdiff_t>(shown));
    s.budgets.push_back(std::move(b));
  }
  return s;
}

// ---------------------------------------------------------------------------
// CSV

namespace {

std::string number(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : "nan";
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string quoted = "\"";
  for (const char c : s) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace

std::string format_csv(const Report& report) {
  std::string out =
      "path,name,asf,status,error,frames,fps,duration_s,budget_kind,budget,keys,key_ratio,"
      "pos_mean_cm,pos_p99_cm,pos_max_cm,vel_mean_cm_per_frame,vel_p99_cm_per_frame,vel_max_cm_per_frame,"
      "shell_mean_cm,shell_p99_cm,shell_max_cm,worst_joint,worst_frame,"
      "joint_mean_cm,joint_p99_cm,joint_max_cm,joint_max_joint,joint_max_frame,shell_max_joint,shell_max_frame,"
      "uniform_pos_mean_cm,uniform_pos_p99_cm,uniform_pos_max_cm,uniform_shell_mean_cm,uniform_shell_p99_cm,"
      "uniform_shell_max_cm,uniform_joint_max_cm,select_seconds,clip_seconds\n";
  const std::string kind(budget_kind_name(report.options.kind));
  for (const ClipResult& c : report.clips) {
    const std::string head = csv_field(c.path) + "," + csv_field(c.name) + "," + csv_field(c.asf) + "," +
                             (c.ok ? "ok" : "failed") + "," + csv_field(c.error) + "," + std::to_string(c.frames) +
                             "," + number(c.fps) + "," + number(c.duration_seconds()) + "," + kind + ",";
    if (!c.ok) {
      out += head + std::string(29, ',') + number(c.seconds) + "\n";
      continue;
    }
    for (const BudgetResult& b : c.budgets) {
      auto three = [](const ErrorSummary& e) { return number(e.mean) + "," + number(e.p99) + "," + number(e.max); };
      out += head + number(b.budget) + "," + std::to_string(b.keys) + "," + number(b.key_ratio) + "," +
             three(b.position) + "," + three(b.velocity) + "," + three(b.shell) + "," + csv_field(b.worst_joint) + "," +
             std::to_string(b.worst_frame) + "," + three(b.joint) + "," + csv_field(b.joint_max_joint) + "," +
             std::to_string(b.joint_max_frame) + "," + csv_field(b.shell_max_joint) + "," +
             std::to_string(b.shell_max_frame) + "," + three(b.uniform_position) + "," + three(b.uniform_shell) + "," +
             number(b.uniform_joint.max) + "," + number(b.select_seconds) + "," + number(c.seconds) + "\n";
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Writing and merging

Result<void> write_report(const Report& report, const std::string& path) {
  const std::string ext = lower(fs::path(path).extension().string());
  std::string content;
  if (ext == ".csv") {
    content = format_csv(report);
  } else if (ext == ".json") {
    content = format_json(report);
  } else if (ext == ".html" || ext == ".htm") {
    content = format_html(report);
  } else {
    return fail(path, 0, "unknown report format: expected a .html, .csv or .json file");
  }
  return write_file_atomically(path, content);
}

Result<Report> merge_reports(std::span<const Report> parts) {
  if (parts.empty()) return fail("", 0, "nothing to merge");
  const ReportOptions& o = parts.front().options;
  Report merged;
  merged.options = o;
  merged.aggregate = empty_aggregate(o);
  std::set<std::string> paths;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const Report& part = parts[p];
    const ReportOptions& q = part.options;
    if (q.kind != o.kind || q.budgets != o.budgets || q.fps != o.fps || q.under_cm != o.under_cm ||
        q.worst_clips != o.worst_clips || q.selection_passes != o.selection_passes ||
        q.error.velocity_weight != o.error.velocity_weight || q.error.shell_radius != o.error.shell_radius) {
      return fail("", 0,
                  "part " + std::to_string(p + 1) +
                      " was run with other options (budgets, fps, passes, error or under thresholds) than part 1");
    }
    if (part.aggregate.size() != o.budgets.size()) {
      return fail("", 0, "part " + std::to_string(p + 1) + " has no aggregate for every budget");
    }
    for (const ClipResult& c : part.clips) {
      if (!paths.insert(c.path).second) {
        return fail("", 0, c.path + " is in more than one part (the same shard given twice?)");
      }
      merged.clips.push_back(c);
    }
    for (std::size_t i = 0; i < o.budgets.size(); ++i) {
      const BudgetAggregate& from = part.aggregate[i];
      BudgetAggregate& to = merged.aggregate[i];
      if (from.selection.counts.size() != to.selection.counts.size() ||
          from.uniform.counts.size() != to.uniform.counts.size() || from.under.size() != to.under.size() ||
          from.uniform_under.size() != to.uniform_under.size()) {
        return fail("", 0, "part " + std::to_string(p + 1) + " has aggregates of another shape");
      }
      for (std::size_t k = 0; k < to.selection.counts.size(); ++k) to.selection.counts[k] += from.selection.counts[k];
      for (std::size_t k = 0; k < to.uniform.counts.size(); ++k) to.uniform.counts[k] += from.uniform.counts[k];
      for (std::size_t u = 0; u < to.under.size(); ++u) {
        to.under[u] += from.under[u];
        to.uniform_under[u] += from.uniform_under[u];
      }
      for (const ErrorCurve& curve : from.worst) keep_worst(to.worst, curve, o.worst_clips);
    }
    merged.threads = std::max(merged.threads, part.threads);
    merged.wall_seconds = std::max(merged.wall_seconds, part.wall_seconds);
  }
  std::sort(merged.clips.begin(), merged.clips.end(),
            [](const ClipResult& a, const ClipResult& b) { return a.path < b.path; });
  return merged;
}

}  // namespace mocap
