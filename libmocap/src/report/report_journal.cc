// The journal of a report run: its lines, its checks and its durability.
// Entries are one-clip reports in the JSON that shards use (report_format.h),
// so what a journal keeps is exactly what a merge would read back.
#include <mocap/report/report_format.h>
#include <mocap/report/report_journal.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include <mocap/core/crc32.h>

namespace mocap {
namespace {

using Json = nlohmann::ordered_json;
constexpr const char* kFormat = "mocap-report-journal";
constexpr int kVersion = 1;

std::string crc_hex(std::string_view text) {
  const auto crc = crc32(text);
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", crc);
  return hex;
}

// "<crc> <json>\n".
std::string record(const Json& j) {
  const std::string text = j.dump();  // one line: strings escape their newlines
  return crc_hex(text) + " " + text + "\n";
}

// The JSON of a whole line (without its '\n'), or false when the line is not
// a record or fails its checksum.
bool parse_record(std::string_view line, Json& out) {
  if (line.size() < 10 || line[8] != ' ') return false;
  const std::string_view text = line.substr(9);
  if (crc_hex(text) != line.substr(0, 8)) return false;
  out = Json::parse(text.begin(), text.end(), nullptr, false);
  return !out.is_discarded();
}

std::string folder_of(const std::string& path) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

Result<void> write_all(const std::string& path, int fd, std::string_view data) {
  std::size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(path, 0, std::string("cannot write the journal: ") + std::strerror(errno));
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fdatasync(fd) != 0) return fail(path, 0, std::string("cannot flush the journal: ") + std::strerror(errno));
  return {};
}

// So that the journal's name survives a power loss along with its lines.
void sync_folder(const std::string& path) {
  const int dir = ::open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

// Size and modification time (ns) of a file; zeros when it cannot be read
// (the clip then fails the same way in every run).
std::pair<std::int64_t, std::int64_t> file_stamp(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return {0, 0};
  return {static_cast<std::int64_t>(st.st_size),
          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

// The options as report JSON writes them, threads left out: they change no
// number, so a run may continue on another machine with another -j.
Json options_json(const ReportOptions& options) {
  Report empty;
  empty.options = options;
  empty.aggregate = empty_aggregate(options);
  Json j = Json::parse(format_json(empty)).at("options");
  j.erase("threads");
  // Not (yet) in the report's JSON, but it changes every number of a .bvh clip.
  if (!j.contains("bvh_metres_per_unit")) j["bvh_metres_per_unit"] = options.bvh_metres_per_unit;
  return j;
}

// Line 1: what the run is.
Json identity(const JournalRun& run) {
  Json clips = Json::array();
  for (const ClipInput& c : run.clips) {
    const auto [bytes, mtime] = file_stamp(c.path);
    const auto [asf_bytes, asf_mtime] = file_stamp(c.asf);
    clips.push_back(Json{{"path", c.path},
                         {"asf", c.asf},
                         {"error", c.error},
                         {"bytes", bytes},
                         {"mtime_ns", mtime},
                         {"asf_bytes", asf_bytes},
                         {"asf_mtime_ns", asf_mtime}});
  }
  return Json{{"format", kFormat},
              {"version", kVersion},
              {"options", options_json(run.options)},
              {"shard", {{"index", run.shard_index}, {"count", run.shard_count}}},
              {"clips", std::move(clips)}};
}

// Why the journal's first line `was` is not the run `now`, or "" when it is.
std::string difference(const Json& was, const Json& now) {
  if (was.value("format", "") != kFormat || was.value("version", 0) != kVersion) {
    return "not a mocap report journal of this version (expected \"format\": \"" + std::string(kFormat) +
           "\", version " + std::to_string(kVersion) + ")";
  }
  std::string options;
  for (const auto& [key, value] : now.at("options").items()) {
    const Json old = was.at("options").value(key, Json());
    if (old != value) {
      options += (options.empty() ? "" : ", ") + key + " " + old.dump() + " then, " + value.dump() + " now";
    }
  }
  if (!options.empty()) return "written by a run with other options (" + options + ")";
  if (was.at("shard") != now.at("shard")) {
    return "written by another shard (" + was.at("shard").dump() + " then, " + now.at("shard").dump() + " now)";
  }
  std::map<std::string, Json> then;
  for (const Json& c : was.at("clips")) then.emplace(c.at("path").get<std::string>(), c);
  std::set<std::string> seen;
  for (const Json& c : now.at("clips")) {
    const std::string path = c.at("path").get<std::string>();
    seen.insert(path);
    const auto it = then.find(path);
    if (it == then.end()) return "written by a run without the clip " + path + " (the clip list differs)";
    const Json& o = it->second;
    if (o.at("asf") != c.at("asf")) {
      return path + " was paired with " + o.at("asf").dump() + " then, " + c.at("asf").dump() + " now";
    }
    for (const char* kind : {"", "asf_"}) {
      const std::string file = *kind ? c.at("asf").get<std::string>() : path;
      const std::string bytes = std::string(kind) + "bytes", mtime = std::string(kind) + "mtime_ns";
      if (o.at(bytes) != c.at(bytes) || o.at(mtime) != c.at(mtime)) {
        return file + " changed since the journal was written (" + o.at(bytes).dump() + " bytes then, " +
               c.at(bytes).dump() + " now; modified " + o.at(mtime).dump() + " ns then, " + c.at(mtime).dump() +
               " now)";
      }
    }
    if (o.at("error") != c.at("error"))
      return path + ": " + o.at("error").dump() + " then, " + c.at("error").dump() + " now";
  }
  for (const auto& [path, c] : then) {
    if (!seen.count(path))
      return "written by a run with the clip " + path + ", not in this one (the clip list differs)";
  }
  return "";
}

const char* kStartAgain = "; give the same inputs and options, or remove the journal to start again";

}  // namespace

std::string journal_path_for(const std::string& output) {
  return output + ".journal";
}

ReportJournal::ReportJournal(ReportJournal&& other) noexcept
    : path(std::move(other.path)),
      fd(std::exchange(other.fd, -1)),
      options(std::move(other.options)),
      resume(std::move(other.resume)),
      torn_bytes(other.torn_bytes) {}

ReportJournal& ReportJournal::operator=(ReportJournal&& other) noexcept {
  if (this != &other) {
    if (fd >= 0) ::close(fd);
    path = std::move(other.path);
    fd = std::exchange(other.fd, -1);
    options = std::move(other.options);
    resume = std::move(other.resume);
    torn_bytes = other.torn_bytes;
  }
  return *this;
}

ReportJournal::~ReportJournal() {
  if (fd >= 0) ::close(fd);
}

Result<ReportJournal> create_journal(const std::string& path, const JournalRun& run) {
  ReportJournal journal;
  journal.path = path;
  journal.options = run.options;
  journal.fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (journal.fd < 0) {
    if (errno == EEXIST) return fail(path, 0, "the journal exists already");
    return fail(path, 0, "cannot create the journal in the folder '" + folder_of(path) + "': " + std::strerror(errno));
  }
  if (::flock(journal.fd, LOCK_EX | LOCK_NB) != 0) {
    return fail(path, 0, "the journal is in use by another mocap report");
  }
  if (auto w = write_all(path, journal.fd, record(identity(run))); !w) {
    ::unlink(path.c_str());
    return std::unexpected(w.error());
  }
  sync_folder(path);
  return journal;
}

Result<ReportJournal> resume_journal(const std::string& path, const JournalRun& run) {
  ReportJournal journal;
  journal.path = path;
  journal.options = run.options;
  journal.fd = ::open(path.c_str(), O_RDWR | O_APPEND | O_CLOEXEC);
  if (journal.fd < 0) {
    if (errno == ENOENT) return create_journal(path, run);
    return fail(path, 0, std::string("cannot open the journal: ") + std::strerror(errno));
  }
  if (::flock(journal.fd, LOCK_EX | LOCK_NB) != 0) {
    return fail(path, 0, "the journal is in use by another mocap report (wait for it, or stop it first)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(path, 0, "cannot read the journal");

  const Json now = identity(run);
  std::set<std::string> clip_paths;
  for (const ClipInput& c : run.clips) clip_paths.insert(c.path);
  journal.resume.done_aggregate = empty_aggregate(run.options);
  std::int64_t valid_end = 0;  // bytes up to the end of the last whole, checked line
  std::string line;
  bool identified = false;
  for (int number = 1; std::getline(in, line); ++number) {
    const bool whole = !in.eof();  // getline stopped at a '\n'
    const bool last = !whole || in.peek() == std::char_traits<char>::eof();
    Json j;
    if (!whole || !parse_record(line, j)) {
      if (last) break;  // torn by a crash while it was written: ignored
      return fail(path, number, "checksum mismatch: the journal is damaged (remove it to start again)");
    }
    if (number == 1) {
      std::string why;
      try {
        why = difference(j, now);
      } catch (const Json::exception& e) {
        return fail(path, 1, std::string("not a journal's first line: ") + e.what() + " (remove it to start again)");
      }
      if (!why.empty()) return fail(path, 1, why + kStartAgain);
      identified = true;
    } else {
      auto part = parse_report_json(std::string_view(line).substr(9), path + ":" + std::to_string(number));
      if (!part) return fail(path, number, part.error().message + " (remove the journal to start again)");
      if (part->clips.size() != 1 || part->aggregate.size() != journal.resume.done_aggregate.size()) {
        return fail(path, number,
                    "expected one clip with one aggregate per budget (remove the journal to start again)");
      }
      ClipResult& clip = part->clips.front();
      if (!clip_paths.erase(clip.path)) {
        return fail(path, number,
                    clip.path + " is not a clip of this run, or is there twice (remove the journal to start again)");
      }
      for (std::size_t b = 0; b < part->aggregate.size(); ++b) {
        if (!add_aggregate(journal.resume.done_aggregate[b], part->aggregate[b], run.options.worst_clips)) {
          return fail(path, number, "aggregate of another shape (remove the journal to start again)");
        }
      }
      journal.resume.done.push_back(std::move(clip));
    }
    valid_end += static_cast<std::int64_t>(line.size()) + 1;
  }
  if (in.bad()) return fail(path, 0, "cannot read the journal");

  // Cut off a torn last line before appending after it; a journal without
  // even its first line whole holds nothing and starts afresh.
  struct stat st {};
  if (::fstat(journal.fd, &st) != 0)
    return fail(path, 0, std::string("cannot stat the journal: ") + std::strerror(errno));
  if (!identified) valid_end = 0;
  journal.torn_bytes = static_cast<int>(st.st_size - valid_end);
  if (st.st_size != valid_end && ::ftruncate(journal.fd, valid_end) != 0) {
    return fail(path, 0, std::string("cannot cut off the torn last line: ") + std::strerror(errno));
  }
  if (!identified) {
    if (auto w = write_all(path, journal.fd, record(now)); !w) return std::unexpected(w.error());
  } else if (::fdatasync(journal.fd) != 0) {
    return fail(path, 0, std::string("cannot flush the journal: ") + std::strerror(errno));
  }
  if (journal.resume.done.empty()) journal.resume.done_aggregate.clear();
  return journal;
}

Result<void> append_journal(ReportJournal& journal, const ClipResult& clip, std::span<const BudgetAggregate> share) {
  Report one;
  one.options = journal.options;
  one.clips = {clip};
  one.aggregate.assign(share.begin(), share.end());
  Json j = Json::parse(format_json(one));
  j.erase("summary");  // computed from the rest, never read back
  return write_all(journal.path, journal.fd, record(j));
}

Result<void> remove_journal(ReportJournal& journal) {
  if (journal.fd >= 0) ::close(journal.fd);
  journal.fd = -1;
  if (::unlink(journal.path.c_str()) != 0 && errno != ENOENT) {
    return fail(journal.path, 0, std::string("cannot remove the journal: ") + std::strerror(errno));
  }
  sync_folder(journal.path);
  return {};
}

}  // namespace mocap
