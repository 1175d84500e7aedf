// The .mkc file: byte-identical round trips, every kind of damage refused
// with a message (never a crash), foreign skeletons refused naming the bone.
#include <gtest/gtest.h>
#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/clip_encoder.h>
#include <mocap/compress/compressed_clip.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "test_data.h"

namespace mocap {
namespace {

std::vector<std::uint8_t> small_file(ClipEncodeOptions options = {}) {
  const auto l = test::load_bundled("09_06");
  auto clip = encode_clip(l.skeleton, test::first_frames(l.motion, 24), options);
  EXPECT_TRUE(clip.has_value()) << (clip ? "" : clip.error().to_string());
  return clip ? format_compressed_clip(*clip) : std::vector<std::uint8_t>{};
}

// CRC-32 (IEEE, reflected), as the format specifies, to forge files whose
// checksum is right but whose content is not.
std::uint32_t crc32(std::span<const std::uint8_t> bytes) {
  std::uint32_t c = 0xffffffffu;
  for (const std::uint8_t b : bytes) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
  }
  return ~c;
}
void reseal(std::vector<std::uint8_t>& bytes) {
  const auto size = static_cast<std::uint32_t>(bytes.size());
  const std::uint32_t crc = crc32(std::span(bytes).subspan(16));
  for (int i = 0; i < 4; ++i) bytes[8 + i] = static_cast<std::uint8_t>(size >> (8 * i));
  for (int i = 0; i < 4; ++i) bytes[12 + i] = static_cast<std::uint8_t>(crc >> (8 * i));
}

void expect_error(const std::vector<std::uint8_t>& bytes, const std::string& what, const std::string& contains = "") {
  const auto parsed = parse_compressed_clip(bytes, "damaged.mkc");
  ASSERT_FALSE(parsed.has_value()) << what << ": parsed";
  EXPECT_EQ(parsed.error().file, "damaged.mkc");
  EXPECT_FALSE(parsed.error().message.empty());
  if (!contains.empty()) {
    EXPECT_NE(parsed.error().message.find(contains), std::string::npos) << parsed.error().message;
  }
}

TEST(CompressedClip, RoundTripIsByteIdentical) {
  const auto l = test::load_bundled("09_06");
  for (const bool entropy : {true, false}) {
    for (const bool quantise : {true, false}) {
      ClipEncodeOptions options;
      options.entropy = entropy;
      options.quantise = quantise;
      auto clip = encode_clip(l.skeleton, l.motion, options);
      ASSERT_TRUE(clip.has_value());
      const auto bytes = format_compressed_clip(*clip);
      auto parsed = parse_compressed_clip(bytes, "09_06.mkc");
      ASSERT_TRUE(parsed.has_value()) << parsed.error().to_string();
      EXPECT_EQ(format_compressed_clip(*parsed), bytes);
      EXPECT_EQ(parsed->byte_size, bytes.size());
      EXPECT_TRUE(looks_like_compressed_clip(bytes));
      const ClipSummary s = summarize(*parsed);
      EXPECT_EQ(s.frames, l.motion.frame_count());
      EXPECT_EQ(s.first_frame_number, l.motion.frame_numbers.front());
      EXPECT_EQ(s.last_frame_number, l.motion.frame_numbers.back());
      EXPECT_EQ(s.bones, static_cast<int>(l.skeleton.bones.size()));
      EXPECT_EQ(s.tracks, l.skeleton.channel_count);
      EXPECT_GT(s.keys, s.tracks - s.constant_tracks);
    }
  }
}

TEST(CompressedClip, WholePoseAndIrregularFramesRoundTrip) {
  auto l = test::load_bundled("09_06");
  l.motion.frame_numbers[5] += 0;
  for (std::size_t f = 10; f < l.motion.frame_numbers.size(); ++f) l.motion.frame_numbers[f] += 7;  // a gap
  ClipEncodeOptions options;
  options.pose_keys = {0, 9, 30, 60, 100, l.motion.frame_count() - 1};
  auto clip = encode_clip(l.skeleton, l.motion, options);
  ASSERT_TRUE(clip.has_value()) << clip.error().to_string();
  const auto bytes = format_compressed_clip(*clip);
  auto parsed = parse_compressed_clip(bytes, "pose.mkc");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().to_string();
  EXPECT_EQ(format_compressed_clip(*parsed), bytes);
  EXPECT_EQ(parsed->keys, options.pose_keys);
  auto decoded = decode_motion(*parsed, l.skeleton);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->frame_numbers, l.motion.frame_numbers);
}

