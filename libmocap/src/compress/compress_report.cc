// The compress and eval reports. nlohmann-json is header-only; it stays
// inside this file. The keys and lines are the CLI's contract (tests/cli).
#include <mocap/compress/compress_clip.h>
#include <mocap/compress/compress_report.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace mocap {
namespace {

using Json = nlohmann::ordered_json;

// The stats of one error kind under `prefix` and `unit` ("pos_err", "_cm").
void put_stats(Json& j, const std::string& prefix, const std::string& unit, const ErrorStats& s) {
  j[prefix + "_mean" + unit] = s.mean;
  j[prefix + "_rms" + unit] = s.rms;
  j[prefix + "_p99" + unit] = s.p99;
  j[prefix + "_max" + unit] = s.max;
}

void put_error(Json& j, const MotionError& e, const ErrorSettings& settings, const ReportNames& names) {
  put_stats(j, "pos_err", "_cm", e.position);
  put_stats(j, "joint_err", "_cm", e.joint);
  put_stats(j, "vel_err", "_cm_per_frame", e.velocity);
  put_stats(j, "combined", "", e.combined);
  put_stats(j, "shell_err", "_cm", e.shell);
  j["worst_joint"] = names.bone(e.position.worst_joint);
  j["worst_frame"] = names.frame(e.position.worst_frame);
  j["vel_worst_joint"] = names.bone(e.velocity.worst_joint);
  j["vel_worst_frame"] = names.frame(e.velocity.worst_frame);
  j["shell_worst_joint"] = names.bone(e.shell.worst_joint);
  j["shell_worst_frame"] = names.frame(e.shell.worst_frame);
  // The honest max: the worst joint on the worst frame, and the worst shell point.
  j["worst_joint_error_cm"] = e.joint.max;
  j["worst_joint_error_joint"] = names.bone(e.joint.worst_joint);
  j["worst_joint_error_frame"] = names.frame(e.joint.worst_frame);
  j["worst_shell_error_cm"] = e.shell.max;
  j["worst_shell_error_joint"] = names.bone(e.shell.worst_joint);
  j["worst_shell_error_frame"] = names.frame(e.shell.worst_frame);
  j["lambda"] = settings.lambda;
  j["shell_radius_cm"] = settings.shell_radius_cm;
}

// `at_max`: the joint is the one at the max (joint, shell), not the one
// largest on average over frames (position, velocity, combined).
std::string stats_line(const char* what, const char* unit, const ErrorStats& s, const ReportNames& names,
                       bool at_max = false) {
  char buf[320];
  std::snprintf(buf, sizeof buf, "%-22s mean %.4f  rms %.4f  p99 %.4f  max %.4f %s  (worst frame %d, %s %s)\n", what,
                s.mean, s.rms, s.p99, s.max, unit, names.frame(s.worst_frame),
                at_max ? "joint" : "worst joint on average", names.bone(s.worst_joint).c_str());
  return buf;
}

std::string error_text(const MotionError& e, const ErrorSettings& settings, const ReportNames& names) {
  char combined[64], shell[64];
  std::snprintf(combined, sizeof combined, "combined (lambda %g)", settings.lambda);
  std::snprintf(shell, sizeof shell, "shell (%g cm)", settings.shell_radius_cm);
  char worst[320];
  std::snprintf(worst, sizeof worst,
                "worst joint error      %.4f cm (%s at frame %d); worst shell error %.4f cm (%s at frame %d)\n",
                e.joint.max, names.bone(e.joint.worst_joint).c_str(), names.frame(e.joint.worst_frame), e.shell.max,
                names.bone(e.shell.worst_joint).c_str(), names.frame(e.shell.worst_frame));
  return worst + stats_line("position", "cm", e.position, names) +
         stats_line("joint (worst of frame)", "cm", e.joint, names, true) +
         stats_line("velocity", "cm/frame", e.velocity, names) + stats_line(combined, "", e.combined, names) +
         stats_line(shell, "cm", e.shell, names, true);
}

double size_ratio(const ClipEncodeStats& stats) {
  return stats.bytes > 0 ? static_cast<double>(stats.raw_bytes) / static_cast<double>(stats.bytes) : 0.0;
}

}  // namespace

std::string ReportNames::bone(int b) const {
  return b >= 0 ? bones[static_cast<std::size_t>(b)] : "";
}
int ReportNames::frame(int f) const {
  return f >= 0 ? frame_numbers[static_cast<std::size_t>(f)] : 0;
}

