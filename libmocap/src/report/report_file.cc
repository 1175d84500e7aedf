#include <mocap/report/report_file.h>
#include <mocap/report/report_format.h>

#include <algorithm>
#include <optional>
#include <set>

namespace mocap {

Result<Report> make_report(const JournalRun& run, ReportJournal& journal, const std::string& tool_version,
                           const std::string& command_line,
                           const std::function<void(const ReportProgress&)>& progress) {
  std::optional<Error> journal_error;
  journal.resume.finished = [&](const ClipResult& clip, std::span<const BudgetAggregate> share) {
    if (auto kept = append_journal(journal, clip, share); !kept) {
      journal_error = kept.error();
      return false;
    }
    return true;
  };
  Report report = run_report(run.clips, run.options, progress, std::move(journal.resume));
  if (journal_error) return std::unexpected(*journal_error);
  report.run.tool_version = tool_version;
  report.run.command_line = command_line;
  report.shard_index = run.shard_index;
  report.shard_count = run.shard_count;
  return report;
}

Result<MergedReportFiles> merge_report_files(std::span<const std::string> paths) {
  std::vector<Report> parts;
  for (const std::string& path : paths) {
    auto part = read_report_json(path);
    if (!part) return std::unexpected(part.error());
    parts.push_back(std::move(*part));
  }
  auto merged = merge_reports(parts);
  if (!merged) return std::unexpected(Error{"", 0, merged.error().message});
  MergedReportFiles out{std::move(*merged)};
  std::set<int> indices;
  out.of_count = 0;
  for (const Report& p : parts) {
    indices.insert(p.shard_index);
    out.of_count = std::max(out.of_count, p.shard_count);
  }
  out.shards = static_cast<int>(indices.size());
  return out;
}

}  // namespace mocap
