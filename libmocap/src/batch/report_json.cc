// Reports as JSON: everything needed to merge shards, plus the summary for
// other tools. nlohmann-json is header-only; it stays inside this file.
#include <mocap/batch/report.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace mocap {
namespace {

using Json = nlohmann::ordered_json;
constexpr int kFormatVersion = 2;  // 2: the worst joint error

Json errors(const ErrorSummary& e) {
  return Json{{"mean", e.mean}, {"p99", e.p99}, {"max", e.max}};
}

// Non-zero bins as [bin, count] pairs.
Json sparse(const ErrorHistogram& h) {
  Json bins = Json::array();
  for (std::size_t b = 0; b < h.counts.size(); ++b) {
    if (h.counts[b] != 0) bins.push_back(Json::array({b, h.counts[b]}));
  }
  return bins;
}

Json summary_json(const Report& report) {
  const ReportSummary s = summarise(report);
  Json j;
  j["clips"] = s.clips;
  j["ok"] = s.ok;
  j["failed"] = s.failed;
  j["frames"] = s.frames;
  j["hours"] = s.hours;
  j["clip_seconds"] = s.clip_seconds;
  Json budgets = Json::array();
  for (const BudgetSummary& b : s.budgets) {
    Json x;
    x["budget"] = b.budget;
    x["keys"] = b.keys;
    x["key_ratio"] = b.key_ratio;
    x["pos_cm"] = errors(b.position);
    x["uniform_pos_cm"] = errors(b.uniform_position);
    x["shell_max_cm"] = b.shell_max;
    x["uniform_shell_max_cm"] = b.uniform_shell_max;
    x["joint_max_cm"] = b.joint_max;
    x["joint_max_clip"] = b.joint_max_clip;
    x["joint_max_joint"] = b.joint_max_joint;
    x["joint_max_frame"] = b.joint_max_frame;
    x["uniform_joint_max_cm"] = b.uniform_joint_max;
    x["share_under"] = b.share_under;
    x["uniform_share_under"] = b.uniform_share_under;
    auto ranks = [](const std::vector<ClipRank>& r) {
      Json a = Json::array();
      for (const ClipRank& c : r) a.push_back(Json{{"name", c.name}, {"path", c.path}, {"pos_max_cm", c.max_cm}});
      return a;
    };
    x["best"] = ranks(b.best);
    x["worst"] = ranks(b.worst);
    Json joints = Json::object();
    for (std::size_t i = 0; i < b.joints.size(); ++i) joints[b.joints[i]] = b.joint_error_cm[i];
    x["joint_error_cm"] = joints;
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
  j["options"] = Json{{"budget_kind", budget_kind_name(o.kind)},
                      {"budgets", o.budgets},
                      {"fps", o.fps},
                      {"selection_passes", o.selection_passes},
                      {"velocity_weight", o.error.velocity_weight},
                      {"shell_radius_m", o.error.shell_radius},
                      {"under_cm", o.under_cm},
                      {"worst_clips", o.worst_clips}};
  j["shard"] = Json{{"index", report.shard_index}, {"count", report.shard_count}};
  j["threads"] = report.threads;
  j["wall_seconds"] = report.wall_seconds;
  j["summary"] = summary_json(report);
  Json clips = Json::array();
  for (const ClipResult& c : report.clips) {
    Json x;
    x["path"] = c.path;
    x["name"] = c.name;
    x["asf"] = c.asf;
    x["status"] = c.ok ? "ok" : "failed";
    x["error"] = c.error;
    x["frames"] = c.frames;
    x["fps"] = c.fps;
    x["duration_s"] = c.duration_seconds();
    x["seconds"] = c.seconds;
    x["joints"] = c.joints;
    Json budgets = Json::array();
    for (const BudgetResult& b : c.budgets) {
      Json y;
      y["budget"] = b.budget;
      y["keys"] = b.keys;
      y["key_ratio"] = b.key_ratio;
      y["pos_cm"] = errors(b.position);
      y["vel_cm_per_frame"] = errors(b.velocity);
      y["shell_cm"] = errors(b.shell);
      y["worst_joint"] = b.worst_joint;
      y["worst_frame"] = b.worst_frame;
      y["joint_cm"] = errors(b.joint);
      y["joint_max_joint"] = b.joint_max_joint;
      y["joint_max_frame"] = b.joint_max_frame;
      y["shell_max_joint"] = b.shell_max_joint;
      y["shell_max_frame"] = b.shell_max_frame;
      y["uniform_pos_cm"] = errors(b.uniform_position);
      y["uniform_joint_cm"] = errors(b.uniform_joint);
      y["uniform_shell_cm"] = errors(b.uniform_shell);
      y["select_seconds"] = b.select_seconds;
      y["joint_error_cm"] = b.joint_error_cm;
      budgets.push_back(std::move(y));
    }
    x["budgets"] = std::move(budgets);
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
    Json worst = Json::array();
    for (const ErrorCurve& c : a.worst) {
      worst.push_back(Json{{"path", c.path},
                           {"name", c.name},
                           {"pos_max_cm", c.max_cm},
                           {"fps", c.fps},
                           {"stride", c.stride},
                           {"error_cm", c.error_cm}});
    }
    x["worst"] = std::move(worst);
    aggregate.push_back(std::move(x));
  }
  j["aggregate"] = std::move(aggregate);
  return j.dump(1) + "\n";
}

namespace {

ErrorSummary read_errors(const Json& j) {
  return {j.at("mean").get<double>(), j.at("p99").get<double>(), j.at("max").get<double>()};
}

void read_sparse(const Json& j, ErrorHistogram& h) {
  for (const Json& pair : j) {
    const auto bin = pair.at(0).get<std::size_t>();
    if (bin >= h.counts.size()) throw std::out_of_range("histogram bin " + std::to_string(bin) + " out of range");
    h.counts[bin] += pair.at(1).get<std::int64_t>();
  }
}

}  // namespace

Result<Report> parse_report_json(std::string_view text, const std::string& name) {
  Json j;
  try {
    j = Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    return fail(name, 0, std::string("not JSON: ") + e.what());
  }
  try {
    if (!j.is_object() || j.value("format", "") != "mocap-report") {
      return fail(name, 0,
                  "not a mocap report (expected \"format\": \"mocap-report\", written by mocap report -o "
                  "part.json)");
    }
    if (j.at("version").get<int>() != kFormatVersion) {
      return fail(name, 0,
                  "report format version " + j.at("version").dump() + ", expected " + std::to_string(kFormatVersion));
    }
    Report r;
    const Json& o = j.at("options");
    const std::string kind = o.at("budget_kind").get<std::string>();
    if (kind == "ratio") {
      r.options.kind = BudgetKind::kRatio;
    } else if (kind == "threshold") {
      r.options.kind = BudgetKind::kThreshold;
    } else if (kind == "max_error") {
      r.options.kind = BudgetKind::kMaxError;
    } else {
      return fail(name, 0, "unknown budget kind \"" + kind + "\"");
    }
    r.options.budgets = o.at("budgets").get<std::vector<double>>();
    r.options.fps = o.at("fps").get<double>();
    r.options.selection_passes = o.at("selection_passes").get<int>();
    r.options.error.velocity_weight = o.at("velocity_weight").get<double>();
    r.options.error.shell_radius = o.at("shell_radius_m").get<double>();
    r.options.under_cm = o.at("under_cm").get<std::vector<double>>();
    r.options.worst_clips = o.at("worst_clips").get<int>();
    r.shard_index = j.at("shard").at("index").get<int>();
    r.shard_count = j.at("shard").at("count").get<int>();
    r.threads = j.at("threads").get<int>();
    r.wall_seconds = j.at("wall_seconds").get<double>();
    for (const Json& x : j.at("clips")) {
      ClipResult c;
      c.path = x.at("path").get<std::string>();
      c.name = x.at("name").get<std::string>();
      c.asf = x.at("asf").get<std::string>();
      c.ok = x.at("status").get<std::string>() == "ok";
      c.error = x.at("error").get<std::string>();
      c.frames = x.at("frames").get<int>();
      c.fps = x.at("fps").get<double>();
      c.seconds = x.at("seconds").get<double>();
      c.joints = x.at("joints").get<std::vector<std::string>>();
      for (const Json& y : x.at("budgets")) {
        BudgetResult b;
        b.budget = y.at("budget").get<double>();
        b.keys = y.at("keys").get<int>();
        b.key_ratio = y.at("key_ratio").get<double>();
        b.position = read_errors(y.at("pos_cm"));
        b.velocity = read_errors(y.at("vel_cm_per_frame"));
        b.shell = read_errors(y.at("shell_cm"));
        b.worst_joint = y.at("worst_joint").get<std::string>();
        b.worst_frame = y.at("worst_frame").get<int>();
        b.joint = read_errors(y.at("joint_cm"));
        b.joint_max_joint = y.at("joint_max_joint").get<std::string>();
        b.joint_max_frame = y.at("joint_max_frame").get<int>();
        b.shell_max_joint = y.at("shell_max_joint").get<std::string>();
        b.shell_max_frame = y.at("shell_max_frame").get<int>();
        b.uniform_position = read_errors(y.at("uniform_pos_cm"));
        b.uniform_joint = read_errors(y.at("uniform_joint_cm"));
        b.uniform_shell = read_errors(y.at("uniform_shell_cm"));
        b.select_seconds = y.at("select_seconds").get<double>();
        b.joint_error_cm = y.at("joint_error_cm").get<std::vector<double>>();
        c.budgets.push_back(std::move(b));
      }
      r.clips.push_back(std::move(c));
    }
    for (const Json& x : j.at("aggregate")) {
      if (x.at("bins_per_decade").get<int>() != ErrorHistogram::kBinsPerDecade ||
          x.at("lowest_cm").get<double>() != ErrorHistogram::kLowestCm) {
        return fail(name, 0, "histogram bins differ from this version's");
      }
      BudgetAggregate a;
      read_sparse(x.at("histogram"), a.selection);
      read_sparse(x.at("uniform_histogram"), a.uniform);
      a.under = x.at("under").get<std::vector<std::int64_t>>();
      a.uniform_under = x.at("uniform_under").get<std::vector<std::int64_t>>();
      for (const Json& w : x.at("worst")) {
        ErrorCurve c;
        c.path = w.at("path").get<std::string>();
        c.name = w.at("name").get<std::string>();
        c.max_cm = w.at("pos_max_cm").get<double>();
        c.fps = w.at("fps").get<double>();
        c.stride = w.at("stride").get<int>();
        c.error_cm = w.at("error_cm").get<std::vector<double>>();
        a.worst.push_back(std::move(c));
      }
      r.aggregate.push_back(std::move(a));
    }
    if (auto valid = validate(r.options); !valid) return fail(name, 0, "options: " + valid.error().message);
    if (r.aggregate.size() != r.options.budgets.size()) {
      return fail(name, 0, "expected one aggregate per budget");
    }
    for (const ClipResult& c : r.clips) {
      if (c.ok && c.budgets.size() != r.options.budgets.size()) {
        return fail(name, 0, c.path + ": expected one result per budget");
      }
    }
    return r;
  } catch (const Json::exception& e) {
    return fail(name, 0, std::string("malformed report: ") + e.what());
  } catch (const std::exception& e) {
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