// The rebuild's interpolation is header flags bit 0 (1 cubic), on whole-pose
// clips only; keyed tracks carry no degree bit.
TEST(CompressedClip, WholePoseInterpolationIsFlagBitZero) {
  ClipEncodeOptions options;
  options.pose_keys = {0, 5, 11, 23};
  for (const Interpolation interpolation : {Interpolation::kSlerp, Interpolation::kCubic}) {
    options.interpolation = interpolation;
    const auto bytes = small_file(options);
    ASSERT_GT(bytes.size(), 16u);
    EXPECT_EQ(bytes[6], interpolation == Interpolation::kCubic ? 1 : 0);
    EXPECT_EQ(bytes[7], 0);
    auto parsed = parse_compressed_clip(bytes, "pose.mkc");
    ASSERT_TRUE(parsed.has_value()) << parsed.error().to_string();
    EXPECT_EQ(parsed->interpolation, interpolation);
    EXPECT_EQ(format_compressed_clip(*parsed), bytes);
    int keyed = 0;
    for (const ClipTrack& t : parsed->tracks) {
      if (t.storage == TrackStorage::kConstant) continue;
      EXPECT_EQ(t.spacing, 0);
      EXPECT_EQ(t.degree, 1);
      ++keyed;
    }
    ASSERT_GT(keyed, 0);
    auto other = bytes;
    other[6] = 4;  // an unknown flag (bit 1 is the BVH convention)
    expect_error(other, "flag 4", "unknown flags 4");
  }
  // The cubic flag on a per-track clip, and a keyed track's degree bit (the
  // head byte of the first non-constant track) set under a good checksum.
  auto per_track = small_file();
  per_track[6] = 1;
  expect_error(per_track, "cubic flag without keys", "without key frames");
  options.interpolation = Interpolation::kSlerp;
  const auto bytes = small_file(options);
  auto parsed = parse_compressed_clip(bytes, "pose.mkc");
  ASSERT_TRUE(parsed.has_value());
  // Reformat with the first keyed track's head patched: find it by formatting
  // the clip with that track turned constant and comparing the bytes.
  std::size_t head = 0;
  for (std::size_t c = 0; c < parsed->tracks.size() && head == 0; ++c) {
    if (parsed->tracks[c].storage == TrackStorage::kConstant) continue;
    CompressedClip cut = *parsed;
    cut.tracks[c] = ClipTrack{};
    const auto other = format_compressed_clip(cut);
    for (std::size_t i = 16; i < std::min(other.size(), bytes.size()); ++i) {
      if (other[i] != bytes[i]) {
        head = i;
        break;
      }
    }
  }
  ASSERT_GT(head, 16u);
  auto degree = bytes;
  ASSERT_EQ(degree[head] & 4, 0);
  degree[head] |= 4;
  reseal(degree);
  expect_error(degree, "keyed track with a degree bit", "degree bit");
}

TEST(CompressedClip, WriteAndReadAFile) {
  const auto bytes = small_file();
  auto clip = parse_compressed_clip(bytes, "x");
  ASSERT_TRUE(clip.has_value());
  const auto path =
      std::filesystem::temp_directory_path() / ("mocap_test_clip_file_" + std::to_string(::getpid()) + ".mkc");
  ASSERT_TRUE(write_compressed_clip(path.string(), *clip).has_value());
  auto read = read_compressed_clip(path.string());
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(format_compressed_clip(*read), bytes);
  std::filesystem::remove(path);
  auto missing = read_compressed_clip(path.string());
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().file, path.string());
}

TEST(CompressedClip, EveryTruncationIsRefused) {
  const auto bytes = small_file();
  ASSERT_GT(bytes.size(), 100u);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    expect_error(cut, "truncated at " + std::to_string(n));
  }
}

TEST(CompressedClip, EveryFlippedByteIsRefused) {
  const auto bytes = small_file();
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (const std::uint8_t mask : {std::uint8_t{0xff}, std::uint8_t{0x01}, std::uint8_t{0x80}}) {
      auto damaged = bytes;
      damaged[i] ^= mask;
      expect_error(damaged, "byte " + std::to_string(i) + " flipped");
    }
  }
}

