// Reports as JSON: everything needed to merge shards, plus the run and the
// summary for other tools. nlohmann-json is header-only; it stays inside this
// file.
//
// Each struct's fields are listed once, as (key, member) pairs in one
// `fields` table; writing and reading both walk that table, so that a field
// added to one direction cannot be missed by the other.
#include <mocap/report/report_format.h>
#include <mocap/report/report_summary.h>

#include <concepts>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <type_traits>
#include <utility>

namespace mocap {
namespace {

using Json = nlohmann::ordered_json;
// 2: the worst joint error; 3: the run (version, date, command line), the
// .mkc files per clip and budget, raw bytes and motion seconds; 4: the
// jitter (velocity error, planted feet) of the rebuilds and files, each a
// "jitter" object after the keys version 3 has.
constexpr int kFormatVersion = 4;

template <class S, class T>
concept Is = std::same_as<std::remove_const_t<S>, T>;

// ---------------------------------------------------------------------------
// The tables. `io(key, member, key, member, ...)`; members may be const
// (writing) or not (reading).

void fields(auto& io, Is<ErrorSummary> auto& e) {
  io("mean", e.mean, "p99", e.p99, "max", e.max);
}

void fields(auto& io, Is<JitterResult> auto& j) {
  io("vel_cm_s", j.velocity, "vel_max_joint", j.velocity_max_joint, "vel_max_frame", j.velocity_max_frame);
  io("feet", j.feet, "planted_frames", j.planted_frames, "planted_capture_cm_s", j.planted_capture_cm_s, "planted_cm_s",
     j.planted_cm_s, "planted_difference_cm_s", j.planted_difference_cm_s);
}

void fields(auto& io, Is<ClipFileResult> auto& f) {
  io("bytes", f.bytes, "bytes_per_s", f.bytes_per_second, "ratio", f.ratio, "joint_max_cm", f.joint_max_cm,
     "joint_max_joint", f.joint_max_joint, "joint_max_frame", f.joint_max_frame, "joint_mean_cm", f.joint_mean_cm,
     "encode_seconds", f.encode_seconds);
  io("jitter", f.jitter);
}

void fields(auto& io, Is<BudgetResult> auto& b) {
  io("budget", b.budget, "keys", b.keys, "key_ratio", b.key_ratio);
  io("pos_cm", b.position, "vel_cm_per_frame", b.velocity, "shell_cm", b.shell);
  io("worst_joint", b.worst_joint, "worst_frame", b.worst_frame);
  io("joint_cm", b.joint, "joint_max_joint", b.joint_max_joint, "joint_max_frame", b.joint_max_frame);
  io("shell_max_joint", b.shell_max_joint, "shell_max_frame", b.shell_max_frame);
  io("uniform_pos_cm", b.uniform_position, "uniform_joint_cm", b.uniform_joint, "uniform_shell_cm", b.uniform_shell);
  io("mkc", b.file, "uniform_mkc", b.uniform_file);
  io("select_seconds", b.select_seconds, "joint_error_cm", b.joint_error_cm);
  io("jitter", b.jitter);
}

// `error` is the status's text ("file:line: message", or "" when measured);
// `status` ("ok" / "failed") and `duration_s` are written beside these.
void fields(auto& io, Is<ClipResult> auto& c) {
  io("path", c.path, "name", c.name, "asf", c.asf, "error", c.status);
  io("frames", c.frames, "fps", c.fps, "raw_bytes", c.raw_bytes, "seconds", c.seconds);
  io("joints", c.joints, "budgets", c.budgets, "track_mkc", c.track_files);
}

void fields(auto& io, Is<ErrorCurve> auto& c) {
  io("path", c.path, "name", c.name, "pos_max_cm", c.max_cm, "fps", c.fps, "stride", c.stride, "error_cm", c.error_cm);
}

void fields(auto& io, Is<ReportRun> auto& r) {
  io("tool_version", r.tool_version, "date_utc", r.date_utc, "command_line", r.command_line);
}

void fields(auto& io, Is<ReportOptions> auto& o) {
  io("budget_kind", o.kind, "budgets", o.budgets, "fps", o.fps, "selection_passes", o.selection_passes);
  io("velocity_weight", o.error.velocity_weight, "shell_radius_m", o.error.shell_radius);
  io("under_cm", o.under_cm, "worst_clips", o.worst_clips, "threads", o.threads);
  io("clip_files", o.clip_files, "clip_file_error_cm", o.clip_file_error_cm, "track_bounds_cm", o.track_bounds_cm);
}

// The summary is written, never read back (it is computed from the rest).
void fields(auto& io, Is<ClipRank> auto& r) {
  io("name", r.name, "path", r.path, "pos_max_cm", r.max_cm);
}

void fields(auto& io, Is<JitterSummary> auto& j) {
  io("vel_mean_cm_s", j.velocity_mean_cm_s, "vel_p99_cm_s", j.velocity_p99_cm_s, "vel_p99_clip", j.velocity_p99_clip);
  io("vel_max_cm_s", j.velocity_max_cm_s, "vel_max_clip", j.velocity_max_clip, "vel_max_joint", j.velocity_max_joint,
     "vel_max_frame", j.velocity_max_frame);
  io("planted_frames", j.planted_frames, "clips_without_feet", j.clips_without_feet, "planted_capture_cm_s",
     j.planted_capture_cm_s, "planted_cm_s", j.planted_cm_s, "planted_difference_cm_s", j.planted_difference_cm_s);
  io("planted_worst_difference_cm_s", j.planted_worst_difference_cm_s, "planted_worst_clip", j.planted_worst_clip);
}

void fields(auto& io, Is<FileSummary> auto& f) {
  io("bytes", f.bytes, "kb_per_s", f.kb_per_second, "ratio", f.ratio, "joint_max_cm", f.joint_max_cm);
  io("joint_max_clip", f.joint_max_clip, "joint_max_joint", f.joint_max_joint, "joint_max_frame", f.joint_max_frame);
  io("joint_mean_cm", f.joint_mean_cm, "jitter", f.jitter);
}

// `joint_error_cm` (bone name -> cm) and then `jitter` are written after these.
void fields(auto& io, Is<BudgetSummary> auto& b) {
  io("budget", b.budget, "keys", b.keys, "key_ratio", b.key_ratio, "pos_cm", b.position, "uniform_pos_cm",
     b.uniform_position);
  io("shell_max_cm", b.shell_max, "uniform_shell_max_cm", b.uniform_shell_max);
  io("joint_max_cm", b.joint_max, "joint_max_clip", b.joint_max_clip, "joint_max_joint", b.joint_max_joint,
     "joint_max_frame", b.joint_max_frame, "uniform_joint_max_cm", b.uniform_joint_max);
  io("share_under", b.share_under, "uniform_share_under", b.uniform_share_under, "best", b.best, "worst", b.worst);
  io("mkc", b.file, "uniform_mkc", b.uniform_file);
}

void fields(auto& io, Is<ReportSummary> auto& s) {
  io("clips", s.clips, "ok", s.ok, "failed", s.failed, "frames", s.frames, "hours", s.hours);
  io("motion_seconds", s.motion_seconds, "raw_bytes", s.raw_bytes, "clip_seconds", s.clip_seconds);
  io("track_mkc", s.track_files);
}

// ---------------------------------------------------------------------------
// Walking the tables

struct Probe {
  template <class... T>
  void operator()(T&&...) {}
};
template <class T>
concept Record = requires(Probe& p, T& v) {
  fields(p, v);
};

template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};
template <class T>
concept RecordVector = IsVector<T>::value && Record<typename T::value_type>;

template <class T>
Json write_value(const T& v);

struct Writer {
  Json& j;
  void operator()() {}
  template <class T, class... Rest>
  void operator()(const char* key, const T& v, const Rest&... rest) {
    j[key] = write_value(v);
    (*this)(rest...);
  }
};

template <class T>
Json write_value(const T& v) {
  if constexpr (Record<T>) {
    Json j = Json::object();
    Writer w{j};
    fields(w, v);
    return j;
  } else if constexpr (RecordVector<T>) {
    Json a = Json::array();
    for (const auto& x : v) a.push_back(write_value(x));
    return a;
  } else if constexpr (std::is_same_v<T, BudgetKind>) {
    return std::string(budget_kind_name(v));
  } else if constexpr (std::is_same_v<T, Result<void>>) {  // a clip's status: its error's text, or ""
    return v ? std::string() : v.error().to_string();
  } else {
    return Json(v);
  }
}

// A whole number of type T: nlohmann converts a JSON float to an integer
// with a plain cast, undefined beyond T's range (a fuzz finding: 8.7e29 into
// a size_t), so a float, or a number T cannot hold, is refused.
template <class T>
Result<T> whole(const Json& j) {
  if (j.is_number_unsigned()) {
    const auto u = j.get<std::uint64_t>();
    if (u <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return static_cast<T>(u);
  } else if (j.is_number_integer()) {
    const auto i = j.get<std::int64_t>();
    if (std::cmp_greater_equal(i, std::numeric_limits<T>::min()) &&
        std::cmp_less_equal(i, std::numeric_limits<T>::max()))
      return static_cast<T>(i);
  }
  return fail("", 0, "expected a whole number, found " + j.dump());
}

template <class T>
Result<void> read_value(const Json& j, T& v);

// Reads a record's fields in turn; the first error stops it and stays in
// `status`.
struct Reader {
  const Json& j;
  Result<void> status;
  void operator()() {}
  template <class T, class... Rest>
  void operator()(const char* key, T& v, Rest&&... rest) {
    if (!status) return;
    status = read_value(j.at(key), v);
    (*this)(rest...);
  }
};

// The error names what is wrong: a number that is not whole or too big, an
// unknown budget kind. nlohmann's at() and get() throw on a missing key or
// a value of another type (parse_report_json catches them).
template <class T>
Result<void> read_value(const Json& j, T& v) {
  if constexpr (Record<T>) {
    Reader r{j, {}};
    fields(r, v);
    return r.status;
  } else if constexpr (RecordVector<T>) {
    v.clear();
    for (const Json& x : j) {
      if (auto read = read_value(x, v.emplace_back()); !read) return read;
    }
  } else if constexpr (std::is_same_v<T, BudgetKind>) {
    const auto kind = parse_budget_kind(j.get<std::string>());
    if (!kind) return fail("", 0, "unknown budget kind " + j.dump());
    v = *kind;
  } else if constexpr (std::is_same_v<T, Result<void>>) {  // a clip's status from its error's text
    const std::string text = j.get<std::string>();
    v = text.empty() ? Result<void>() : std::unexpected(Error{"", 0, text});
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    auto n = whole<T>(j);
    if (!n) return std::unexpected(n.error());
    v = *n;
  } else {
    v = j.get<T>();
  }
  return {};
}

// Non-zero bins as [bin, count] pairs.
Json sparse(const ErrorHistogram& h) {
  Json bins = Json::array();
  for (std::size_t b = 0; b < h.counts.size(); ++b) {
    if (h.counts[b] != 0) bins.push_back(Json::array({b, h.counts[b]}));
  }
  return bins;
}

Result<void> read_sparse(const Json& j, ErrorHistogram& h) {
  for (const Json& pair : j) {
    const auto bin = whole<std::size_t>(pair.at(0));
    if (!bin) return std::unexpected(bin.error());
    if (*bin >= h.counts.size()) return fail("", 0, "histogram bin " + std::to_string(*bin) + " out of range");
    const auto count = whole<std::int64_t>(pair.at(1));
    if (!count) return std::unexpected(count.error());
    h.counts[*bin] += *count;
  }
  return {};
}

Json summary_json(const Report& report) {
  const ReportSummary s = summarise(report);
  Json j = write_value(s);
  Json budgets = Json::array();
  for (const BudgetSummary& b : s.budgets) {
    Json x = write_value(b);
    Json joints = Json::object();
    for (std::size_t i = 0; i < b.joints.size(); ++i) joints[b.joints[i]] = b.joint_error_cm[i];
    x["joint_error_cm"] = std::move(joints);
    x["jitter"] = write_value(b.jitter);
    budgets.push_back(std::move(x));
  }
  j["budgets"] = std::move(budgets);
  return j;
}

}  // namespace

std::string format_json(const Report& report) {
  const ReportOptions& o = report.options;
  Json j;
  j["format"] = "mocap-report";
  j["version"] = kFormatVersion;
  j["run"] = write_value(report.run);
  j["options"] = write_value(o);
  j["shard"] = Json{{"index", report.shard_index}, {"count", report.shard_count}};
  j["threads"] = report.threads;
  j["wall_seconds"] = report.wall_seconds;
  j["summary"] = summary_json(report);
  Json clips = Json::array();
  for (const ClipResult& c : report.clips) {
    Json x = write_value(c);
    x["status"] = c.status ? "ok" : "failed";
    x["duration_s"] = c.duration_seconds();
    clips.push_back(std::move(x));
  }
  j["clips"] = std::move(clips);
  Json aggregate = Json::array();
  for (std::size_t i = 0; i < report.aggregate.size(); ++i) {
    const BudgetAggregate& a = report.aggregate[i];
    Json x;
    x["budget"] = i < o.budgets.size() ? o.budgets[i] : 0.0;
    x["bins_per_decade"] = ErrorHistogram::kBinsPerDecade;
    x["lowest_cm"] = ErrorHistogram::kLowestCm;
    x["histogram"] = sparse(a.selection);
    x["uniform_histogram"] = sparse(a.uniform);
    x["under"] = a.under;
    x["uniform_under"] = a.uniform_under;
    x["worst"] = write_value(a.worst);
    aggregate.push_back(std::move(x));
  }
  j["aggregate"] = std::move(aggregate);
  return j.dump(1) + "\n";
}

Result<Report> parse_report_json(std::string_view text, const std::string& name) {
  Json j;
  try {
    j = Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {  // parse_error, and out_of_range for a number like 1e999
    return fail(name, 0, std::string("not JSON: ") + e.what());
  }
  try {
    if (!j.is_object() || j.value("format", "") != "mocap-report") {
      return fail(name, 0,
                  "not a mocap report (expected \"format\": \"mocap-report\", written by mocap report -o "
                  "part.json)");
    }
    // A failure of our own reading (not nlohmann's, which throws).
    auto malformed = [&](const Error& e) { return fail(name, 0, "malformed report: " + e.message); };
    const auto version = whole<int>(j.at("version"));
    if (!version) return malformed(version.error());
    if (*version != kFormatVersion) {
      return fail(name, 0,
                  "report format version " + j.at("version").dump() + ", expected " + std::to_string(kFormatVersion) +
                      " (run the shards again with this mocap)");
    }
    Report r;
    if (auto read = read_value(j.at("run"), r.run); !read) return malformed(read.error());
    if (auto read = read_value(j.at("options"), r.options); !read) return malformed(read.error());
    if (auto read = read_value(j.at("shard").at("index"), r.shard_index); !read) return malformed(read.error());
    if (auto read = read_value(j.at("shard").at("count"), r.shard_count); !read) return malformed(read.error());
    if (auto read = read_value(j.at("threads"), r.threads); !read) return malformed(read.error());
    r.wall_seconds = j.at("wall_seconds").get<double>();
    for (const Json& x : j.at("clips")) {
      ClipResult& c = r.clips.emplace_back();
      if (auto read = read_value(x, c); !read) return malformed(read.error());
      if (x.at("status").get<std::string>() == "ok") {
        c.status = {};
      } else if (c.status) {  // failed without a message
        c.status = std::unexpected(Error{});
      }
    }
    for (const Json& x : j.at("aggregate")) {
      const auto bins_per_decade = whole<int>(x.at("bins_per_decade"));
      if (!bins_per_decade) return malformed(bins_per_decade.error());
      if (*bins_per_decade != ErrorHistogram::kBinsPerDecade ||
          x.at("lowest_cm").get<double>() != ErrorHistogram::kLowestCm) {
        return fail(name, 0, "histogram bins differ from this version's");
      }
      BudgetAggregate& a = r.aggregate.emplace_back();
      if (auto read = read_sparse(x.at("histogram"), a.selection); !read) return malformed(read.error());
      if (auto read = read_sparse(x.at("uniform_histogram"), a.uniform); !read) return malformed(read.error());
      if (auto read = read_value(x.at("under"), a.under); !read) return malformed(read.error());
      if (auto read = read_value(x.at("uniform_under"), a.uniform_under); !read) return malformed(read.error());
      if (auto read = read_value(x.at("worst"), a.worst); !read) return malformed(read.error());
    }
    if (auto valid = validate(r.options); !valid) return fail(name, 0, "options: " + valid.error().message);
    if (r.aggregate.size() != r.options.budgets.size()) {
      return fail(name, 0, "expected one aggregate per budget");
    }
    for (const ClipResult& c : r.clips) {
      if (c.status && c.budgets.size() != r.options.budgets.size()) {
        return fail(name, 0, c.path + ": expected one result per budget");
      }
      if (c.status && c.track_files.size() != r.options.track_bounds_cm.size()) {
        return fail(name, 0, c.path + ": expected one per-track file per bound");
      }
    }
    return r;
  } catch (const Json::exception& e) {  // a missing key, a value of another type
    return fail(name, 0, std::string("malformed report: ") + e.what());
  }
}

Result<Report> read_report_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(path, 0, "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return fail(path, 0, "cannot read the file");
  return parse_report_json(text.str(), path);
}

}  // namespace mocap
