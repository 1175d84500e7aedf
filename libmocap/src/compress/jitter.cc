// Joint velocity error and planted-feet speed (jitter.h).
#include <mocap/compress/jitter.h>
#include <mocap/core/fk.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace mocap {
namespace {

// Central difference of joint j's position at frame f, metres per frame.
Eigen::Vector3d velocity(std::span<const Eigen::Vector3d> p, int bones, int frames, int f, int j) {
  const int a = std::max(0, f - 1), c = std::min(frames - 1, f + 1);
  if (a == c) return Eigen::Vector3d::Zero();
  return (p[static_cast<std::size_t>(c) * bones + j] - p[static_cast<std::size_t>(a) * bones + j]) / (c - a);
}

}  // namespace

void joint_velocity_errors(std::span<const Eigen::Vector3d> reference, std::span<const Eigen::Vector3d> other,
                           int bones, int frames, double fps, std::span<double> errors) {
  const double cm_s = 100.0 * fps;
  for (int f = 0; f < frames; ++f) {
    for (int j = 0; j < bones; ++j) {
      errors[static_cast<std::size_t>(f) * bones + j] =
          (velocity(other, bones, frames, f, j) - velocity(reference, bones, frames, f, j)).norm() * cm_s;
    }
  }
}

JointVelocityError summarize_velocity_errors(std::span<double> errors, int bones) {
  JointVelocityError out;
  if (errors.empty() || bones <= 0) return out;
  double sum = 0.0;
  for (std::size_t i = 0; i < errors.size(); ++i) {
    sum += errors[i];
    if (out.worst_joint < 0 || errors[i] > out.max_cm_s) {
      out.max_cm_s = errors[i];
      out.worst_joint = static_cast<int>(i % static_cast<std::size_t>(bones));
      out.worst_frame = static_cast<int>(i / static_cast<std::size_t>(bones));
    }
  }
  out.mean_cm_s = sum / static_cast<double>(errors.size());
  // Nearest rank: the smallest value with at least 99% of the values at or below it.
  const auto rank = static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(errors.size()))) - 1;
  std::nth_element(errors.begin(), errors.begin() + static_cast<std::ptrdiff_t>(rank), errors.end());
  out.p99_cm_s = errors[rank];
  return out;
}

PlantedFeetSpeed planted_feet_speed(const ClipFootContacts& contacts, std::span<const Eigen::Vector3d> reference,
                                    std::span<const Eigen::Vector3d> other, int bones, int frames, double fps) {
  PlantedFeetSpeed out;
  out.feet = true;
  const double cm_s = 100.0 * fps;
  double reference_sum = 0.0, other_sum = 0.0;
  for (std::size_t s = 0; s < 2; ++s) {
    const int ball = contacts.feet[s].ball;
    for (const FootContact& c : contacts.contacts[s].contacts) {
      for (int f = c.first; f <= c.last && f < frames; ++f) {
        reference_sum += velocity(reference, bones, frames, f, ball).norm() * cm_s;
        other_sum += velocity(other, bones, frames, f, ball).norm() * cm_s;
        ++out.frames;
      }
    }
  }
  if (out.frames > 0) {
    out.reference_cm_s = reference_sum / out.frames;
    out.other_cm_s = other_sum / out.frames;
    out.difference_cm_s = out.other_cm_s - out.reference_cm_s;
  }
  return out;
}

Result<JitterError> measure_jitter(const Skeleton& skeleton, const Motion& reference, const Motion& other) {
  if (reference.frame_numbers != other.frame_numbers) {
    return fail("", 0,
                "the motions have " + std::to_string(reference.frame_count()) + " and " +
                    std::to_string(other.frame_count()) + " frames: expected the same frames");
  }
  JitterError out;
  const int frames = reference.frame_count();
  const int bones = static_cast<int>(skeleton.bones.size());
  if (frames == 0 || bones == 0) return out;
  const auto p = world_positions(skeleton, reference), q = world_positions(skeleton, other);
  std::vector<double> errors(static_cast<std::size_t>(frames) * bones);
  joint_velocity_errors(p, q, bones, frames, reference.fps, errors);
  out.velocity = summarize_velocity_errors(errors, bones);
  const auto contacts = clip_foot_contacts(skeleton, reference, "");
  if (!contacts) return out;  // no feet: nothing planted to measure
  out.planted = planted_feet_speed(*contacts, p, q, bones, frames, reference.fps);
  return out;
}

}  // namespace mocap
