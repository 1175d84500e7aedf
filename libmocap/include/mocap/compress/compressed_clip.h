// The compressed clip file (.mkc): a motion of one skeleton stored as one
// error-bounded curve per AMC channel, and the skeleton's fingerprint.
//
// The file (docs/clip-format.md gives every byte) holds, little-endian:
//   header     magic "MKC\x1a", version, total size, CRC-32 of the rest
//   timing     frame rate, frame numbers (first + count, or every number)
//   skeleton   per bone: name, parent, dofs, length, axis, and (header flags
//              bit 1) whether offsets turn with the parent (a BVH skeleton):
//              enough to refuse another skeleton (check_skeleton) and to
//              turn channels into local rotations without one (clip_decoder.h)
//   keys       the shared key frames of a whole-pose clip (else none), and
//              (header flags bit 0) how the rebuild goes between them
//   tracks     one per channel, in Motion channel order: a constant, or
//              control points (uniform cubic/linear B-spline) or key values
//              as integers on a grid, delta-coded and Rice-coded (or
//              fixed-width, or float32)
// A whole-pose clip decodes as compress/rebuild.h's rebuild_motion of its
// key poses (clip_decoder.h), never channel by channel between keys: Euler
// channels of captures jump, and a curve through them swings far.
// Reading validates everything (size, checksum, magic, version, counts,
// indices, ranges) and unpacks every track into float points, so that
// sampling (clip_decoder.h) is arithmetic on arrays, never parsing.
#pragma once

#include <mocap/compress/interpolation.h>
#include <mocap/core/error.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mocap {

inline constexpr std::uint16_t kClipFormatVersion = 1;

// The skeleton as the clip remembers it (its fingerprint).
struct ClipBone {
  std::string name;           // 1..255 bytes
  int parent = -1;            // bone index, -1 for the root (bone 0 only); parents come first
  std::vector<Channel> dofs;  // as the ASF dof line (the root's order line) gives them, <= 8
  float length = 0.0f;        // metres
  // The axis rotation C as Euler angles (radians) about X, Y, Z composed in
  // `axis_order`; the encoder writes C's xyz_euler_angles (skeleton.h), order 0.
  Eigen::Vector3f axis = Eigen::Vector3f::Zero();
  std::uint8_t axis_order = 0;  // 0..5: XYZ XZY YXZ YZX ZXY ZYX (first letter applied first)
  // Derived on parse/encode (not stored): C as a quaternion and C * e_k per dof.
  Eigen::Quaternionf axis_rotation = Eigen::Quaternionf::Identity();
  std::vector<Eigen::Vector3f> dof_axes;
  int first_channel = 0;
};

// How a track's values are stored in the file.
enum class TrackStorage : std::uint8_t {
  kConstant = 0,  // one float32 for every frame
  kRice = 1,      // integer codes on a grid, delta-coded, Rice-coded
  kFixed = 2,     // integer codes on a grid, delta-coded, fixed width
  kFloat = 3,     // float32 points, no quantisation
};

// One channel as a curve. Uniform tracks (spacing > 0): a B-spline of
// `degree` (1 or 3) with knots every `spacing` frames from frame 0; point i
// is control point i, and there are (frames - 1 + spacing - 1) / spacing +
// degree of them. Keyed tracks (spacing == 0, whole-pose clips): point i is
// the value at key frame keys[i]; the track has no curve of its own (degree
// is 1, its head's degree bit 0): between keys the whole pose is rebuilt
// from the key poses by the clip's `interpolation`.
struct ClipTrack {
  TrackStorage storage = TrackStorage::kConstant;
  std::uint8_t degree = 3;          // 1 or 3
  std::uint8_t order = 0;           // delta order 0..2 of the codes (kRice, kFixed)
  std::uint8_t parameter = 0;       // Rice parameter k 0..30 (kRice), or bits 0..32 per residual (kFixed)
  int spacing = 0;                  // frames between knots, 1..65535; 0: keyed at CompressedClip::keys
  int step_code = 0;                // grid step = (8 + (c & 7)) * 2^((c >> 3) - 3), c in -1000..1000 (see step_of)
  float constant = 0.0f;            // kConstant: the value
  std::vector<std::int32_t> codes;  // kRice/kFixed: point i = codes[i] * step; kFloat: float bits
  std::vector<float> points;        // derived: the decoded points, in the channel's unit
  // Derived for the sampler: uniform segments and 1 / spacing.
  int segments = 1;
  double inv_spacing = 1.0;
};

