#include <mocap/compress/clip_decoder.h>

#include <cmath>

#include "compress/clip_curve.h"

namespace mocap {
namespace {

// sin and cos of a half angle in float, to about 1e-7 absolute: quadrant
// reduction then Taylor polynomials on [-pi/4, pi/4] (the next terms are
// below 3e-8 there). libm's sinf/cosf were most of the sampling time.
inline void sin_cos(float x, float& s, float& c) {
  constexpr float kTwoOverPi = 0.636619772f;
  constexpr float kPiOver2Hi = 1.5703125f;  // few bits: n * hi is exact for |n| < 2^15
  constexpr float kPiOver2Lo = 4.83826794897e-4f;
  // Round to nearest without nearbyintf (a libm call that honours the rounding mode).
  const float y = x * kTwoOverPi;
  const float n = static_cast<float>(static_cast<int>(y + (y >= 0.0f ? 0.5f : -0.5f)));
  const float r = (x - n * kPiOver2Hi) - n * kPiOver2Lo;
  const float r2 = r * r;
  const float sr = r * (1.0f + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040 + r2 * (1.0f / 362880)))));
  const float cr = 1.0f + r2 * (-0.5f + r2 * (1.0f / 24 + r2 * (-1.0f / 720 + r2 * (1.0f / 40320))));
  switch (static_cast<int>(n) & 3) {
    case 0: s = sr, c = cr; break;
    case 1: s = cr, c = -sr; break;
    case 2: s = -sr, c = -cr; break;
    default: s = -cr, c = sr; break;
  }
}

}  // namespace

ClipCursor make_cursor(const CompressedClip&) { return {}; }

void sample_clip(const CompressedClip& clip, double seconds, ClipCursor& cursor,
                 std::span<Eigen::Quaternionf> local_rotations, Eigen::Vector3f& root_translation) {
  const double last = clip.frame_count - 1;
  double t = seconds * clip.fps;
  t = !(t >= 0.0) ? 0.0 : (t > last ? last : t);  // NaN too
  // Whole-pose clips: the key segment, stepping from the last one when close.
  const int key_count = static_cast<int>(clip.keys.size());
  if (key_count >= 2) cursor.segment = clip_curve::key_segment_from(clip.keys.data(), key_count, t, cursor.segment);
  const int segment = cursor.segment;
  const auto value = [&](const ClipTrack& track) -> float {
    if (track.storage == TrackStorage::kConstant) return track.constant;
    if (track.spacing == 0)
      return static_cast<float>(
          clip_curve::keyed_at<double>(track.points.data(), clip.keys.data(), key_count, track.degree, segment, t));
    double u = 0.0;
    const int i = clip_curve::uniform_segment(t, track.inv_spacing, track.segments, u);
    return clip_curve::uniform_at<float>(track.points.data(), track.degree, i, static_cast<float>(u));
  };
  Eigen::Vector3f translation = Eigen::Vector3f::Zero();
  const std::size_t bones = std::min(clip.bones.size(), local_rotations.size());
  for (std::size_t b = 0; b < bones; ++b) {
    const ClipBone& bone = clip.bones[b];
    // As pose_from_channels: turns about C * e_k in dof order, the first applied
    // first, the root starting from its axis rotation O.
    Eigen::Quaternionf q = b == 0 ? bone.axis_rotation : Eigen::Quaternionf::Identity();
    for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
      const float v = value(clip.tracks[static_cast<std::size_t>(bone.first_channel) + k]);
      const Channel c = bone.dofs[k];
      if (is_rotation(c)) {
        float s = 0.0f, w = 0.0f;
        sin_cos(0.5f * v, s, w);
        const Eigen::Vector3f& a = bone.dof_axes[k];
        q = Eigen::Quaternionf(w, s * a.x(), s * a.y(), s * a.z()) * q;
      } else if (b == 0 && c != Channel::L) {
        translation[static_cast<int>(c) - static_cast<int>(Channel::TX)] = v;
      }
    }
    local_rotations[b] = q;
  }
  root_translation = clip.root_position + translation;
}

double sample_channel(const CompressedClip& clip, int channel, double frame) {
  const ClipTrack& track = clip.tracks[static_cast<std::size_t>(channel)];
  const double t = std::clamp(frame, 0.0, static_cast<double>(clip.frame_count - 1));
  if (track.storage == TrackStorage::kConstant) return track.constant;
  if (track.spacing == 0) {
    const int count = static_cast<int>(clip.keys.size());
    const int j = clip_curve::key_segment(clip.keys.data(), count, t);
    return clip_curve::keyed_at<double>(track.points.data(), clip.keys.data(), count, track.degree, j, t);
  }
  double u = 0.0;
  const int i = clip_curve::uniform_segment(t, 1.0 / track.spacing, clip_curve::gaps(clip.frame_count, track.spacing), u);
  return clip_curve::uniform_at<double>(track.points.data(), track.degree, i, u);
}

Result<Motion> decode_motion(const CompressedClip& clip, const Skeleton& skeleton) {
  if (auto ok = check_skeleton(clip, skeleton, skeleton.name.empty() ? "skeleton" : skeleton.name); !ok)
    return std::unexpected(ok.error());
  Motion motion;
  motion.fps = clip.fps;
  motion.channel_count = clip.channel_count;
  motion.frame_numbers.resize(static_cast<std::size_t>(clip.frame_count));
  for (int f = 0; f < clip.frame_count; ++f) motion.frame_numbers[f] = clip.frame_number(f);
  motion.values.assign(static_cast<std::size_t>(clip.frame_count) * clip.channel_count, 0.0);
  const std::size_t stride = static_cast<std::size_t>(clip.channel_count);
  for (int c = 0; c < clip.channel_count; ++c) {
    const ClipTrack& track = clip.tracks[c];
    double* out = motion.values.data() + c;
    if (track.storage == TrackStorage::kConstant) {
      for (int f = 0; f < clip.frame_count; ++f) out[f * stride] = track.constant;
    } else if (track.spacing == 0) {
      clip_curve::keyed_all<float>(track.points, clip.keys, track.degree, clip.frame_count, out, stride);
    } else {
      clip_curve::uniform_all<float>(track.points, track.degree, track.spacing, clip.frame_count, out, stride);
    }
  }
  return motion;
}

}  // namespace mocap
