// The summary: sums over clips in path order, so that it does not depend on
// threads or shards.
#include <mocap/report/report_summary.h>

#include <algorithm>
#include <map>

namespace mocap {

namespace {

// Adds one clip's jitter; finish_jitter divides by the totals. Sums are
// weighted: the velocity mean by joint-frames, the planted speeds by contact
// frames.
void add_jitter(JitterSummary& s, const JitterResult& j, const ClipResult& c, double& velocity_samples) {
  const double samples = static_cast<double>(c.joints.size()) * c.frames;
  s.velocity_mean_cm_s += j.velocity.mean * samples;
  velocity_samples += samples;
  if (j.velocity.p99 > s.velocity_p99_cm_s || s.velocity_p99_clip.empty()) {
    s.velocity_p99_cm_s = j.velocity.p99;
    s.velocity_p99_clip = c.name;
  }
  if (j.velocity.max > s.velocity_max_cm_s || s.velocity_max_clip.empty()) {
    s.velocity_max_cm_s = j.velocity.max;
    s.velocity_max_clip = c.name;
    s.velocity_max_joint = j.velocity_max_joint;
    s.velocity_max_frame = j.velocity_max_frame;
  }
  if (!j.feet) {
    ++s.clips_without_feet;
    return;
  }
  if (j.planted_frames <= 0) return;
  s.planted_frames += j.planted_frames;
  s.planted_capture_cm_s += j.planted_capture_cm_s * j.planted_frames;
  s.planted_cm_s += j.planted_cm_s * j.planted_frames;
  if (j.planted_difference_cm_s > s.planted_worst_difference_cm_s || s.planted_worst_clip.empty()) {
    s.planted_worst_difference_cm_s = j.planted_difference_cm_s;
    s.planted_worst_clip = c.name;
  }
}

void finish_jitter(JitterSummary& s, double velocity_samples) {
  s.velocity_mean_cm_s = velocity_samples > 0 ? s.velocity_mean_cm_s / velocity_samples : 0.0;
  if (s.planted_frames > 0) {
    s.planted_capture_cm_s /= static_cast<double>(s.planted_frames);
    s.planted_cm_s /= static_cast<double>(s.planted_frames);
    s.planted_difference_cm_s = s.planted_cm_s - s.planted_capture_cm_s;
  }
}

// Adds one clip's file; finish_file divides by the totals.
void add_file(FileSummary& s, const ClipFileResult& f, const ClipResult& c, double& velocity_samples) {
  add_jitter(s.jitter, f.jitter, c, velocity_samples);
  s.bytes += f.bytes;
  s.joint_mean_cm += f.joint_mean_cm * c.frames;
  if (f.joint_max_cm > s.joint_max_cm || s.joint_max_clip.empty()) {
    s.joint_max_cm = f.joint_max_cm;
    s.joint_max_clip = c.name;
    s.joint_max_joint = f.joint_max_joint;
    s.joint_max_frame = f.joint_max_frame;
  }
}

void finish_file(FileSummary& s, const ReportSummary& totals, double velocity_samples) {
  finish_jitter(s.jitter, velocity_samples);
  s.kb_per_second = totals.motion_seconds > 0 ? static_cast<double>(s.bytes) / 1000.0 / totals.motion_seconds : 0.0;
  s.ratio = s.bytes > 0 ? static_cast<double>(totals.raw_bytes) / static_cast<double>(s.bytes) : 0.0;
  s.joint_mean_cm = totals.frames > 0 ? s.joint_mean_cm / static_cast<double>(totals.frames) : 0.0;
}

}  // namespace

ReportSummary summarise(const Report& report) {
  ReportSummary s;
  const ReportOptions& o = report.options;
  s.clips = static_cast<int>(report.clips.size());
  for (const ClipResult& c : report.clips) {
    s.clip_seconds += c.seconds;
    if (!c.status) {
      ++s.failed;
      continue;
    }
    ++s.ok;
    s.frames += c.frames;
    s.raw_bytes += c.raw_bytes;
    s.motion_seconds += c.duration_seconds();
  }
  s.hours = s.motion_seconds / 3600.0;

  for (std::size_t i = 0; i < o.budgets.size(); ++i) {
    BudgetSummary b;
    b.budget = o.budgets[i];
    double sum = 0.0, uniform_sum = 0.0;
    std::vector<ClipRank> ranks;
    std::map<std::string, std::size_t> joint_index;
    std::vector<double> joint_sum;
    std::vector<std::int64_t> joint_frames;
    double samples = 0.0, file_samples = 0.0, uniform_samples = 0.0;  // joint-frames, for the velocity means
    for (const ClipResult& c : report.clips) {
      if (!c.status || i >= c.budgets.size()) continue;
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
      if (o.clip_files) {
        add_file(b.file, r.file, c, file_samples);
        add_file(b.uniform_file, r.uniform_file, c, uniform_samples);
      }
      add_jitter(b.jitter, r.jitter, c, samples);
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
    if (o.clip_files) {
      finish_file(b.file, s, file_samples);
      finish_file(b.uniform_file, s, uniform_samples);
    }
    finish_jitter(b.jitter, samples);
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
  s.track_files.resize(o.track_bounds_cm.size());
  std::vector<double> track_samples(s.track_files.size(), 0.0);
  for (const ClipResult& c : report.clips) {
    if (!c.status) continue;
    for (std::size_t i = 0; i < s.track_files.size() && i < c.track_files.size(); ++i) {
      add_file(s.track_files[i], c.track_files[i], c, track_samples[i]);
    }
  }
  for (std::size_t i = 0; i < s.track_files.size(); ++i) finish_file(s.track_files[i], s, track_samples[i]);
  return s;
}

}  // namespace mocap
