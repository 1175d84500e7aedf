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
#include <mocap/io/clip.h>

#include <cmath>
#include <string>

#include "test_data.h"

namespace mocap {
namespace {

TEST(Jitter, ZeroAgainstItselfAndPositiveForTheDefaultMkc) {
  for (const test::ClipFiles& files : test::bundled_clips()) {
    SCOPED_TRACE(files.name);
    auto capture = read_clip(files.asf.string(), files.amc.string());
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
    auto capture = read_clip(files.asf.string(), files.amc.string());
    ASSERT_TRUE(capture);
    Motion shorter = capture->motion;
    shorter.frame_numbers.pop_back();
    shorter.values.resize(shorter.values.size() - static_cast<std::size_t>(shorter.channel_count));
    EXPECT_FALSE(measure_jitter(capture->skeleton, capture->motion, shorter));
    break;
  }
}

}  // namespace
}  // namespace mocap
