// mocap eval: a motion measured against an original of the same skeleton
// (compress/motion_error.h), printed as compress/compress_report.h says.
#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/compress_report.h>
#include <mocap/compress/jitter.h>
#include <mocap/compress/motion_error.h>
#include <mocap/io/amc.h>
#include <mocap/io/bvh.h>

#include <cstdio>
#include <iostream>

#include "cli_util.h"

namespace mocap::cli {
namespace {

struct EvalOptions {
  std::string asf, original, other;
  double max_error = 0.0;
  bool json = false;
  double fps = 120.0;
  std::string bvh_units = "cm";
  ErrorSettings error;
};

// The motion to measure: another BVH of the original's joints (after a
// .bvh), a compressed clip, or an AMC. Nullopt after saying why on stderr.
std::optional<Motion> read_other(const EvalOptions& o, const Capture& clip, bool bvh) {
  Result<Motion> other = fail("", 0, "");
  if (bvh && !is_clip_file_name(o.other)) {
    // Another BVH of the same joints (a rebuilt or decompressed one).
    auto read = read_bvh_capture(o.other, *parse_length_unit(o.bvh_units) /* checked by --bvh-units */);
    if (!read) {
      other = std::unexpected(read.error());
    } else if (read->skeleton.channel_count != clip.skeleton.channel_count ||
               read->skeleton.bones.size() != clip.skeleton.bones.size()) {
      std::cerr << "mocap eval: " << o.other << ": not a motion of " << o.asf << "'s joints ("
                << read->skeleton.bones.size() << " joints and End Sites, " << read->skeleton.channel_count
                << " channels; the original has " << clip.skeleton.bones.size() << ", " << clip.skeleton.channel_count
                << ")\n";
      return std::nullopt;
    } else {
      other = std::move(read->motion);
    }
  } else if (is_clip_file_name(o.other)) {
    other = read_clip_motion(o.other, clip.skeleton, o.asf);
  } else {
    other = read_amc(o.other, clip.skeleton, o.fps);
  }
  if (!other) {
    std::cerr << "mocap eval: " << other.error().to_string() << "\n";
    return std::nullopt;
  }
  return std::move(*other);
}

int run_eval(EvalOptions o, bool gate) {
  // `eval original.bvh other`: the BVH is skeleton and original at once.
  const bool bvh = is_bvh_path(o.asf);
  if (bvh) {
    if (!o.other.empty()) {
      std::cerr << "mocap eval: " << o.asf
                << " is a whole clip (skeleton and motion): expected it and one motion, found " << o.original << " and "
                << o.other << "\n";
      return kUsage;
    }
    o.other = o.original;
    o.original.clear();
  } else if (o.other.empty()) {
    std::cerr << "mocap eval: other: expected the motion to measure after the ASF and the original AMC\n";
    return kUsage;
  }
  auto clip = load_capture("eval", o.asf, o.original, o.fps, o.bvh_units);
  if (!clip) return clip.error();
  const std::optional<Motion> other = read_other(o, *clip, bvh);
  if (!other) return kBadInput;
  auto error = measure_error(clip->skeleton, clip->motion, *other, o.error.options());
  if (!error) {
    std::cerr << "mocap eval: " << o.other << ": " << error.error().message << "\n";
    return kBadInput;
  }
  auto jitter = measure_jitter(clip->skeleton, clip->motion, *other);
  if (!jitter) {
    std::cerr << "mocap eval: " << o.other << ": " << jitter.error().message << "\n";
    return kBadInput;
  }
  // The gate is the worst joint on the worst frame, not a frame's mean.
  const EvalReport report{*error, o.error, report_names(clip->skeleton, clip->motion), gate, o.max_error, *jitter};
  if (const int code = emit("", o.json ? eval_report_json(report) : format_eval_text(report)); code != kOk) return code;
  if (!report.pass()) {
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "mocap eval: %s: worst joint error %.4f cm (%s at frame %d) is above --max-error %g cm\n",
                  o.other.c_str(), error->joint.max, report.names.bone(error->joint.worst_joint).c_str(),
                  report.names.frame(error->joint.worst_frame), o.max_error);
    std::cerr << buf;
    return kQualityGate;
  }
  return kOk;
}

}  // namespace

void add_eval_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<EvalOptions>();
  CLI::App* c = app.add_subcommand(
      "eval", "Measure a motion (.amc, .mkc) against its original: worst joint named, mean, velocity");
  c->add_option("asf", o->asf, "ASF skeleton, or the original as a BVH clip (.bvh)")->required();
  c->add_option("original", o->original, "Original AMC (after an ASF), or the motion to measure (after a .bvh)")
      ->required();
  c->add_option("other", o->other, "AMC or compressed clip (.mkc) to measure (after an ASF and an AMC)");
  add_bvh_units_option(*c, o->bvh_units);
  auto* max_error = c->add_option("--max-error", o->max_error,
                                  "Exit with code 3 when any joint on any frame is more than E cm from the original")
                        ->check(kNonNegative);
  c->add_flag("--json", o->json, "Print the report as one JSON object");
  add_error_flags(*c, o->error);
  add_fps_option(*c, o->fps);
  c->callback([o, max_error, &exit_code] { exit_code = run_eval(*o, !max_error->empty()); });
}

}  // namespace mocap::cli
