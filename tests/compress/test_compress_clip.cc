// compress_clip (compress/compress_clip.h) on the bundled clips: the verb's
// choice of encoding, its bytes against the steps it stands for
// (encode_clip, compress_keys, format_amc), the decoded file's bound, and
// the report formatters' contract keys; every invalid request refused first.
#include <gtest/gtest.h>
#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/clip_encoder.h>
#include <mocap/compress/compress_clip.h>
#include <mocap/compress/compress_report.h>
#include <mocap/compress/compressed_clip.h>
#include <mocap/compress/key_pipeline.h>
#include <mocap/io/amc.h>
#include <mocap/io/capture.h>

#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "test_data.h"

namespace mocap {
namespace {

Capture capture_of(const test::ClipFiles& files) {
  auto clip = read_capture(files.asf.string(), files.amc.string());
  EXPECT_TRUE(clip) << (clip ? "" : clip.error().to_string());
  return clip ? std::move(*clip) : Capture{};
}

std::string bytes_of(const CompressedClip& clip) {
  const std::vector<std::uint8_t> bytes = format_compressed_clip(clip);
  return {bytes.begin(), bytes.end()};
}

TEST(CompressClipValidity, RefusesBadRequests) {
  const Capture capture = capture_of(test::bundled_clips().front());
  CompressRequest amc_with_keys;
  amc_with_keys.pose_keys = {0, 10};
  EXPECT_FALSE(compress_clip(capture, amc_with_keys));
  CompressRequest bad_error;
  bad_error.format = CompressFormat::kMkc;
  bad_error.pose_key_error_cm = 0.0;
  bad_error.pose_keys = {0, 10};
  EXPECT_FALSE(compress_clip(capture, bad_error));
  CompressRequest bad_ratio;
  bad_ratio.budget = KeyBudget::kRatio;
  bad_ratio.value = 1.5;
  EXPECT_FALSE(compress_clip(capture, bad_ratio));
  CompressRequest bad_shell;
  bad_shell.error.shell_radius_cm = -1.0;
  EXPECT_FALSE(compress_clip(capture, bad_shell));
  Capture empty = capture;
  empty.motion.values.clear();
  empty.motion.frame_numbers.clear();
  auto no_frames = compress_clip(empty, CompressRequest{});
  ASSERT_FALSE(no_frames);
  EXPECT_NE(no_frames.error().to_string().find("no frames to compress"), std::string::npos);
}

TEST(CompressClip, MkcByDefaultIsPerTrackWithinOneCentimetre) {
  for (const test::ClipFiles& files : test::bundled_clips()) {
    SCOPED_TRACE(files.name);
    const Capture capture = capture_of(files);
    CompressRequest request;
    request.format = CompressFormat::kMkc;
    request.rebuilt = true;
    auto report = compress_clip(capture, request);
    ASSERT_TRUE(report) << report.error().to_string();
    EXPECT_EQ(report->method, "bound");
    EXPECT_GT(report->decode_ns_per_pose, 0.0);
    EXPECT_LE(report->clip.worst_joint_error_cm, 1.0);
    auto direct = encode_clip(capture.skeleton, capture.motion, ClipEncodeOptions{});
    ASSERT_TRUE(direct);
    EXPECT_EQ(report->key_file, bytes_of(*direct));
    EXPECT_EQ(report->clip.bytes, report->key_file.size());
    // The rebuilt text is the file decoded, as decompress writes it.
    auto decoded = decode_motion(*direct, capture.skeleton);
    ASSERT_TRUE(decoded);
    EXPECT_EQ(report->rebuilt_file, format_amc(*decoded, capture.skeleton));
    const std::string json = compress_report_json(*report);
    EXPECT_NE(json.find("\"format\":\"mkc\",\"bytes\":" + std::to_string(report->key_file.size())), std::string::npos);
    EXPECT_NE(format_compress_text(*report).find(" by bound\n"), std::string::npos);
  }
}

TEST(CompressClip, AmcKeysAreCompressKeysInTheCapturesLayout) {
  for (const test::ClipFiles& files : test::bundled_clips()) {
    SCOPED_TRACE(files.name);
    const Capture capture = capture_of(files);
    if (capture.motion.frame_count() < 10) continue;  // a one-frame pose has nothing to select
    CompressRequest request;                          // AMC, ratio 0.1
    auto report = compress_clip(capture, request);
    ASSERT_TRUE(report) << report.error().to_string();
    EXPECT_EQ(report->method, "count");
    auto keys = compress_keys(capture.skeleton, capture.motion, KeyCompressOptions{}, capture.amc_path);
    ASSERT_TRUE(keys);
    EXPECT_EQ(report->keys, static_cast<int>(keys->keys.size()));
    EXPECT_EQ(report->key_file, format_amc(keys->key_motion, capture.skeleton, capture.layout));
    EXPECT_EQ(report->error.joint.max, keys->error.joint.max);
    EXPECT_TRUE(report->rebuilt_file.empty());
    const std::string text = format_compress_text(*report);
    EXPECT_EQ(
        text.rfind(std::to_string(capture.motion.frame_count()) + " frames, " + std::to_string(report->keys) + " keys",
                   0),
        0u);
    EXPECT_NE(compress_report_json(*report).find("\"threshold_pos_err_mean_cm\""), std::string::npos);

    // The same keys given to a .mkc: the whole-pose file of those keys.
    CompressRequest given;
    given.format = CompressFormat::kMkc;
    given.pose_keys = keys->keys;
    given.time_decoder = false;
    auto file = compress_clip(capture, given);
    ASSERT_TRUE(file) << file.error().to_string();
    EXPECT_EQ(file->method, "keys");
    EXPECT_EQ(file->decode_ns_per_pose, 0.0);
    ClipEncodeOptions pose;
    pose.pose_keys = keys->keys;
    auto direct = encode_clip(capture.skeleton, capture.motion, pose);
    ASSERT_TRUE(direct);
    EXPECT_EQ(file->key_file, bytes_of(*direct));
  }
}

TEST(CompressClip, ShellBoundHoldsOnTheDecodedFile) {
  const Capture capture = capture_of(test::bundled_clips().front());
  CompressRequest request;
  request.format = CompressFormat::kMkc;
  request.budget = KeyBudget::kMaxShellError;
  request.value = 2.0;
  request.time_decoder = false;
  auto report = compress_clip(capture, request);
  ASSERT_TRUE(report) << report.error().to_string();
  EXPECT_EQ(report->method, "bound");
  EXPECT_LE(report->clip.worst_shell_error_cm, 2.0);
  EXPECT_GT(report->clip.worst_shell_error_cm, 0.0);
}

TEST(EvalReport, GateAndKeys) {
  const Capture capture = capture_of(test::bundled_clips().front());
  auto keys = compress_keys(capture.skeleton, capture.motion, KeyCompressOptions{}, capture.amc_path);
  ASSERT_TRUE(keys);
  EvalReport report{keys->error, {}, report_names(capture.skeleton, capture.motion), true, 0.0};
  EXPECT_FALSE(report.pass());  // a 10% rebuild is not exact
  report.max_error_cm = keys->error.joint.max;
  EXPECT_TRUE(report.pass());
  const std::string json = eval_report_json(report);
  EXPECT_NE(json.find("\"pass\":true"), std::string::npos);
  EXPECT_NE(json.find("\"worst_joint_error_joint\":\"" + report.names.bone(keys->error.joint.worst_joint) + "\""),
            std::string::npos);
  EXPECT_EQ(format_eval_text(report).rfind(std::to_string(keys->error.frames) + " frames\n", 0), 0u);
}

}  // namespace
}  // namespace mocap
