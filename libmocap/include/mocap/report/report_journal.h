// The journal of a report run (`mocap report --resume`): each finished clip's
// result kept on disk beside the output as the run goes, so that a run that
// is stopped (SIGINT, SIGKILL, power loss) and started again with the same
// arguments skips the clips it had finished and gives the same numbers.
//
// The file is text, one record a line, each "<CRC-32 of the JSON, 8 hex
// digits> <JSON>\n":
//   line 1     what the run is: the options (threads aside: they change no
//              number), the shard, and every clip with its AMC's and ASF's
//              size and modification time (ns);
//   lines 2..  one finished clip each: a one-clip report as format_json
//              writes it (summary left out), the clip's share of the
//              aggregate as its aggregate (report.h, ReportResume).
// Each line is appended with one write and flushed to the disk (fdatasync)
// before the next clip is kept, so a crash can only tear the last line: a
// last line that is cut short or fails its checksum is ignored, and cut off
// before the journal grows again. A bad line before the last is damage, and
// refused. The journal is locked (flock) while a run holds it.
#pragma once

#include <mocap/core/error.h>
#include <mocap/report/clip_inputs.h>
#include <mocap/report/report.h>

#include <span>
#include <string>
#include <vector>

namespace mocap {

// `output` + ".journal": where the run writing `output` keeps its journal.
std::string journal_path_for(const std::string& output);

// What a journal is for: the same clips, options and shard, or it is not this
// run's.
struct JournalRun {
  std::span<const ClipInput> clips;  // after sharding, as run_report gets them
  ReportOptions options;
  int shard_index = 0, shard_count = 1;
};

// A journal held open by one run. Closed (and unlocked) when destroyed.
struct ReportJournal {
  std::string path;
  int fd = -1;            // open for appending, locked
  ReportOptions options;  // the run's, written with every clip
  // What an earlier run finished (resume_journal), to hand to run_report.
  ReportResume resume;
  int torn_bytes = 0;  // bytes of a torn last line that resume_journal cut off

  ReportJournal() = default;
  ReportJournal(ReportJournal&& other) noexcept;
  ReportJournal& operator=(ReportJournal&& other) noexcept;
  ~ReportJournal();
};

// Creates the journal at `path` for `run`, its first line written and
// flushed. Fails when a file is there already or it cannot be written.
Result<ReportJournal> create_journal(const std::string& path, const JournalRun& run);

// Opens the journal at `path` to continue `run`: checks that it was written
// for this run (the same options but threads, the same shard, the same clips
// with their AMC and ASF files of the same size and modification time) and
// reads the clips it holds into `resume`. A journal that does not exist, or
// holds not even its first line whole, is started afresh. Fails, naming the
// journal, the line and what differs, when it is another run's, damaged, in
// use by another process, or cannot be written.
Result<ReportJournal> resume_journal(const std::string& path, const JournalRun& run);

// Appends one finished clip (per-frame errors cleared) and its share of the
// aggregate, flushed to the disk before returning.
Result<void> append_journal(ReportJournal& journal, const ClipResult& clip, std::span<const BudgetAggregate> share);

// Closes the journal and removes its file: once the report is written.
Result<void> remove_journal(ReportJournal& journal);

}  // namespace mocap
