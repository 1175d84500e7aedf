// The cubic rebuild (Interpolation::kCubic) against slerp: keys exact, closer
// on smooth motion, constant angular velocity and quadratic motion given
// back at any key spacing, two keys falling back to slerp, and every real
// clip rebuilt finite, with slerp's and cubic's errors printed side by side.
#include <gtest/gtest.h>
#include <mocap/compress/keyframes.h>
#include <mocap/compress/motion_error.h>
#include <mocap/core/fk.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "test_data.h"

namespace mocap {
namespace {

constexpr Interpolation kSlerp = Interpolation::kSlerp;
constexpr Interpolation kCubic = Interpolation::kCubic;

using Loaded = test::LoadedClip;
using test::load_bundled;
using test::quaternion_gap;

// The channel of `bone`'s dof `c`.
int channel(const Skeleton& s, const std::string& bone, Channel c) {
  const Bone& b = s.bones[s.find_bone(bone)];
  for (std::size_t k = 0; k < b.dofs.size(); ++k) {
    if (b.dofs[k] == c) return b.first_channel + static_cast<int>(k);
  }
  ADD_FAILURE() << bone << " has no such dof";
  return 0;
}

// The 09 skeleton standing still (every channel 0) for `frames` frames.
Loaded still(int frames) {
  Loaded l = load_bundled("09_06");
  Motion& m = l.motion;
  m.frame_numbers.resize(static_cast<std::size_t>(frames));
  for (int f = 0; f < frames; ++f) m.frame_numbers[f] = f + 1;
  m.values.assign(static_cast<std::size_t>(frames) * m.channel_count, 0.0);
  return l;
}

// A smooth motion: the root swaying and travelling, a hip (3 dofs), a knee
// (1 dof) and a foot (2 dofs) swinging on sines of different rates.
Loaded smooth_motion(int frames) {
  Loaded l = still(frames);
  const Skeleton& s = l.skeleton;
  const double w = 2.0 * std::numbers::pi / 90.0;  // a period of 90 frames
  for (int f = 0; f < frames; ++f) {
    auto c = l.motion.frame(f);
    c[channel(s, "root", Channel::TX)] = 0.4 * std::sin(0.7 * w * f);
    c[channel(s, "root", Channel::TZ)] = 0.01 * f + 0.1 * std::cos(w * f);
    c[channel(s, "root", Channel::RY)] = 0.8 * std::sin(0.5 * w * f);
    c[channel(s, "root", Channel::RX)] = 0.2 * std::sin(1.3 * w * f);
    c[channel(s, "lfemur", Channel::RX)] = 0.9 * std::sin(w * f);
    c[channel(s, "lfemur", Channel::RY)] = 0.3 * std::cos(1.1 * w * f);
    c[channel(s, "lfemur", Channel::RZ)] = 0.4 * std::sin(0.8 * w * f + 1.0);
    c[channel(s, "ltibia", Channel::RX)] = 0.7 + 0.6 * std::sin(w * f + 0.5);
    c[channel(s, "lfoot", Channel::RX)] = 0.5 * std::sin(1.2 * w * f);
    c[channel(s, "lfoot", Channel::RZ)] = 0.3 * std::cos(0.9 * w * f);
  }
  return l;
}

// Mean over the frames of the largest rotation angle between the two tracks'
// bones, radians.
double mean_worst_angle(const PoseTrack& a, const PoseTrack& b) {
  double total = 0.0;
  for (int f = 0; f < a.frames; ++f) {
    double worst = 0.0;
    for (int j = 0; j < a.bones; ++j) worst = std::max(worst, rotation_angle(a.rotations(f)[j], b.rotations(f)[j]));
    total += worst;
  }
  return total / a.frames;
}

double mean_position_error(const Loaded& l, std::span<const int> keys, Interpolation how) {
  auto rebuilt = rebuild_motion(l.skeleton, key_motion(l.motion, keys), "keys", how);
  EXPECT_TRUE(rebuilt);
  if (!rebuilt) return NAN;
  auto e = measure_error(l.skeleton, l.motion, *rebuilt);
  EXPECT_TRUE(e);
  return e ? e->position.mean : NAN;
}

// Keys at uneven gaps (1 to 23 frames) over 141 frames.
const std::vector<int> kUnevenKeys{0, 3, 20, 24, 41, 42, 60, 83, 90, 101, 117, 125, 140};

// ---------------------------------------------------------------------------

TEST(KeyframeCubic, NamesAndDefault) {
  EXPECT_EQ(interpolation_name(kSlerp), "slerp");
  EXPECT_EQ(interpolation_name(kCubic), "cubic");
  // The default is slerp: the same values as asking for it.
  const Loaded l = load_bundled("09_06");
  const Motion keys = key_motion(l.motion, uniform_keys(l.motion.frame_count(), 14));
  auto by_default = rebuild_motion(l.skeleton, keys);
  auto slerp = rebuild_motion(l.skeleton, keys, "keys", kSlerp);
  ASSERT_TRUE(by_default && slerp);
  EXPECT_EQ(by_default->values, slerp->values);
}

TEST(KeyframeCubic, KeysComeBackExactly) {
  for (const auto& clip : test::bundled_clips()) {
    Skeleton s;
    Motion m;
    ASSERT_TRUE(test::load(clip, s, m));
    for (const auto& keys : {uniform_keys(m.frame_count(), m.frame_count() / 10), kUnevenKeys}) {
      auto rebuilt = rebuild_motion(s, key_motion(m, keys), "keys", kCubic);
      ASSERT_TRUE(rebuilt) << rebuilt.error().to_string();
      ASSERT_EQ(rebuilt->frame_count(), keys.back() - keys.front() + 1);
      for (const int k : keys) {
        for (int c = 0; c < m.channel_count; ++c) {
          ASSERT_EQ(rebuilt->frame(k - keys.front())[c], m.frame(k)[c]) << clip.name << " key " << k;
        }
      }
      const PoseTrack track = make_pose_track(s, m);
      PoseTrack poses = make_pose_track(s, m);
      rebuild_poses(s, track, keys, poses, kCubic);
      for (const int k : keys) {
        for (int j = 0; j < track.bones; ++j) {
          ASSERT_EQ(poses.rotations(k - keys.front())[j].coeffs(), track.rotations(k)[j].coeffs()) << clip.name;
          ASSERT_EQ(poses.offsets(k - keys.front())[j], track.offsets(k)[j]) << clip.name;
        }
      }
    }
  }
}

// rebuild_motion's channels give back rebuild_poses' poses, as with slerp:
// the two-dof projection and the translations agree.
TEST(KeyframeCubic, ChannelsGiveBackThePosesOfTheRebuild) {
  for (const auto& clip : test::bundled_clips()) {
    Skeleton s;
    Motion m;
    ASSERT_TRUE(test::load(clip, s, m));
    const auto keys = uniform_keys(m.frame_count(), m.frame_count() / 8);
    const PoseTrack track = make_pose_track(s, m);
    PoseTrack poses = make_pose_track(s, m);
    rebuild_poses(s, track, keys, poses, kCubic);
    auto rebuilt = rebuild_motion(s, key_motion(m, keys), "keys", kCubic);
    ASSERT_TRUE(rebuilt);
    const PoseTrack from_channels = make_pose_track(s, *rebuilt);
    double worst = 0.0;
    for (std::size_t i = 0; i < poses.rotation.size(); ++i) {
      worst = std::max(worst, quaternion_gap(poses.rotation[i], from_channels.rotation[i]));
      worst = std::max(worst, (poses.offset[i] - from_channels.offset[i]).norm());
    }
    EXPECT_LT(worst, 1e-9) << clip.name;
  }
}

TEST(KeyframeCubic, CloserThanSlerpOnSmoothMotion) {
  const Loaded l = smooth_motion(141);
  const PoseTrack track = make_pose_track(l.skeleton, l.motion);
  for (const auto& keys : {uniform_keys(141, 15), kUnevenKeys}) {
    PoseTrack slerp = track, cubic = track;
    rebuild_poses(l.skeleton, track, keys, slerp, kSlerp);
    rebuild_poses(l.skeleton, track, keys, cubic, kCubic);
    const double slerp_angle = mean_worst_angle(track, slerp);
    const double cubic_angle = mean_worst_angle(track, cubic);
    const double slerp_cm = mean_position_error(l, keys, kSlerp);
    const double cubic_cm = mean_position_error(l, keys, kCubic);
    std::printf(
        "smooth motion, %zu keys: worst bone angle %.5f (slerp) vs %.5f rad (cubic), position %.4f vs %.4f cm\n",
        keys.size(), slerp_angle, cubic_angle, slerp_cm, cubic_cm);
    // Catmull-Rom tangents on gaps as uneven as 1 next to 18 frames are off
    // by about the acceleration times half the difference: still closer,
    // by less.
    const double factor = keys.size() == 15 ? 0.25 : 0.75;
    EXPECT_LT(cubic_angle, factor * slerp_angle);
    EXPECT_LT(cubic_cm, factor * slerp_cm);
  }
}

// A bone turning at a constant angular velocity about a fixed axis, and the
// root moving at a constant velocity: both rebuilds give every frame back, at
// even and uneven key spacing.
TEST(KeyframeCubic, ConstantVelocityIsReproducedByBoth) {
  const Loaded l = still(141);
  PoseTrack track = make_pose_track(l.skeleton, l.motion);
  const int hip = l.skeleton.find_bone("lfemur");  // three dofs: no projection
  const Eigen::Vector3d axis = Eigen::Vector3d(0.3, -0.5, 0.8).normalized();
  const Eigen::Quaterniond base(Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitY()));
  for (int f = 0; f < track.frames; ++f) {
    const std::size_t row = static_cast<std::size_t>(f) * track.bones;
    track.rotation[row + hip] = base * Eigen::Quaterniond(Eigen::AngleAxisd(0.035 * f, axis));
    track.rotation[row] = Eigen::Quaterniond(Eigen::AngleAxisd(-0.02 * f, Eigen::Vector3d::UnitY()));
    track.offset[row] = Eigen::Vector3d(0.01 * f, 0.9, -0.004 * f);
  }
  for (const auto& keys : {uniform_keys(141, 15), kUnevenKeys}) {
    for (const Interpolation how : {kSlerp, kCubic}) {
      PoseTrack out = track;
      rebuild_poses(l.skeleton, track, keys, out, how);
      double worst = 0.0;
      for (int f = 0; f < out.frames; ++f) {
        for (int j = 0; j < track.bones; ++j) {
          worst = std::max(worst, quaternion_gap(out.rotations(f)[j], track.rotations(f)[j]));
          worst = std::max(worst, (out.offsets(f)[j] - track.offsets(f)[j]).norm());
        }
      }
      EXPECT_LT(worst, 1e-12) << interpolation_name(how) << ", " << keys.size() << " keys";
    }
  }
}

// Uneven gaps: the tangents use the real times. A knee angle and a root
// translation linear in time come back exactly from keys at uneven frame
// numbers; quadratic in time, the cubic is closer than slerp; and the
// rebuild has no kink at keys, where slerp has.
TEST(KeyframeCubic, UnevenSpacingUsesTheRealGaps) {
  Loaded l = still(141);
  const int knee = channel(l.skeleton, "ltibia", Channel::RX);
  const int tx = channel(l.skeleton, "root", Channel::TX);
  const std::vector<int>& keys = kUnevenKeys;
  auto worst_between_inner_keys = [&](const Motion& rebuilt, auto knee_at, auto tx_at) {
    double worst = 0.0;
    for (int f = keys[1]; f <= keys[keys.size() - 2]; ++f) {
      worst = std::max(worst, std::abs(rebuilt.frame(f)[knee] - knee_at(f)));
      worst = std::max(worst, std::abs(rebuilt.frame(f)[tx] - tx_at(f)));
    }
    return worst;
  };
  {
    auto knee_at = [](double f) { return 0.1 + 0.02 * f; };
    auto tx_at = [](double f) { return -0.3 + 0.004 * f; };
    for (int f = 0; f < 141; ++f) {
      l.motion.frame(f)[knee] = knee_at(f);
      l.motion.frame(f)[tx] = tx_at(f);
    }
    // Through rebuild_motion: the times are the key file's frame numbers.
    auto cubic = rebuild_motion(l.skeleton, key_motion(l.motion, keys), "keys", kCubic);
    ASSERT_TRUE(cubic);
    EXPECT_LT(worst_between_inner_keys(*cubic, knee_at, tx_at), 1e-12);
  }
  {
    auto knee_at = [](double f) { return 0.1 + 0.02 * f - 0.0002 * f * f; };
    auto tx_at = [](double f) { return -0.3 + 0.00005 * f * f; };
    for (int f = 0; f < 141; ++f) {
      l.motion.frame(f)[knee] = knee_at(f);
      l.motion.frame(f)[tx] = tx_at(f);
    }
    auto slerp = rebuild_motion(l.skeleton, key_motion(l.motion, keys), "keys", kSlerp);
    auto cubic = rebuild_motion(l.skeleton, key_motion(l.motion, keys), "keys", kCubic);
    ASSERT_TRUE(slerp && cubic);
    const double slerp_worst = worst_between_inner_keys(*slerp, knee_at, tx_at);
    const double cubic_worst = worst_between_inner_keys(*cubic, knee_at, tx_at);
    std::printf("quadratic knee and root, uneven keys: worst error %.2e (slerp) vs %.2e (cubic)\n", slerp_worst,
                cubic_worst);
    EXPECT_LT(cubic_worst, 0.6 * slerp_worst);
  }

  // Smooth motion: across each inner key, the change between the hip's
  // one-frame turns before and after the key (in size and direction) against
  // the same change in the original. Slerp turns a corner at keys (its
  // velocity jumps by about the acceleration times half the gaps); the
  // cubic's velocity is continuous, so it is off only by its error in
  // acceleration over a frame.
  const Loaded m = smooth_motion(141);
  const PoseTrack track = make_pose_track(m.skeleton, m.motion);
  const int hip = m.skeleton.find_bone("lfemur");
  auto turn = [&](const PoseTrack& t, int f) {  // rotation vector from frame f to f + 1, local frame of f
    const Eigen::AngleAxisd r(t.rotations(f)[hip].conjugate() * t.rotations(f + 1)[hip]);
    return Eigen::Vector3d(r.angle() * r.axis());
  };
  double kink[2] = {0.0, 0.0};
  for (const Interpolation how : {kSlerp, kCubic}) {
    PoseTrack out = track;
    rebuild_poses(m.skeleton, track, keys, out, how);
    for (std::size_t i = 1; i + 1 < keys.size(); ++i) {
      const int k = keys[i];
      if (k - keys[i - 1] < 2 || keys[i + 1] - k < 2) continue;
      const Eigen::Vector3d change = turn(out, k) - turn(out, k - 1);
      const Eigen::Vector3d original = turn(track, k) - turn(track, k - 1);
      kink[how == kCubic] = std::max(kink[how == kCubic], (change - original).norm());
    }
  }
  std::printf(
      "largest error of the change of the hip's one-frame turn across a key: %.2e (slerp) vs %.2e rad (cubic)\n",
      kink[0], kink[1]);
  EXPECT_LT(kink[1], 0.2 * kink[0]);
}

// A jump between two keys a frame apart, still on either side: the tangents
// at those keys are capped by the long still gaps beside them to nothing, so
// the cubic does not ring into the still stretches (slerp gives every frame
// back, and so does the cubic).
TEST(KeyframeCubic, AJumpBetweenCloseKeysDoesNotRing) {
  Loaded l = still(61);
  const int knee = channel(l.skeleton, "ltibia", Channel::RX);
  const int hip = channel(l.skeleton, "lfemur", Channel::RY);
  for (int f = 30; f < 61; ++f) {
    l.motion.frame(f)[knee] = 1.0;
    l.motion.frame(f)[hip] = -0.6;
  }
  for (const Interpolation how : {kSlerp, kCubic}) {
    auto rebuilt = rebuild_motion(l.skeleton, key_motion(l.motion, std::vector<int>{0, 29, 30, 60}), "keys", how);
    ASSERT_TRUE(rebuilt);
    double worst = 0.0;
    for (std::size_t i = 0; i < rebuilt->values.size(); ++i) {
      worst = std::max(worst, std::abs(rebuilt->values[i] - l.motion.values[i]));
    }
    EXPECT_LT(worst, 1e-12) << interpolation_name(how);
  }
}

// Two keys: the cubic is the slerp (tangents are the one gap's slope); one
// key: one frame.
TEST(KeyframeCubic, TwoKeysFallBackToSlerp) {
  const Loaded l = load_bundled("09_06");
  for (const auto& keys : {std::vector<int>{0, 60}, std::vector<int>{30, 32}}) {
    const Motion key_frames = key_motion(l.motion, keys);
    auto slerp = rebuild_motion(l.skeleton, key_frames, "keys", kSlerp);
    auto cubic = rebuild_motion(l.skeleton, key_frames, "keys", kCubic);
    ASSERT_TRUE(slerp && cubic);
    ASSERT_EQ(slerp->frame_count(), cubic->frame_count());
    double worst = 0.0;
    for (std::size_t i = 0; i < slerp->values.size(); ++i) {
      worst = std::max(worst, std::abs(slerp->values[i] - cubic->values[i]));
    }
    EXPECT_LT(worst, 1e-9);
  }
  auto one = rebuild_motion(l.skeleton, key_motion(l.motion, std::vector<int>{7}), "keys", kCubic);
  ASSERT_TRUE(one);
  ASSERT_EQ(one->frame_count(), 1);
  for (int c = 0; c < l.motion.channel_count; ++c) EXPECT_EQ(one->frame(0)[c], l.motion.frame(7)[c]);
}

// Real-data quirks: a dropout frame of zeros and a frame flipped by 180
// degrees among the keys keep the cubic finite and the keys exact.
TEST(KeyframeCubic, SurvivesDropoutsAndFlips) {
  Loaded l = load_bundled("16_05");
  Motion& m = l.motion;
  std::fill(m.frame(100).begin(), m.frame(100).end(), 0.0);
  const int root = l.skeleton.bones[0].first_channel;
  for (int k = 3; k < 6; ++k) m.frame(200)[root + k] += std::numbers::pi;  // root rx ry rz
  std::vector<int> keys = uniform_keys(m.frame_count(), 30);
  keys.insert(keys.end(), {100, 200});
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  auto rebuilt = rebuild_motion(l.skeleton, key_motion(m, keys), "keys", kCubic);
  ASSERT_TRUE(rebuilt);
  for (const double v : rebuilt->values) ASSERT_TRUE(std::isfinite(v));
  for (const int k : keys) {
    for (int c = 0; c < m.channel_count; ++c) ASSERT_EQ(rebuilt->frame(k)[c], m.frame(k)[c]);
  }
}

// Real clips at uniform 10 % keys: the cubic is finite and exact at keys;
// slerp's and cubic's position errors are printed and returned.
struct CubicGain {
  double least_mean_gain = 1.0, most_mean_gain = 0.0;  // 1 - cubic mean / slerp mean, over the clips
  int lower_max = 0;                                   // clips whose max the cubic lowers
};
CubicGain rebuild_real_clips(const std::vector<test::ClipFiles>& clips) {
  CubicGain gain;
  for (const auto& clip : clips) {
    Skeleton s;
    Motion m;
    if (!test::load(clip, s, m)) continue;
    const int count = static_cast<int>(std::lround(0.1 * m.frame_count()));
    const std::vector<int> keys = uniform_keys(m.frame_count(), count);
    const Motion key_frames = key_motion(m, keys);
    auto slerp = rebuild_motion(s, key_frames, clip.amc.string(), kSlerp);
    auto cubic = rebuild_motion(s, key_frames, clip.amc.string(), kCubic);
    EXPECT_TRUE(slerp && cubic) << clip.name;
    if (!slerp || !cubic) continue;
    EXPECT_EQ(cubic->frame_numbers, m.frame_numbers) << clip.name;
    for (const double v : cubic->values) EXPECT_TRUE(std::isfinite(v)) << clip.name;
    for (const int k : keys) {
      for (int c = 0; c < m.channel_count; ++c) EXPECT_EQ(cubic->frame(k)[c], m.frame(k)[c]) << clip.name;
    }
    auto slerp_error = measure_error(s, m, *slerp);
    auto cubic_error = measure_error(s, m, *cubic);
    EXPECT_TRUE(slerp_error && cubic_error) << clip.name;
    if (!slerp_error || !cubic_error) continue;
    EXPECT_TRUE(std::isfinite(cubic_error->position.mean) && std::isfinite(cubic_error->position.max));
    std::printf("%-7s %5d frames %4d uniform keys: position mean %.4f (slerp) vs %.4f cm (cubic), %+.1f %%\n",
                clip.name.c_str(), m.frame_count(), count, slerp_error->position.mean, cubic_error->position.mean,
                100.0 * (cubic_error->position.mean / slerp_error->position.mean - 1.0));
    const double mean_gain = 1.0 - cubic_error->position.mean / slerp_error->position.mean;
    gain.least_mean_gain = std::min(gain.least_mean_gain, mean_gain);
    gain.most_mean_gain = std::max(gain.most_mean_gain, mean_gain);
    gain.lower_max += cubic_error->position.max < slerp_error->position.max;
  }
  std::printf("cubic against slerp: mean %.0f to %.0f %% lower, max lower on %d of %zu clips\n",
              100 * gain.least_mean_gain, 100 * gain.most_mean_gain, gain.lower_max, clips.size());
  return gain;
}

TEST(KeyframeCubic, BundledClipsAtTenPercentUniformKeys) {
  rebuild_real_clips(test::bundled_clips());
}

TEST(KeyframeCubic, EverySharedClipAtTenPercentUniformKeys) {
  MOCAP_REQUIRE_SHARED_DATA();
  const auto clips = test::shared_clips();
  EXPECT_EQ(clips.size(), 18u);
  // The README's figures (measured on 2026-12-04: 23 to 54 %, 17 of 18),
  // less a margin of 2 points and one clip.
  const CubicGain gain = rebuild_real_clips(clips);
  EXPECT_GE(gain.least_mean_gain, 0.21);
  EXPECT_GE(gain.lower_max, 16);
}

}  // namespace
}  // namespace mocap
