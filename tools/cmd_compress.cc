// mocap compress | decompress | eval: keyframe compression and its error.
#include <mocap/compress/key_pipeline.h>
#include <mocap/compress/motion_error.h>
#include <mocap/compress/rebuild.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>
#include <mocap/io/joint_weights.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

#include "cli_util.h"

#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/clip_encoder.h>
#include <mocap/compress/clip_file.h>

namespace mocap::cli {
namespace {

struct ErrorFlags {
  double lambda = 1.0;
  double shell_cm = 3.0;
  ErrorOptions options() const { return {lambda, shell_cm / 100.0}; }
};

void add_error_flags(CLI::App& command, ErrorFlags& flags) {
  command.add_option("--lambda", flags.lambda, "Weight of the velocity error in the combined error")
      ->default_val(1.0)
      ->check(kNonNegative);
  command.add_option("--shell-cm", flags.shell_cm, "Distance from each joint of the shell points, in cm")
      ->default_val(3.0)
      ->check(kNonNegative);
}

std::string bone_name(const Skeleton& skeleton, int b) {
  return b >= 0 ? skeleton.bones[b].name : "";
}
int frame_number(const Motion& motion, int f) {
  return f >= 0 ? motion.frame_numbers[f] : 0;
}

// The stats of one error kind under `prefix` and `unit` ("pos_err", "_cm").
void put_stats(nlohmann::ordered_json& j, const std::string& prefix, const std::string& unit, const ErrorStats& s) {
  j[prefix + "_mean" + unit] = s.mean;
  j[prefix + "_rms" + unit] = s.rms;
  j[prefix + "_p99" + unit] = s.p99;
  j[prefix + "_max" + unit] = s.max;
}

void put_error(nlohmann::ordered_json& j, const MotionError& e, const ErrorFlags& flags, const Skeleton& skeleton,
               const Motion& motion) {
  put_stats(j, "pos_err", "_cm", e.position);
  put_stats(j, "joint_err", "_cm", e.joint);
  put_stats(j, "vel_err", "_cm_per_frame", e.velocity);
  put_stats(j, "combined", "", e.combined);
  put_stats(j, "shell_err", "_cm", e.shell);
  j["worst_joint"] = bone_name(skeleton, e.position.worst_joint);
  j["worst_frame"] = frame_number(motion, e.position.worst_frame);
  j["vel_worst_joint"] = bone_name(skeleton, e.velocity.worst_joint);
  j["vel_worst_frame"] = frame_number(motion, e.velocity.worst_frame);
  j["shell_worst_joint"] = bone_name(skeleton, e.shell.worst_joint);
  j["shell_worst_frame"] = frame_number(motion, e.shell.worst_frame);
  // The honest max: the worst joint on the worst frame, and the worst shell point.
  j["worst_joint_error_cm"] = e.joint.max;
  j["worst_joint_error_joint"] = bone_name(skeleton, e.joint.worst_joint);
  j["worst_joint_error_frame"] = frame_number(motion, e.joint.worst_frame);
  j["worst_shell_error_cm"] = e.shell.max;
  j["worst_shell_error_joint"] = bone_name(skeleton, e.shell.worst_joint);
  j["worst_shell_error_frame"] = frame_number(motion, e.shell.worst_frame);
  j["lambda"] = flags.lambda;
  j["shell_radius_cm"] = flags.shell_cm;
}

// --interp: how the rebuild goes from key to key.
void add_interp_option(CLI::App& command, std::string& interp) {
  command
      .add_option("--interp", interp, "Rebuild between keys by slerp (default) or cubic (a C1 spline through the keys)")
      ->default_val("slerp")
      ->check(CLI::IsMember({"slerp", "cubic"}));
}
Interpolation interpolation(const std::string& interp) {
  return interp == "cubic" ? Interpolation::kCubic : Interpolation::kSlerp;
}

// `at_max`: the joint is the one at the max (joint, shell), not the one
// largest on average over frames (position, velocity, combined).
std::string stats_line(const char* what, const char* unit, const ErrorStats& s, const Skeleton& skeleton,
                       const Motion& motion, bool at_max = false) {
  char buf[320];
  std::snprintf(buf, sizeof buf, "%-22s mean %.4f  rms %.4f  p99 %.4f  max %.4f %s  (worst frame %d, %s %s)\n", what,
                s.mean, s.rms, s.p99, s.max, unit, frame_number(motion, s.worst_frame),
                at_max ? "joint" : "worst joint on average", bone_name(skeleton, s.worst_joint).c_str());
  return buf;
}

std::string error_text(const MotionError& e, const ErrorFlags& flags, const Skeleton& skeleton, const Motion& motion) {
  char combined[64], shell[64];
  std::snprintf(combined, sizeof combined, "combined (lambda %g)", flags.lambda);
  std::snprintf(shell, sizeof shell, "shell (%g cm)", flags.shell_cm);
  char worst[320];
  std::snprintf(worst, sizeof worst,
                "worst joint error      %.4f cm (%s at frame %d); worst shell error %.4f cm (%s at frame %d)\n",
                e.joint.max, bone_name(skeleton, e.joint.worst_joint).c_str(), frame_number(motion, e.joint.worst_frame),
                e.shell.max, bone_name(skeleton, e.shell.worst_joint).c_str(), frame_number(motion, e.shell.worst_frame));
  return worst + stats_line("position", "cm", e.position, skeleton, motion) +
         stats_line("joint (worst of frame)", "cm", e.joint, skeleton, motion, true) +
         stats_line("velocity", "cm/frame", e.velocity, skeleton, motion) +
         stats_line(combined, "", e.combined, skeleton, motion) + stats_line(shell, "cm", e.shell, skeleton, motion, true);
}

// A whole motion as text: BVH for a BVH skeleton or a .bvh path, else AMC
// (in `layout` when given). Nullopt after saying on stderr why.
std::optional<std::string> motion_text(std::string_view verb, const Skeleton& skeleton, const Motion& motion,
                                       const std::string& path, const std::string& bvh_units,
                                       const AmcLayout* layout = nullptr) {
  if (!skeleton.offsets_in_parent_frame && !is_bvh_path(path))
    return layout ? format_amc(motion, skeleton, *layout) : format_amc(motion, skeleton);
  auto text = format_bvh(skeleton, motion, *parse_length_unit(bvh_units) /* checked by --bvh-units */);
  if (!text) {
    std::cerr << "mocap " << verb << ": " << path << ": " << text.error().message << "\n";
    return std::nullopt;
  }
  return std::move(*text);
}

// ---------------------------------------------------------------------------
// compress

struct CompressOptions {
  std::string asf, amc, weights, output, rebuilt;
  std::string format;  // amc or mkc; empty: from the output's extension
  std::string interp = "slerp";
  double threshold = -1.0;
  int keys = 0;
  double ratio = 0.1;
  bool ratio_given = false;
  double max_error = 0.0;
  double max_shell_error = 0.0;
  bool json = false;
  double fps = 120.0;
  std::string bvh_units = "cm";
  ErrorFlags error;
};

// Encodes, writes the .mkc (and --rebuilt: the motion decoded from it) and
// reports the decoded file's error, bytes and decode time.
int write_clip_file(const CompressOptions& o, const Skeleton& skeleton, const Motion& motion,
                    const ClipEncodeOptions& encode, const std::string& method) {
  ClipEncodeStats stats;
  auto clip = encode_clip(skeleton, motion, encode, &stats);
  if (!clip) {
    std::cerr << "mocap compress: " << clip.error().to_string() << "\n";
    return kBadInput;
  }
  const std::vector<std::uint8_t> bytes = format_compressed_clip(*clip);
  std::vector<OutputFile> outputs{{o.output, std::string(bytes.begin(), bytes.end())}};
  if (!o.rebuilt.empty()) {
    auto decoded = decode_motion(*clip, skeleton);
    if (!decoded) {
      std::cerr << "mocap compress: " << decoded.error().to_string() << "\n";
      return kBadInput;
    }
    auto text = motion_text("compress", skeleton, *decoded, o.rebuilt, o.bvh_units);
    if (!text) return kBadInput;
    outputs.push_back({o.rebuilt, std::move(*text)});
  }
  if (const int code = emit_all(std::move(outputs)); code != kOk) return code;
  // Decode time: every frame in order through one cursor of the runtime
  // sampler (made once, as a player would), best of three passes.
  const ClipSampler sampler = make_sampler(*clip);
  ClipCursor cursor = make_cursor(sampler);
  std::vector<Eigen::Quaternionf> rotations(skeleton.bones.size());
  Eigen::Vector3f root = Eigen::Vector3f::Zero();
  double best_ns = 0.0;
  for (int pass = 0; pass < 3; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    for (int f = 0; f < clip->frame_count; ++f) sample_clip(sampler, f / clip->fps, cursor, rotations, root);
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
                      std::max(1, clip->frame_count);
    if (pass == 0 || ns < best_ns) best_ns = ns;
  }
  const double seconds = motion.duration_seconds();
  auto name = [&](int b) { return bone_name(skeleton, b); };
  auto number = [&](int f) { return frame_number(motion, f); };
  const double ratio =
      stats.bytes > 0 ? static_cast<double>(stats.raw_bytes) / static_cast<double>(stats.bytes) : 0.0;
  std::string report;
  if (o.json) {
    nlohmann::ordered_json j;
    j["frames"] = motion.frame_count();
    j["method"] = method;
    j["format"] = "mkc";
    j["bytes"] = stats.bytes;
    j["raw_bytes"] = stats.raw_bytes;
    j["ratio"] = ratio;
    j["bytes_per_second"] = seconds > 0 ? stats.bytes / seconds : 0.0;
    j["keys"] = stats.keys;
    j["worst_joint_error_cm"] = stats.worst_joint_error_cm;
    j["worst_joint"] = name(stats.worst_joint);
    j["worst_joint_frame"] = number(stats.worst_frame);
    j["worst_shell_error_cm"] = stats.worst_shell_error_cm;
    j["worst_shell_joint"] = name(stats.worst_shell_joint);
    j["worst_shell_frame"] = number(stats.worst_shell_frame);
    j["mean_joint_error_cm"] = stats.mean_joint_error_cm;
    j["encode_seconds"] = stats.encode_seconds;
    j["decode_ns_per_pose"] = best_ns;
    report = j.dump() + "\n";
  } else {
    char line[512];
    std::snprintf(line, sizeof line,
                  "%d frames -> %zu bytes (%.2f KB/s, %.1fx smaller than float32 channels) by %s\n"
                  "decoded file: worst joint %.4f cm (%s at frame %d), worst shell %.4f cm (%s at frame %d), "
                  "mean joint %.4f cm\nencode %.2f s, decode %.0f ns per pose\n",
                  motion.frame_count(), stats.bytes, seconds > 0 ? stats.bytes / seconds / 1000.0 : 0.0, ratio,
                  method.c_str(), stats.worst_joint_error_cm, name(stats.worst_joint).c_str(),
                  number(stats.worst_frame), stats.worst_shell_error_cm, name(stats.worst_shell_joint).c_str(),
                  number(stats.worst_shell_frame), stats.mean_joint_error_cm, stats.encode_seconds, best_ns);
    report = line;
  }
  // With -o - the clip already went to standard output.
  if (o.output == "-" || o.rebuilt == "-") {
    std::cerr << report;
    return kOk;
  }
  return emit("", report);
}

int run_compress(const CompressOptions& o, bool by_threshold, bool by_keys, bool by_max_error, bool by_max_shell) {
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
  std::optional<Clip> clip;
  if (const int code = load_clip_or_bvh("compress", o.asf, o.amc, o.fps, o.bvh_units, clip); code) return code;
  const Skeleton& skeleton = clip->skeleton;
  const Motion& motion = clip->motion;
  const int frames = motion.frame_count();
  if (frames == 0) {
    std::cerr << "mocap compress: " << clip->amc_path << ": no frames to compress\n";
    return kBadInput;
  }
  std::vector<double> weights;
  if (!o.weights.empty()) {
    auto w = read_joint_weights(o.weights, skeleton);
    if (!w) {
      std::cerr << "mocap compress: " << w.error().to_string() << "\n";
      return kBadInput;
    }
    weights = std::move(*w);
  } else {
    weights = default_joint_weights(skeleton);
  }

  KeyCompressOptions options;
  options.weights = std::move(weights);
  options.interpolation = interpolation(o.interp);
  options.error = o.error.options();
  if (by_threshold) {
    options.budget = KeyBudget::kThreshold;
    options.value = o.threshold;
  } else if (by_max_error) {
    options.budget = KeyBudget::kMaxJointError;
    options.value = o.max_error;
  } else if (by_max_shell) {
    options.budget = KeyBudget::kMaxShellError;
    options.value = o.max_shell_error;
  } else if (by_keys) {
    options.budget = KeyBudget::kCount;
    options.value = o.keys;
    const int kept = std::clamp(o.keys, std::min(2, frames), frames);
    if (kept != o.keys) {
      std::cerr << "mocap compress: warning: --keys " << o.keys << " with " << frames << " frames: " << kept
                << " keys (the first and last frame are always keys)\n";
    }
  } else {
    options.budget = KeyBudget::kRatio;
    options.value = o.ratio;
  }
  const bool to_clip_file = *format == "mkc";
  if (to_clip_file && (by_max_error || by_max_shell || !(by_threshold || by_keys || o.ratio_given))) {
    // Per-track keys under a bound on the decoded file (default 1 cm on the worst joint).
    ClipEncodeOptions encode;
    if (by_max_shell) {
      encode.max_shell_error_cm = o.max_shell_error;
      encode.shell_radius_m = options.error.shell_radius;
    } else if (by_max_error) {
      encode.max_joint_error_cm = o.max_error;
    }
    return write_clip_file(o, skeleton, motion, encode, "bound");
  }
  auto result = compress_keys(skeleton, motion, options, clip->amc_path);
  if (!result) {
    std::cerr << "mocap compress: " << result.error().to_string() << "\n";
    return kBadInput;
  }
  if (to_clip_file) {
    // The thesis's whole-pose keys, stored the same way.
    ClipEncodeOptions encode;
    encode.pose_keys = result->keys;
    encode.interpolation = options.interpolation;
    return write_clip_file(o, skeleton, motion, encode, std::string(key_budget_name(options.budget)));
  }
  const std::string method =
      options.budget == KeyBudget::kRatio ? "count" : std::string(key_budget_name(options.budget));
  const int key_count = static_cast<int>(result->keys.size());
  const Motion& keys = result->key_motion;
  const Motion* rebuilt = &result->rebuilt;
  const MotionError* error = &result->error;
  const MotionError* uniform_error = &result->uniform_error;
  struct {
    double threshold, start_mean_error_cm;
  } selection{result->threshold, result->start_mean_error_cm};

  std::vector<OutputFile> outputs;
  if (!o.output.empty()) outputs.push_back({o.output, format_amc(keys, skeleton, clip->layout)});
  if (!o.rebuilt.empty()) {
    auto text = motion_text("compress", skeleton, *rebuilt, o.rebuilt, o.bvh_units, &clip->layout);
    if (!text) return kBadInput;
    outputs.push_back({o.rebuilt, std::move(*text)});
  }
  if (const int code = emit_all(std::move(outputs)); code != kOk) return code;

  const double ratio = static_cast<double>(key_count) / frames;
  std::string report;
  if (o.json) {
    nlohmann::ordered_json j;
    j["frames"] = frames;
    j["keys"] = key_count;
    j["key_ratio"] = ratio;
    j["method"] = method;
    j["interp"] = o.interp;
    if (std::isnan(selection.threshold)) {
      j["threshold"] = nullptr;
    } else {
      j["threshold"] = selection.threshold;
    }
    put_error(j, *error, o.error, skeleton, motion);
    j["uniform_pos_err_mean_cm"] = uniform_error->position.mean;
    j["uniform_pos_err_max_cm"] = uniform_error->position.max;
    j["uniform_worst_joint_error_cm"] = uniform_error->joint.max;
    j["uniform_worst_shell_error_cm"] = uniform_error->shell.max;
    if (method == "count") j["threshold_pos_err_mean_cm"] = selection.start_mean_error_cm;
    report = j.dump() + "\n";
  } else {
    char head[200];
    std::snprintf(head, sizeof head, "%d frames, %d keys (%.1f%%) by %s, rebuilt by %s", frames, key_count,
                  100.0 * ratio, method.c_str(), o.interp.c_str());
    report = head;
    if (!std::isnan(selection.threshold)) {
      std::snprintf(head, sizeof head, ", threshold %.6g", selection.threshold);
      report += head;
    }
    report += "\n" + error_text(*error, o.error, skeleton, motion);
    std::snprintf(head, sizeof head, "uniform keys (%d): position mean %.4f  max %.4f  worst joint %.4f cm\n",
                  key_count, uniform_error->position.mean, uniform_error->position.max, uniform_error->joint.max);
    report += head;
  }
  // With -o - the key file already went to standard output.
  if (o.output == "-" || o.rebuilt == "-") {
    std::cerr << report;
    return kOk;
  }
  return emit("", report);
}

// ---------------------------------------------------------------------------
// decompress

// Every frame of the compressed clip at `path`, decoded for `skeleton` (read
// from `asf`); a damaged file or another skeleton's clip is refused, the
// reason on stderr.
std::optional<Motion> decode_clip_file(std::string_view verb, const std::string& path, const Skeleton& skeleton,
                                       const std::string& asf) {
  auto file = read_compressed_clip(path);
  if (!file) {
    std::cerr << "mocap " << verb << ": " << file.error().to_string() << "\n";
    return std::nullopt;
  }
  if (auto fits = check_skeleton(*file, skeleton, asf); !fits) {
    std::cerr << "mocap " << verb << ": " << fits.error().to_string() << "\n";
    return std::nullopt;
  }
  auto decoded = decode_motion(*file, skeleton);
  if (!decoded) {
    std::cerr << "mocap " << verb << ": " << decoded.error().to_string() << "\n";
    return std::nullopt;
  }
  return std::move(*decoded);
}

struct DecompressOptions {
  std::string asf, keys, output;
  std::string interp = "slerp";
  double fps = 120.0;
  std::string bvh_units = "cm";
};

int run_decompress(const DecompressOptions& o) {
  const bool bvh = is_bvh_path(o.asf);
  if (bvh && !is_clip_file_name(o.keys)) {
    std::cerr << "mocap decompress: " << o.keys << ": a BVH skeleton (" << o.asf
              << ") takes a compressed clip (.mkc); BVH key files are not written\n";
    return kUsage;
  }
  // Output as -o's extension says; standard output in the skeleton's format.
  if (!format_option("decompress", o.output, "", {"amc", "bvh"}, bvh ? "bvh" : "amc")) return kUsage;
  if (bvh && !o.output.empty() && o.output != "-" && !is_bvh_path(o.output)) {
    std::cerr << "mocap decompress: " << o.output
              << ": a BVH skeleton's motion is written as .bvh (no ASF for an AMC)\n";
    return kUsage;
  }
  if (!parse_length_unit(o.bvh_units)) {
    std::cerr << "mocap decompress: --bvh-units " << o.bvh_units
              << ": expected m, cm, mm, in, ft or a positive number of metres\n";
    return kUsage;
  }
  if (const int code = check_outputs("decompress", {o.output}); code != kOk) return code;
  if (is_clip_file_name(o.keys)) {
    std::optional<Skeleton> skeleton;
    if (bvh) {
      std::optional<Clip> clip;
      if (const int code = load_clip_or_bvh("decompress", o.asf, "", o.fps, o.bvh_units, clip); code) return code;
      skeleton = std::move(clip->skeleton);
    } else if (auto asf = read_asf(o.asf)) {
      skeleton = std::move(*asf);
    } else {
      std::cerr << "mocap decompress: " << asf.error().to_string() << "\n";
      return kBadInput;
    }
    auto decoded = decode_clip_file("decompress", o.keys, *skeleton, o.asf);
    if (!decoded) return kBadInput;
    auto text = motion_text("decompress", *skeleton, *decoded, o.output, o.bvh_units);
    if (!text) return kBadInput;
    return emit(o.output, *text);
  }
  auto clip = load_clip(o.asf, o.keys, o.fps);
  if (!clip) return kBadInput;
  auto rebuilt = rebuild_motion(clip->skeleton, clip->motion, o.keys, interpolation(o.interp));
  if (!rebuilt) {
    std::cerr << "mocap decompress: " << rebuilt.error().to_string() << "\n";
    return kBadInput;
  }
  auto text = motion_text("decompress", clip->skeleton, *rebuilt, o.output, o.bvh_units, &clip->layout);
  if (!text) return kBadInput;
  return emit(o.output, *text);
}

// ---------------------------------------------------------------------------
// eval

struct EvalOptions {
  std::string asf, original, other;
  double max_error = 0.0;
  bool json = false;
  double fps = 120.0;
  std::string bvh_units = "cm";
  ErrorFlags error;
};

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
  std::optional<Clip> clip;
  if (const int code = load_clip_or_bvh("eval", o.asf, o.original, o.fps, o.bvh_units, clip); code) return code;
  Motion other;
  if (bvh && !is_clip_file_name(o.other)) {
    // Another BVH of the same joints (a rebuilt or decompressed one).
    auto read = read_bvh_clip(o.other, *parse_length_unit(o.bvh_units) /* checked by --bvh-units */);
    if (!read) {
      std::cerr << "mocap eval: " << read.error().to_string() << "\n";
      return kBadInput;
    }
    if (read->skeleton.channel_count != clip->skeleton.channel_count ||
        read->skeleton.bones.size() != clip->skeleton.bones.size()) {
      std::cerr << "mocap eval: " << o.other << ": not a motion of " << o.asf << "'s joints ("
                << read->skeleton.bones.size() << " joints and End Sites, " << read->skeleton.channel_count
                << " channels; the original has " << clip->skeleton.bones.size() << ", " << clip->skeleton.channel_count
                << ")\n";
      return kBadInput;
    }
    other = std::move(read->motion);
  } else if (is_clip_file_name(o.other)) {
    auto decoded = decode_clip_file("eval", o.other, clip->skeleton, o.asf);
    if (!decoded) return kBadInput;
    other = std::move(*decoded);
  } else {
    auto read = read_amc(o.other, clip->skeleton, o.fps);
    if (!read) {
      std::cerr << "mocap eval: " << read.error().to_string() << "\n";
      return kBadInput;
    }
    other = std::move(*read);
  }
  auto error = measure_error(clip->skeleton, clip->motion, other, o.error.options());
  if (!error) {
    std::cerr << "mocap eval: " << o.other << ": " << error.error().message << "\n";
    return kBadInput;
  }
  // The gate is the worst joint on the worst frame, not a frame's mean.
  const bool broken = gate && error->joint.max > o.max_error;
  std::string report;
  if (o.json) {
    nlohmann::ordered_json j;
    j["frames"] = error->frames;
    put_error(j, *error, o.error, clip->skeleton, clip->motion);
    if (gate) {
      j["max_error_cm"] = o.max_error;
      j["pass"] = !broken;
    }
    report = j.dump() + "\n";
  } else {
    report = std::to_string(error->frames) + " frames\n" + error_text(*error, o.error, clip->skeleton, clip->motion);
  }
  if (const int code = emit("", report); code != kOk) return code;
  if (broken) {
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "mocap eval: %s: worst joint error %.4f cm (%s at frame %d) is above --max-error %g cm\n",
                  o.other.c_str(), error->joint.max, bone_name(clip->skeleton, error->joint.worst_joint).c_str(),
                  frame_number(clip->motion, error->joint.worst_frame), o.max_error);
    std::cerr << buf;
    return kQualityGate;
  }
  return kOk;
}

}  // namespace

