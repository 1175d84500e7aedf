#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/rebuild.h>

#include <cmath>

#include "compress/runtime/clip_curve.h"
#include "compress/runtime/clip_pose.h"

namespace mocap {
using clip_curve::sin_cos;

ClipCursor make_cursor(const CompressedClip&) {
  return {};
}

void sample_clip(const CompressedClip& clip, double seconds, ClipCursor& cursor,
                 std::span<Eigen::Quaternionf> local_rotations, Eigen::Vector3f& root_translation) {
  const double last = clip.frame_count - 1;
  double t = seconds * clip.fps;
  t = !(t >= 0.0) ? 0.0 : (t > last ? last : t);  // NaN too
  const std::size_t bones = std::min(clip.bones.size(), local_rotations.size());
  const int key_count = static_cast<int>(clip.keys.size());
  if (key_count > 0) {
    // Whole-pose clips: the rebuild between the two keys around t, in double.
    if (key_count >= 2) cursor.segment = clip_curve::key_segment_from(clip.keys.data(), key_count, t, cursor.segment);
    const int j = key_count >= 2 ? cursor.segment : 0;
    for (std::size_t b = 0; b < bones; ++b)
      local_rotations[b] = clip_pose::pose_rotation_at(clip, clip_pose::rig_of(clip, b), j, t).cast<float>();
    Eigen::Vector3d translation = Eigen::Vector3d::Zero();
    const ClipBone& root = clip.bones[0];
    for (std::size_t k = 0; k < root.dofs.size(); ++k) {
      const Channel c = root.dofs[k];
      if (is_rotation(c) || c == Channel::L) continue;
      translation[static_cast<int>(c) - static_cast<int>(Channel::TX)] =
          clip_pose::channel_reference_at(clip, root.first_channel + static_cast<int>(k), false, j, t);
    }
    root_translation = clip.root_position + translation.cast<float>();
    return;
  }
  const auto value = [&](const ClipTrack& track) -> float {
    if (track.storage == TrackStorage::kConstant) return track.constant;
    double u = 0.0;
    const int i = clip_curve::uniform_segment(t, track.inv_spacing, track.segments, u);
    return clip_curve::uniform_at<float>(track.points.data(), track.degree, i, static_cast<float>(u));
  };
  Eigen::Vector3f translation = Eigen::Vector3f::Zero();
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
  if (!clip.keys.empty()) {
    // The channel of the rebuilt pose: its bone's rotation turned back into
    // angles nearest to the interpolated key values, as rebuild_motion does.
    const int count = static_cast<int>(clip.keys.size());
    const int j = clip_curve::key_segment(clip.keys.data(), count, t);
    std::size_t b = 0;
    while (b + 1 < clip.bones.size() && clip.bones[b + 1].first_channel <= channel) ++b;
    const ClipBone& bone = clip.bones[b];
    const bool rotation = is_rotation(bone.dofs[static_cast<std::size_t>(channel - bone.first_channel)]);
    const double reference = clip_pose::channel_reference_at(clip, channel, rotation, j, t);
    const bool at_key = count < 2 || t == clip.keys[j] || t == clip.keys[j + 1];
    if (!rotation || at_key)
      return at_key ? clip_pose::key_value(clip, channel, t == clip.keys[j] ? j : j + 1) : reference;
    const clip_pose::BoneRig rig = clip_pose::rig_of(clip, b);
    // channels_from_rotation indexes a frame by rig.channel: a rig whose
    // channels count from this bone's first.
    clip_pose::BoneRig local = rig;
    double values[8] = {};
    for (int k = 0; k < rig.rotations; ++k) {
      local.channel[k] = rig.channel[k] - bone.first_channel;
      values[local.channel[k]] = clip_pose::channel_reference_at(clip, rig.channel[k], true, j, t);
    }
    detail::channels_from_rotation(local, clip_pose::pose_rotation_at(clip, rig, j, t), values);
    return values[channel - bone.first_channel];
  }
  if (track.storage == TrackStorage::kConstant) return track.constant;
  double u = 0.0;
  const int i =
      clip_curve::uniform_segment(t, 1.0 / track.spacing, clip_curve::gaps(clip.frame_count, track.spacing), u);
  return clip_curve::uniform_at<double>(track.points.data(), track.degree, i, u);
}

Result<Motion> decode_motion(const CompressedClip& clip, const Skeleton& skeleton) {
  if (auto ok = check_skeleton(clip, skeleton, skeleton.name.empty() ? "skeleton" : skeleton.name); !ok)
    return std::unexpected(ok.error());
  if (!clip.keys.empty()) {
    // Whole-pose clips: the key poses rebuilt by rebuild_motion, timed by the
    // frame index (as the sampler is), then given the stored frame numbers.
    Motion keys;
    keys.fps = clip.fps;
    keys.channel_count = clip.channel_count;
    keys.frame_numbers.reserve(clip.keys.size());
    keys.values.reserve(clip.keys.size() * static_cast<std::size_t>(clip.channel_count));
    for (std::size_t j = 0; j < clip.keys.size(); ++j) {
      keys.frame_numbers.push_back(clip.first_frame + clip.keys[j]);
      for (int c = 0; c < clip.channel_count; ++c)
        keys.values.push_back(clip_pose::key_value(clip, c, static_cast<int>(j)));
    }
    auto motion = rebuild_motion(skeleton, keys, clip.name.empty() ? "clip" : clip.name, clip.interpolation);
    if (!motion) return motion;
    for (int f = 0; f < clip.frame_count; ++f)
      motion->frame_numbers[static_cast<std::size_t>(f)] = clip.frame_number(f);
    return motion;
  }
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
    } else {
      clip_curve::uniform_all<float>(track.points, track.degree, track.spacing, clip.frame_count, out, stride);
    }
  }
  return motion;
}

Result<Motion> read_clip_motion(const std::string& path, const Skeleton& skeleton, const std::string& skeleton_name) {
  auto file = read_compressed_clip(path);
  if (!file) return std::unexpected(file.error());
  if (auto fits = check_skeleton(*file, skeleton, skeleton_name); !fits) return std::unexpected(fits.error());
  return decode_motion(*file, skeleton);
}

}  // namespace mocap
