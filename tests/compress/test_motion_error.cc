#include <gtest/gtest.h>
#include <mocap/compress/keyframes.h>
#include <mocap/compress/motion_error.h>

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

}  // namespace
}  // namespace mocap
