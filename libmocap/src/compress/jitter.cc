// Joint velocity error and planted-feet speed (jitter.h).
#include <mocap/compress/jitter.h>
#include <mocap/core/fk.h>
#include <mocap/core/foot_contacts.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace mocap {
namespace {

// Central difference of bone b's position at frame f, metres per frame.
Eigen::Vector3d velocity(const std::vector<Eigen::Vector3d>& p, std::size_t bones, int frames, int f, std::size_t b) {
  const int a = std::max(0, f - 1), c = std::min(frames - 1, f + 1);
  if (a == c) return Eigen::Vector3d::Zero();
  return (p[static_cast<std::size_t>(c) * bones + b] - p[static_cast<std::size_t>(a) * bones + b]) / (c - a);
}

}  // namespace

Result<JitterError> measure_jitter(const Skeleton& skeleton, const Motion& reference, const Motion& other) {
  if (reference.frame_numbers != other.frame_numbers) {
    return fail("", 0,
                "the motions have " + std::to_string(reference.frame_count()) + " and " +
                    std::to_string(other.frame_count()) + " frames: expected the same frames");
  }
  JitterError out;
  const int frames = reference.frame_count();
  const std::size_t bones = skeleton.bones.size();
  if (frames == 0 || bones == 0) return out;
  const auto p = world_positions(skeleton, reference), q = world_positions(skeleton, other);
  const double cm_s = 100.0 * reference.fps;
  std::vector<double> errors;
  errors.reserve(static_cast<std::size_t>(frames) * bones);
  double sum = 0.0;
  for (int f = 0; f < frames; ++f) {
    for (std::size_t b = 0; b < bones; ++b) {
      const double e = (velocity(q, bones, frames, f, b) - velocity(p, bones, frames, f, b)).norm() * cm_s;
      errors.push_back(e);
      sum += e;
      if (out.velocity.worst_joint < 0 || e > out.velocity.max_cm_s) {
        out.velocity.max_cm_s = e;
        out.velocity.worst_joint = static_cast<int>(b);
        out.velocity.worst_frame = f;
      }
    }
  }
  out.velocity.mean_cm_s = sum / static_cast<double>(errors.size());
  // Nearest rank: the smallest value with at least 99% of the values at or below it.
  const auto rank = static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(errors.size()))) - 1;
  std::nth_element(errors.begin(), errors.begin() + static_cast<std::ptrdiff_t>(rank), errors.end());
  out.velocity.p99_cm_s = errors[rank];

  const auto contacts = clip_foot_contacts(skeleton, reference, "");
  if (!contacts) return out;  // no feet: nothing planted to measure
  out.planted.feet = true;
  double ref_sum = 0.0, other_sum = 0.0;
  for (std::size_t s = 0; s < 2; ++s) {
    const auto ball = static_cast<std::size_t>(contacts->feet[s].ball);
    for (const FootContact& c : contacts->contacts[s].contacts) {
      for (int f = c.first; f <= c.last; ++f) {
        ref_sum += velocity(p, bones, frames, f, ball).norm() * cm_s;
        other_sum += velocity(q, bones, frames, f, ball).norm() * cm_s;
        ++out.planted.frames;
      }
    }
  }
  if (out.planted.frames > 0) {
    out.planted.reference_cm_s = ref_sum / out.planted.frames;
    out.planted.other_cm_s = other_sum / out.planted.frames;
    out.planted.difference_cm_s = out.planted.other_cm_s - out.planted.reference_cm_s;
  }
  return out;
}

}  // namespace mocap
