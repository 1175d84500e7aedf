// Batch reports (report.h) as files: CSV for spreadsheets, JSON for other
// tools and for merging shards, HTML for people.
#pragma once

#include <mocap/core/error.h>
#include <mocap/report/report.h>

#include <string>
#include <string_view>

namespace mocap {

// One row per clip and budget (a failed clip: one row with its error), a
// header line first. Numbers in the shortest form that reads back exactly.
std::string format_csv(const Report& report);

// The whole report, run and summary included, in a form parse_report_json
// reads back.
std::string format_json(const Report& report);

// One self-contained HTML page: how it was made (version, date, command
// line, every setting), summary, inline SVG plots, a sortable table.
// Nothing is fetched: no scripts, styles, fonts or images from elsewhere.
std::string format_html(const Report& report);

// The format by the extension of `path` (.csv, .json, .html or .htm), written
// with write_file_atomically. Fails on another extension or a write error.
Result<void> write_report(const Report& report, const std::string& path);
// True when write_report knows the format of `path`: a front end checks the
// output before hours of work.
bool is_report_path(const std::string& path);

// Reads format_json's output. `name` stands for the file in errors. Fails on
// text that is not JSON, not a report, of another format version, or
// missing a field (named).
Result<Report> parse_report_json(std::string_view text, const std::string& name);
Result<Report> read_report_json(const std::string& path);

}  // namespace mocap
