#include <gtest/gtest.h>
#include <mocap/compress/keyframes.h>
#include <mocap/compress/motion_error.h>
#include <mocap/core/fk.h>

#include <cmath>
#include <numbers>

#include "test_data.h"

namespace mocap {
namespace {

struct Loaded {
  Skeleton skeleton;
  Motion motion;
};

Loaded first_real_clip() {
  Loaded l;
  const auto clips = test::bundled_clips();
  if (clips.empty()) {
    ADD_FAILURE() << "no bundled clips";
    return l;
  }
  test::load(clips.front(), l.skeleton, l.motion);
  return l;
}

TEST(MotionError, IdenticalMotionsHaveNoError) {
  const Loaded l = first_real_clip();
  const auto e = measure_error(l.skeleton, l.motion, l.motion);
  ASSERT_TRUE(e) << e.error().to_string();
  EXPECT_EQ(e->frames, l.motion.frame_count());
  for (const ErrorStats* s : {&e->position, &e->velocity, &e->combined, &e->shell}) {
    EXPECT_EQ(s->max, 0.0);
    EXPECT_EQ(s->mean, 0.0);
  }
}

TEST(MotionError, RootShiftIsOneCentimetreEverywhere) {
  const Loaded l = first_real_clip();
  Motion shifted = l.motion;
  const int tx = l.skeleton.bones[0].first_channel;  // root TX, metres
  for (int f = 0; f < shifted.frame_count(); ++f) shifted.frame(f)[tx] += 0.01;
  const auto e = measure_error(l.skeleton, l.motion, shifted);
  ASSERT_TRUE(e);
  EXPECT_NEAR(e->position.mean, 1.0, 1e-9);
  EXPECT_NEAR(e->position.rms, 1.0, 1e-9);
  EXPECT_NEAR(e->position.p99, 1.0, 1e-9);
  EXPECT_NEAR(e->position.max, 1.0, 1e-9);
  EXPECT_NEAR(e->velocity.max, 0.0, 1e-9);
  EXPECT_NEAR(e->shell.max, 1.0, 1e-9);  // no rotation: the shell moves as the joints do
  EXPECT_NEAR(e->combined.mean, 1.0, 1e-9);
}

TEST(MotionError, OneFrameOffGivesCentralDifferenceVelocity) {
  const Loaded l = first_real_clip();
  Motion moved = l.motion;
  const int f = 10;
  moved.frame(f)[l.skeleton.bones[0].first_channel + 1] += 0.02;  // root TY, 2 cm
  ErrorOptions options;
  options.velocity_weight = 2.0;
  const auto e = measure_error(l.skeleton, l.motion, moved, options);
  ASSERT_TRUE(e);
  const double frames = l.motion.frame_count();
  EXPECT_NEAR(e->position.max, 2.0, 1e-9);
  EXPECT_EQ(e->position.worst_frame, f);
  EXPECT_NEAR(e->position.mean, 2.0 / frames, 1e-9);
  // Velocity at f - 1 and f + 1 is off by 2 cm / 2 frames; at f not at all.
  EXPECT_NEAR(e->velocity.max, 1.0, 1e-9);
  EXPECT_NEAR(e->velocity.mean, 2.0 / frames, 1e-9);
  EXPECT_TRUE(e->velocity.worst_frame == f - 1 || e->velocity.worst_frame == f + 1);
  // Combined = position + lambda * velocity, frame by frame.
  EXPECT_NEAR(e->combined.mean, e->position.mean + 2.0 * e->velocity.mean, 1e-9);
  EXPECT_NEAR(e->combined.max, 2.0, 1e-9);
}

TEST(MotionError, ShellSeesRotationThatPositionsMiss) {
  const Loaded l = first_real_clip();
  // Turn a leaf bone about its own length: its end point stays, the shell
  // points around it move.
  const int b = l.skeleton.find_bone("lfingers");
  ASSERT_GE(b, 0);
  Motion turned = l.motion;
  for (int f = 0; f < turned.frame_count(); ++f) turned.frame(f)[l.skeleton.bones[b].first_channel] += 0.5;
  const auto e = measure_error(l.skeleton, l.motion, turned, {.velocity_weight = 1.0, .shell_radius = 0.03});
  ASSERT_TRUE(e);
  EXPECT_GT(e->shell.max, e->position.max * l.skeleton.bones.size() * 0.5);
  EXPECT_EQ(e->shell.worst_joint, b);
  EXPECT_LE(e->shell.max, 100.0 * (2 * std::sin(0.25) * (l.skeleton.bones[b].length + 0.03)) + 1e-9);
  const auto no_shell = measure_error(l.skeleton, l.motion, turned, {.velocity_weight = 1.0, .shell_radius = 0.0});
  ASSERT_TRUE(no_shell);
  EXPECT_LT(no_shell->shell.max, e->shell.max);
}

TEST(MotionError, StatsOverFrames) {
  // Two bones, ten frames; bone 1 of frame f is off by f cm along x.
  const int frames = 10, bones = 2;
  std::vector<Eigen::Vector3d> a(frames * bones, Eigen::Vector3d::Zero()), b = a;
  std::vector<Eigen::Quaterniond> r(frames * bones, Eigen::Quaterniond::Identity());
  for (int f = 0; f < frames; ++f) b[f * bones + 1].x() = 0.01 * f;
  ErrorMeasure measure(bones, frames);
  MotionError e;
  ASSERT_TRUE(measure.run(a, r, b, r, frames, {}, e));
  EXPECT_NEAR(e.position.mean, 4.5 / 2, 1e-12);  // mean over frames of f / 2
  EXPECT_NEAR(e.position.max, 4.5, 1e-12);
  EXPECT_NEAR(e.position.p99, 4.5, 1e-12);  // nearest rank of 10 values: the largest
  EXPECT_EQ(e.position.worst_frame, 9);
  EXPECT_EQ(e.position.worst_joint, 1);
  double sq = 0.0;
  for (int f = 0; f < frames; ++f) sq += (f / 2.0) * (f / 2.0);
  EXPECT_NEAR(e.position.rms, std::sqrt(sq / frames), 1e-12);
  EXPECT_NEAR(e.velocity.mean, 0.5, 1e-12);  // 1 cm per frame on one of two bones
  // Too many frames for the measure, or short inputs, are refused.
  MotionError untouched;
  EXPECT_FALSE(measure.run(a, r, b, r, frames + 1, {}, untouched));
  EXPECT_FALSE(measure.run(std::span(a).first(3), r, b, r, frames, {}, untouched));
  EXPECT_EQ(untouched.frames, 0);
}

TEST(MotionError, RefusesMotionsThatDoNotLineUp) {
  const Loaded l = first_real_clip();
  Motion shorter = key_motion(l.motion, uniform_keys(l.motion.frame_count(), 5));
  EXPECT_FALSE(measure_error(l.skeleton, l.motion, shorter));
  Motion renumbered = l.motion;
  renumbered.frame_numbers[3] += 1000;
  const auto e = measure_error(l.skeleton, l.motion, renumbered);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("numbered"), std::string::npos);
}

TEST(MotionError, RebuildErrorOnRealClipsIsSmallAndSymmetricInPosition) {
  for (const auto& clip : test::all_real_clips()) {
    Skeleton s;
    Motion m;
    ASSERT_TRUE(test::load(clip, s, m));
    auto rebuilt = rebuild_motion(s, key_motion(m, uniform_keys(m.frame_count(), m.frame_count() / 10)));
    ASSERT_TRUE(rebuilt);
    const auto there = measure_error(s, m, *rebuilt);
    const auto back = measure_error(s, *rebuilt, m);
    ASSERT_TRUE(there && back);
    EXPECT_GT(there->position.mean, 0.0) << clip.name;
    EXPECT_LT(there->position.mean, 10.0) << clip.name;  // cm: a rebuild, not noise
    EXPECT_LE(there->position.p99, there->position.max);
    EXPECT_LE(there->position.mean, there->position.rms + 1e-12);
    EXPECT_NEAR(there->position.mean, back->position.mean, 1e-9) << clip.name;
    EXPECT_NEAR(there->shell.max, back->shell.max, 1e-9) << clip.name;
  }
}

// The honest max: the worst joint on the worst frame. Brute force over every
// joint and frame of the world positions gives the same number, joint and
// frame; the mean over joints' worst frame (position.max) hides far worse.
void expect_worst_joint_is_found(const test::ClipFiles& clip, double hidden_factor) {
  Skeleton s;
  Motion m;
  ASSERT_TRUE(test::load(clip, s, m));
  const int frames = m.frame_count();
  const int count = static_cast<int>(std::lround(0.1 * frames));
  const KeySelection selection = select_keys_for_count(s, m, default_joint_weights(s), count);
  auto rebuilt = rebuild_motion(s, key_motion(m, selection.keys));
  ASSERT_TRUE(rebuilt);
  const auto e = measure_error(s, m, *rebuilt);
  ASSERT_TRUE(e);
  const std::size_t bones = s.bones.size();
  std::vector<Eigen::Vector3d> p(frames * bones), q(frames * bones);
  std::vector<Eigen::Quaterniond> pr(frames * bones), qr(frames * bones);
  world_transforms(s, m, p, pr);
  world_transforms(s, *rebuilt, q, qr);
  double worst = -1.0;
  int worst_frame = -1, worst_joint = -1;
  for (int f = 0; f < frames; ++f) {
    for (std::size_t j = 0; j < bones; ++j) {
      const double d = 100.0 * (q[f * bones + j] - p[f * bones + j]).norm();
      if (d > worst) worst = d, worst_frame = f, worst_joint = static_cast<int>(j);
    }
  }
  EXPECT_NEAR(e->joint.max, worst, 1e-9) << clip.name;
  EXPECT_EQ(e->joint.worst_frame, worst_frame) << clip.name;
  EXPECT_EQ(e->joint.worst_joint, worst_joint) << clip.name;
  EXPECT_GT(e->joint.max, hidden_factor * e->position.max) << clip.name;
  EXPECT_GE(e->joint.p99, e->position.p99) << clip.name;
  EXPECT_GE(e->shell.max, e->joint.max) << clip.name;
}

TEST(MotionError, WorstJointIsEveryJointOnEveryFrameOnBundledClips) {
  for (const auto& clip : test::bundled_clips()) expect_worst_joint_is_found(clip, 2.5);
}

// 87_03 at the selection's 10 % keys: the mean's worst frame is 5.8 cm, rtoes 33.9 cm off.
TEST(MotionError, WorstJointHiddenByTheMeanOnSharedClip) {
  MOCAP_REQUIRE_SHARED_DATA();
  for (const auto& clip : test::shared_clips()) {
    if (clip.name == "87_03") expect_worst_joint_is_found(clip, 5.0);
  }
}

}  // namespace
}  // namespace mocap
