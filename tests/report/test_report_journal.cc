// The journal of a report run (report_journal.h): a run stopped part way and
// continued gives the numbers of one uninterrupted run; a torn last line is
// ignored; a journal of another run, a damaged one or one in use is refused.
#include <gtest/gtest.h>
#include <mocap/report/report_format.h>
#include <mocap/report/report_journal.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "numbers_only.h"
#include "test_data.h"

namespace mocap {
namespace {

using test::read_text;
using test::TempDir;

namespace fs = std::filesystem;
using test::numbers_only;

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// The .mkc files only where a test needs them: they are most of the time.
ReportOptions journal_options(int threads, bool clip_files = false) {
  ReportOptions o;
  o.clip_files = clip_files;
  o.budgets = {0.05, 0.15};
  o.selection_passes = 1;
  o.under_cm = {0.5, 1.0};
  o.worst_clips = 2;
  o.threads = threads;
  return o;
}

std::vector<ClipInput> bundled() {
  std::vector<std::string> paths;
  for (const auto& c : test::bundled_clips()) paths.push_back(c.amc.string());
  return find_clips(paths);
}

// Runs `clips` into a new journal at `path`, stopping once `keep` clips are
// journalled, as a run killed part way would.
void run_and_stop(const std::string& path, const JournalRun& run, std::size_t keep) {
  auto journal = create_journal(path, run);
  ASSERT_TRUE(journal) << journal.error().to_string();
  std::size_t kept = 0;
  journal->resume.finished = [&](const ClipResult& clip, std::span<const BudgetAggregate> share) {
    EXPECT_TRUE(append_journal(*journal, clip, share));
    return ++kept < keep;
  };
  run_report(run.clips, run.options, {}, std::move(journal->resume));
  EXPECT_EQ(kept, keep);
}

// Resumes the journal at `path`, runs the rest and removes the journal.
Report resume_and_finish(const std::string& path, const JournalRun& run, std::size_t expect_done) {
  auto journal = resume_journal(path, run);
  EXPECT_TRUE(journal) << journal.error().to_string();
  if (!journal) return {};
  EXPECT_EQ(journal->resume.done.size(), expect_done);
  std::size_t ran = 0;
  journal->resume.finished = [&](const ClipResult& clip, std::span<const BudgetAggregate> share) {
    ++ran;
    return static_cast<bool>(append_journal(*journal, clip, share));
  };
  Report report = run_report(run.clips, run.options, {}, std::move(journal->resume));
  EXPECT_EQ(ran, run.clips.size() - expect_done);
  EXPECT_TRUE(remove_journal(*journal));
  EXPECT_FALSE(fs::exists(path));
  return report;
}

TEST(ReportJournal, AStoppedRunContinuedGivesTheNumbersOfOneRun) {
  TempDir dir;
  const auto clips = bundled();
  ASSERT_GE(clips.size(), 3u);
  const Report whole = run_report(clips, journal_options(2, true));
  const std::string path = (dir.path() / "r.json.journal").string();
  // Stopped after one clip on two threads; continued on one (threads may differ).
  run_and_stop(path, {clips, journal_options(2, true)}, 1);
  const Report resumed = resume_and_finish(path, {clips, journal_options(1, true)}, 1);
  ASSERT_EQ(resumed.clips.size(), clips.size());
  EXPECT_EQ(numbers_only(resumed), numbers_only(whole));
  // The threads recorded are those of a run of every clip, not of the rest.
  EXPECT_EQ(resumed.threads, 1);
}

TEST(ReportJournal, AResumedJournalWithNothingDoneOrNoFileRunsEverything) {
  TempDir dir;
  const auto clips = bundled();
  const std::string path = (dir.path() / "r.csv.journal").string();
  const Report whole = run_report(clips, journal_options(2));
  // No journal: --resume starts one.
  EXPECT_EQ(numbers_only(resume_and_finish(path, {clips, journal_options(2)}, 0)), numbers_only(whole));
}

TEST(ReportJournal, ATornLastLineIsIgnoredAndCutOff) {
  TempDir dir;
  const auto clips = bundled();
  const JournalRun run{clips, journal_options(1)};
  const std::string path = (dir.path() / "r.json.journal").string();
  run_and_stop(path, run, 2);
  const std::string text = read_text(path);
  // Power lost halfway through writing the second clip's line.
  const std::size_t second = text.find('\n', text.find('\n') + 1) + 1;
  const std::size_t cut = second + (text.size() - second) / 2;
  write_text(path, text.substr(0, cut));
  {
    auto journal = resume_journal(path, run);
    ASSERT_TRUE(journal) << journal.error().to_string();
    EXPECT_EQ(journal->resume.done.size(), 1u);
    EXPECT_EQ(journal->torn_bytes, static_cast<int>(cut - second));
    EXPECT_EQ(read_text(path), text.substr(0, second));  // cut back to the last whole line
  }
  // A whole last line whose bytes changed (a checksum mismatch) is torn too.
  std::string flipped = text;
  flipped[text.size() - 10] = flipped[text.size() - 10] == '1' ? '2' : '1';
  write_text(path, flipped);
  const Report resumed = resume_and_finish(path, run, 1);
  EXPECT_EQ(numbers_only(resumed), numbers_only(run_report(clips, journal_options(1))));

  // The same change before the last line is damage, refused with its line.
  run_and_stop(path, run, 2);
  std::string damaged = read_text(path);
  const std::size_t in_second = damaged.find('\n', damaged.find('\n') + 1) - 5;
  damaged[in_second] = damaged[in_second] == '1' ? '2' : '1';
  write_text(path, damaged + "0000 torn");
  auto refused = resume_journal(path, run);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().line, 2);
  EXPECT_NE(refused.error().message.find("damaged"), std::string::npos) << refused.error().message;
}

TEST(ReportJournal, AJournalWithItsFirstLineTornStartsAfresh) {
  TempDir dir;
  const auto clips = bundled();
  const JournalRun run{clips, journal_options(1)};
  const std::string path = (dir.path() / "r.json.journal").string();
  run_and_stop(path, run, 1);
  const std::string text = read_text(path);
  write_text(path, text.substr(0, text.find('\n') / 2));
  auto journal = resume_journal(path, run);
  ASSERT_TRUE(journal) << journal.error().to_string();
  EXPECT_TRUE(journal->resume.done.empty());
  EXPECT_EQ(read_text(path), text.substr(0, text.find('\n') + 1));  // the first line written again
}

TEST(ReportJournal, AnotherRunsJournalIsRefusedSayingWhatDiffers) {
  TempDir dir;
  // Copies, so that one can change under the journal.
  const fs::path amc = dir.path() / "09_06.amc";
  fs::copy_file(test::bundled_data_dir() / "09_06.amc", amc);
  fs::copy_file(test::bundled_data_dir() / "09.asf", dir.path() / "09.asf");
  const auto clips =
      find_clips(std::vector<std::string>{amc.string(), (test::bundled_data_dir() / "16_05.amc").string()});
  const JournalRun run{clips, journal_options(1)};
  const std::string path = (dir.path() / "r.json.journal").string();
  run_and_stop(path, run, 1);

  auto refused_with = [&](const JournalRun& other) {
    auto journal = resume_journal(path, other);
    EXPECT_FALSE(journal);
    return journal ? std::string() : journal.error().to_string();
  };
  JournalRun budgets = run;
  budgets.options.budgets = {0.05, 0.2};
  EXPECT_NE(refused_with(budgets).find("other options (budgets [0.05,0.15] then, [0.05,0.2] now)"), std::string::npos)
      << refused_with(budgets);
  JournalRun passes = run;
  passes.options.selection_passes = 3;
  EXPECT_NE(refused_with(passes).find("selection_passes 1 then, 3 now"), std::string::npos);
  JournalRun units = run;
  units.options.bvh_metres_per_unit = 0.001;
  EXPECT_NE(refused_with(units).find("bvh_metres_per_unit 0.01 then, 0.001 now"), std::string::npos)
      << refused_with(units);
  JournalRun shard = run;
  shard.shard_count = 2;
  EXPECT_NE(refused_with(shard).find("another shard"), std::string::npos);
  // find_clips orders by path, and the copy's folder may sort either side of
  // data/: keep 09_06 by name, so that 16_05 is the one missing.
  std::vector<ClipInput> fewer;
  std::copy_if(clips.begin(), clips.end(), std::back_inserter(fewer),
               [](const ClipInput& c) { return c.name == "09_06"; });
  ASSERT_EQ(fewer.size(), 1u);
  EXPECT_NE(refused_with({fewer, run.options}).find("16_05.amc, not in this one"), std::string::npos)
      << refused_with({fewer, run.options});
  // An input edited since: same size, another modification time.
  fs::last_write_time(amc, fs::last_write_time(amc) + std::chrono::seconds(5));
  EXPECT_NE(refused_with(run).find("09_06.amc changed since the journal was written"), std::string::npos)
      << refused_with(run);
  fs::last_write_time(amc, fs::last_write_time(amc) - std::chrono::seconds(5));
  // Threads change no number: accepted.
  JournalRun threads = run;
  threads.options.threads = 7;
  EXPECT_TRUE(resume_journal(path, threads));
}

TEST(ReportJournal, OneRunHoldsAJournalAtATime) {
  TempDir dir;
  const auto clips = bundled();
  const JournalRun run{clips, journal_options(1)};
  const std::string path = (dir.path() / "r.json.journal").string();
  auto first = create_journal(path, run);
  ASSERT_TRUE(first) << first.error().to_string();
  auto again = create_journal(path, run);
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().message.find("exists"), std::string::npos);
  auto busy = resume_journal(path, run);
  ASSERT_FALSE(busy);
  EXPECT_NE(busy.error().message.find("in use"), std::string::npos);
  EXPECT_TRUE(remove_journal(*first));
  auto missing_folder = create_journal((dir.path() / "no/such/r.journal").string(), run);
  ASSERT_FALSE(missing_folder);
  EXPECT_NE(missing_folder.error().message.find("no/such"), std::string::npos) << missing_folder.error().message;
}

}  // namespace
}  // namespace mocap
