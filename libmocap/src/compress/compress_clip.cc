#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/compress_clip.h>
#include <mocap/compress/compressed_clip.h>
#include <mocap/io/amc.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace mocap {
namespace {

// The runtime sampler as a player runs it: made once, every frame in order
// through one cursor; best of three passes, ns per pose.
double time_decoder(const CompressedClip& clip, std::size_t bones) {
  const ClipSampler sampler = make_sampler(clip);
  ClipCursor cursor = make_cursor(sampler);
  std::vector<Eigen::Quaternionf> rotations(bones);
  Eigen::Vector3f root = Eigen::Vector3f::Zero();
  double best_ns = 0.0;
  for (int pass = 0; pass < 3; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    for (int f = 0; f < clip.frame_count; ++f) sample_clip(sampler, f / clip.fps, cursor, rotations, root);
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
                      std::max(1, clip.frame_count);
    if (pass == 0 || ns < best_ns) best_ns = ns;
  }
  return best_ns;
}

Result<std::string> rebuilt_text(const CompressRequest& request, const Skeleton& skeleton, const Motion& motion,
                                 const AmcLayout* layout) {
  auto text = format_capture_motion(skeleton, motion, false, request.bvh_metres_per_unit, layout);
  if (!text) return fail(request.rebuilt_name, 0, text.error().message);
  return text;
}

// Step 2 (and 3) for a .mkc.
Result<CompressReport> encode_mkc(const Capture& capture, const CompressRequest& request,
                                  const ClipEncodeOptions& options, CompressReport report) {
  auto clip = encode_clip(capture.skeleton, capture.motion, options, &report.clip);
  if (!clip) return std::unexpected(clip.error());
  const std::vector<std::uint8_t> bytes = format_compressed_clip(*clip);
  report.key_file.assign(bytes.begin(), bytes.end());
  if (request.rebuilt) {
    auto decoded = decode_motion(*clip, capture.skeleton);
    if (!decoded) return std::unexpected(decoded.error());
    auto text = rebuilt_text(request, capture.skeleton, *decoded, nullptr);
    if (!text) return std::unexpected(text.error());
    report.rebuilt_file = std::move(*text);
  }
  if (request.time_decoder) report.decode_ns_per_pose = time_decoder(*clip, capture.skeleton.bones.size());
  return report;
}

}  // namespace

Result<void> CompressRequest::validate() const {
  if (format == CompressFormat::kAmc && !pose_keys.empty()) {
    return fail("", 0, "pose_keys: given keys are stored only in a compressed clip (.mkc)");
  }
  if (!(pose_key_error_cm > 0.0) || !std::isfinite(pose_key_error_cm)) {
    return fail("", 0, "pose_key_error_cm: expected a finite error in cm > 0");
  }
  if (!(max_velocity_error_cm_s >= 0.0) || !std::isfinite(max_velocity_error_cm_s)) {
    return fail("", 0, "max_velocity_error_cm_s: expected a finite velocity in cm/s >= 0 (0: unbounded)");
  }
  if (!(max_contact_error_cm >= 0.0) || !std::isfinite(max_contact_error_cm)) {
    return fail("", 0, "max_contact_error_cm: expected a finite distance in cm >= 0 (0: unbounded)");
  }
  if (!(max_contact_speed_cm_s >= 0.0) || !std::isfinite(max_contact_speed_cm_s)) {
    return fail("", 0, "max_contact_speed_cm_s: expected a finite speed in cm/s >= 0 (0: unbounded)");
  }
  if (!(error.lambda >= 0.0) || !std::isfinite(error.lambda)) {
    return fail("", 0, "error.lambda: expected a finite number >= 0");
  }
  if (!(error.shell_radius_cm >= 0.0) || !std::isfinite(error.shell_radius_cm)) {
    return fail("", 0, "error.shell_radius_cm: expected a finite distance >= 0 (cm)");
  }
  if (budget && pose_keys.empty()) {
    KeyCompressOptions options;
    options.budget = *budget;
    options.value = value;
    if (auto ok = options.validate(); !ok) return ok;
  }
  return {};
}

Result<CompressReport> compress_clip(const Capture& capture, const CompressRequest& request) {
  if (auto ok = request.validate(); !ok) return std::unexpected(ok.error());
  const Skeleton& skeleton = capture.skeleton;
  const Motion& motion = capture.motion;
  if (motion.frame_count() == 0) return fail(capture.amc_path, 0, "no frames to compress");
  CompressReport report;
  report.format = request.format;
  report.interpolation = request.interpolation;
  report.frames = motion.frame_count();
  report.duration_seconds = motion.duration_seconds();
  report.names = report_names(skeleton, motion);
  report.settings = request.error;
  const ErrorOptions error = request.error.options();
  const bool to_clip_file = request.format == CompressFormat::kMkc;

  if (to_clip_file && !request.pose_keys.empty()) {
    ClipEncodeOptions encode;
    encode.max_joint_error_cm = request.pose_key_error_cm;
    encode.pose_keys = request.pose_keys;
    encode.interpolation = request.interpolation;
    report.method = "keys";
    return encode_mkc(capture, request, encode, std::move(report));
  }
  const bool bounded =
      !request.budget || *request.budget == KeyBudget::kMaxJointError || *request.budget == KeyBudget::kMaxShellError;
  if (to_clip_file && bounded) {
    // Per-track keys under a bound on the decoded file (default 1 cm on the worst joint).
    ClipEncodeOptions encode;
    if (request.budget == KeyBudget::kMaxShellError) {
      encode.max_shell_error_cm = request.value;
      encode.shell_radius_m = error.shell_radius;
    } else if (request.budget == KeyBudget::kMaxJointError) {
      encode.max_joint_error_cm = request.value;
    }
    encode.max_velocity_error_cm_s = request.max_velocity_error_cm_s;
    encode.max_contact_error_cm = request.max_contact_error_cm;
    encode.max_contact_speed_cm_s = request.max_contact_speed_cm_s;
    report.method = "bound";
    return encode_mkc(capture, request, encode, std::move(report));
  }

  KeyCompressOptions options;
  options.budget = request.budget.value_or(KeyBudget::kRatio);
  options.value = request.value;
  options.weights = request.weights;
  options.interpolation = request.interpolation;
  options.error = error;
  auto result = compress_keys(skeleton, motion, options, capture.amc_path);
  if (!result) return std::unexpected(result.error());
  if (to_clip_file) {
    // The thesis's whole-pose keys, stored the same way.
    ClipEncodeOptions encode;
    encode.max_joint_error_cm = request.pose_key_error_cm;
    encode.pose_keys = result->keys;
    encode.interpolation = request.interpolation;
    report.method = std::string(key_budget_name(options.budget));
    return encode_mkc(capture, request, encode, std::move(report));
  }
  report.method = options.budget == KeyBudget::kRatio ? "count" : std::string(key_budget_name(options.budget));
  report.keys = static_cast<int>(result->keys.size());
  report.threshold = result->threshold;
  report.start_mean_error_cm = result->start_mean_error_cm;
  report.error = result->error;
  report.uniform_error = result->uniform_error;
  report.key_file = format_amc(result->key_motion, skeleton, capture.layout);
  if (request.rebuilt) {
    auto text = rebuilt_text(request, skeleton, result->rebuilt, &capture.layout);
    if (!text) return std::unexpected(text.error());
    report.rebuilt_file = std::move(*text);
  }
  return report;
}

}  // namespace mocap
