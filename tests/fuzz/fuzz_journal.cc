// libFuzzer target: the resume journal of `mocap report --resume`
// (report/report_journal.h), the one file a report run reads back that it did
// not just write in one piece: a crash, a full disk or another program may
// have left anything in it.
//
// The journal's first line is always this run's (create_journal's), so that
// resume_journal gets past it; the input is the rest. Each input line is
// sealed with its CRC, so the fuzzer reaches the JSON inside, unless it
// starts with '~', which goes in as it is, to reach the checksum and the torn
// line. An input that does not end with a newline leaves its last line torn.
// resume_journal either refuses with a message that names the journal, or
// gives a resume that keeps its promises: only this run's clips, none twice,
// one aggregate per budget, and the journal it leaves resumes again to the
// same clips with nothing left to cut.
//
// Seeds: the journal lines of a real run of this build (two bundled clips),
// written at start into the corpus directory when they are not there yet.
#include <mocap/core/crc32.h>
#include <mocap/report/clip_inputs.h>
#include <mocap/report/report.h>
#include <mocap/report/report_journal.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Run {
  std::vector<mocap::ClipInput> clips;
  mocap::ReportOptions options;
  std::string header;  // the journal's first line, newline included
  std::string path;    // where each input's journal is written
  mocap::JournalRun journal_run() const { return {clips, options, 0, 1}; }
};
Run* run = nullptr;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_journal: %s\n", what.c_str());
  std::abort();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::string sealed(std::string_view line) {
  char crc[10];
  std::snprintf(crc, sizeof crc, "%08x ", mocap::crc32(line));
  return crc + std::string(line);
}

// The input as the lines after the header (see above).
std::string journal_text(std::string_view input) {
  std::string text = run->header;
  while (!input.empty()) {
    const auto end = input.find('\n');
    const std::string_view line = input.substr(0, end);
    text += line.starts_with('~') ? std::string(line.substr(1)) : sealed(line);
    if (end == std::string_view::npos) break;
    text += '\n';
    input.remove_prefix(end + 1);
  }
  return text;
}

void check_resume(const mocap::ReportJournal& journal, const char* when) {
  const auto& done = journal.resume.done;
  std::set<std::string> paths;
  for (const auto& clip : done) {
    bool ours = false;
    for (const auto& c : run->clips) ours = ours || c.path == clip.path;
    if (!ours) fail(std::string(when) + ": a clip that is not this run's: " + clip.path);
    if (!paths.insert(clip.path).second) fail(std::string(when) + ": a clip resumed twice: " + clip.path);
  }
  const std::size_t budgets = done.empty() ? 0 : run->options.budgets.size();
  if (journal.resume.done_aggregate.size() != budgets) fail(std::string(when) + ": aggregates not one per budget");
  if (journal.torn_bytes < 0) fail(std::string(when) + ": negative torn bytes");
}

// Runs the report on the bundled clips once, keeping its journal's lines.
std::vector<std::string> real_lines() {
  const std::string journal = run->path + ".seed";
  fs::remove(journal);
  auto created = mocap::create_journal(journal, run->journal_run());
  if (!created) fail("create_journal: " + created.error().to_string());
  mocap::ReportResume resume;
  resume.finished = [&](const mocap::ClipResult& clip, std::span<const mocap::BudgetAggregate> share) {
    if (auto appended = mocap::append_journal(*created, clip, share); !appended) {
      fail("append_journal: " + appended.error().to_string());
    }
    return true;
  };
  mocap::run_report(run->clips, run->options, {}, std::move(resume));
  std::istringstream in(read_file(journal));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  fs::remove(journal);
  if (lines.size() != run->clips.size() + 1)
    fail("the real run's journal has " + std::to_string(lines.size()) + " lines");
  run->header = lines.front() + "\n";
  return {lines.begin() + 1, lines.end()};
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  // Relative clip paths, as a user types them: data/ of the source tree.
  const fs::path asf = MOCAP_FUZZ_ASF;
  fs::current_path(asf.parent_path().parent_path());
  run = new Run;
  const std::vector<std::string> inputs = {"data/09_06.amc", "data/16_05.amc"};
  run->clips = mocap::find_clips(inputs);
  for (const auto& c : run->clips) {
    if (!c.error.empty()) fail(c.error);
  }
  run->options.budgets = {0.05, 0.1};
  run->options.selection_passes = 0;
  run->options.clip_files = false;
  run->options.threads = 1;
  if (auto valid = mocap::validate(run->options); !valid) fail(valid.error().to_string());
  char dir[] = "/tmp/fuzz_journal.XXXXXX";
  if (!mkdtemp(dir)) fail("mkdtemp");
  run->path = std::string(dir) + "/report.json.journal";
  const auto lines = real_lines();
  // Seeds: each finished clip's line alone, both, and the second torn.
  for (int i = 1; i < *argc; ++i) {
    const std::string arg = (*argv)[i];
    if (arg.starts_with('-') || !fs::is_directory(arg)) continue;
    auto seed = [&](const std::string& name, const std::string& text) {
      const fs::path p = fs::path(arg) / name;
      if (!fs::exists(p)) std::ofstream(p, std::ios::binary) << text;
    };
    seed("seed-first-clip", lines[0] + "\n");
    seed("seed-both-clips", lines[0] + "\n" + lines[1] + "\n");
    seed("seed-torn-second", lines[0] + "\n" + lines[1].substr(0, lines[1].size() / 2));
    seed("seed-raw-bad-crc", "~00000000 " + lines[0] + "\n");
    break;
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string text = journal_text(input);
  {
    std::ofstream out(run->path, std::ios::binary | std::ios::trunc);
    out << text;
  }
  {
    auto journal = mocap::resume_journal(run->path, run->journal_run());
    if (!journal) {
      if (journal.error().to_string().find(run->path) == std::string::npos) {
        fail("an error that does not name the journal: " + journal.error().to_string());
      }
      return 0;
    }
    check_resume(*journal, "first resume");
    const std::size_t done = journal->resume.done.size();
    *journal = mocap::ReportJournal{};  // closed and unlocked, as when the run stops
    auto again = mocap::resume_journal(run->path, run->journal_run());
    if (!again) fail("the journal resume_journal left does not resume: " + again.error().to_string());
    check_resume(*again, "second resume");
    if (again->resume.done.size() != done) fail("the second resume finds another number of clips");
    if (again->torn_bytes != 0) fail("the second resume still finds a torn line");
  }
  return 0;
}
