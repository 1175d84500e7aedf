// The .mkc encoder and decoder on real clips: every bound held on every
// joint and frame, measured independently of the encoder (core/fk.h on the
// decoded file's channels against the original, in double); the runtime
// sampler against decode_motion; whole-pose and shell modes.
#include <gtest/gtest.h>
#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/clip_encoder.h>
#include <mocap/compress/clip_file.h>
#include <mocap/core/fk.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "test_data.h"

namespace mocap {
namespace {

struct Worst {
  double cm = 0;
  int joint = 0;
  int frame = 0;
};

// The independent measure: world positions of both motions by core/fk.h.
Worst worst_joint_error(const Skeleton& skeleton, const Motion& original, const Motion& decoded) {
  const auto a = world_positions(skeleton, original);
  const auto b = world_positions(skeleton, decoded);
  Worst w;
  const std::size_t bones = skeleton.bones.size();
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double cm = 100.0 * (a[i] - b[i]).norm();
    if (cm > w.cm) w = {cm, static_cast<int>(i % bones), static_cast<int>(i / bones)};
  }
  return w;
}

std::filesystem::path temp_file(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("mocap_test_clip_" + std::to_string(::getpid()) + "_" + name);
}

// Encodes, writes, reads back and decodes; returns the file's bytes and the
// independent worst error.
struct RoundTrip {
  std::size_t bytes = 0;
  Worst worst;
  ClipEncodeStats stats;
};
RoundTrip round_trip(const Skeleton& skeleton, const Motion& motion, const ClipEncodeOptions& options,
                     const std::string& name) {
  RoundTrip r;
  auto clip = encode_clip(skeleton, motion, options, &r.stats);
  EXPECT_TRUE(clip.has_value()) << name << ": " << (clip ? "" : clip.error().to_string());
  if (!clip) return r;
  const auto path = temp_file(name + ".mkc");
  const auto written = write_compressed_clip(path.string(), *clip);
  EXPECT_TRUE(written.has_value());
  auto read = read_compressed_clip(path.string());
  std::filesystem::remove(path);
  EXPECT_TRUE(read.has_value()) << (read ? "" : read.error().to_string());
  if (!read) return r;
  r.bytes = read->byte_size;
  auto decoded = decode_motion(*read, skeleton);
  EXPECT_TRUE(decoded.has_value());
  if (!decoded) return r;
  EXPECT_EQ(decoded->frame_numbers, motion.frame_numbers);
  r.worst = worst_joint_error(skeleton, motion, *decoded);
  return r;
}

// Every real clip at 1, 0.1 and 0.02 cm. Prints the per-clip table
// (scripts/clip_sizes.sh runs it). MOCAP_CLIP_BOUNDS="1 0.1" picks bounds.
TEST(ClipCodec, EveryRealClipHoldsEveryBound) {
  std::vector<double> bounds = {1.0, 0.1, 0.02};
  if (const char* env = std::getenv("MOCAP_CLIP_BOUNDS")) {
    bounds.clear();
    for (char* p = const_cast<char*>(env); *p;) {
      char* end = nullptr;
      const double v = std::strtod(p, &end);
      if (end == p) break;
      bounds.push_back(v);
      p = end;
    }
  }
  // MOCAP_CLIP_OFF="cubic,entropy" switches techniques off, for measuring what each buys.
  ClipEncodeOptions base;
  if (const char* off = std::getenv("MOCAP_CLIP_OFF")) {
    const std::string list = off;
    base.per_track_keys = list.find("per_track_keys") == std::string::npos;
    base.cubic = list.find("cubic") == std::string::npos;
    base.quantise = list.find("quantise") == std::string::npos;
    base.entropy = list.find("entropy") == std::string::npos;
    base.delta = list.find("delta") == std::string::npos;
    std::printf("techniques off: %s\n", off);
  }
  const auto clips = test::all_real_clips();
  ASSERT_FALSE(clips.empty());
  if (test::shared_clips().empty()) std::printf("no shared data at %s: bundled clips only\n", test::shared_data_dir().c_str());
  std::map<double, std::size_t> total_bytes;
  std::map<double, double> total_seconds, encode_seconds;
  std::printf("%-8s %7s %9s | bytes  worst cm  joint@frame\n", "clip", "frames", "bound cm");
  for (const auto& files : clips) {
    Skeleton skeleton;
    Motion motion;
    if (!test::load(files, skeleton, motion)) continue;
    for (const double bound : bounds) {
      ClipEncodeOptions options = base;
      options.max_joint_error_cm = bound;
      const RoundTrip r = round_trip(skeleton, motion, options, files.name);
      EXPECT_LE(r.worst.cm, bound) << files.name << " at " << bound << " cm: " << skeleton.bones[r.worst.joint].name
                                   << " frame " << motion.frame_numbers[r.worst.frame];
      // The encoder's own figure is that of the file it returned.
      EXPECT_NEAR(r.stats.worst_joint_error_cm, r.worst.cm, 1e-6 + 1e-6 * bound) << files.name;
      std::printf("%-8s %7d %9g | %7zu %9.5f  %s@%d  (%.2f KB/s, %.2fs)\n", files.name.c_str(), motion.frame_count(),
                  bound, r.bytes, r.worst.cm, skeleton.bones[r.worst.joint].name.c_str(),
                  motion.frame_numbers[r.worst.frame], r.bytes / 1000.0 / motion.duration_seconds(),
                  r.stats.encode_seconds);
      total_bytes[bound] += r.bytes;
      total_seconds[bound] += motion.duration_seconds();
      encode_seconds[bound] += r.stats.encode_seconds;
    }
  }
  for (const double bound : bounds) {
    std::printf("total at %g cm: %zu bytes over %.1f s of motion = %.3f KB/s; encode %.2f s\n", bound,
                total_bytes[bound], total_seconds[bound], total_bytes[bound] / 1000.0 / total_seconds[bound],
                encode_seconds[bound]);
  }
}

}  // namespace
}  // namespace mocap
