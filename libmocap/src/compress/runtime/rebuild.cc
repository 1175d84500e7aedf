#include <mocap/compress/rebuild.h>

#include <algorithm>

#include "compress/runtime/dof_model.h"
#include "compress/runtime/interpolators.h"

namespace mocap {

using detail::BoneRig;
using detail::channel_tangents;
using detail::channels_from_rotation;
using detail::HermiteBasis;
using detail::KeyInterpolator;
using detail::make_rig;

void rebuild_poses(const Skeleton& skeleton, const PoseTrack& track, std::span<const int> keys, PoseTrack& out,
                   Interpolation interpolation) {
  const std::vector<BoneRig> rig = make_rig(skeleton);
  KeyInterpolator interpolate(skeleton, rig, track, keys, keys, interpolation);
  const int bones = track.bones;
  const int first = keys.front();
  out.frames = keys.back() - first + 1;
  out.bones = bones;
  auto copy_frame = [&](int from, int to) {
    std::copy_n(track.rotations(from), bones, out.rotation.begin() + static_cast<std::ptrdiff_t>(to) * bones);
    std::copy_n(track.offsets(from), bones, out.offset.begin() + static_cast<std::ptrdiff_t>(to) * bones);
  };
  copy_frame(keys.front(), 0);
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    const int a = keys[i], b = keys[i + 1];
    if (b - a > 1) {
      interpolate.prepare(i);
      for (int f = a + 1; f < b; ++f) {
        const std::size_t row = static_cast<std::size_t>(f - first) * bones;
        interpolate.next(out.rotation.data() + row, out.offset.data() + row);
      }
    }
    copy_frame(b, b - first);
  }
}

Motion key_motion(const Motion& motion, std::span<const int> keys) {
  Motion out;
  out.fps = motion.fps;
  out.channel_count = motion.channel_count;
  out.frame_numbers.reserve(keys.size());
  out.values.reserve(keys.size() * static_cast<std::size_t>(motion.channel_count));
  for (const int k : keys) {
    out.frame_numbers.push_back(motion.frame_numbers[k]);
    const auto values = motion.frame(k);
    out.values.insert(out.values.end(), values.begin(), values.end());
  }
  return out;
}

Result<Motion> rebuild_motion(const Skeleton& skeleton, const Motion& keys, const std::string& name,
                              Interpolation interpolation) {
  if (keys.frame_count() == 0) return fail(name, 0, "no key frames; expected at least one");
  if (keys.channel_count != skeleton.channel_count) {
    return fail(name, 0, "the keys do not match the skeleton's channels");
  }
  for (int i = 1; i < keys.frame_count(); ++i) {
    if (keys.frame_numbers[i] <= keys.frame_numbers[i - 1]) {
      return fail(name, 0,
                  "key frame " + std::to_string(keys.frame_numbers[i]) + " follows frame " +
                      std::to_string(keys.frame_numbers[i - 1]) + "; expected increasing frame numbers");
    }
  }
  const PoseTrack track = make_pose_track(skeleton, keys);
  const std::vector<BoneRig> rig = make_rig(skeleton);
  std::vector<int> rows(static_cast<std::size_t>(keys.frame_count()));
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int>(i);
  KeyInterpolator interpolate(skeleton, rig, track, rows, keys.frame_numbers, interpolation);
  const bool cubic = interpolation == Interpolation::kCubic;
  const std::vector<double> tangent = cubic ? channel_tangents(skeleton, keys) : std::vector<double>();
  Motion out;
  out.fps = keys.fps;
  out.channel_count = keys.channel_count;
  const int first = keys.frame_numbers.front();
  const int frames = keys.frame_numbers.back() - first + 1;
  out.frame_numbers.resize(static_cast<std::size_t>(frames));
  for (int f = 0; f < frames; ++f) out.frame_numbers[f] = first + f;
  out.values.resize(static_cast<std::size_t>(frames) * out.channel_count);
  const std::size_t bones = skeleton.bones.size();
  std::vector<Eigen::Quaterniond> rotation(bones);
  std::vector<Eigen::Vector3d> offset(bones);
  const int channels = out.channel_count;
  auto copy_key = [&](int i) {
    const auto values = keys.frame(i);
    std::copy(values.begin(), values.end(), out.frame(keys.frame_numbers[i] - first).begin());
  };
  copy_key(0);
  for (int i = 0; i + 1 < keys.frame_count(); ++i) {
    const int na = keys.frame_numbers[i], nb = keys.frame_numbers[i + 1];
    if (nb - na > 1) interpolate.prepare(static_cast<std::size_t>(i));
    const double* ca = keys.frame(i).data();
    const double* cb = keys.frame(i + 1).data();
    const double* ma = cubic ? tangent.data() + static_cast<std::size_t>(i) * channels : nullptr;
    const double* mb = cubic ? ma + channels : nullptr;
    for (int n = na + 1; n < nb; ++n) {
      const double t = static_cast<double>(n - na) / (nb - na);
      double* c = out.frame(n - first).data();
      // The keys' values interpolated channel by channel (a straight line, or
      // the cubic Hermite): the answer for translations, the reference that
      // picks among equivalent angles.
      if (cubic) {
        const HermiteBasis hermite(t, nb - na);
        for (int k = 0; k < channels; ++k) c[k] = hermite(ca[k], cb[k], ma[k], mb[k]);
      } else {
        for (int k = 0; k < channels; ++k) c[k] = (1.0 - t) * ca[k] + t * cb[k];
      }
      interpolate.next(rotation.data(), offset.data());
      // Back to channels by the inverse of the dof model, each angle nearest
      // to its interpolated value.
      for (std::size_t b = 0; b < bones; ++b) channels_from_rotation(rig[b], rotation[b], c);
    }
    copy_key(i + 1);
  }
  return out;
}

}  // namespace mocap
