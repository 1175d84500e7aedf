// The pool that runs the clip job over a database, and the merge of shards.
#include <mocap/report/report.h>

#include "report/seconds_since.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace mocap {

std::string utc_now_iso8601() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

Report run_report(std::span<const ClipInput> clips, const ReportOptions& options,
                  const std::function<void(const ReportProgress&)>& progress, ReportResume resume) {
  const auto start = std::chrono::steady_clock::now();
  Report report;
  report.options = options;
  report.run.date_utc = utc_now_iso8601();
  report.aggregate = empty_aggregate(options);
  // The thread count as a run of every clip would have it, so that a resumed
  // report records what an uninterrupted one does.
  int threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
  threads = std::max(1, std::min<int>(threads, static_cast<int>(clips.size())));
  report.threads = threads;

  // The clips an earlier run finished go straight into the results.
  std::vector<ClipResult> results(clips.size());
  std::vector<bool> done(clips.size(), false);
  ReportProgress state;
  state.total = static_cast<int>(clips.size());
  state.threads = threads;
  {
    std::map<std::string_view, std::size_t> index;
    for (std::size_t i = 0; i < clips.size(); ++i) index.emplace(clips[i].path, i);
    for (ClipResult& c : resume.done) {
      const auto it = index.find(c.path);
      if (it == index.end() || done[it->second]) continue;
      done[it->second] = true;
      ++state.done;
      state.failed += c.status ? 0 : 1;
      results[it->second] = std::move(c);
    }
    if (!resume.done_aggregate.empty()) {
      for (std::size_t b = 0; b < report.aggregate.size() && b < resume.done_aggregate.size(); ++b) {
        add_aggregate(report.aggregate[b], resume.done_aggregate[b], options.worst_clips);
      }
    }
  }

  // Workers take the next clip, largest first so that a long clip does not
  // start last and leave the other threads idle; finished results queue up
  // for this thread, which folds them in at once. A worker holds one clip at
  // a time.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < clips.size(); ++i) {
    if (!done[i]) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return clips[a].bytes > clips[b].bytes; });
  for (const std::size_t i : order) state.bytes_total += clips[i].bytes;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};  // set when `finished` says so
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::pair<std::size_t, ClipResult>> finished;
  auto work = [&] {
    for (std::size_t n = next.fetch_add(1); n < order.size() && !stop; n = next.fetch_add(1)) {
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
  const int workers = std::min<int>(threads, static_cast<int>(order.size()));
  for (int t = 0; t < workers; ++t) pool.emplace_back(work);

  for (std::size_t received = 0; received < order.size() && !stop; ++received) {
    std::pair<std::size_t, ClipResult> item;
    {
      std::unique_lock lock(mutex);
      ready.wait(lock, [&] { return !finished.empty(); });
      item = std::move(finished.front());
      finished.pop_front();
    }
    ClipResult& clip = results[item.first];
    clip = std::move(item.second);
    std::vector<BudgetAggregate> share = empty_aggregate(options);
    fold_clip(clip, options, share);
    for (std::size_t b = 0; b < share.size(); ++b) add_aggregate(report.aggregate[b], share[b], options.worst_clips);
    if (resume.finished && !resume.finished(clip, share)) stop = true;  // the running clips finish, unread
    ++state.done;
    state.failed += clip.status ? 0 : 1;
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

Result<Report> merge_reports(std::span<const Report> parts) {
  if (parts.empty()) return fail("", 0, "nothing to merge");
  const ReportOptions& o = parts.front().options;
  Report merged;
  merged.options = o;
  merged.run = parts.front().run;
  merged.aggregate = empty_aggregate(o);
  std::set<std::string> paths;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const Report& part = parts[p];
    const ReportOptions& q = part.options;
    if (q.kind != o.kind || q.budgets != o.budgets || q.fps != o.fps || q.under_cm != o.under_cm ||
        q.worst_clips != o.worst_clips || q.selection_passes != o.selection_passes ||
        q.error.velocity_weight != o.error.velocity_weight || q.error.shell_radius != o.error.shell_radius ||
        q.clip_files != o.clip_files || q.clip_file_error_cm != o.clip_file_error_cm ||
        q.track_bounds_cm != o.track_bounds_cm) {
      return fail(
          "", 0,
          "part " + std::to_string(p + 1) +
              " was run with other options (budgets, fps, passes, error, under thresholds or clip files) than part 1");
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
      if (!add_aggregate(merged.aggregate[i], part.aggregate[i], o.worst_clips)) {
        return fail("", 0, "part " + std::to_string(p + 1) + " has aggregates of another shape");
      }
    }
    merged.threads = std::max(merged.threads, part.threads);
    merged.wall_seconds = std::max(merged.wall_seconds, part.wall_seconds);
  }
  std::sort(merged.clips.begin(), merged.clips.end(),
            [](const ClipResult& a, const ClipResult& b) { return a.path < b.path; });
  return merged;
}

}  // namespace mocap
