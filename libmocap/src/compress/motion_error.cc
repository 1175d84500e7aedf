#include <mocap/compress/motion_error.h>
#include <mocap/core/fk.h>
#include <mocap/core/units.h>

#include <algorithm>
#include <cmath>

namespace mocap {
namespace {

// Mean, RMS, p99 and max of `values`; `sorted` is scratch of the same size.
void summarise(std::span<const double> values, std::span<double> sorted, ErrorStats& stats) {
  stats = ErrorStats{};
  if (values.empty()) return;
  double sum = 0.0, sum_sq = 0.0;
  for (std::size_t f = 0; f < values.size(); ++f) {
    const double v = values[f];
    sum += v;
    sum_sq += v * v;
    if (stats.worst_frame < 0 || v > stats.max) {
      stats.max = v;
      stats.worst_frame = static_cast<int>(f);
    }
  }
  const double n = static_cast<double>(values.size());
  stats.mean = sum / n;
  stats.rms = std::sqrt(sum_sq / n);
  // Nearest rank: the smallest value with at least 99 % of values at or below it.
  std::copy(values.begin(), values.end(), sorted.begin());
  const auto rank = static_cast<std::size_t>(std::ceil(0.99 * n)) - 1;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(rank),
                   sorted.begin() + static_cast<std::ptrdiff_t>(values.size()));
  stats.p99 = sorted[rank];
}

int argmax(std::span<const double> values) {
  return values.empty() ? -1 : static_cast<int>(std::max_element(values.begin(), values.end()) - values.begin());
}

}  // namespace

ErrorMeasure::ErrorMeasure(int bones, int max_frames)
    : bones_(std::max(bones, 0)),
      max_frames_(std::max(max_frames, 0)),
      position_(static_cast<std::size_t>(max_frames_)),
      joint_(static_cast<std::size_t>(max_frames_)),
      velocity_(static_cast<std::size_t>(max_frames_)),
      combined_(static_cast<std::size_t>(max_frames_)),
      shell_(static_cast<std::size_t>(max_frames_)),
      joint_at_(static_cast<std::size_t>(max_frames_)),
      shell_joint_(static_cast<std::size_t>(max_frames_)),
      joint_position_(static_cast<std::size_t>(bones_)),
      joint_velocity_(static_cast<std::size_t>(bones_)),
      sorted_(static_cast<std::size_t>(max_frames_)) {}