ReportNames report_names(const Skeleton& skeleton, const Motion& motion) {
  ReportNames names;
  names.bones.reserve(skeleton.bones.size());
  for (const Bone& bone : skeleton.bones) names.bones.push_back(bone.name);
  names.frame_numbers.assign(motion.frame_numbers.begin(), motion.frame_numbers.end());
  return names;
}

ErrorOptions ErrorSettings::options() const {
  return {lambda, shell_radius_cm / 100.0};
}

std::string format_compress_text(const CompressReport& r) {
  if (r.format == CompressFormat::kMkc) {
    const ClipEncodeStats& s = r.clip;
    const double seconds = r.duration_seconds;
    char line[512];
    std::snprintf(line, sizeof line,
                  "%d frames -> %zu bytes (%.2f KB/s, %.1fx smaller than float32 channels) by %s\n"
                  "decoded file: worst joint %.4f cm (%s at frame %d), worst shell %.4f cm (%s at frame %d), "
                  "mean joint %.4f cm\nencode %.2f s, decode %.0f ns per pose\n",
                  r.frames, s.bytes, seconds > 0 ? s.bytes / seconds / 1000.0 : 0.0, size_ratio(s), r.method.c_str(),
                  s.worst_joint_error_cm, r.names.bone(s.worst_joint).c_str(), r.names.frame(s.worst_frame),
                  s.worst_shell_error_cm, r.names.bone(s.worst_shell_joint).c_str(), r.names.frame(s.worst_shell_frame),
                  s.mean_joint_error_cm, s.encode_seconds, r.decode_ns_per_pose);
    std::string text = line;
    std::snprintf(line, sizeof line, "joint velocity error: mean %.2f  p99 %.2f  max %.2f cm/s (%s at frame %d)\n",
                  s.velocity.mean_cm_s, s.velocity.p99_cm_s, s.velocity.max_cm_s,
                  r.names.bone(s.velocity.worst_joint).c_str(), r.names.frame(s.velocity.worst_frame));
    text += line;
    if (s.planted.feet) {
      std::snprintf(line, sizeof line,
                    "planted feet: %d contact frames: ball speed original %.2f, this %.2f cm/s (%+.2f), worst foot "
                    "point %.4f cm\n",
                    s.planted.frames, s.planted.reference_cm_s, s.planted.other_cm_s, s.planted.difference_cm_s,
                    s.worst_contact_error_cm);
      text += line;
    }
    return text;
  }
  const double ratio = static_cast<double>(r.keys) / r.frames;
  char head[200];
  std::snprintf(head, sizeof head, "%d frames, %d keys (%.1f%%) by %s, rebuilt by %s", r.frames, r.keys, 100.0 * ratio,
                r.method.c_str(), std::string(interpolation_name(r.interpolation)).c_str());
  std::string text = head;
  if (!std::isnan(r.threshold)) {
    std::snprintf(head, sizeof head, ", threshold %.6g", r.threshold);
    text += head;
  }
  text += "\n" + error_text(r.error, r.settings, r.names);
  std::snprintf(head, sizeof head, "uniform keys (%d): position mean %.4f  max %.4f  worst joint %.4f cm\n", r.keys,
                r.uniform_error.position.mean, r.uniform_error.position.max, r.uniform_error.joint.max);
  return text + head;
}