TEST(CompressedClip, ForeignMagicVersionAndSize) {
  const auto bytes = small_file();
  auto magic = bytes;
  magic[0] = 'X';
  expect_error(magic, "magic", "magic");
  EXPECT_FALSE(looks_like_compressed_clip(magic));
  auto version = bytes;
  version[4] = 2;
  expect_error(version, "version", "version 2");
  auto longer = bytes;
  longer.push_back(0);
  expect_error(longer, "extra byte", "extra bytes");
  expect_error({}, "empty", "truncated");
  const std::string text = "#!OML:ASF\n:version 1.10\n";
  expect_error(std::vector<std::uint8_t>(text.begin(), text.end()), "text", "magic");
}

// Damage under a correct checksum: the validator itself must refuse it.
TEST(CompressedClip, InconsistentContentUnderAGoodChecksum) {
  const auto bytes = small_file();
  {
    auto d = bytes;
    d.push_back(0);
    reseal(d);
    expect_error(d, "trailing byte", "after the last track");
  }
  {
    auto d = bytes;
    d.pop_back();
    reseal(d);
    expect_error(d, "short last track");
  }
  {
    auto d = bytes;
    for (int i = 16; i < 24; ++i) d[i] = 0xff;  // fps: a NaN
    reseal(d);
    expect_error(d, "fps", "frame rate");
  }
  {
    auto d = bytes;
    d[24] = 0;  // frame count 0
    reseal(d);
    expect_error(d, "frames", "frame count");
  }
  // Every single byte after the header replaced by each of a few values,
  // resealed: parse either refuses or gives a clip that formats back to the
  // same bytes and decodes without a crash.
  const auto l = test::load_bundled("09_06");
  int refused = 0, accepted = 0;
  for (std::size_t i = 16; i < bytes.size(); ++i) {
    for (const std::uint8_t v : {std::uint8_t{0}, std::uint8_t{0x7f}, std::uint8_t{0x80}, std::uint8_t{0xff}}) {
      auto d = bytes;
      if (d[i] == v) continue;
      d[i] = v;
      reseal(d);
      auto parsed = parse_compressed_clip(d, "damaged.mkc");
      if (!parsed) {
        ++refused;
        EXPECT_FALSE(parsed.error().message.empty());
        continue;
      }
      ++accepted;
      EXPECT_EQ(format_compressed_clip(*parsed), d) << "byte " << i;
      std::vector<Eigen::Quaternionf> q(parsed->bones.size());
      Eigen::Vector3f root;
      ClipCursor cursor = make_cursor(*parsed);
      for (const double t : {0.0, 0.05, 1e9, -1.0}) sample_clip(*parsed, t, cursor, q, root);
      if (check_skeleton(*parsed, l.skeleton, "09.asf")) {
        EXPECT_TRUE(decode_motion(*parsed, l.skeleton).has_value());
      }
    }
  }
  EXPECT_GT(refused, 0);
  std::printf("resealed single-byte damage: %d refused, %d parsed (values changed, still well-formed)\n", refused,
              accepted);
}

TEST(CompressedClip, ForeignSkeletonIsRefusedNamingTheBone) {
  const auto l = test::load_bundled("09_06");
  auto clip = encode_clip(l.skeleton, test::first_frames(l.motion, 24), {});
  ASSERT_TRUE(clip.has_value());
  clip->name = "09_06.mkc";
  EXPECT_TRUE(check_skeleton(*clip, l.skeleton, "09.asf").has_value());

  Skeleton longer = l.skeleton;
  const int tibia = longer.find_bone("ltibia");
  ASSERT_GE(tibia, 0);
  longer.bones[tibia].length *= 1.01;
  auto e = check_skeleton(*clip, longer, "other.asf");
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().file, "other.asf");
  EXPECT_NE(e.error().message.find("ltibia"), std::string::npos) << e.error().message;
  EXPECT_NE(e.error().message.find("09_06.mkc"), std::string::npos) << e.error().message;
  EXPECT_FALSE(decode_motion(*clip, longer).has_value());

  Skeleton renamed = l.skeleton;
  renamed.bones[3].name = "elsewhere";
  e = check_skeleton(*clip, renamed, "renamed.asf");
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("elsewhere"), std::string::npos) << e.error().message;

  Skeleton fewer_dofs = l.skeleton;
  fewer_dofs.bones[tibia].dofs.clear();
  e = check_skeleton(*clip, fewer_dofs, "dofs.asf");
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("dofs"), std::string::npos) << e.error().message;

  // Another subject's skeleton (16.asf): same names, other lengths.
  auto other = read_asf((test::bundled_data_dir() / "16.asf").string());
  ASSERT_TRUE(other.has_value());
  e = check_skeleton(*clip, *other, "16.asf");
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("bone "), std::string::npos) << e.error().message;
}

