// mocap compress: keyframes or a compressed clip (.mkc), and their error
// (compress/compress_clip.h).
#include <mocap/compress/compress_clip.h>
#include <mocap/compress/compress_report.h>
#include <mocap/io/bvh.h>
#include <mocap/io/joint_weights.h>

#include <algorithm>
#include <iostream>
#include <vector>

#include "cli_util.h"

namespace mocap::cli {
namespace {

struct CompressOptions {
  std::string asf, amc, weights, output, rebuilt;
  std::string format;  // amc or mkc; empty: from the output's extension
  std::string interp = "slerp";
  double threshold = -1.0;
  int keys = 0;
  double ratio = 0.1;
  double max_error = 0.0;
  double max_shell_error = 0.0;
  double max_velocity_error = CompressRequest{}.max_velocity_error_cm_s;
  double contact_error = CompressRequest{}.max_contact_error_cm;
  double contact_speed = CompressRequest{}.max_contact_speed_cm_s;
  bool json = false;
  double fps = 120.0;
  std::string bvh_units = "cm";
  ErrorSettings error;
  std::optional<KeyBudget> budget;  // the budget flag given, if any
};

int run_compress(const CompressOptions& o) {
  const auto format = format_option("compress", o.output, o.format, {"amc", "mkc"}, "amc");
  if (!format) return kUsage;
  // A BVH clip has no ASF for an AMC and BVH keeps no frame numbers: its
  // keys go to a .mkc, its rebuilt motion to a .bvh.
  const bool bvh = is_bvh_path(o.asf);
  if (bvh && *format == "amc" && !o.output.empty()) {
    std::cerr << "mocap compress: " << o.output
              << ": the keys of a BVH clip are written as a compressed clip (.mkc); an AMC needs an ASF skeleton\n";
    return kUsage;
  }
  if (!o.rebuilt.empty() && !format_option("compress", o.rebuilt, "", {bvh ? "bvh" : "amc"}, bvh ? "bvh" : "amc"))
    return kUsage;
  if (const int code = check_outputs("compress", {o.output, o.rebuilt}); code != kOk) return code;
  auto clip = load_capture("compress", o.asf, o.amc, o.fps, o.bvh_units);
  if (!clip) return clip.error();

  CompressRequest request;
  request.format = *format == "mkc" ? CompressFormat::kMkc : CompressFormat::kAmc;
  request.budget = o.budget;
  switch (o.budget.value_or(KeyBudget::kRatio)) {
    case KeyBudget::kThreshold: request.value = o.threshold; break;
    case KeyBudget::kCount: request.value = o.keys; break;
    case KeyBudget::kRatio: request.value = o.ratio; break;
    case KeyBudget::kMaxJointError: request.value = o.max_error; break;
    case KeyBudget::kMaxShellError: request.value = o.max_shell_error; break;
  }
  request.interpolation = interpolation_option(o.interp);
  request.max_velocity_error_cm_s = o.max_velocity_error;
  request.max_contact_error_cm = o.contact_error;
  request.max_contact_speed_cm_s = o.contact_speed;
  request.error = o.error;
  request.rebuilt = !o.rebuilt.empty();
  request.rebuilt_name = o.rebuilt;
  request.bvh_metres_per_unit = *parse_length_unit(o.bvh_units);  // checked by --bvh-units
  if (!o.weights.empty()) {
    auto weights = read_joint_weights(o.weights, clip->skeleton);
    if (!weights) return failed("mocap compress: ", weights.error(), kBadInput);
    request.weights = std::move(*weights);
  }
  const int frames = clip->motion.frame_count();
  if (o.budget == KeyBudget::kCount && frames > 0) {
    const int kept = std::clamp(o.keys, std::min(2, frames), frames);
    if (kept != o.keys) {
      std::cerr << "mocap compress: warning: --keys " << o.keys << " with " << frames << " frames: " << kept
                << " keys (the first and last frame are always keys)\n";
    }
  }

  auto report = compress_clip(*clip, request);
  if (!report) return failed("mocap compress: ", report.error(), kBadInput);
  std::vector<OutputFile> outputs;
  // A .mkc always goes out (to standard output without -o); AMC keys only to -o.
  if (request.format == CompressFormat::kMkc || !o.output.empty()) outputs.push_back({o.output, report->key_file});
  if (request.rebuilt) outputs.push_back({o.rebuilt, report->rebuilt_file});
  if (const int code = emit_all(std::move(outputs)); code != kOk) return code;
  const std::string text = o.json ? compress_report_json(*report) : format_compress_text(*report);
  // With -o - the key file already went to standard output.
  if (o.output == "-" || o.rebuilt == "-") {
    std::cerr << text;
    return kOk;
  }
  return emit("", text);
}

}  // namespace

void add_compress_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<CompressOptions>();
  CLI::App* c = app.add_subcommand(
      "compress", "Compress a clip: a bounded .mkc (default 1 cm on the worst joint) or key frames as an AMC");
  c->add_option("asf", o->asf, "ASF skeleton, or a BVH clip (.bvh) alone")->required();
  c->add_option("amc", o->amc, "AMC motion");
  add_bvh_units_option(*c, o->bvh_units);
  auto* threshold =
      c->add_option("--threshold", o->threshold, "Keys by the distance threshold (weighted radians, root metres)")
          ->check(kNonNegative);
  auto* keys =
      c->add_option("--keys", o->keys, "This many keys, placed for the least mean position error")->check(kPositive);
  auto* ratio = c->add_option("--ratio", o->ratio, "Keys as a share of frames (default 0.1)")
                    ->check(CLI::Range(0.0, 1.0).description("in (0, 1]"));
  auto* max_error = c->add_option("--max-error", o->max_error,
                                  "Fewest keys keeping every joint on every frame within E cm of the original")
                        ->check(kPositive);
  auto* max_shell = c->add_option("--max-shell-error", o->max_shell_error,
                                  "Fewest keys keeping every shell point (--shell-cm from each joint) within E cm")
                        ->check(kPositive);
  auto* max_velocity =
      c->add_option("--max-velocity-error", o->max_velocity_error,
                    "Per-track .mkc: also hold the joint velocity error's 99th percentile over joints and frames "
                    "within V cm/s (jitter); 0: position alone")
          ->capture_default_str()
          ->check(kNonNegative);
  auto* contact_error = c->add_option("--contact-error", o->contact_error,
                                      "Per-track .mkc: on the capture's foot contacts, each foot's heel, ball and "
                                      "toe within E cm (planted feet stay planted); 0: off")
                            ->capture_default_str()
                            ->check(kNonNegative);
  auto* contact_speed = c->add_option("--contact-speed", o->contact_speed,
                                      "Per-track .mkc: on the capture's foot contacts, the ball of the foot at most "
                                      "S cm/s faster on average than the capture's; 0: off")
                            ->capture_default_str()
                            ->check(kNonNegative);
  threshold->excludes(keys)->excludes(ratio)->excludes(max_error)->excludes(max_shell);
  for (auto* whole_pose : {threshold, keys, ratio}) {
    whole_pose->excludes(max_velocity)->excludes(contact_error)->excludes(contact_speed);
  }
  keys->excludes(ratio)->excludes(max_error)->excludes(max_shell);
  ratio->excludes(max_error)->excludes(max_shell);
  max_error->excludes(max_shell);
  c->add_option("--weights", o->weights, "Joint weights file: 'bone weight' per line");
  c->add_option("-o,--output", o->output,
                "Key file to write: .amc the key frames as text; .mkc a compressed clip (binary, docs/clip-format.md): "
                "per-track keys under --max-error / --max-shell-error (default 1 cm on the worst joint), or the "
                "whole-pose keys of --threshold / --keys / --ratio");
  c->add_option("--format", o->format, "Format of -o: amc or mkc (default: from its extension; amc on standard output)")
      ->check(CLI::IsMember({"amc", "mkc"}));
  c->add_option("--rebuilt", o->rebuilt, "Also write the motion rebuilt from the keys (.amc)");
  add_interp_option(*c, o->interp);
  c->add_flag("--json", o->json, "Print the report as one JSON object");
  add_error_flags(*c, o->error);
  add_fps_option(*c, o->fps);
  c->callback([o, threshold, keys, max_error, max_shell, ratio, &exit_code] {
    if (!ratio->empty() && !(o->ratio > 0.0)) {
      std::cerr << "mocap compress: --ratio " << o->ratio << ": expected a share of frames in (0, 1]\n";
      exit_code = kUsage;
      return;
    }
    o->budget = !threshold->empty()   ? std::optional(KeyBudget::kThreshold)
                : !max_error->empty() ? std::optional(KeyBudget::kMaxJointError)
                : !max_shell->empty() ? std::optional(KeyBudget::kMaxShellError)
                : !keys->empty()      ? std::optional(KeyBudget::kCount)
                : !ratio->empty()     ? std::optional(KeyBudget::kRatio)
                                      : std::nullopt;
    exit_code = run_compress(*o);
  });
}

}  // namespace mocap::cli