std::string compress_report_json(const CompressReport& r) {
  Json j;
  if (r.format == CompressFormat::kMkc) {
    const ClipEncodeStats& s = r.clip;
    const double seconds = r.duration_seconds;
    j["frames"] = r.frames;
    j["method"] = r.method;
    j["format"] = "mkc";
    j["bytes"] = s.bytes;
    j["raw_bytes"] = s.raw_bytes;
    j["ratio"] = size_ratio(s);
    j["bytes_per_second"] = seconds > 0 ? s.bytes / seconds : 0.0;
    j["keys"] = s.keys;
    j["worst_joint_error_cm"] = s.worst_joint_error_cm;
    j["worst_joint"] = r.names.bone(s.worst_joint);
    j["worst_joint_frame"] = r.names.frame(s.worst_frame);
    j["worst_shell_error_cm"] = s.worst_shell_error_cm;
    j["worst_shell_joint"] = r.names.bone(s.worst_shell_joint);
    j["worst_shell_frame"] = r.names.frame(s.worst_shell_frame);
    j["mean_joint_error_cm"] = s.mean_joint_error_cm;
    j["encode_seconds"] = s.encode_seconds;
    j["decode_ns_per_pose"] = r.decode_ns_per_pose;
    j["joint_vel_err_mean_cm_s"] = s.velocity.mean_cm_s;
    j["joint_vel_err_p99_cm_s"] = s.velocity.p99_cm_s;
    j["joint_vel_err_max_cm_s"] = s.velocity.max_cm_s;
    j["joint_vel_err_worst_joint"] = r.names.bone(s.velocity.worst_joint);
    j["joint_vel_err_worst_frame"] = r.names.frame(s.velocity.worst_frame);
    j["planted_feet_found"] = s.planted.feet;
    j["planted_feet_frames"] = s.planted.frames;
    j["planted_feet_original_cm_s"] = s.planted.reference_cm_s;
    j["planted_feet_other_cm_s"] = s.planted.other_cm_s;
    j["planted_feet_difference_cm_s"] = s.planted.difference_cm_s;
    j["planted_feet_worst_error_cm"] = s.worst_contact_error_cm;
    return j.dump() + "\n";
  }
  j["frames"] = r.frames;
  j["keys"] = r.keys;
  j["key_ratio"] = static_cast<double>(r.keys) / r.frames;
  j["method"] = r.method;
  j["interp"] = std::string(interpolation_name(r.interpolation));
  if (std::isnan(r.threshold)) {
    j["threshold"] = nullptr;
  } else {
    j["threshold"] = r.threshold;
  }
  put_error(j, r.error, r.settings, r.names);
  j["uniform_pos_err_mean_cm"] = r.uniform_error.position.mean;
  j["uniform_pos_err_max_cm"] = r.uniform_error.position.max;
  j["uniform_worst_joint_error_cm"] = r.uniform_error.joint.max;
  j["uniform_worst_shell_error_cm"] = r.uniform_error.shell.max;
  if (r.method == "count") j["threshold_pos_err_mean_cm"] = r.start_mean_error_cm;
  return j.dump() + "\n";
}

std::string format_eval_text(const EvalReport& r) {
  std::string out = std::to_string(r.error.frames) + " frames\n" + error_text(r.error, r.settings, r.names);
  if (r.jitter) {
    const JointVelocityError& v = r.jitter->velocity;
    const PlantedFeetSpeed& f = r.jitter->planted;
    char buf[400];
    std::snprintf(buf, sizeof buf, "joint velocity error   mean %.2f  p99 %.2f  max %.2f cm/s  (%s at frame %d)\n",
                  v.mean_cm_s, v.p99_cm_s, v.max_cm_s, r.names.bone(v.worst_joint).c_str(),
                  r.names.frame(v.worst_frame));
    out += buf;
    if (!f.feet) {
      out += "planted feet           none (no feet found)\n";
    } else {
      std::snprintf(buf, sizeof buf,
                    "planted feet           %d contact frames: ball speed original %.2f, this %.2f cm/s (%+.2f)\n",
                    f.frames, f.reference_cm_s, f.other_cm_s, f.difference_cm_s);
      out += buf;
    }
  }
  return out;
}

std::string eval_report_json(const EvalReport& r) {
  Json j;
  j["frames"] = r.error.frames;
  put_error(j, r.error, r.settings, r.names);
  if (r.gated) {
    j["max_error_cm"] = r.max_error_cm;
    j["pass"] = r.pass();
  }
  if (r.jitter) {
    const JointVelocityError& v = r.jitter->velocity;
    const PlantedFeetSpeed& f = r.jitter->planted;
    j["joint_vel_err_mean_cm_s"] = v.mean_cm_s;
    j["joint_vel_err_p99_cm_s"] = v.p99_cm_s;
    j["joint_vel_err_max_cm_s"] = v.max_cm_s;
    j["joint_vel_err_worst_joint"] = r.names.bone(v.worst_joint);
    j["joint_vel_err_worst_frame"] = r.names.frame(v.worst_frame);
    j["planted_feet_found"] = f.feet;
    j["planted_feet_frames"] = f.frames;
    j["planted_feet_original_cm_s"] = f.reference_cm_s;
    j["planted_feet_other_cm_s"] = f.other_cm_s;
    j["planted_feet_difference_cm_s"] = f.difference_cm_s;
  }
  return j.dump() + "\n";
}

}  // namespace mocap