// Header flags bit 1 is the skeleton's convention: a clip of a BVH skeleton
// is refused against an Acclaim skeleton of the same bones and lengths, and
// the reverse; the bit round-trips and leaves bit 0 alone.
TEST(CompressedClip, BvhConventionIsFlagBitOne) {
  const auto l = test::load_bundled("09_06");
  ClipEncodeOptions options;
  options.pose_keys = {0, 11, 23};
  options.interpolation = Interpolation::kCubic;
  auto clip = encode_clip(l.skeleton, test::first_frames(l.motion, 24), options);
  ASSERT_TRUE(clip.has_value());
  clip->name = "09_06.mkc";
  EXPECT_FALSE(clip->offsets_in_parent_frame);  // from the skeleton
  Skeleton as_bvh = l.skeleton;                 // the same bones, offsets turning with the parent
  as_bvh.offsets_in_parent_frame = true;
  EXPECT_TRUE(check_skeleton(*clip, l.skeleton, "09.asf").has_value());
  auto e = check_skeleton(*clip, as_bvh, "09.bvh");
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().file, "09.bvh");
  EXPECT_NE(e.error().message.find("it is a BVH skeleton"), std::string::npos) << e.error().message;
  EXPECT_FALSE(decode_motion(*clip, as_bvh).has_value());

  clip->offsets_in_parent_frame = true;
  const auto bytes = format_compressed_clip(*clip);
  EXPECT_EQ(bytes[6], 3);  // cubic | BVH
  EXPECT_EQ(bytes[7], 0);
  auto parsed = parse_compressed_clip(bytes, "09_06.mkc");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().to_string();
  EXPECT_TRUE(parsed->offsets_in_parent_frame);
  EXPECT_EQ(parsed->interpolation, Interpolation::kCubic);
  EXPECT_EQ(format_compressed_clip(*parsed), bytes);
  EXPECT_TRUE(check_skeleton(*parsed, as_bvh, "09.bvh").has_value());
  e = check_skeleton(*parsed, l.skeleton, "09.asf");
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("it is an Acclaim (ASF) skeleton, the clip's is a BVH skeleton"), std::string::npos)
      << e.error().message;
}

// A real BVH (cgspeed's 09_06, in its ASF's units) through the file: the
// flag set from the skeleton, byte-stable, decoded against the same BVH and
// no other.
TEST(CompressedClip, CgspeedBvhRoundTripsWithItsConvention) {
  const auto path = test::shared_data_dir() / "cmu-bvh" / "09_06.bvh";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not present";
  auto bvh = read_bvh(path.string(), 0.0254 / 0.45);
  ASSERT_TRUE(bvh.has_value()) << bvh.error().to_string();
  auto clip = encode_clip(bvh->skeleton, bvh->motion, {});
  ASSERT_TRUE(clip.has_value()) << clip.error().to_string();
  EXPECT_TRUE(clip->offsets_in_parent_frame);  // from the skeleton
  const auto bytes = format_compressed_clip(*clip);
  EXPECT_EQ(bytes[6] & 2, 2);
  auto parsed = parse_compressed_clip(bytes, "cgspeed.mkc");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().to_string();
  EXPECT_EQ(format_compressed_clip(*parsed), bytes);
  auto decoded = decode_motion(*parsed, bvh->skeleton);
  ASSERT_TRUE(decoded.has_value()) << decoded.error().to_string();
  EXPECT_EQ(decoded->frame_count(), bvh->motion.frame_count());
  Skeleton acclaim = bvh->skeleton;
  acclaim.offsets_in_parent_frame = false;
  EXPECT_FALSE(decode_motion(*parsed, acclaim).has_value());
}

}  // namespace
}  // namespace mocap