void add_compress_commands(CLI::App& app, int& exit_code) {
  {
    auto o = std::make_shared<CompressOptions>();
    CLI::App* c = app.add_subcommand(
        "compress", "Choose key frames, write them as an AMC and report the error of rebuilding from them");
    c->add_option("asf", o->asf, "ASF skeleton, or a BVH clip (.bvh) alone")->required();
    c->add_option("amc", o->amc, "AMC motion");
    add_bvh_units_option(*c, o->bvh_units);
    auto* threshold =
        c->add_option("--threshold", o->threshold, "Keys by the distance threshold (weighted radians, root metres)")
            ->check(kNonNegative);
    auto* keys = c->add_option("--keys", o->keys, "This many keys, placed for the least mean position error")
                     ->check(kPositive);
    auto* ratio = c->add_option("--ratio", o->ratio, "Keys as a share of frames (default 0.1)")
                      ->check(CLI::Range(0.0, 1.0).description("in (0, 1]"));
    auto* max_error =
        c->add_option("--max-error", o->max_error,
                      "Fewest keys keeping every joint on every frame within E cm of the original")
            ->check(kPositive);
    auto* max_shell = c->add_option("--max-shell-error", o->max_shell_error,
                                    "Fewest keys keeping every shell point (--shell-cm from each joint) within E cm")
                          ->check(kPositive);
    threshold->excludes(keys)->excludes(ratio)->excludes(max_error)->excludes(max_shell);
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
      o->ratio_given = !ratio->empty();
      exit_code = run_compress(*o, !threshold->empty(), !keys->empty(), !max_error->empty(), !max_shell->empty());
    });
  }
  {
    auto o = std::make_shared<DecompressOptions>();
    CLI::App* c = app.add_subcommand(
        "decompress", "Rebuild every frame from the first key to the last from a key file written by compress");
    c->add_option("asf", o->asf, "ASF skeleton, or a BVH clip (.bvh) whose skeleton the .mkc was made of")->required();
    c->add_option("keys", o->keys, "Key file (AMC) or compressed clip (.mkc)")->required();
    c->add_option("-o,--output", o->output,
                  "Output .amc or .bvh (default: standard output, AMC for an ASF, BVH for a BVH skeleton)");
    add_bvh_units_option(*c, o->bvh_units);
    add_interp_option(*c, o->interp);
    add_fps_option(*c, o->fps);
    c->callback([o, &exit_code] { exit_code = run_decompress(*o); });
  }
  {
    auto o = std::make_shared<EvalOptions>();
    CLI::App* c = app.add_subcommand("eval", "Measure a motion against an original of the same skeleton and frames");
    c->add_option("asf", o->asf, "ASF skeleton, or the original as a BVH clip (.bvh)")->required();
    c->add_option("original", o->original, "Original AMC (after an ASF), or the motion to measure (after a .bvh)")
        ->required();
    c->add_option("other", o->other, "AMC or compressed clip (.mkc) to measure (after an ASF and an AMC)");
    add_bvh_units_option(*c, o->bvh_units);
    auto* max_error =
        c->add_option("--max-error", o->max_error,
                      "Exit with code 3 when any joint on any frame is more than E cm from the original")
            ->check(kNonNegative);
    c->add_flag("--json", o->json, "Print the report as one JSON object");
    add_error_flags(*c, o->error);
    add_fps_option(*c, o->fps);
    c->callback([o, max_error, &exit_code] { exit_code = run_eval(*o, !max_error->empty()); });
  }
}

}  // namespace mocap::cli
