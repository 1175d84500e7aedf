// A report run whose every finished clip is kept in a journal, and report
// files joined.
//
// make_report runs `run`'s clips (run_report) with each finished clip
// appended to the journal (report_journal.h), so that a run stopped part
// way continues where it stopped; the report it returns has the run record
// (version, command line, date) and the shard filled in, ready for
// write_report. The caller opens the journal and removes it once the
// report is written.
//
// merge_report_files joins report files, as `mocap report --merge part_*.json -o all.html`
// does: the shards of one database run apart (clip_inputs.h shard_clips),
// each written as JSON (report_format.h), read back and merged into the
// report of one run (report.h merge_reports).
#pragma once

#include <mocap/core/error.h>
#include <mocap/report/report.h>
#include <mocap/report/report_journal.h>

#include <functional>
#include <span>
#include <string>

namespace mocap {

// The run the journal is for (clips after sharding), with what an earlier
// run finished in journal.resume. Fails with the first clip that could not
// be kept (the run stops: the clips kept so far stay in the journal).
Result<Report> make_report(const JournalRun& run, ReportJournal& journal, const std::string& tool_version,
                           const std::string& command_line,
                           const std::function<void(const ReportProgress&)>& progress = {});

struct MergedReportFiles {
  Report report;     // run: the first part's; the caller sets the merge's own
  int shards = 0;    // distinct shard indices among the parts
  int of_count = 1;  // the largest shard count a part says it is one of

  // Some shards of a split are missing: the report covers only those given.
  bool partial() const { return of_count > 1 && shards < of_count; }
};

// Reads every path (read_report_json) then merges them. Fails with the
// first part that cannot be read (the error names its file), or with
// merge_reports's error (no file: options differ or a clip appears twice).
Result<MergedReportFiles> merge_report_files(std::span<const std::string> paths);

}  // namespace mocap
