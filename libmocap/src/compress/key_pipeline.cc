#include <mocap/compress/extract.h>
#include <mocap/compress/key_pipeline.h>
#include <mocap/compress/rebuild.h>
#include <mocap/core/fk.h>
#include <mocap/core/pose_track.h>
#include <mocap/core/units.h>

#include <chrono>
#include <cmath>
#include <limits>

namespace mocap {
namespace {

// Rebuilds `motion` from `keys` and measures it against the reference world
// transforms.
Result<MotionError> rebuild_and_measure(const Skeleton& skeleton, const Motion& motion, const Motion& keys,
                                        const KeyCompressOptions& options, const std::string& name,
                                        std::span<const Eigen::Vector3d> reference_positions,
                                        std::span<const Eigen::Quaterniond> reference_rotations, Motion& rebuilt,
                                        std::vector<double>& per_frame, std::vector<double>* per_joint) {
  auto r = rebuild_motion(skeleton, keys, name, options.interpolation);
  if (!r) return std::unexpected(r.error());
  if (r->frame_numbers != motion.frame_numbers) {
    return fail(name, 0, "frame numbers do not run consecutively, so the frames between keys cannot be rebuilt");
  }
  rebuilt = std::move(*r);
  const int frames = motion.frame_count();
  const std::size_t bones = skeleton.bones.size();
  std::vector<Eigen::Vector3d> positions(reference_positions.size());
  std::vector<Eigen::Quaterniond> rotations(reference_rotations.size());
  world_transforms(skeleton, rebuilt, positions, rotations);
  ErrorMeasure measure(static_cast<int>(bones), frames);
  MotionError error;
  measure.run(reference_positions, reference_rotations, positions, rotations, frames, options.error, error);
  const auto curve = measure.position_per_frame();
  per_frame.assign(curve.begin(), curve.end());
  if (per_joint) {
    per_joint->assign(bones, 0.0);
    for (int f = 0; f < frames; ++f) {
      const std::size_t row = static_cast<std::size_t>(f) * bones;
      for (std::size_t j = 0; j < bones; ++j)
        (*per_joint)[j] += (positions[row + j] - reference_positions[row + j]).norm();
    }
    for (double& e : *per_joint) e *= kCmPerM / frames;
  }
  return error;
}

}  // namespace

std::string_view key_budget_name(KeyBudget budget) {
  switch (budget) {
    case KeyBudget::kThreshold: return "threshold";
    case KeyBudget::kCount: return "count";
    case KeyBudget::kRatio: return "ratio";
    case KeyBudget::kMaxJointError: return "max_error";
    case KeyBudget::kMaxShellError: return "max_shell_error";
  }
  return "?";
}

Result<void> KeyCompressOptions::validate() const {
  const std::string what = "budget " + std::string(key_budget_name(budget));
  if (!std::isfinite(value)) return fail("", 0, what + ": the value is not finite");
  switch (budget) {
    case KeyBudget::kThreshold:
      if (value < 0.0) return fail("", 0, what + ": expected a distance >= 0");
      break;
    case KeyBudget::kCount:
      if (value < 1.0 || value != std::floor(value))
        return fail("", 0, what + ": expected a whole number of keys >= 1");
      break;
    case KeyBudget::kRatio:
      if (!(value > 0.0 && value <= 1.0)) return fail("", 0, what + ": expected a share of frames in (0, 1]");
      break;
    case KeyBudget::kMaxJointError:
    case KeyBudget::kMaxShellError:
      if (!(value > 0.0)) return fail("", 0, what + ": expected an error in cm > 0");
      break;
  }
  if (!(error.velocity_weight >= 0.0) || !std::isfinite(error.velocity_weight)) {
    return fail("", 0, "error.velocity_weight: expected a finite number >= 0");
  }
  if (!(error.shell_radius >= 0.0) || !std::isfinite(error.shell_radius)) {
    return fail("", 0, "error.shell_radius: expected a finite distance >= 0 (metres)");
  }
  if (selection.max_passes < 0) return fail("", 0, "selection.max_passes: expected >= 0");
  return {};
}

Result<KeyCompressResult> compress_keys(const Skeleton& skeleton, const Motion& motion,
                                        const KeyCompressOptions& options, const std::string& name) {
  if (auto ok = options.validate(); !ok) return std::unexpected(ok.error());
  const int frames = motion.frame_count();
  if (frames == 0) return fail(name, 0, "no frames to compress");
  if (motion.channel_count != skeleton.channel_count)
    return fail(name, 0, "the motion does not match the skeleton's channels");
  if (!options.weights.empty() && options.weights.size() != skeleton.bones.size()) {
    return fail(name, 0, "expected one weight per bone");
  }
  const std::vector<double> weights = options.weights.empty() ? default_joint_weights(skeleton) : options.weights;

  KeyCompressResult result;
  const auto start = std::chrono::steady_clock::now();
  KeySelection selection;
  switch (options.budget) {
    case KeyBudget::kThreshold:
      selection.threshold = options.value;
      selection.keys =
          extract_keys(make_pose_track(skeleton, motion), weights, options.value, options.selection.distance);
      break;
    case KeyBudget::kCount:
    case KeyBudget::kRatio: {
      const int count = options.budget == KeyBudget::kCount ? static_cast<int>(options.value)
                                                            : static_cast<int>(std::lround(options.value * frames));
      SelectionOptions selection_options = options.selection;
      selection_options.interpolation = options.interpolation;  // keys for the rebuild they are given to
      selection = select_keys_for_count(skeleton, motion, weights, count, selection_options);
      break;
    }
    case KeyBudget::kMaxJointError:
      selection = select_keys_for_max_error(skeleton, motion, options.value, ErrorBound::kJoint,
                                            options.error.shell_radius, options.interpolation);
      break;
    case KeyBudget::kMaxShellError:
      selection = select_keys_for_max_error(skeleton, motion, options.value, ErrorBound::kShell,
                                            options.error.shell_radius, options.interpolation);
      break;
  }
  result.select_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.keys = std::move(selection.keys);
  result.threshold = selection.threshold;
  result.start_mean_error_cm = selection.start_mean_error_cm;

  const std::size_t samples = static_cast<std::size_t>(frames) * skeleton.bones.size();
  std::vector<Eigen::Vector3d> reference_positions(samples);
  std::vector<Eigen::Quaterniond> reference_rotations(samples);
  world_transforms(skeleton, motion, reference_positions, reference_rotations);
  result.key_motion = key_motion(motion, result.keys);
  auto error =
      rebuild_and_measure(skeleton, motion, result.key_motion, options, name, reference_positions, reference_rotations,
                          result.rebuilt, result.position_per_frame_cm, &result.joint_mean_cm);
  if (!error) return std::unexpected(error.error());
  result.error = *error;
  if (options.uniform_baseline) {
    Motion uniform;
    auto u = rebuild_and_measure(
        skeleton, motion, key_motion(motion, uniform_keys(frames, static_cast<int>(result.keys.size()))), options, name,
        reference_positions, reference_rotations, uniform, result.uniform_position_per_frame_cm, nullptr);
    if (!u) return std::unexpected(u.error());
    result.uniform_error = *u;
  }
  return result;
}

}  // namespace mocap
