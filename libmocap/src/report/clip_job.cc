// The job for one clip: keys per budget, the rebuild measured, the uniform
// baseline, and both key sets as .mkc files.
#include <mocap/compress/compress_clip.h>
#include <mocap/compress/extract.h>
#include <mocap/compress/jitter.h>
#include <mocap/compress/key_pipeline.h>
#include <mocap/core/fk.h>
#include <mocap/core/foot_contacts.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>
#include <mocap/report/clip_job.h>

#include "report/seconds_since.h"

#include <chrono>
#include <optional>

namespace mocap {

namespace {

ErrorSummary summary_of(const ErrorStats& s) {
  return {s.mean, s.p99, s.max};
}

JitterResult jitter_of(const JointVelocityError& v, const PlantedFeetSpeed& p, const ReportNames& names) {
  JitterResult r;
  r.velocity = {v.mean_cm_s, v.p99_cm_s, v.max_cm_s};
  r.velocity_max_joint = names.bone(v.worst_joint);
  r.velocity_max_frame = names.frame(v.worst_frame);
  r.feet = p.feet;
  r.planted_frames = p.frames;
  r.planted_capture_cm_s = p.reference_cm_s;
  r.planted_cm_s = p.other_cm_s;
  r.planted_difference_cm_s = p.difference_cm_s;
  return r;
}

// The original's world positions and foot contacts, computed once per clip
// for the jitter of each budget's rebuild (measure_jitter would redo both).
struct JitterReference {
  const Skeleton* skeleton = nullptr;
  double fps = 120.0;
  std::vector<Eigen::Vector3d> positions;
  std::optional<ClipFootContacts> contacts;  // none: no feet
  ReportNames names;
  std::vector<double> errors;  // scratch, frames * bones
};

JitterReference jitter_reference(const Skeleton& skeleton, const Motion& motion) {
  JitterReference r;
  r.skeleton = &skeleton;
  r.fps = motion.fps;
  r.positions = world_positions(skeleton, motion);
  if (auto contacts = clip_foot_contacts(skeleton, motion, "")) r.contacts = std::move(*contacts);
  r.names = report_names(skeleton, motion);
  return r;
}

// measure_jitter of `other` against the reference (same frames, as the rebuild has).
JitterResult rebuild_jitter(JitterReference& ref, const Motion& other) {
  const int bones = static_cast<int>(ref.skeleton->bones.size());
  const int frames = other.frame_count();
  const std::vector<Eigen::Vector3d> q = world_positions(*ref.skeleton, other);
  ref.errors.resize(static_cast<std::size_t>(frames) * bones);
  joint_velocity_errors(ref.positions, q, bones, frames, ref.fps, ref.errors);
  const JointVelocityError v = summarize_velocity_errors(ref.errors, bones);
  PlantedFeetSpeed p;
  if (ref.contacts) p = planted_feet_speed(*ref.contacts, ref.positions, q, bones, frames, ref.fps);
  return jitter_of(v, p, ref.names);
}

// The clip stored as `request` asks (compress/compress_clip.h, as `mocap
// compress -o x.mkc` stores it) and the decoded file's error.
Result<ClipFileResult> encode_file(const Capture& capture, CompressRequest request, std::int64_t raw_bytes) {
  request.format = CompressFormat::kMkc;
  request.time_decoder = false;  // the report times the encoder only
  auto report = compress_clip(capture, request);
  if (!report) return fail(capture.amc_path, 0, "cannot store it as a .mkc: " + report.error().message);
  const ClipEncodeStats& stats = report->clip;
  const Motion& motion = capture.motion;
  ClipFileResult r;
  r.bytes = static_cast<std::int64_t>(stats.bytes);
  r.bytes_per_second = static_cast<double>(stats.bytes) / motion.duration_seconds();
  r.ratio = stats.bytes > 0 ? static_cast<double>(raw_bytes) / static_cast<double>(stats.bytes) : 0.0;
  r.joint_max_cm = stats.worst_joint_error_cm;
  r.joint_max_joint = report->names.bone(stats.worst_joint);
  r.joint_max_frame = report->names.frame(stats.worst_frame);
  r.joint_mean_cm = stats.mean_joint_error_cm;
  r.encode_seconds = stats.encode_seconds;
  r.jitter = jitter_of(stats.velocity, stats.planted, report->names);
  return r;
}

// `keys` in whole-pose mode, as `mocap compress --ratio ... -o x.mkc` stores them.
Result<ClipFileResult> encode_keys(const Capture& capture, std::vector<int> keys, const ReportOptions& options,
                                   std::int64_t raw_bytes) {
  CompressRequest request;
  request.pose_key_error_cm = options.clip_file_error_cm;
  request.pose_keys = std::move(keys);
  request.interpolation = Interpolation::kSlerp;  // the report rebuilds by slerp (ReportOptions has no interpolation)
  return encode_file(capture, std::move(request), raw_bytes);
}

// Fills `result` (its fps, frames, joints, budgets and track files) from the
// clip; the first failure stops it.
Result<void> measure_clip(const ClipInput& input, const ReportOptions& options, ClipResult& result) {
  if (!input.error.empty()) return fail("", 0, input.error);
  // A BVH file is a whole clip (skeleton and motion, at its own rate).
  std::optional<BvhFile> bvh;
  if (is_bvh_path(input.path)) {
    auto read = read_bvh(input.path, options.bvh_metres_per_unit);
    if (!read) return std::unexpected(read.error());
    bvh = std::move(*read);
    result.fps = bvh->motion.fps;
  }
  Capture capture;
  capture.asf_path = input.asf;
  capture.amc_path = input.path;
  auto read_skeleton = bvh ? Result<Skeleton>(std::move(bvh->skeleton)) : read_asf(input.asf);
  if (!read_skeleton) return std::unexpected(read_skeleton.error());
  capture.skeleton = std::move(*read_skeleton);
  auto read_motion = bvh ? Result<Motion>(std::move(bvh->motion)) : read_amc(input.path, capture.skeleton, options.fps);
  if (!read_motion) return std::unexpected(read_motion.error());
  capture.motion = std::move(*read_motion);
  const Skeleton* skeleton = &capture.skeleton;
  const Motion* motion = &capture.motion;
  const int frames = motion->frame_count();
  result.frames = frames;
  if (frames == 0) return fail(input.path, 0, "no frames to compress");
  result.raw_bytes = static_cast<std::int64_t>(motion->values.size()) * 4;
  for (const Bone& bone : skeleton->bones) result.joints.push_back(bone.name);

  KeyCompressOptions compress;
  compress.budget = options.kind == BudgetKind::kRatio       ? KeyBudget::kRatio
                    : options.kind == BudgetKind::kThreshold ? KeyBudget::kThreshold
                                                             : KeyBudget::kMaxJointError;
  compress.selection.max_passes = options.selection_passes;
  compress.error = options.error;
  JitterReference jitter = jitter_reference(*skeleton, *motion);
  for (const double budget : options.budgets) {
    BudgetResult b;
    b.budget = budget;
    compress.value = budget;
    auto run = compress_keys(*skeleton, *motion, compress, input.path);
    if (!run) return std::unexpected(run.error());
    const MotionError& error = run->error;
    b.select_seconds = run->select_seconds;
    b.keys = static_cast<int>(run->keys.size());
    b.key_ratio = static_cast<double>(b.keys) / frames;
    b.frame_error_cm = std::move(run->position_per_frame_cm);
    b.joint_error_cm = std::move(run->joint_mean_cm);
    b.position = summary_of(error.position);
    b.velocity = summary_of(error.velocity);
    b.shell = summary_of(error.shell);
    if (error.position.worst_joint >= 0) b.worst_joint = result.joints[error.position.worst_joint];
    if (error.position.worst_frame >= 0) b.worst_frame = motion->frame_numbers[error.position.worst_frame];
    b.joint = summary_of(error.joint);
    if (error.joint.worst_frame >= 0) {
      b.joint_max_joint = result.joints[error.joint.worst_joint];
      b.joint_max_frame = motion->frame_numbers[error.joint.worst_frame];
      b.shell_max_joint = result.joints[error.shell.worst_joint];
      b.shell_max_frame = motion->frame_numbers[error.shell.worst_frame];
    }
    if (run->rebuilt.frame_numbers != motion->frame_numbers) return fail(input.path, 0, "the rebuild has other frames");
    b.jitter = rebuild_jitter(jitter, run->rebuilt);
    b.uniform_frame_error_cm = std::move(run->uniform_position_per_frame_cm);
    b.uniform_position = summary_of(run->uniform_error.position);
    b.uniform_shell = summary_of(run->uniform_error.shell);
    b.uniform_joint = summary_of(run->uniform_error.joint);
    if (options.clip_files) {
      std::vector<int> uniform = uniform_keys(frames, b.keys);
      auto file = encode_keys(capture, std::move(run->keys), options, result.raw_bytes);
      if (!file) return std::unexpected(file.error());
      b.file = std::move(*file);
      auto uniform_file = encode_keys(capture, std::move(uniform), options, result.raw_bytes);
      if (!uniform_file) return std::unexpected(uniform_file.error());
      b.uniform_file = std::move(*uniform_file);
    }
    result.budgets.push_back(std::move(b));
  }
  for (const double bound : options.track_bounds_cm) {
    CompressRequest request;  // per-track keys under the bound
    request.budget = KeyBudget::kMaxJointError;
    request.value = bound;
    auto file = encode_file(capture, std::move(request), result.raw_bytes);
    if (!file) return std::unexpected(file.error());
    result.track_files.push_back(std::move(*file));
  }
  return {};
}

}  // namespace

ClipResult run_clip(const ClipInput& input, const ReportOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ClipResult result;
  result.path = input.path;
  result.asf = input.asf;
  result.name = input.name;
  result.fps = options.fps;
  result.status = measure_clip(input, options, result);
  if (!result.status) {
    result.budgets.clear();
    result.track_files.clear();
  }
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace mocap