struct CompressedClip {
  std::string name;  // the file, for messages (not stored)
  std::uint16_t version = kClipFormatVersion;
  double fps = 120.0;   // frames per second, > 0 and finite
  int first_frame = 1;  // frame number of frame 0
  int frame_count = 0;  // >= 1
  // Empty when frame numbers are first_frame, first_frame + 1, ...; else all
  // of them (increasing).
  std::vector<int> irregular_frame_numbers;
  Eigen::Vector3f root_position = Eigen::Vector3f::Zero();  // the ASF root position, metres
  // The skeleton's Skeleton::offsets_in_parent_frame (header flags bit 1): a
  // BVH skeleton's clip, as encode_clip sets it from the skeleton. Part of
  // the fingerprint only (check_skeleton): decoding does not depend on it.
  bool offsets_in_parent_frame = false;
  std::vector<ClipBone> bones;  // bones[0] is the root
  int channel_count = 0;        // sum of the bones' dofs (derived)
  std::vector<int> keys;  // whole-pose clips: the key frame indices (increasing, first and last frame); else empty
  // Whole-pose clips: how rebuild_motion (compress/rebuild.h) goes between
  // the key poses (header flags bit 0: 1 cubic, 0 slerp). kSlerp when `keys`
  // is empty (the flag must then be 0).
  Interpolation interpolation = Interpolation::kSlerp;
  std::vector<ClipTrack> tracks;  // one per channel
  std::size_t byte_size = 0;      // the file's size when read or formatted

  int frame_number(int f) const {
    return irregular_frame_numbers.empty() ? first_frame + f : irregular_frame_numbers[static_cast<std::size_t>(f)];
  }
  double duration_seconds() const { return frame_count / fps; }
};

// The grid step of a step code, exact in binary: (8 + (code & 7)) / 8 * 2^(code >> 3).
double step_of(int step_code);

// Parses and validates `bytes` (a whole file). `name` stands for the file in
// errors. Fails on a wrong magic or version, a size or checksum mismatch,
// unknown header flags (or the cubic flag without keys), a truncated or
// overlong field, counts that do not add up, indices or values out of range,
// a keyed track with its degree bit set; the message says what was wrong and
// at which byte.
Result<CompressedClip> parse_compressed_clip(std::span<const std::uint8_t> bytes, const std::string& name);
Result<CompressedClip> read_compressed_clip(const std::string& path);

// The file's bytes. format_compressed_clip(parse(bytes)) == bytes. The clip
// must be valid (as parse or encode_clip give it).
std::vector<std::uint8_t> format_compressed_clip(const CompressedClip& clip);
// Writes atomically (io/atomic_write.h).
Result<void> write_compressed_clip(const std::string& path, const CompressedClip& clip);

// True when the bytes start with the magic (4 bytes are enough).
bool looks_like_compressed_clip(std::span<const std::uint8_t> first_bytes);

// Fails unless `skeleton` is the one the clip was made from: same bone count,
// the same convention (offsets_in_parent_frame: BVH or Acclaim), root position (within 1e-6 m), and per bone the same
// name, parent, dofs, length (within 1e-6 relative) and axis rotation (the clip's C within 1e-6 rad of the skeleton's).
// The error names the first bone that differs and how.
Result<void> check_skeleton(const CompressedClip& clip, const Skeleton& skeleton, const std::string& skeleton_name);

// Fills the derived fields of a clip built in memory: the bones'
// axis_rotation, dof_axes, first_channel, channel_count, and the tracks'
// segments and inv_spacing (not points).
void finalize_clip(CompressedClip& clip);

// Numbers for `mocap info clip.mkc`.
struct ClipSummary {
  int frames = 0;
  double fps = 0.0;
  int first_frame_number = 0, last_frame_number = 0;
  int bones = 0;
  int tracks = 0;           // channels
  int constant_tracks = 0;  // tracks with one value
  int keys = 0;             // points stored over all tracks (control points or key values)
  bool whole_pose = false;  // keyed at shared key frames
  std::size_t bytes = 0;
};
ClipSummary summarize(const CompressedClip& clip);

}  // namespace mocap
