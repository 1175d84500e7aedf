// Joint velocity error and planted-feet speed (compress/jitter.h) on real
// clips: zero for a motion against itself, positive for the default .mkc
// (what `mocap compress ... -o x.mkc` writes), and in the eval report's
// lines and keys after the others.
#include <gtest/gtest.h>
#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/clip_encoder.h>
#include <mocap/compress/compress_report.h>
#include <mocap/compress/jitter.h>
#include <mocap/compress/motion_error.h>
#include <mocap/core/fk.h>
#include <mocap/io/capture.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "test_data.h"

namespace mocap {
namespace {

TEST(Jitter, ZeroAgainstItselfAndPositiveForTheDefaultMkc) {
  for (const test::ClipFiles& files : test::bundled_clips()) {
    SCOPED_TRACE(files.name);
    auto capture = read_capture(files.asf.string(), files.amc.string());
    ASSERT_TRUE(capture) << capture.error().to_string();
    const auto self = measure_jitter(capture->skeleton, capture->motion, capture->motion);
    ASSERT_TRUE(self);
    EXPECT_EQ(self->velocity.p99_cm_s, 0.0);
    EXPECT_EQ(self->velocity.max_cm_s, 0.0);
    EXPECT_EQ(self->planted.difference_cm_s, 0.0);

    auto clip = encode_clip(capture->skeleton, capture->motion, ClipEncodeOptions{});
    ASSERT_TRUE(clip) << clip.error().to_string();
    auto decoded = decode_motion(*clip, capture->skeleton);
    ASSERT_TRUE(decoded) << decoded.error().to_string();
    const auto jitter = measure_jitter(capture->skeleton, capture->motion, *decoded);
    ASSERT_TRUE(jitter) << jitter.error().message;
    const JointVelocityError& v = jitter->velocity;
    EXPECT_TRUE(std::isfinite(v.p99_cm_s));
    EXPECT_GT(v.p99_cm_s, self->velocity.p99_cm_s);
    EXPECT_GT(v.mean_cm_s, 0.0);
    EXPECT_LE(v.mean_cm_s, v.p99_cm_s);
    EXPECT_LE(v.p99_cm_s, v.max_cm_s);
    EXPECT_GE(v.worst_joint, 0);
    EXPECT_GE(v.worst_frame, 0);
    // The velocity error of motion_error.h (per frame the mean over joints,
    // cm per frame) is at most the per-joint max in cm/s over the rate.
    auto error = measure_error(capture->skeleton, capture->motion, *decoded);
    ASSERT_TRUE(error);
    EXPECT_LE(error->velocity.max, v.max_cm_s / capture->motion.fps + 1e-9);
    if (files.name == "09_06") {
      // The run: its stance phases are found (core/foot_contacts.h), and the
      // decoded feet move faster than the capture's on them.
      EXPECT_TRUE(jitter->planted.feet);
      EXPECT_GT(jitter->planted.frames, 40);
      EXPECT_GT(jitter->planted.difference_cm_s, 0.0);
    }

    EvalReport report{*error, {}, report_names(capture->skeleton, capture->motion), false, 0.0, *jitter};
    const std::string text = format_eval_text(report), json = eval_report_json(report);
    EXPECT_NE(text.find("\njoint velocity error   mean "), std::string::npos);
    EXPECT_NE(text.find("\nplanted feet "), std::string::npos);
    EXPECT_NE(json.find("\"joint_vel_err_p99_cm_s\":"), std::string::npos);
    EXPECT_NE(json.find("\"planted_feet_difference_cm_s\":"), std::string::npos);
    // Without a jitter measure the report is as before.
    report.jitter.reset();
    EXPECT_EQ(format_eval_text(report).find("joint velocity error"), std::string::npos);
    EXPECT_EQ(eval_report_json(report).find("joint_vel_err"), std::string::npos);
  }
}

TEST(Jitter, DifferentFramesRefused) {
  for (const test::ClipFiles& files : test::bundled_clips()) {
    auto capture = read_capture(files.asf.string(), files.amc.string());
    ASSERT_TRUE(capture);
    Motion shorter = capture->motion;
    shorter.frame_numbers.pop_back();
    shorter.values.resize(shorter.values.size() - static_cast<std::size_t>(shorter.channel_count));
    EXPECT_FALSE(measure_jitter(capture->skeleton, capture->motion, shorter));
    break;
  }
}

// Planted feet as the issue that asked for the bound measured them, apart
// from core/foot_contacts.h: frames where the ball of a foot (CMU's lfoot /
// rfoot end point) is within 4 cm of its lowest height over the clip and
// slower than 25 cm/s, in runs of 6 frames or more; the mean speed of the
// ball over those frames in the capture and in the other motion (cm/s).
struct StillFeet {
  int frames = 0;
  double capture_cm_s = 0.0, other_cm_s = 0.0;
};
StillFeet still_feet(const Skeleton& skeleton, const Motion& capture, const Motion& other) {
  const auto p = world_positions(skeleton, capture), q = world_positions(skeleton, other);
  const std::size_t bones = skeleton.bones.size();
  const int frames = capture.frame_count();
  const auto speed = [&](const std::vector<Eigen::Vector3d>& w, int f, std::size_t b) {
    const int a = std::max(0, f - 1), c = std::min(frames - 1, f + 1);
    return 100.0 * capture.fps * (w[c * bones + b] - w[a * bones + b]).norm() / std::max(1, c - a);
  };
  StillFeet out;
  for (const char* name : {"lfoot", "rfoot"}) {
    const auto b = static_cast<std::size_t>(skeleton.find_bone(name));
    double lowest = 1e9;
    for (int f = 0; f < frames; ++f) lowest = std::min(lowest, p[f * bones + b].y());
    int run = 0;
    for (int f = 0; f <= frames; ++f) {
      const bool still = f < frames && p[f * bones + b].y() <= lowest + 0.04 && speed(p, f, b) < 25.0;
      if (still) {
        ++run;
        continue;
      }
      if (run >= 6) {
        for (int g = f - run; g < f; ++g) {
          out.capture_cm_s += speed(p, g, b);
          out.other_cm_s += speed(q, g, b);
          ++out.frames;
        }
      }
      run = 0;
    }
  }
  if (out.frames) out.capture_cm_s /= out.frames, out.other_cm_s /= out.frames;
  return out;
}

// What a user gets without flags (`mocap compress <asf> <amc> -o x.mkc`):
// on every real clip the file read back holds the worst joint within 1 cm,
// the joint velocity error's p99 within 20 cm/s, and feet that stand in the
// capture (measured apart from the encoder, above; where the clip has
// them) at most 2 cm/s faster than the capture's; without the jitter bounds the same clips break the
// last two (so these are the bounds that hold them).
TEST(JitterFree, DefaultMkcOnEveryRealClip) {
  const auto clips = test::all_real_clips();
  ASSERT_FALSE(clips.empty());
  std::printf("%-8s %9s %9s %9s %9s | %s\n", "clip", "KB/s", "worst cm", "vel p99", "feet +",
              "position alone: KB/s p99 feet +");
  double bytes = 0, seconds = 0, bytes_alone = 0;
  int broken_alone = 0, with_still_feet = 0;
  for (const test::ClipFiles& files : clips) {
    SCOPED_TRACE(files.name);
    Skeleton skeleton;
    Motion motion;
    if (!test::load(files, skeleton, motion)) continue;
    const auto measure = [&](const ClipEncodeOptions& options, ClipEncodeStats& stats, JitterError& jitter,
                             StillFeet& feet, double& worst_cm) {
      auto clip = encode_clip(skeleton, motion, options, &stats);
      ASSERT_TRUE(clip) << clip.error().to_string();
      auto read = parse_compressed_clip(format_compressed_clip(*clip), files.name);
      ASSERT_TRUE(read) << read.error().to_string();
      auto decoded = decode_motion(*read, skeleton);
      ASSERT_TRUE(decoded) << decoded.error().to_string();
      auto measured = measure_jitter(skeleton, motion, *decoded);
      ASSERT_TRUE(measured);
      jitter = *measured;
      feet = still_feet(skeleton, motion, *decoded);
      const auto a = world_positions(skeleton, motion), b = world_positions(skeleton, *decoded);
      worst_cm = 0;
      for (std::size_t i = 0; i < a.size(); ++i) worst_cm = std::max(worst_cm, 100.0 * (a[i] - b[i]).norm());
    };
    ClipEncodeStats stats, stats_alone;
    JitterError jitter, jitter_alone;
    StillFeet feet, feet_alone;
    double worst = 0, worst_alone = 0;
    measure(ClipEncodeOptions{}, stats, jitter, feet, worst);
    ClipEncodeOptions alone;
    alone.max_velocity_error_cm_s = alone.max_contact_error_cm = alone.max_contact_speed_cm_s = 0.0;
    measure(alone, stats_alone, jitter_alone, feet_alone, worst_alone);
    if (HasFatalFailure()) return;
    EXPECT_LE(worst, 1.0);
    EXPECT_LE(jitter.velocity.p99_cm_s, 20.0);
    if (feet.frames > 0) ++with_still_feet;
    EXPECT_LE(feet.other_cm_s - feet.capture_cm_s, 2.0)
        << feet.frames << " still frames: " << feet.capture_cm_s << " -> " << feet.other_cm_s << " cm/s";
    // The encoder's own figures are those of the file.
    EXPECT_NEAR(stats.velocity.p99_cm_s, jitter.velocity.p99_cm_s, 1e-6);
    EXPECT_NEAR(stats.planted.difference_cm_s, jitter.planted.difference_cm_s, 1e-6);
    EXPECT_LE(stats.planted.difference_cm_s, ClipEncodeOptions{}.max_contact_speed_cm_s);
    EXPECT_LE(stats.worst_contact_error_cm, 0.3);
    EXPECT_LE(worst_alone, 1.0);
    if (jitter_alone.velocity.p99_cm_s > 20.0 &&
        (feet.frames == 0 || feet_alone.other_cm_s - feet_alone.capture_cm_s > 2.0))
      ++broken_alone;
    const double s = motion.duration_seconds();
    std::printf("%-8s %9.2f %9.3f %9.2f %+9.2f | %.2f %.2f %+.2f\n", files.name.c_str(), stats.bytes / 1000.0 / s,
                worst, jitter.velocity.p99_cm_s, feet.other_cm_s - feet.capture_cm_s, stats_alone.bytes / 1000.0 / s,
                jitter_alone.velocity.p99_cm_s, feet_alone.other_cm_s - feet_alone.capture_cm_s);
    bytes += static_cast<double>(stats.bytes), bytes_alone += static_cast<double>(stats_alone.bytes), seconds += s;
  }
  std::printf("all: %.3f KB/s jitter-free, %.3f KB/s position alone (%.2fx)\n", bytes / 1000.0 / seconds,
              bytes_alone / 1000.0 / seconds, bytes / bytes_alone);
  EXPECT_EQ(broken_alone, static_cast<int>(clips.size())) << "the position bound alone already looked right";
  // The README's figures (the encoder is deterministic: more than 1 % is a
  // regression; lower them as it improves).
  if (test::shared_clips().size() == test::kSharedClipCount) {
    EXPECT_LE(bytes / 1000.0 / seconds, 1.01 * 2.58) << "the README says 2.58 KB/s by default";
    EXPECT_LE(bytes_alone / 1000.0 / seconds, 1.01 * 1.49) << "the README says 1.49 KB/s with the position bound alone";
  }
  // A run's planted ball rolls faster than 25 cm/s (09_06): not every clip
  // has still feet, but nearly all do.
  EXPECT_GE(with_still_feet, static_cast<int>(clips.size()) - 2);
}

TEST(JitterFree, EachBoundIsHeldAndInvalidOnesRefused) {
  const test::ClipFiles files = test::bundled_clips().front();
  Skeleton skeleton;
  Motion motion;
  ASSERT_TRUE(test::load(files, skeleton, motion));
  ClipEncodeOptions tight;
  tight.max_velocity_error_cm_s = 8.0;
  tight.max_contact_error_cm = 0.1;
  tight.max_contact_speed_cm_s = 0.5;
  ClipEncodeStats stats, stats_default;
  ASSERT_TRUE(encode_clip(skeleton, motion, tight, &stats));
  ASSERT_TRUE(encode_clip(skeleton, motion, ClipEncodeOptions{}, &stats_default));
  EXPECT_LE(stats.velocity.p99_cm_s, 8.0);
  EXPECT_LE(stats.worst_contact_error_cm, 0.1);
  EXPECT_LE(stats.planted.difference_cm_s, 0.5);
  EXPECT_GT(stats.bytes, stats_default.bytes) << "tighter bounds cost bytes";
  for (const auto bad : {-1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    ClipEncodeOptions o;
    o.max_velocity_error_cm_s = bad;
    EXPECT_FALSE(o.validate());
    o = {};
    o.max_contact_error_cm = bad;
    EXPECT_FALSE(o.validate());
    o = {};
    o.max_contact_speed_cm_s = bad;
    EXPECT_FALSE(o.validate());
  }
}

}  // namespace
}  // namespace mocap
