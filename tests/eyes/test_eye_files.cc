// What `mocap eyes` hands to the library besides the generator: the names
// of the models and modes, the track files (eye_track_file.h), the --stats
// JSON (eye_stats_json.h) and a stream whose device never opens
// (stream_eyes.h).
#include <gtest/gtest.h>
#include <mocap/eyes/eye_body.h>
#include <mocap/eyes/eye_stats_json.h>
#include <mocap/eyes/eye_track_file.h>
#include <mocap/eyes/stream_eyes.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>

namespace mocap {
namespace {

TEST(EyeNames, ParseEveryNameAndRefuseOthers) {
  EXPECT_EQ(parse_eye_model("design"), EyeModel::kDesign);
  EXPECT_EQ(parse_eye_model("physio"), EyeModel::kPhysiological);
  ASSERT_FALSE(parse_eye_model("Physio"));
  EXPECT_EQ(parse_eye_model("x").error().message, "expected 'design' or 'physio', found 'x'");
  EXPECT_EQ(parse_conversation_mode("free"), ConversationMode::kFree);
  EXPECT_EQ(parse_conversation_mode("listen"), ConversationMode::kListening);
  EXPECT_EQ(parse_conversation_mode("speak"), ConversationMode::kSpeaking);
  EXPECT_EQ(parse_conversation_mode("think"), ConversationMode::kThinking);
  ASSERT_FALSE(parse_conversation_mode(""));
  EXPECT_EQ(parse_conversation_mode("").error().message, "expected 'free', 'listen', 'speak' or 'think', found ''");
  EXPECT_EQ(parse_eye_track_format("csv"), EyeTrackFormat::kCsv);
  EXPECT_EQ(parse_eye_track_format("jsonl"), EyeTrackFormat::kJsonl);
  EXPECT_FALSE(parse_eye_track_format("json"));
}

std::vector<EyeFrame> two_frames() {
  EyeFrame a;
  a.left = {0.25, -0.5, 1.0, 0.5};
  a.right = {0.125, -0.5, 0.75, 0.5};
  a.brow = 0.1;
  EyeFrame b = a;
  b.time_s = 0.025;
  b.left.x = -1.0;
  return {a, b};
}

TEST(EyeTrackFile, CsvHasAHeaderAndSixDecimalsPerValue) {
  const std::string csv = format_eye_track(two_frames(), EyeTrackFormat::kCsv);
  std::istringstream in(csv);
  std::string header, first, second, extra;
  std::getline(in, header);
  std::getline(in, first);
  std::getline(in, second);
  EXPECT_FALSE(std::getline(in, extra));
  EXPECT_EQ(header, "time,left_x,left_y,left_openness,left_pupil,right_x,right_y,right_openness,right_pupil,brow");
  EXPECT_EQ(first, "0.000000,0.250000,-0.500000,1.000000,0.500000,0.125000,-0.500000,0.750000,0.500000,0.100000");
  EXPECT_EQ(second.substr(0, 18), "0.025000,-1.000000");
  EXPECT_EQ(csv.back(), '\n');
}

TEST(EyeTrackFile, JsonlIsOneObjectPerFrame) {
  const std::string jsonl = format_eye_track(two_frames(), EyeTrackFormat::kJsonl);
  std::istringstream in(jsonl);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j.at("left").at("openness"), 1.0);
    EXPECT_EQ(j.at("right").at("x"), 0.125);
    ++lines;
  }
  EXPECT_EQ(lines, 2);
  EXPECT_EQ(jsonl.substr(0, 40), R"({"t":0.000000,"left":{"x":0.250000,"y":-)");
}

TEST(EyeStatsJson, KeysInOrderAndTheStreamHoldsTheGenerator) {
  EyeStats s;
  s.time_s = 60.0;
  s.blinks = 12;
  s.closing_sum_s = 1.2;
  s.amplitude_histogram[1] = 3;
  const auto j = nlohmann::ordered_json::parse(eye_stats_json(s, 2));
  EXPECT_EQ(j.begin().key(), "seconds");
  EXPECT_EQ(j.at("blinks_per_minute"), 12.0);
  EXPECT_DOUBLE_EQ(j.at("mean_closing_ms").get<double>(), 100.0);
  EXPECT_EQ(j.at("saccade_amplitude_histogram").size(), 12u);
  EXPECT_EQ(j.at("saccade_amplitude_histogram")[1].at("from_deg"), 5);
  EXPECT_EQ(j.at("saccade_amplitude_histogram")[1].at("count"), 3);
  EXPECT_EQ(j.at("head_turns"), 2);

  EyeStreamStats stream;
  stream.frames = 40;
  stream.left.path = "/dev/ttyACM0";
  stream.left.lateness_p99_s = 0.002;
  const auto k = nlohmann::ordered_json::parse(eye_stream_stats_json(stream, 40.0, s, 2));
  EXPECT_EQ(k.begin().key(), "fps");
  EXPECT_EQ(k.at("frames"), 40);
  EXPECT_EQ(k.at("left").at("device"), "/dev/ttyACM0");
  EXPECT_DOUBLE_EQ(k.at("left").at("lateness_ms").at("p99").get<double>(), 2.0);
  EXPECT_EQ(k.at("generator"), j);
}

TEST(StreamEyes, ADeviceThatNeverOpensFailsWithinTheTimeout) {
  EyeTimeline timeline(EyeTimelineOptions{});
  EyeStreamOptions o;
  o.left_path = "/nonexistent/left";
  o.right_path = "/nonexistent/right";
  o.duration_s = 1.0;
  const auto start = std::chrono::steady_clock::now();
  const auto streamed = stream_eyes(o, timeline, 0.3);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(streamed);
  EXPECT_EQ(streamed.error().file, "/nonexistent/left");
  EXPECT_GE(seconds, 0.3);
  EXPECT_LT(seconds, 2.0);
}

}  // namespace
}  // namespace mocap
