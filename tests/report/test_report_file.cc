// Report files merged in one call (report_file.h) and the progress text
// (report_progress_text.h), as `mocap report` shows them.
#include <gtest/gtest.h>
#include <mocap/report/report_file.h>
#include <mocap/report/report_format.h>
#include <mocap/report/report_journal.h>
#include <mocap/report/report_progress_text.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "numbers_only.h"
#include "test_data.h"

namespace mocap {
namespace {

std::vector<std::string> bundled_paths() {
  std::vector<std::string> out;
  for (const auto& clip : test::bundled_clips()) out.push_back(clip.amc.string());
  return out;
}

ReportOptions quick() {
  ReportOptions o;
  o.budgets = {0.1};
  o.selection_passes = 0;
  o.clip_files = false;
  o.track_bounds_cm.clear();
  o.threads = 1;
  return o;
}

// Shard k of n written as JSON at dir/part_k.json, as a cluster job leaves it.
std::string write_part(const test::TempDir& dir, std::span<const ClipInput> clips, int k, int n) {
  Report part = run_report(shard_clips(clips, k, n), quick());
  part.shard_index = k;
  part.shard_count = n;
  return dir.touch("part_" + std::to_string(k) + ".json", format_json(part)).string();
}

TEST(ReportFile, MergesPartsReadFromFilesAndSaysWhichShardsAreMissing) {
  const test::TempDir dir;
  const auto clips = find_clips(bundled_paths());
  ASSERT_GE(clips.size(), 3u);
  const std::vector<std::string> paths{write_part(dir, clips, 1, 3), write_part(dir, clips, 0, 3)};
  auto two = merge_report_files(paths);
  ASSERT_TRUE(two) << two.error().to_string();
  EXPECT_EQ(two->shards, 2);
  EXPECT_EQ(two->of_count, 3);
  EXPECT_TRUE(two->partial());
  EXPECT_EQ(two->report.clips.size(), shard_clips(clips, 0, 3).size() + shard_clips(clips, 1, 3).size());

  const std::vector<std::string> all{paths[0], paths[1], write_part(dir, clips, 2, 3)};
  auto three = merge_report_files(all);
  ASSERT_TRUE(three) << three.error().to_string();
  EXPECT_FALSE(three->partial());
  EXPECT_EQ(test::numbers_only(three->report), test::numbers_only(run_report(clips, quick())));
}

TEST(ReportFile, AnUnreadablePartIsNamedAndABadMergeNamesNoFile) {
  const test::TempDir dir;
  const auto clips = find_clips(bundled_paths());
  const std::string part = write_part(dir, clips, 0, 2);
  const std::string missing = (dir.path() / "missing.json").string();
  auto unread = merge_report_files(std::vector<std::string>{part, missing});
  ASSERT_FALSE(unread);
  EXPECT_EQ(unread.error().file, missing);
  auto twice = merge_report_files(std::vector<std::string>{part, part});
  ASSERT_FALSE(twice);
  EXPECT_TRUE(twice.error().file.empty());
  EXPECT_NE(twice.error().message.find("more than one part"), std::string::npos) << twice.error().message;
}

// Every finished clip goes to the journal as it finishes: a run resumed from
// it runs nothing again and gives the same numbers.
TEST(ReportFile, MakeReportKeepsEveryClipInTheJournalAndFillsTheRun) {
  const test::TempDir dir;
  const auto clips = find_clips(bundled_paths());
  const JournalRun run{clips, quick(), 1, 3};
  const std::string path = (dir.path() / "r.json.journal").string();
  auto journal = create_journal(path, run);
  ASSERT_TRUE(journal) << journal.error().to_string();
  auto made = make_report(run, *journal, "9.9.9", "mocap report x");
  ASSERT_TRUE(made) << made.error().to_string();
  EXPECT_EQ(made->run.tool_version, "9.9.9");
  EXPECT_EQ(made->run.command_line, "mocap report x");
  EXPECT_FALSE(made->run.date_utc.empty());
  EXPECT_EQ(made->shard_index, 1);
  EXPECT_EQ(made->shard_count, 3);
  journal = ReportJournal{};  // closed, as a run that stopped

  auto again = resume_journal(path, run);
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(again->resume.done.size(), clips.size());
  int ran = 0;
  auto resumed = make_report(run, *again, "9.9.9", "", [&](const ReportProgress& p) {
    if (p.last) ++ran;
  });
  ASSERT_TRUE(resumed) << resumed.error().to_string();
  EXPECT_EQ(ran, 0);
  EXPECT_EQ(test::numbers_only(*resumed), test::numbers_only(*made));
}

TEST(ReportFile, ShardNamesAndReportPaths) {
  const auto shard = parse_shard("2/4");
  ASSERT_TRUE(shard);
  EXPECT_EQ(shard->index, 2);
  EXPECT_EQ(shard->count, 4);
  for (const char* bad : {"4/4", "-1/4", "1/0", "1", "1/", "/4", "a/4", "1/4x", ""})
    EXPECT_FALSE(parse_shard(bad)) << bad;
  EXPECT_EQ(parse_shard("3/2").error().to_string(), "3/2: expected k/n with 0 <= k < n, e.g. 0/4");
  for (const char* ok : {"r.html", "r.HTM", "a/b.csv", "r.Json"}) EXPECT_TRUE(is_report_path(ok)) << ok;
  for (const char* bad : {"r.txt", "r", "html", "r.html.gz"}) EXPECT_FALSE(is_report_path(bad)) << bad;
}

TEST(ReportProgressText, ClockLinesAndJson) {
  EXPECT_EQ(clock_text(-5), "0:00");
  EXPECT_EQ(clock_text(59.4), "0:59");
  EXPECT_EQ(clock_text(61), "1:01");
  EXPECT_EQ(clock_text(3600 + 62), "1:01:02");

  ReportProgress p;
  p.done = 1;
  p.total = 4;
  p.failed = 1;
  p.frames = 300;
  p.bytes_done = 100;
  p.bytes_total = 400;
  p.elapsed_seconds = 10.0;
  p.threads = 2;
  // 30 frames/s; 300 bytes left at 10 bytes/s: 30 s.
  EXPECT_EQ(progress_line(p), "\r\033[K[1/4]  25%  30 frames/s  2 threads  0:30 left  failed: 1");
  p.failed = 0;
  p.threads = 1;
  EXPECT_EQ(progress_line(p), "\r\033[K[1/4]  25%  30 frames/s  1 thread  0:30 left");

  ClipResult clip;
  clip.path = "a.amc";
  p.last = &clip;
  const auto j = nlohmann::json::parse(progress_clip_json(p));
  EXPECT_EQ(j.at("event"), "clip");
  EXPECT_EQ(j.at("eta_s"), 30.0);
  EXPECT_EQ(j.at("path"), "a.amc");
  EXPECT_EQ(j.at("status"), "ok");

  ReportSummary s;
  s.clips = 4;
  s.failed = 1;
  s.frames = 1200;
  EXPECT_EQ(progress_done_line(s, 2.0, "r.html"),
            "4 clips (1 failed), 1200 frames in 2.00 s: 2.0 clips/s, 600 frames/s -> r.html\n");
  EXPECT_EQ(progress_done_json(s, 2.0, "r.html"),
            R"({"event":"done","clips":4,"failed":1,"frames":1200,"wall_s":2.0,"output":"r.html"})");
  EXPECT_EQ(progress_resume_json(3, 9, "r.html.journal", 12),
            R"({"event":"resume","done":3,"total":9,"journal":"r.html.journal","torn_bytes":12})");
}

// The three styles of ReportProgressPrinter on one failed clip then the end.
TEST(ReportProgressText, PrinterStyles) {
  ClipResult bad;
  bad.path = "b.amc";
  bad.status = std::unexpected(Error{"b.amc", 3, "no frames"});
  ReportProgress p;
  p.done = 1;
  p.total = 2;
  p.failed = 1;
  p.last = &bad;
  ReportSummary s;
  s.clips = 2;
  s.failed = 1;
  const auto printed = [&](ProgressStyle style) {
    std::ostringstream out;
    ReportProgressPrinter printer(out, style);
    printer.resumed(1, 2, "r.html.journal", 0);
    printer.update(p);
    p.done = 2;  // the last clip draws whatever the time since the last line
    p.last = nullptr;
    printer.update(p);
    p.done = 1;
    p.last = &bad;
    printer.finish(s, 1.0, "r.html");
    return out.str();
  };
  EXPECT_EQ(printed(ProgressStyle::kNone), "mocap report: b.amc:3: no frames\n");
  const std::string terminal = printed(ProgressStyle::kTerminal);
  EXPECT_EQ(terminal.rfind("mocap report: resuming: 1 of 2 clips done in r.html.journal\n", 0), 0u) << terminal;
  EXPECT_NE(terminal.find("mocap report: b.amc:3: no frames\n\r\033[K[1/2]"), std::string::npos) << terminal;
  EXPECT_NE(terminal.find("[2/2]"), std::string::npos) << terminal;
  EXPECT_TRUE(terminal.ends_with("\r\033[K" + progress_done_line(s, 1.0, "r.html"))) << terminal;
  std::istringstream machine(printed(ProgressStyle::kMachine));
  std::vector<std::string> events;
  for (std::string line; std::getline(machine, line);) events.push_back(nlohmann::json::parse(line).at("event"));
  EXPECT_EQ(events, (std::vector<std::string>{"resume", "clip", "clip", "done"}));
}

}  // namespace
}  // namespace mocap
