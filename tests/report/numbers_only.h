// What two report runs of the same clips must agree on: the report as JSON
// with what depends on the machine and the run (times, threads, sharding, the
// run record) set to fixed values. Shared by the report and journal tests.
#pragma once

#include <mocap/report/report.h>
#include <mocap/report/report_format.h>

#include <string>

namespace mocap::test {

inline std::string numbers_only(Report r) {
  r.wall_seconds = 0;
  r.threads = 1;
  r.shard_index = 0;
  r.shard_count = 1;
  r.options.threads = 0;
  r.run = {};
  for (ClipResult& c : r.clips) {
    c.seconds = 0;
    for (BudgetResult& b : c.budgets) {
      b.select_seconds = 0;
      b.file.encode_seconds = 0;
      b.uniform_file.encode_seconds = 0;
    }
    for (ClipFileResult& t : c.track_files) t.encode_seconds = 0;
  }
  return format_json(r);
}

}  // namespace mocap::test
