// Reports as one self-contained HTML page: styles, plots (inline SVG drawn
// by report_html_plots.cc with report_svg.h's kit) and the table sorter are
// all in the file, so it opens offline and can be mailed or archived as is.
#include <mocap/report/report_format.h>
#include <mocap/report/report_summary.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "report/report_html_plots.h"
#include "report/report_svg.h"

namespace mocap {
namespace {

using namespace html;  // the chart kit's formatting and the plots

constexpr const char* kStyle = R"(
:root{--fg:#1f2937;--muted:#6b7280;--line:#e5e7eb;--bg:#f8fafc;--card:#fff;--accent:#2563eb}
*{box-sizing:border-box}
body{margin:0;padding:24px 32px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 10px}h3{font-size:14px;margin:0 0 6px}
.sub{color:var(--muted);margin:0 0 18px}
.cards{display:flex;flex-wrap:wrap;gap:12px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 16px;min-width:140px}
.card .v{font-size:22px;font-weight:600}.card .k{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.card.bad .v{color:#dc2626}
.plots{display:grid;grid-template-columns:repeat(auto-fit,minmax(660px,1fr));gap:16px}
.plot{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px}
.plot p{color:var(--muted);margin:4px 0 0;font-size:12px}
.plot.wide{grid-column:1/-1}.timegrid{display:grid;gap:4px 12px}.timegrid h3{margin:4px 0 0}
svg{max-width:100%;height:auto;display:block}
svg text{font-family:inherit;fill:#374151}
svg .tick{font-size:11px;fill:#6b7280}svg .axis{font-size:12px}svg .legend{font-size:12px}
svg .grid{stroke:#eef0f3;stroke-width:1}svg .plotarea{fill:none;stroke:#d1d5db}
table{border-collapse:collapse;background:var(--card);border:1px solid var(--line);font-variant-numeric:tabular-nums}
th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th{background:#f1f5f9;font-weight:600;position:sticky;top:0}
td.t,th.t{text-align:left}
thead tr.group th{background:#e2e8f0;text-align:center;border-left:1px solid #cbd5e1}
table.sortable thead tr:last-child th{cursor:pointer;user-select:none}
table.sortable th[data-dir=asc]::after{content:" \25B2";font-size:9px}
table.sortable th[data-dir=desc]::after{content:" \25BC";font-size:9px}
tbody tr:hover{background:#f8fafc}
td.sel{color:#1d4ed8}td.uni{color:#c2410c}
.fail td{color:#b91c1c}
.wrap{overflow-x:auto}
.notes{color:var(--muted);font-size:12px;max-width:900px}
)";

// Click a header of the last header row to sort by it; numbers sort as numbers
// (from data-v when the cell shows something else).
constexpr const char* kScript = R"(
document.querySelectorAll('table.sortable').forEach(function (table) {
  var heads = table.tHead.rows[table.tHead.rows.length - 1].cells;
  Array.prototype.forEach.call(heads, function (th, column) {
    th.addEventListener('click', function () {
      var dir = th.getAttribute('data-dir') === 'asc' ? 'desc' : 'asc';
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('data-dir'); });
      th.setAttribute('data-dir', dir);
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      var key = function (row) {
        var cell = row.cells[column], v = cell.getAttribute('data-v');
        if (v === null) v = cell.textContent;
        var n = parseFloat(v);
        return isNaN(n) ? v.toLowerCase() : n;
      };
      rows.sort(function (a, b) {
        var x = key(a), y = key(b), c = (typeof x === typeof y) ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === 'number' ? -1 : 1);
        return dir === 'asc' ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
)";

std::string card(const std::string& key, const std::string& value, bool bad = false) {
  return std::string("<div class=\"card") + (bad ? " bad" : "") + "\"><div class=\"k\">" + escape(key) +
         "</div><div class=\"v\">" + escape(value) + "</div></div>";
}

std::string cell(double v, const char* cls = nullptr) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return std::string("<td") + (cls ? std::string(" class=\"") + cls + "\"" : "") + " data-v=\"" + buf + "\">" + fmt(v) +
         "</td>";
}

std::string duration_text(double seconds) {
  if (seconds < 120) return printf_string("%.1f s", seconds);
  if (seconds < 7200) return printf_string("%.1f min", seconds / 60);
  return printf_string("%.2f h", seconds / 3600);
}

// One row of the jitter summary: the velocity error and the planted feet of
// one kind of motion over every clip.
std::string jitter_row(const std::string& what, const JitterSummary& j, const char* cls) {
  std::string h = "<tr><td class=\"t\">" + escape(what) + "</td>";
  h += cell(j.velocity_mean_cm_s, cls) + cell(j.velocity_p99_cm_s, cls) + "<td class=\"t\">" +
       escape(j.velocity_p99_clip) + "</td>" + cell(j.velocity_max_cm_s, cls) + "<td class=\"t\">" +
       escape(j.velocity_max_clip + " " + j.velocity_max_joint + " frame " + std::to_string(j.velocity_max_frame)) +
       "</td>";
  h += "<td>" + std::to_string(j.planted_frames) + "</td>" + cell(j.planted_capture_cm_s, cls) +
       cell(j.planted_cm_s, cls) + cell(j.planted_difference_cm_s, cls) + cell(j.planted_worst_difference_cm_s, cls) +
       "<td class=\"t\">" + escape(j.planted_worst_clip) + "</td></tr>";
  return h;
}

// A clip's jitter in two sortable cells: the velocity error's p99 and the
// planted feet's difference, the rest in their tooltips.
std::string jitter_cells(const JitterResult& j, const char* cls) {
  std::string h = "<td class=\"" + std::string(cls) + "\" data-v=\"" + printf_string("%.17g", j.velocity.p99) +
                  "\" title=\"mean " + fmt(j.velocity.mean) + ", max " + fmt(j.velocity.max) + " cm/s (" +
                  escape(j.velocity_max_joint) + ", frame " + std::to_string(j.velocity_max_frame) + ")\">" +
                  fmt(j.velocity.p99) + "</td>";
  if (!j.feet) return h + "<td class=\"" + std::string(cls) + "\" data-v=\"\" title=\"no feet found\">–</td>";
  return h + "<td class=\"" + std::string(cls) + "\" data-v=\"" + printf_string("%.17g", j.planted_difference_cm_s) +
         "\" title=\"" + std::to_string(j.planted_frames) + " contact frames: ball speed original " +
         fmt(j.planted_capture_cm_s) + ", this " + fmt(j.planted_cm_s) + " cm/s\">" +
         printf_string("%+.2f", j.planted_difference_cm_s) + "</td>";
}

}  // namespace

std::string format_html(const Report& report) {
  const ReportSummary s = summarise(report);
  const ReportOptions& o = report.options;
  std::string h;
  h.reserve(1 << 20);
  h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
       "<title>Keyframe compression report</title><style>";
  h += kStyle;
  h += "</style></head><body>\n";
  h += "<h1>Keyframe compression report</h1><p class=\"sub\">";
  h += std::to_string(s.clips) + " clips at " + std::to_string(o.budgets.size()) + " budgets (";
  for (std::size_t i = 0; i < o.budgets.size(); ++i) {
    h += (i ? ", " : "") + escape(budget_label(o.kind, o.budgets[i]));
  }
  h += "); error is the world position error of the rebuilt motion, mean over joints per frame, in cm. ";
  h += "Ran on " + std::to_string(report.threads) + " thread" + (report.threads == 1 ? "" : "s") + " in " +
       duration_text(report.wall_seconds);
  if (report.shard_count > 1) {
    h += " (shard " + std::to_string(report.shard_index) + " of " + std::to_string(report.shard_count) + ": every " +
         std::to_string(report.shard_count) + "th clip)";
  }
  h += ".</p>\n<div class=\"cards\">";
  h += card("clips", std::to_string(s.ok) + (s.failed ? " ok" : ""));
  if (s.failed) h += card("failed", std::to_string(s.failed), true);
  h += card("frames", std::to_string(s.frames));
  h += card("motion", printf_string(s.hours < 1 ? "%.1f min" : "%.2f h", s.hours < 1 ? s.hours * 60 : s.hours));
  h += card("wall time", duration_text(report.wall_seconds));
  if (report.wall_seconds > 0) {
    h += card("throughput", printf_string("%.0f frames/s", static_cast<double>(s.frames) / report.wall_seconds));
  }
  h += "</div>\n";

  // How it was made: enough to run it again.
  h += "<h2>Run</h2><div class=\"wrap\"><table class=\"settings\"><tbody>";
  auto row = [&](const std::string& key, const std::string& value) {
    h += "<tr><th class=\"t\">" + escape(key) + "</th><td class=\"t\">" + escape(value) + "</td></tr>";
  };
  auto list = [](const std::vector<double>& values, const char* unit) {
    std::string text;
    for (std::size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + tick(values[i]);
    return text + unit;
  };
  row("tool",
      "mocap " + (report.run.tool_version.empty() ? std::string("(version not recorded)") : report.run.tool_version));
  row("date (UTC)", report.run.date_utc.empty() ? "(not recorded)" : report.run.date_utc);
  row("command line", report.run.command_line.empty() ? "(not recorded)" : report.run.command_line);
  row("budget kind", std::string(budget_kind_name(o.kind)));
  row("budgets", list(o.budgets, o.kind == BudgetKind::kMaxError ? " cm" : ""));
  row("frame rate", tick(o.fps) + " frames/s");
  row("selection passes", std::to_string(o.selection_passes));
  row("velocity weight (lambda)", tick(o.error.velocity_weight));
  row("shell radius", tick(o.error.shell_radius * 100) + " cm");
  row("frames counted under", list(o.under_cm, " cm"));
  row("worst clips plotted", std::to_string(o.worst_clips));
  row("threads", std::to_string(report.threads) +
                     (o.threads == 0 ? " (every core)" : " (asked " + std::to_string(o.threads) + ")"));
  row("shard", std::to_string(report.shard_index) + " of " + std::to_string(report.shard_count));
  row(".mkc files", o.clip_files ? "whole-pose keys, values quantised within " + tick(o.clip_file_error_cm) + " cm"
                                 : "off (--no-mkc)");
  row("per-track .mkc bounds",
      o.track_bounds_cm.empty() ? std::string("none (--bounds)") : list(o.track_bounds_cm, " cm"));
  h += "</tbody></table></div>\n";

  // Summary per budget.
  h += "<h2>Summary</h2><div class=\"wrap\"><table><thead><tr class=\"group\"><th></th><th></th>"
       "<th colspan=\"3\">selection: position error (cm)</th><th colspan=\"3\">uniform keys: position error (cm)</th>"
       "<th colspan=\"3\">worst joint (cm)</th><th colspan=\"2\">shell max (cm)</th>";
  if (!o.under_cm.empty()) {
    h += "<th colspan=\"" + std::to_string(2 * o.under_cm.size()) + "\">frames under</th>";
  }
  h += "<th></th><th></th></tr><tr><th class=\"t\">budget</th><th>keys</th><th>mean</th><th>p99</th><th>max</th>"
       "<th>mean</th><th>p99</th><th>max</th><th>selection</th><th class=\"t\">where</th><th>uniform</th>"
       "<th>selection</th><th>uniform</th>";
  for (const double u : o.under_cm) {
    h += "<th>" + tick(u) + " cm</th><th>uniform</th>";
  }
  h += "<th class=\"t\">best clip</th><th class=\"t\">worst clip</th></tr></thead><tbody>";
  for (const BudgetSummary& b : s.budgets) {
    h += "<tr><td class=\"t\">" + escape(budget_label(o.kind, b.budget)) + "</td><td>" + std::to_string(b.keys) + " (" +
         percent(b.key_ratio) + ")</td>";
    h += cell(b.position.mean, "sel") + cell(b.position.p99, "sel") + cell(b.position.max, "sel");
    h += cell(b.uniform_position.mean, "uni") + cell(b.uniform_position.p99, "uni") +
         cell(b.uniform_position.max, "uni");
    h += cell(b.joint_max, "sel") + "<td class=\"t\">" +
         escape(b.joint_max_clip + " " + b.joint_max_joint + " frame " + std::to_string(b.joint_max_frame)) + "</td>" +
         cell(b.uniform_joint_max, "uni");
    h += cell(b.shell_max, "sel") + cell(b.uniform_shell_max, "uni");
    for (std::size_t u = 0; u < o.under_cm.size(); ++u) {
      h += "<td class=\"sel\">" + percent(u < b.share_under.size() ? b.share_under[u] : 0.0) + "</td>";
      h += "<td class=\"uni\">" + percent(u < b.uniform_share_under.size() ? b.uniform_share_under[u] : 0.0) + "</td>";
    }
    auto rank = [](const std::vector<ClipRank>& r) {
      return r.empty() ? std::string("–") : escape(r.front().name) + " (" + fmt(r.front().max_cm) + ")";
    };
    h += "<td class=\"t\">" + rank(b.best) + "</td><td class=\"t\">" + rank(b.worst) + "</td></tr>";
  }
  h += "</tbody></table></div>\n";
  h += "<p class=\"notes\">p99 is the 99th percentile over every frame of every clip (from a histogram of 1.2 % wide "
       "bins, so at most 1.2 % high); max is the largest single frame. The uniform baseline rebuilds each clip from "
       "the same number of keys spaced evenly. Best and worst clip by max position error, in cm.</p>\n";

  // The .mkc files per budget.
  if (o.clip_files) {
    h += "<h2>Compressed clip files (.mkc)</h2><div class=\"wrap\"><table class=\"mkc\"><thead><tr class=\"group\">"
         "<th></th><th colspan=\"6\">selected keys</th><th colspan=\"6\">uniform keys, the same count</th></tr><tr>"
         "<th class=\"t\">budget</th>";
    for (int k = 0; k < 2; ++k) {
      h += "<th>bytes</th><th>KB/s</th><th>ratio</th><th>worst joint (cm)</th><th class=\"t\">where</th>"
           "<th>mean joint (cm)</th>";
    }
    h += "</tr></thead><tbody>";
    for (const BudgetSummary& b : s.budgets) {
      h += "<tr><td class=\"t\">" + escape(budget_label(o.kind, b.budget)) + "</td>";
      for (const FileSummary* f : {&b.file, &b.uniform_file}) {
        const char* cls = f == &b.file ? "sel" : "uni";
        h += "<td class=\"" + std::string(cls) + "\">" + std::to_string(f->bytes) + "</td>" +
             cell(f->kb_per_second, cls) + cell(f->ratio, cls) + cell(f->joint_max_cm, cls) + "<td class=\"t\">" +
             escape(f->joint_max_clip + " " + f->joint_max_joint + " frame " + std::to_string(f->joint_max_frame)) +
             "</td>" + cell(f->joint_mean_cm, cls);
      }
      h += "</tr>";
    }
    h += "</tbody></table></div>\n<p class=\"notes\">Each clip's keys stored as a .mkc file in whole-pose mode "
         "(every channel keyed at the key frames, values quantised within " +
         tick(o.clip_file_error_cm) +
         " cm, Hermite between keys), as <code>mocap compress --ratio R -o clip.mkc</code> writes it. KB/s: the "
         "files' bytes summed over all clips / 1000 / the clips' seconds of motion summed (" +
         fmt(s.motion_seconds) + " s); ratio: float32 channels (" + std::to_string(s.raw_bytes) +
         " bytes) / file bytes. Worst joint: the decoded file against the original, every joint on every frame of "
         "every clip; where: clip, bone, AMC frame number.</p>\n";
  }

  if (!o.track_bounds_cm.empty()) {
    h += "<h2>Per-track keys (.mkc)</h2><div class=\"wrap\"><table class=\"mkc-track\"><thead><tr>"
         "<th class=\"t\">bound</th><th>bytes</th><th>KB/s</th><th>ratio</th><th>worst joint (cm)</th>"
         "<th class=\"t\">where</th><th>mean joint (cm)</th></tr></thead><tbody>";
    for (std::size_t i = 0; i < s.track_files.size(); ++i) {
      const FileSummary& f = s.track_files[i];
      h += "<tr><td class=\"t\">" + tick(o.track_bounds_cm[i]) + " cm</td><td>" + std::to_string(f.bytes) + "</td>" +
           cell(f.kb_per_second) + cell(f.ratio) + cell(f.joint_max_cm) + "<td class=\"t\">" +
           escape(f.joint_max_clip + " " + f.joint_max_joint + " frame " + std::to_string(f.joint_max_frame)) +
           "</td>" + cell(f.joint_mean_cm) + "</tr>";
    }
    h += "</tbody></table></div>\n<p class=\"notes\">Each clip encoded as <code>mocap compress --max-error B -o "
         "clip.mkc</code> encodes it: every channel its own B-spline keys, refined until the decoded file holds every "
         "joint on every frame within the bound. KB/s, ratio and worst joint as above.</p>\n";
  }

  // Jitter and planted feet.
  h += "<h2>Jitter and planted feet</h2><div class=\"wrap\"><table class=\"jitter\"><thead><tr class=\"group\">"
       "<th></th><th colspan=\"5\">joint velocity error (cm/s)</th><th colspan=\"6\">planted feet: ball speed (cm/s)"
       "</th></tr><tr><th class=\"t\">motion</th><th>mean</th><th>p99</th><th class=\"t\">worst p99</th><th>max</th>"
       "<th class=\"t\">where</th><th>contact frames</th><th>original</th><th>this</th><th>difference</th>"
       "<th>worst clip</th><th class=\"t\">which</th></tr></thead><tbody>";
  for (const BudgetSummary& b : s.budgets) {
    const std::string label = budget_label(o.kind, b.budget);
    h += jitter_row(label + ": rebuild from the keys", b.jitter, "sel");
    if (o.clip_files) {
      h += jitter_row(label + ": selected keys' .mkc", b.file.jitter, "sel");
      h += jitter_row(label + ": uniform keys' .mkc", b.uniform_file.jitter, "uni");
    }
  }
  for (std::size_t i = 0; i < s.track_files.size(); ++i) {
    h += jitter_row("per-track .mkc within " + tick(o.track_bounds_cm[i]) + " cm", s.track_files[i].jitter, "sel");
  }
  h += "</tbody></table></div>\n<p class=\"notes\">What a position error misses (compress/jitter.h). Joint velocity "
       "error: per joint and frame |v' - v|, velocities the central differences of world positions (cm/s); mean over "
       "every joint and frame of every clip; p99: the largest clip's 99th percentile (the clip named), an upper bound "
       "on the 99th percentile of all clips' joint-frames together; max: the largest single joint and frame. Planted "
       "feet: on the original's foot contacts (core/foot_contacts.h), the mean speed of the ball of the foot in the "
       "original and in this motion over every contact frame of every clip, their difference (&gt; 0: the feet "
       "slide), and the clip with the largest difference.";
  {
    const int without = s.budgets.empty() ? 0 : s.budgets.front().jitter.clips_without_feet;
    if (without > 0)
      h += " " + std::to_string(without) + " clip" + (without == 1 ? " has" : "s have") +
           " no two feet: not in the planted figures.";
  }
  h += "</p>\n";

  // Plots.
  h += "<h2>Plots</h2><div class=\"plots\">";
  if (o.clip_files || !o.track_bounds_cm.empty()) {
    h += "<div class=\"plot\"><h3>Error against bytes</h3>" + plot_error_vs_bytes(report, s) +
         "<p>One point per budget (and one per --bounds bound): the .mkc files' KB per second of motion over all clips "
         "against the worst joint error of any decoded file.</p></div>";
    h += "<div class=\"plot\"><h3>Compression ratio against error, per clip</h3>" + plot_ratio_scatter(report) +
         "<p>One point per clip and budget (selected keys; squares: per-track bounds): float32 size / .mkc size "
         "against the clip's worst joint error as decoded.</p></div>";
  }
  h += "<div class=\"plot\"><h3>Error against key ratio</h3>" + plot_error_vs_ratio(report, s) +
       "<p>Lines: mean and p99 over all frames; dots: each clip's mean.</p></div>";
  h += "<div class=\"plot\"><h3>Distribution of per-clip max error</h3>" + plot_max_distribution(report) +
       "<p>How many clips have their worst frame in each band, per budget.</p></div>";
  h += "<div class=\"plot wide\"><h3>Error per joint</h3>" + plot_joints(report, s) +
       "<p>Mean over all frames of each joint's position error (the joint's end point; root: its position).</p></div>";
  h += "<div class=\"plot wide\"><h3>Error over time, worst clips</h3><div class=\"timegrid\" "
       "style=\"grid-template-columns:repeat(" +
       std::to_string(std::max<std::size_t>(1, report.aggregate.size())) + ",minmax(0,1fr))\">";
  std::size_t rows = 0;
  for (std::size_t i = 0; i < report.aggregate.size(); ++i) {
    h += "<h3>" + escape(budget_label(o.kind, o.budgets[i])) + "</h3>";
    rows = std::max(rows, report.aggregate[i].worst.size());
  }
  for (std::size_t k = 0; k < rows; ++k) {
    for (std::size_t i = 0; i < report.aggregate.size(); ++i) {
      const auto& worst = report.aggregate[i].worst;
      h += "<div>";
      if (k < worst.size()) h += plot_worst_curve(worst[k], worst.front().max_cm, palette(i));
      h += "</div>";
    }
  }
  h += "</div><p>The clips with the largest max position error at each budget, each on its own time axis; "
       "a budget's plots share their error axis. On long clips each point is the max over a few frames.</p></div>";
  h += "</div>\n";

  // Failures.
  if (s.failed) {
    h += "<h2>Failed clips (" + std::to_string(s.failed) +
         ")</h2><div class=\"wrap\"><table class=\"sortable\"><thead><tr><th class=\"t\">clip</th>"
         "<th class=\"t\">skeleton</th><th class=\"t\">error</th></tr></thead><tbody>";
    for (const ClipResult& c : report.clips) {
      if (c.status) continue;
      h += "<tr class=\"fail\"><td class=\"t\">" + escape(c.path) + "</td><td class=\"t\">" + escape(c.asf) +
           "</td><td class=\"t\">" + escape(c.error_text()) + "</td></tr>";
    }
    h += "</tbody></table></div>\n";
  }

  // Clips.
  h += "<h2>Clips</h2><p class=\"sub\">Click a column to sort. Errors in cm; uniform: evenly spaced keys, the same "
       "count.</p><div class=\"wrap\"><table class=\"sortable\"><thead><tr class=\"group\"><th></th><th></th><th>"
       "</th>";
  const int per_budget = o.clip_files ? 7 : 5;
  for (const double b : o.budgets) {
    h += "<th colspan=\"" + std::to_string(per_budget) + "\">" + escape(budget_label(o.kind, b)) + "</th>";
  }
  for (const double bound : o.track_bounds_cm) h += "<th colspan=\"2\">per-track " + tick(bound) + " cm</th>";
  h += "<th></th></tr><tr><th class=\"t\">clip</th><th>frames</th><th>seconds</th>";
  for (std::size_t i = 0; i < o.budgets.size(); ++i) {
    h += "<th>keys</th><th>mean</th><th>p99</th><th>max</th><th>uniform max</th>";
    if (o.clip_files) h += "<th>.mkc B/s</th><th>.mkc worst joint</th>";
  }
  for (std::size_t i = 0; i < o.track_bounds_cm.size(); ++i) h += "<th>B/s</th><th>worst joint</th>";
  h += "<th>time (s)</th></tr></thead><tbody>";
  for (const ClipResult& c : report.clips) {
    if (!c.status) continue;
    h += "<tr><td class=\"t\" title=\"" + escape(c.path) + "\">" + escape(c.name) + "</td><td>" +
         std::to_string(c.frames) + "</td>" + cell(c.duration_seconds());
    for (const BudgetResult& b : c.budgets) {
      char keys[64];
      std::snprintf(keys, sizeof keys, "%.17g", b.key_ratio);
      h += "<td data-v=\"" + std::string(keys) + "\" title=\"" + std::to_string(b.keys) + " keys\">" +
           percent(b.key_ratio) + "</td>";
      h += cell(b.position.mean, "sel") + cell(b.position.p99, "sel");
      h += "<td class=\"sel\" data-v=\"" + printf_string("%.17g", b.position.max) +
           "\" title=\"worst: " + escape(b.worst_joint) + ", frame " + std::to_string(b.worst_frame) + "\">" +
           fmt(b.position.max) + "</td>";
      h += cell(b.uniform_position.max, "uni");
      if (o.clip_files) {
        h += cell(b.file.bytes_per_second, "sel");
        h += "<td class=\"sel\" data-v=\"" + printf_string("%.17g", b.file.joint_max_cm) + "\" title=\"" +
             escape(b.file.joint_max_joint) + ", frame " + std::to_string(b.file.joint_max_frame) + "; ratio " +
             fmt(b.file.ratio) + ":1\">" + fmt(b.file.joint_max_cm) + "</td>";
      }
    }
    for (const ClipFileResult& t : c.track_files) {
      h += cell(t.bytes_per_second) + "<td data-v=\"" + printf_string("%.17g", t.joint_max_cm) + "\" title=\"" +
           escape(t.joint_max_joint) + ", frame " + std::to_string(t.joint_max_frame) + "; ratio " + fmt(t.ratio) +
           ":1\">" + fmt(t.joint_max_cm) + "</td>";
    }
    h += cell(c.seconds) + "</tr>";
  }
  h += "</tbody></table></div>\n";

  // Clips: jitter.
  h += "<h2>Clips: jitter and planted feet</h2><p class=\"sub\">Per clip: the joint velocity error's p99 (cm/s) and "
       "the planted feet's ball speed minus the original's (cm/s); the rest in each cell's tooltip.</p><div "
       "class=\"wrap\"><table class=\"sortable jitter-clips\"><thead><tr class=\"group\"><th></th>";
  const int jitter_per_budget = o.clip_files ? 4 : 2;
  for (const double b : o.budgets) {
    h += "<th colspan=\"" + std::to_string(jitter_per_budget) + "\">" + escape(budget_label(o.kind, b)) + "</th>";
  }
  for (const double bound : o.track_bounds_cm) h += "<th colspan=\"2\">per-track " + tick(bound) + " cm</th>";
  h += "</tr><tr><th class=\"t\">clip</th>";
  for (std::size_t i = 0; i < o.budgets.size(); ++i) {
    h += "<th>rebuild p99</th><th>rebuild feet</th>";
    if (o.clip_files) h += "<th>.mkc p99</th><th>.mkc feet</th>";
  }
  for (std::size_t i = 0; i < o.track_bounds_cm.size(); ++i) h += "<th>p99</th><th>feet</th>";
  h += "</tr></thead><tbody>";
  for (const ClipResult& c : report.clips) {
    if (!c.status) continue;
    h += "<tr><td class=\"t\" title=\"" + escape(c.path) + "\">" + escape(c.name) + "</td>";
    for (const BudgetResult& b : c.budgets) {
      h += jitter_cells(b.jitter, "sel");
      if (o.clip_files) h += jitter_cells(b.file.jitter, "sel");
    }
    for (const ClipFileResult& t : c.track_files) h += jitter_cells(t.jitter, "sel");
    h += "</tr>";
  }
  h += "</tbody></table></div>\n";
  h += "<p class=\"notes\">Position error: for each frame, the mean over joints of the distance between original and "
       "rebuilt world positions (forward kinematics through the whole hierarchy). Shell error: the largest distance "
       "of points " +
       tick(o.error.shell_radius * 100) +
       " cm from each joint. Keys are chosen by mocap's selection (keyframes.h); the rebuild slerps "
       "rotations between keys. Written by mocap report.</p>\n";
  h += "<script>";
  h += kScript;
  h += "</script></body></html>\n";
  return h;
}

}  // namespace mocap
