// Reports as CSV: one row per clip and budget.
#include <mocap/report/report_format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace mocap {

namespace {

std::string number(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : "nan";
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string quoted = "\"";
  for (const char c : s) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace

namespace {

// Columns of a row after the clip's own (path ... budget_kind).
constexpr const char* kBudgetColumns =
    "budget,keys,key_ratio,"
    "pos_mean_cm,pos_p99_cm,pos_max_cm,vel_mean_cm_per_frame,vel_p99_cm_per_frame,vel_max_cm_per_frame,"
    "shell_mean_cm,shell_p99_cm,shell_max_cm,worst_joint,worst_frame,"
    "joint_mean_cm,joint_p99_cm,joint_max_cm,joint_max_joint,joint_max_frame,shell_max_joint,shell_max_frame,"
    "uniform_pos_mean_cm,uniform_pos_p99_cm,uniform_pos_max_cm,uniform_shell_mean_cm,uniform_shell_p99_cm,"
    "uniform_shell_max_cm,uniform_joint_max_cm,"
    "mkc_bytes,mkc_bytes_per_s,mkc_ratio,mkc_joint_max_cm,mkc_joint_max_joint,mkc_joint_max_frame,"
    "uniform_mkc_bytes,uniform_mkc_bytes_per_s,uniform_mkc_ratio,uniform_mkc_joint_max_cm,"
    "uniform_mkc_joint_max_joint,uniform_mkc_joint_max_frame,select_seconds,";

std::string file_columns(const ClipFileResult& f) {
  return std::to_string(f.bytes) + "," + number(f.bytes_per_second) + "," + number(f.ratio) + "," +
         number(f.joint_max_cm) + "," + csv_field(f.joint_max_joint) + "," + std::to_string(f.joint_max_frame) + ",";
}

// The jitter columns (clip_job.h JitterResult), each name after `prefix`.
std::string jitter_header(const std::string& p) {
  return p + "vel_mean_cm_s," + p + "vel_p99_cm_s," + p + "vel_max_cm_s," + p + "vel_max_joint," + p +
         "vel_max_frame," + p + "planted_frames," + p + "planted_capture_cm_s," + p + "planted_cm_s," + p +
         "planted_difference_cm_s,";
}

std::string jitter_columns(const JitterResult& j) {
  return number(j.velocity.mean) + "," + number(j.velocity.p99) + "," + number(j.velocity.max) + "," +
         csv_field(j.velocity_max_joint) + "," + std::to_string(j.velocity_max_frame) + "," +
         std::to_string(j.planted_frames) + "," + number(j.planted_capture_cm_s) + "," + number(j.planted_cm_s) + "," +
         number(j.planted_difference_cm_s) + ",";
}

std::string without_last_comma(std::string s) {
  if (!s.empty() && s.back() == ',') s.pop_back();
  return s;
}

}  // namespace

std::string format_csv(const Report& report) {
  // The per-track files belong to the clip, not a budget: their columns
  // (named by bound) repeat on each of its rows.
  std::string track_columns;
  for (const double bound : report.options.track_bounds_cm) {
    const std::string p = "track_mkc_" + number(bound) + "cm_";
    track_columns += p + "bytes," + p + "bytes_per_s," + p + "ratio," + p + "joint_max_cm," + p + "joint_max_joint," +
                     p + "joint_max_frame,";
  }
  // The jitter columns came later (report format 4): after clip_seconds, so
  // that every earlier column keeps its place. The rebuild's, the selected
  // keys' .mkc, the uniform keys' .mkc, then each per-track file's.
  std::string jitter = jitter_header("rebuild_") + jitter_header("mkc_") + jitter_header("uniform_mkc_");
  for (const double bound : report.options.track_bounds_cm)
    jitter += jitter_header("track_mkc_" + number(bound) + "cm_");
  const auto empty_jitter = static_cast<std::size_t>(std::count(jitter.begin(), jitter.end(), ','));
  std::string out = std::string("path,name,asf,status,error,frames,fps,duration_s,raw_bytes,budget_kind,") +
                    kBudgetColumns + track_columns + "clip_seconds," + without_last_comma(jitter) + "\n";
  const std::string kind(budget_kind_name(report.options.kind));
  const std::string columns = kBudgetColumns + track_columns;
  const auto empty_columns = static_cast<std::size_t>(std::count(columns.begin(), columns.end(), ','));
  for (const ClipResult& c : report.clips) {
    const std::string head = csv_field(c.path) + "," + csv_field(c.name) + "," + csv_field(c.asf) + "," +
                             (c.status ? "ok" : "failed") + "," + csv_field(c.error_text()) + "," +
                             std::to_string(c.frames) + "," + number(c.fps) + "," + number(c.duration_seconds()) + "," +
                             std::to_string(c.raw_bytes) + "," + kind + ",";
    if (!c.status) {
      out += head + std::string(empty_columns, ',') + number(c.seconds) + std::string(empty_jitter, ',') + "\n";
      continue;
    }
    std::string tracks, track_jitter;
    for (const ClipFileResult& f : c.track_files) tracks += file_columns(f), track_jitter += jitter_columns(f.jitter);
    for (const BudgetResult& b : c.budgets) {
      auto three = [](const ErrorSummary& e) { return number(e.mean) + "," + number(e.p99) + "," + number(e.max); };
      out += head + number(b.budget) + "," + std::to_string(b.keys) + "," + number(b.key_ratio) + "," +
             three(b.position) + "," + three(b.velocity) + "," + three(b.shell) + "," + csv_field(b.worst_joint) + "," +
             std::to_string(b.worst_frame) + "," + three(b.joint) + "," + csv_field(b.joint_max_joint) + "," +
             std::to_string(b.joint_max_frame) + "," + csv_field(b.shell_max_joint) + "," +
             std::to_string(b.shell_max_frame) + "," + three(b.uniform_position) + "," + three(b.uniform_shell) + "," +
             number(b.uniform_joint.max) + "," + file_columns(b.file) + file_columns(b.uniform_file) +
             number(b.select_seconds) + "," + tracks + number(c.seconds) + "," +
             without_last_comma(jitter_columns(b.jitter) + jitter_columns(b.file.jitter) +
                                jitter_columns(b.uniform_file.jitter) + track_jitter) +
             "\n";
    }
  }
  return out;
}

}  // namespace mocap
