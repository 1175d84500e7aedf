// mocap report: a whole motion database compressed at a few budgets and
// measured in one command, or shard reports merged. The work is
// libmocap's report.h; this file parses flags, shows progress and maps
// outcomes to exit codes.
#include <mocap/report/report_file.h>
#include <mocap/report/report_format.h>
#include <mocap/report/report_journal.h>
#include <mocap/report/report_progress_text.h>
#include <mocap/report/report_summary.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli_util.h"

namespace mocap::cli {
namespace {

struct ReportFlags {
  std::vector<std::string> inputs;
  std::vector<double> ratios, thresholds, max_errors, under_cm = {1.0}, bounds = ReportOptions{}.track_bounds_cm;
  int jobs = 0;
  std::string shard, asf, progress = "auto", output, bvh_units = "cm";
  bool merge = false, no_mkc = false, no_bounds = false, resume = false;
  double mkc_error_cm = ReportOptions{}.clip_file_error_cm;
  std::string command_line;  // as parsed: see command_line_of
  int worst = 3;
  int passes = SelectionOptions{}.max_passes;
  double fps = 120.0, lambda = 1.0, shell_cm = 3.0;
};

// `arg` quoted for a POSIX shell when it holds anything but plain characters.
std::string shell_quoted(const std::string& arg) {
  const bool plain = !arg.empty() && arg.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_-+=./,:@%") == std::string::npos;
  if (plain) return arg;
  std::string quoted = "'";
  for (const char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The command as CLI11 parsed it (the verb has no argv): the inputs, then
// every option given with its values, so that running it again gives the
// same report.
std::string command_line_of(const CLI::App& verb) {
  std::string line = "mocap " + verb.get_name();
  for (const CLI::Option* opt : verb.get_options()) {
    if (opt->get_positional() && opt->count() > 0) {
      for (const std::string& r : opt->results()) line += " " + shell_quoted(r);
    }
  }
  for (const CLI::Option* opt : verb.get_options()) {
    if (opt->get_positional() || opt->count() == 0) continue;
    line += " " + opt->get_name();
    if (opt->get_expected_max() == 0) continue;  // a flag
    std::string values;
    for (const std::string& r : opt->results()) values += (values.empty() ? "" : ",") + r;
    line += " " + shell_quoted(values);
  }
  return line;
}

// Writes the report; kOk, or kOutputError with the reason on stderr.
int write(const Report& report, const std::string& path) {
  if (auto written = write_report(report, path); !written)
    return failed("mocap report: ", written.error(), kOutputError);
  return kOk;
}

int run_merge(const ReportFlags& f) {
  auto merged = merge_report_files(f.inputs);
  if (!merged) {
    // Only merge_reports's errors name no file: the parts do not go together.
    std::cerr << "mocap report: " << (merged.error().file.empty() ? "--merge: " : "") << merged.error().to_string()
              << "\n";
    return kBadInput;
  }
  if (merged->partial()) {
    std::cerr << "mocap report: --merge: warning: " << merged->shards << " of " << merged->of_count
              << " shards given; the report covers only those\n";
  }
  // The merge is this run: its command and date; the version is this tool's.
  merged->report.run = {MOCAP_VERSION, utc_now_iso8601(), f.command_line};
  if (const int code = write(merged->report, f.output); code != kOk) return code;
  const ReportSummary s = summarise(merged->report);
  return s.failed > 0 ? kBadInput : kOk;
}

int run(const ReportFlags& f, BudgetKind kind, const std::vector<double>& budgets) {
  ProgressStyle style = ProgressStyle::kNone;
  if (f.progress == "machine") style = ProgressStyle::kMachine;
  if (f.progress == "auto" && ::isatty(STDERR_FILENO)) style = ProgressStyle::kTerminal;

  ReportOptions options;
  options.kind = kind;
  options.budgets = budgets;
  options.fps = f.fps;
  options.error = {f.lambda, f.shell_cm / 100.0};
  options.under_cm = f.under_cm;
  options.worst_clips = f.worst;
  options.selection_passes = f.passes;
  options.threads = f.jobs;
  options.clip_files = !f.no_mkc;
  options.clip_file_error_cm = f.mkc_error_cm;
  options.track_bounds_cm = f.no_bounds ? std::vector<double>{} : f.bounds;
  options.bvh_metres_per_unit = *parse_length_unit(f.bvh_units);  // checked by --bvh-units
  if (auto valid = validate(options); !valid) {
    std::cerr << "mocap report: " << valid.error().message << "\n";
    return kUsage;
  }
  const auto shard = f.shard.empty() ? Result<Shard>(Shard{}) : parse_shard(f.shard);
  if (!shard) return failed("mocap report: --shard ", shard.error(), kUsage);
  const std::vector<ClipInput> all = find_clips(f.inputs, f.asf);
  if (all.empty()) {
    std::cerr << "mocap report: no .amc files in the inputs given\n";
    return kBadInput;
  }
  const std::vector<ClipInput> clips = shard_clips(all, shard->index, shard->count);

  // The journal beside the output keeps every finished clip, so that a run
  // stopped part way can continue (--resume). One left behind without
  // --resume is refused rather than replaced: it may hold hours of work.
  const std::string journal_file = journal_path_for(f.output);
  std::error_code ec;
  if (!f.resume && std::filesystem::symlink_status(journal_file, ec).type() != std::filesystem::file_type::not_found) {
    std::cerr << "mocap report: " << journal_file << " exists: a run writing " << f.output
              << " was stopped part way (or is running); add --resume to continue it, or remove the file to start "
                 "again\n";
    return kUsage;
  }
  if (const int code = check_outputs("report", {journal_file}); code != kOk) return code;
  const JournalRun journal_run{clips, options, shard->index, shard->count};
  Result<ReportJournal> journal =
      f.resume ? resume_journal(journal_file, journal_run) : create_journal(journal_file, journal_run);
  if (!journal) {
    std::cerr << "mocap report: " << journal.error().to_string() << "\n";
    return f.resume && std::filesystem::exists(journal_file, ec) ? kBadInput : kOutputError;
  }
  ReportProgressPrinter display(std::cerr, style);
  if (f.resume) {
    display.resumed(journal->resume.done.size(), clips.size(), journal_file,
                    static_cast<std::size_t>(journal->torn_bytes));
  }
  auto made = make_report(journal_run, *journal, MOCAP_VERSION, f.command_line,
                          [&](const ReportProgress& p) { display.update(p); });
  if (!made) {
    std::cerr << "mocap report: " << made.error().to_string() << " (stopped; the clips kept so far stay there)\n";
    return kOutputError;
  }
  const Report& report = *made;
  const ReportSummary s = summarise(report);
  if (const int code = write(report, f.output); code != kOk) {
    std::cerr << "mocap report: the finished clips stay in " << journal_file << ": run again with --resume\n";
    return code;
  }
  if (auto removed = remove_journal(*journal); !removed) {
    std::cerr << "mocap report: warning: " << removed.error().to_string() << "\n";
  }
  display.finish(s, report.wall_seconds, f.output);
  if (s.failed > 0) {
    if (style != ProgressStyle::kMachine) {
      std::cerr << "mocap report: " << s.failed << " of " << s.clips << " clips failed (listed in " << f.output
                << ")\n";
    }
    return kBadInput;
  }
  return kOk;
}

}  // namespace

void add_report_command(CLI::App& app, int& exit_code) {
  auto f = std::make_shared<ReportFlags>();
  CLI::App* c = app.add_subcommand(
      "report", "Compress and measure a whole motion database: HTML, CSV or JSON, in shards for a cluster");
  c->add_option("inputs", f->inputs,
                "AMC and BVH files and folders (searched recursively); with --merge, report JSON files")
      ->required();
  auto* ratios = c->add_option("--ratios", f->ratios, "Budgets as keys per frame, e.g. 0.05,0.1,0.2 (the default)")
                     ->delimiter(',');
  auto* thresholds =
      c->add_option("--thresholds", f->thresholds, "Budgets as pose-distance thresholds (weighted radians)")
          ->delimiter(',');
  auto* max_errors =
      c->add_option("--max-errors", f->max_errors, "Budgets as the worst joint error allowed on any frame, in cm")
          ->delimiter(',');
  ratios->excludes(thresholds)->excludes(max_errors);
  thresholds->excludes(max_errors);
  c->add_option("-j,--jobs", f->jobs, "Clips measured at once (default 0: every core)")->check(kNonNegative);
  c->add_option("--shard", f->shard, "Only every n-th clip from the k-th (0-based), k/n; join parts with --merge");
  c->add_option("--asf", f->asf, "Skeleton for AMC files that have none beside them");
  c->add_option("--progress", f->progress, "auto: a line on a terminal; machine: JSON lines; none")
      ->check(CLI::IsMember({"auto", "machine", "none"}));
  c->add_option("-o,--output", f->output, "report.html, report.csv or report.json (by extension)")->required();
  c->add_flag("--merge", f->merge, "Join report JSON files (shards) into one report");
  c->add_flag("--resume", f->resume,
              "Continue a run that was stopped: skip the clips kept in <output>.journal (the same inputs and "
              "options)");
  c->add_option("--under-cm", f->under_cm, "Count frames whose position error is under these, in cm (default 1)")
      ->delimiter(',');
  c->add_option("--worst", f->worst, "Clips whose error over time is plotted, per budget (default 3)")
      ->check(kNonNegative);
  c->add_option("--passes", f->passes,
                "Refinement passes of the key selection for --ratios (default 8; fewer is faster, 0 the fastest)")
      ->check(kNonNegative);
  c->add_option("--lambda", f->lambda, "Weight of the velocity error in the combined error")->check(kNonNegative);
  c->add_option("--shell-cm", f->shell_cm, "Distance from each joint of the shell points, in cm")->check(kNonNegative);
  c->add_flag("--no-mkc", f->no_mkc, "Do not store the keys as .mkc files (no bytes, KB/s or decoded error)");
  c->add_option("--mkc-error-cm", f->mkc_error_cm,
                "Bound within which the .mkc files quantise key values, in cm (default 1, as mocap compress)")
      ->check(kPositive);
  c->add_option("--bounds", f->bounds,
                "Encode each clip as per-track keys (.mkc, as mocap compress -o x.mkc) within each of these worst "
                "joint errors, in cm (default 1,0.1)")
      ->delimiter(',');
  c->add_flag("--no-bounds", f->no_bounds, "No per-track .mkc (about 0.55 s per CMU clip less)");
  add_fps_option(*c, f->fps);
  add_bvh_units_option(*c, f->bvh_units);
  c->callback([c, f, ratios, thresholds, max_errors, &exit_code] {
    f->command_line = command_line_of(*c);
    if (!is_report_path(f->output)) {
      std::cerr << "mocap report: -o " << f->output << ": expected a .html, .csv or .json file\n";
      exit_code = kUsage;
    } else if (const int code = check_outputs("report", {f->output}); code != kOk) {
      exit_code = code;  // before hours of work on a large database
    } else if (f->merge && f->resume) {
      std::cerr << "mocap report: --resume continues a run of clips; a --merge has nothing to continue\n";
      exit_code = kUsage;
    } else if (f->merge) {
      exit_code = run_merge(*f);
    } else if (!thresholds->empty()) {
      exit_code = run(*f, BudgetKind::kThreshold, f->thresholds);
    } else if (!max_errors->empty()) {
      exit_code = run(*f, BudgetKind::kMaxError, f->max_errors);
    } else {
      exit_code = run(*f, BudgetKind::kRatio, ratios->empty() ? std::vector<double>{0.05, 0.1, 0.2} : f->ratios);
    }
  });
}

}  // namespace mocap::cli
