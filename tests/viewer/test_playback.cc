// The viewer's playback clock (viewer/playback.h): the frame follows real time
// at the chosen speed, skips frames when rendering is slow, and does not drift.
#include "../../viewer/playback.h"

#include <gtest/gtest.h>

#include <random>

namespace mocap::viewer {
namespace {

Playback playing_clip(int frames, double fps = 120.0) {
  Playback p;
  p.load(frames, fps);
  p.play();
  return p;
}

TEST(Playback, EmptyClipIsSafe) {
  Playback p;
  p.play();
  EXPECT_FALSE(p.playing);
  p.advance(1.0);
  p.step(5);
  p.seek(10);
  EXPECT_EQ(p.frame(), 0);
  EXPECT_EQ(p.time_s, 0.0);
}

TEST(Playback, SeekShowsEveryFrameAtItsStartTime) {
  Playback p;
  p.load(5423, 120.0);
  for (int f = 0; f < p.frame_count; ++f) {
    p.seek(f);
    ASSERT_EQ(p.frame(), f);
    ASSERT_DOUBLE_EQ(p.time_s, f / 120.0);
  }
  p.seek(-3);
  EXPECT_EQ(p.frame(), 0);
  p.seek(99999);
  EXPECT_EQ(p.frame(), 5422);
}

TEST(Playback, PausedDoesNotMove) {
  Playback p;
  p.load(100, 120.0);
  p.advance(0.5);
  EXPECT_EQ(p.frame(), 0);
}

TEST(Playback, SlowRenderingSkipsFrames) {
  Playback p = playing_clip(1000);
  p.advance(0.1);  // a 10 fps render at 120 Hz
  EXPECT_EQ(p.frame(), 12);
  p.advance(0.1);
  EXPECT_EQ(p.frame(), 24);
}

TEST(Playback, FastRenderingRepeatsFrames) {
  Playback p = playing_clip(1000);
  p.advance(1.0 / 480.0);
  EXPECT_EQ(p.frame(), 0);
  p.advance(1.0 / 480.0);
  EXPECT_EQ(p.frame(), 0);
  p.advance(1.0 / 480.0);
  p.advance(1.0 / 480.0);
  EXPECT_EQ(p.frame(), 1);
}

TEST(Playback, IrregularRenderTimesFollowTheWallClock) {
  // Render times between 1 and 70 ms: after 30 s the frame is the wall
  // clock's, however many renders it took.
  Playback p = playing_clip(100000);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> dt(0.001, 0.070);
  double wall = 0.0;
  int renders = 0;
  while (wall < 30.0) {
    const double d = dt(rng);
    wall += d;
    p.advance(d);
    ++renders;
    ASSERT_NEAR(p.time_s, wall, 1e-9);
  }
  EXPECT_EQ(p.frame(), static_cast<int>(wall * 120.0));
  EXPECT_LT(renders, static_cast<int>(wall * 120.0));  // frames were skipped
}

TEST(Playback, AnHourAt60HzDoesNotDrift) {
  Playback p = playing_clip(5423);
  for (int i = 0; i < 60 * 3600; ++i) p.advance(1.0 / 60.0);
  // 3600 s at 120 Hz is 432000 frames; looping over 5423 frames.
  EXPECT_EQ(p.frame(), 432000 % 5423);
  EXPECT_NEAR(p.time_s, (432000 % 5423) / 120.0, 1e-6);
}

TEST(Playback, SpeedScalesClipTime) {
  for (double speed : kSpeedPresets) {
    Playback p = playing_clip(100000);
    p.speed = speed;
    for (int i = 0; i < 60; ++i) p.advance(1.0 / 60.0);  // one second
    EXPECT_EQ(p.frame(), static_cast<int>(std::lround(120.0 * speed))) << "speed " << speed;
  }
}

TEST(Playback, LoopWrapsAtTheEnd) {
  Playback p = playing_clip(120);  // 1 s
  p.advance(1.25);
  EXPECT_TRUE(p.playing);
  EXPECT_EQ(p.frame(), 30);
}

TEST(Playback, WithoutLoopStopsOnTheLastFrame) {
  Playback p = playing_clip(120);
  p.loop = false;
  p.advance(5.0);
  EXPECT_FALSE(p.playing);
  EXPECT_EQ(p.frame(), 119);
  p.play();  // from the last frame, play starts over
  EXPECT_TRUE(p.playing);
  EXPECT_EQ(p.frame(), 0);
}

TEST(Playback, StepPausesAndWrapsOrClamps) {
  Playback p = playing_clip(100);
  p.step(1);
  EXPECT_FALSE(p.playing);
  EXPECT_EQ(p.frame(), 1);
  p.step(-10);
  EXPECT_EQ(p.frame(), 91);  // looped
  p.step(10);
  EXPECT_EQ(p.frame(), 1);
  p.loop = false;
  p.step(-10);
  EXPECT_EQ(p.frame(), 0);
  p.step(1000);
  EXPECT_EQ(p.frame(), 99);
}

TEST(Playback, ResetPausesOnTheFirstFrame) {
  Playback p = playing_clip(100);
  p.advance(0.3);
  p.reset();
  EXPECT_FALSE(p.playing);
  EXPECT_EQ(p.frame(), 0);
}

TEST(Playback, LoadKeepsSpeedAndLoop) {
  Playback p = playing_clip(100);
  p.speed = 2.0;
  p.loop = false;
  p.advance(0.2);
  p.load(50, 60.0);
  EXPECT_EQ(p.frame(), 0);
  EXPECT_FALSE(p.playing);
  EXPECT_EQ(p.speed, 2.0);
  EXPECT_FALSE(p.loop);
  EXPECT_EQ(p.fps, 60.0);
}

TEST(Playback, Readout) {
  Playback p;
  p.load(5423, 120.0);
  p.seek(312);
  EXPECT_EQ(readout(p), "frame 312 / 5423 \xC2\xB7 2.600 s @ 120 Hz");
}

// The readout, the slider and typed frames use the file's numbers (CMU AMCs
// start at 1): frame index 97 is "98", as `mocap` prints it.
TEST(Playback, ReadoutUsesTheFileFrameNumbers) {
  Playback p;
  std::vector<int> numbers(141);
  for (int i = 0; i < 141; ++i) numbers[static_cast<std::size_t>(i)] = i + 1;
  p.load(numbers, 120.0);
  p.seek(97);
  EXPECT_EQ(p.number(), 98);
  EXPECT_EQ(readout(p), "frame 98 / 141 \xC2\xB7 0.808 s @ 120 Hz");
  EXPECT_EQ(p.frame_at(98), 97);
  EXPECT_EQ(p.frame_at(0), 0);      // before the first: the first
  EXPECT_EQ(p.frame_at(500), 140);  // past the end: the last
  p.load(10, 120.0);                // a clip without numbers counts from 0
  EXPECT_TRUE(p.numbers.empty());
  EXPECT_EQ(p.number_of(3), 3);
}

// Numbers with a gap (an AMC may skip frames): frame_at finds the next one.
TEST(Playback, FrameAtSkipsGaps) {
  Playback p;
  p.load(std::vector<int>{5, 6, 10, 11}, 30.0);
  EXPECT_EQ(p.frame_at(7), 2);
  EXPECT_EQ(p.number_of(2), 10);
}

}  // namespace
}  // namespace mocap::viewer