bool ErrorMeasure::run(std::span<const Eigen::Vector3d> reference_positions,
                       std::span<const Eigen::Quaterniond> reference_rotations,
                       std::span<const Eigen::Vector3d> other_positions,
                       std::span<const Eigen::Quaterniond> other_rotations, int frames, const ErrorOptions& options,
                       MotionError& result) {
  if (frames < 0 || frames > max_frames_) return false;
  const std::size_t n = static_cast<std::size_t>(frames) * bones_;
  if (reference_positions.size() < n || reference_rotations.size() < n || other_positions.size() < n ||
      other_rotations.size() < n) {
    return false;
  }
  frames_ = frames;
  std::fill(joint_position_.begin(), joint_position_.end(), 0.0);
  std::fill(joint_velocity_.begin(), joint_velocity_.end(), 0.0);
  const double per_bone = bones_ > 0 ? 1.0 / bones_ : 0.0;
  const double r = options.shell_radius;
  for (int f = 0; f < frames; ++f) {
    // Central differences inside, one-sided at the ends; a single frame has no velocity.
    const int prev = std::max(f - 1, 0);
    const int next = std::min(f + 1, frames - 1);
    const double span_frames = next > prev ? static_cast<double>(next - prev) : 1.0;
    const std::size_t row = static_cast<std::size_t>(f) * bones_;
    const std::size_t row_prev = static_cast<std::size_t>(prev) * bones_;
    const std::size_t row_next = static_cast<std::size_t>(next) * bones_;
    double position = 0.0, velocity = 0.0, shell = 0.0;  // shell: squared, metres
    double worst = -1.0;
    int shell_joint = 0, worst_joint = 0;
    for (int j = 0; j < bones_; ++j) {
      const Eigen::Vector3d d = other_positions[row + j] - reference_positions[row + j];
      const double dp = d.norm() * kCmPerM;
      position += dp;
      joint_position_[j] += dp;
      if (dp > worst) {
        worst = dp;
        worst_joint = j;
      }
      const Eigen::Vector3d dv = ((other_positions[row_next + j] - other_positions[row_prev + j]) -
                                  (reference_positions[row_next + j] - reference_positions[row_prev + j])) /
                                 span_frames;
      const double v = dv.norm() * kCmPerM;
      velocity += v;
      joint_velocity_[j] += v;
      // The shell points: columns of the world rotation matrices, scaled by r.
      const Eigen::Matrix3d diff =
          other_rotations[row + j].toRotationMatrix() - reference_rotations[row + j].toRotationMatrix();
      double s2 = 0.0;
      for (int k = 0; k < 3; ++k) s2 = std::max(s2, (d + r * diff.col(k)).squaredNorm());
      if (s2 > shell) {
        shell = s2;
        shell_joint = j;
      }
    }
    position_[f] = position * per_bone;
    joint_[f] = std::max(worst, 0.0);
    joint_at_[f] = worst_joint;
    velocity_[f] = velocity * per_bone;
    combined_[f] = position_[f] + options.velocity_weight * velocity_[f];
    shell_[f] = std::sqrt(shell) * kCmPerM;
    shell_joint_[f] = shell_joint;
  }
  const auto frames_size = static_cast<std::size_t>(frames);
  const std::span<double> sorted(sorted_.data(), frames_size);
  result.frames = frames;
  summarise({position_.data(), frames_size}, sorted, result.position);
  summarise({joint_.data(), frames_size}, sorted, result.joint);
  summarise({velocity_.data(), frames_size}, sorted, result.velocity);
  summarise({combined_.data(), frames_size}, sorted, result.combined);
  summarise({shell_.data(), frames_size}, sorted, result.shell);
  if (frames > 0) {
    result.position.worst_joint = argmax(joint_position_);
    result.velocity.worst_joint = argmax(joint_velocity_);
    // The combined error's joint: position and velocity summed as the frames sum them.
    int worst = 0;
    double worst_value = -1.0;
    for (int j = 0; j < bones_; ++j) {
      const double v = joint_position_[j] + options.velocity_weight * joint_velocity_[j];
      if (v > worst_value) {
        worst_value = v;
        worst = j;
      }
    }
    result.combined.worst_joint = worst;
    result.joint.worst_joint = joint_at_[result.joint.worst_frame];
    result.shell.worst_joint = shell_joint_[result.shell.worst_frame];
  }
  return true;
}

Result<MotionError> measure_error(const Skeleton& skeleton, const Motion& reference, const Motion& other,
                                  const ErrorOptions& options) {
  if (reference.frame_count() != other.frame_count()) {
    return fail("", 0,
                "the motions have " + std::to_string(reference.frame_count()) + " and " +
                    std::to_string(other.frame_count()) + " frames; expected the same frames");
  }
  for (int f = 0; f < reference.frame_count(); ++f) {
    if (reference.frame_numbers[f] != other.frame_numbers[f]) {
      return fail("", 0,
                  "frame " + std::to_string(f + 1) + " is numbered " + std::to_string(reference.frame_numbers[f]) +
                      " in one motion and " + std::to_string(other.frame_numbers[f]) +
                      " in the other; expected the same frame numbers");
    }
  }
  if (reference.channel_count != skeleton.channel_count || other.channel_count != skeleton.channel_count) {
    return fail("", 0, "a motion does not match the skeleton's channels");
  }
  const int bones = static_cast<int>(skeleton.bones.size());
  const std::size_t n = static_cast<std::size_t>(reference.frame_count()) * bones;
  std::vector<Eigen::Vector3d> reference_positions(n), other_positions(n);
  std::vector<Eigen::Quaterniond> reference_rotations(n), other_rotations(n);
  world_transforms(skeleton, reference, reference_positions, reference_rotations);
  world_transforms(skeleton, other, other_positions, other_rotations);
  ErrorMeasure measure(bones, reference.frame_count());
  MotionError result;
  measure.run(reference_positions, reference_rotations, other_positions, other_rotations, reference.frame_count(),
              options, result);
  return result;
}

}  // namespace mocap
