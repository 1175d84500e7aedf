#include <mocap/compress/compressed_clip.h>

#include <mocap/core/crc32.h>
#include <mocap/io/atomic_write.h>

#include <array>
#include <cmath>
#include <fstream>
#include <iterator>
#include <string_view>

#include "compress/runtime/clip_bits.h"

namespace mocap {
namespace {

using clip_bits::BitReader;
using clip_bits::BitWriter;
using clip_bits::ByteReader;
using clip_bits::ByteWriter;

constexpr std::array<std::uint8_t, 4> kMagic = {'M', 'K', 'C', 0x1a};
constexpr std::size_t kHeaderBytes = 16;  // magic, version, flags, size, crc
constexpr std::uint16_t kCubicFlag = 1;   // whole-pose clips: the rebuild is the cubic
constexpr std::uint16_t kBvhFlag = 2;     // the skeleton's offsets turn with the parent (BVH)
constexpr std::array<std::string_view, 6> kAxisOrders = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
constexpr int kMaxBones = 1024;
constexpr int kMaxDofs = 8;
constexpr int kMaxFrames = 10'000'000;
constexpr int kMaxSpacing = 65535;
constexpr int kMaxStepCode = 1000;
constexpr std::int64_t kMaxCode = std::int64_t{1} << 28;  // so that second differences fit a 32-bit zigzag
constexpr double kMaxValue = 1e6;                         // radians or metres: anything larger is damage

// Points of a track: control points of a uniform B-spline, or key values.
std::int64_t point_count(const CompressedClip& clip, const ClipTrack& t) {
  if (t.spacing == 0) return static_cast<std::int64_t>(clip.keys.size());
  const std::int64_t gaps = std::max<std::int64_t>(1, (clip.frame_count - 1 + t.spacing - 1) / t.spacing);
  return gaps + t.degree;
}

// Fills the fields a file does not store: rotations and axes as floats,
// channel offsets.
void derive(CompressedClip& clip) {
  int channel = 0;
  for (ClipBone& bone : clip.bones) {
    const Eigen::Quaterniond c =
        euler_to_quaternion(bone.axis.cast<double>(), kAxisOrders[std::min<std::size_t>(bone.axis_order, 5)]);
    bone.axis_rotation = c.cast<float>();
    bone.dof_axes.clear();
    for (const Channel d : bone.dofs)
      bone.dof_axes.push_back((c * Eigen::Vector3d::Unit(static_cast<int>(d) % 3)).cast<float>());
    bone.first_channel = channel;
    channel += static_cast<int>(bone.dofs.size());
  }
  clip.channel_count = channel;
  for (ClipTrack& t : clip.tracks) {
    t.segments = t.spacing > 0 ? static_cast<int>(point_count(clip, t) - t.degree) : 1;
    t.inv_spacing = t.spacing > 0 ? 1.0 / t.spacing : 1.0;
  }
}

void write_track(ByteWriter& w, const ClipTrack& t) {
  if (t.storage == TrackStorage::kConstant) {
    w.u8(0);
    w.f32(t.constant);
    return;
  }
  // Keyed tracks have no curve of their own: degree bit 0.
  const bool cubic = t.degree == 3 && t.spacing > 0;
  w.u8(static_cast<std::uint32_t>(t.storage) | (cubic ? 4u : 0u) | (static_cast<std::uint32_t>(t.order) << 3));
  w.varint(static_cast<std::uint32_t>(t.spacing));
  if (t.storage == TrackStorage::kFloat) {
    for (const std::int32_t c : t.codes) w.u32(static_cast<std::uint32_t>(c));
    return;
  }
  w.svarint(t.step_code);
  w.u8(t.parameter);
  std::vector<std::int64_t> r;
  clip_bits::residuals(t.codes, t.order, r);
  for (int i = 0; i < t.order; ++i) w.svarint(r[i]);
  BitWriter bits{w.bytes};
  for (std::size_t i = t.order; i < r.size(); ++i) {
    if (t.storage == TrackStorage::kRice) {
      bits.rice(clip_bits::zigzag(r[i]), t.parameter);
    } else {
      bits.put(clip_bits::zigzag(r[i]), t.parameter);
    }
  }
  bits.flush();
}

struct Parser {
  ByteReader in;
  const std::string& name;
  std::string problem;  // first problem found
  std::size_t problem_at = 0;

  bool fail_at(std::string what) {
    if (problem.empty()) problem = std::move(what), problem_at = in.at;
    return false;
  }
  bool truncated(std::string_view what) {
    if (!in.bad) return true;
    return fail_at("truncated or overlong " + std::string(what));
  }

  bool track(CompressedClip& clip, ClipTrack& t, int channel) {
    const std::string what = "track of channel " + std::to_string(channel);
    const std::uint32_t head = in.u8();
    if (!truncated(what)) return false;
    if (head & 0xe0) return fail_at(what + ": reserved bits of the head byte set");
    t.storage = static_cast<TrackStorage>(head & 3);
    t.degree = (head & 4) ? 3 : 1;
    t.order = static_cast<std::uint8_t>((head >> 3) & 3);
    if (t.storage == TrackStorage::kConstant) {
      if (head != 0) return fail_at(what + ": a constant track has no degree or order");
      t.degree = 3;
      t.constant = in.f32();
      if (!truncated(what)) return false;
      if (!(std::abs(t.constant) <= kMaxValue)) return fail_at(what + ": constant not finite or out of range");
      return true;
    }
    t.spacing = static_cast<int>(std::min<std::uint32_t>(in.varint(), kMaxSpacing + 1));
    if (!truncated(what)) return false;
    if (t.spacing > kMaxSpacing) return fail_at(what + ": knot spacing above 65535 frames");
    if (t.spacing == 0 && clip.keys.empty()) return fail_at(what + ": keyed track in a clip without key frames");
    // A keyed track is rebuilt with the whole pose (the header's flag says
    // how); a degree bit there is a file from before that rule, or damage.
    if (t.spacing == 0 && t.degree != 1) return fail_at(what + ": keyed track with its degree bit set");
    if (t.order > 2) return fail_at(what + ": delta order 3");
    const std::int64_t m = point_count(clip, t);
    if (m < 1) return fail_at(what + ": no points");
    if (t.storage == TrackStorage::kFloat) {
      if (t.order != 0) return fail_at(what + ": float points have no delta order");
      if (!in.has(static_cast<std::size_t>(m) * 4)) return fail_at("truncated " + what);
      t.codes.resize(static_cast<std::size_t>(m));
      t.points.resize(static_cast<std::size_t>(m));
      for (std::int64_t i = 0; i < m; ++i) {
        t.codes[i] = static_cast<std::int32_t>(in.u32());
        t.points[i] = std::bit_cast<float>(t.codes[i]);
        if (!(std::abs(t.points[i]) <= kMaxValue)) return fail_at(what + ": point not finite or out of range");
      }
      return true;
    }
    const std::int64_t code = in.svarint();
    t.parameter = static_cast<std::uint8_t>(in.u8());
    if (!truncated(what)) return false;
    if (code < -kMaxStepCode || code > kMaxStepCode) return fail_at(what + ": step code out of -1000..1000");
    t.step_code = static_cast<int>(code);
    if (t.storage == TrackStorage::kRice && t.parameter > clip_bits::kMaxRiceParameter)
      return fail_at(what + ": Rice parameter above 24");
    if (t.storage == TrackStorage::kFixed && t.parameter > 32)
      return fail_at(what + ": more than 32 bits per residual");
    if (t.order > m) return fail_at(what + ": delta order above the number of points");
    // Every point costs at least one bit: a count beyond the bytes left is damage, not a reason to allocate.
    if (t.storage == TrackStorage::kRice && static_cast<std::uint64_t>(m - t.order) > 8 * (in.bytes.size() - in.at))
      return fail_at("truncated " + what);
    std::vector<std::int64_t> r(static_cast<std::size_t>(m));
    for (int i = 0; i < t.order; ++i) r[i] = in.svarint();
    if (!truncated(what)) return false;
    BitReader bits{in};
    for (std::int64_t i = t.order; i < m; ++i) {
      const std::uint32_t z = t.storage == TrackStorage::kRice ? bits.rice(t.parameter) : bits.get(t.parameter);
      if (in.bad) return fail_at("truncated " + what);
      r[i] = clip_bits::unzigzag(z);
    }
    if (!bits.padding_is_zero()) return fail_at(what + ": padding bits not zero");
    // Undo the differences, checking the range as codes come back.
    for (int d = t.order; d-- > 0;) {
      for (std::int64_t i = d + 1; i < m; ++i) {
        r[i] += r[i - 1];
        if (r[i] < -4 * kMaxCode || r[i] > 4 * kMaxCode) return fail_at(what + ": code out of range");
      }
    }
    const double step = step_of(t.step_code);
    t.codes.resize(static_cast<std::size_t>(m));
    t.points.resize(static_cast<std::size_t>(m));
    for (std::int64_t i = 0; i < m; ++i) {
      if (r[i] < -kMaxCode || r[i] > kMaxCode) return fail_at(what + ": code out of range");
      t.codes[i] = static_cast<std::int32_t>(r[i]);
      const double v = static_cast<double>(r[i]) * step;
      if (!(std::abs(v) <= kMaxValue)) return fail_at(what + ": point not finite or out of range");
      t.points[i] = static_cast<float>(v);
    }
    return true;
  }

  bool body(CompressedClip& clip) {
    clip.fps = in.f64();
    if (!truncated("frame rate")) return false;
    if (!(clip.fps > 0.0 && clip.fps <= 1e6)) return fail_at("frame rate not in (0, 1e6]");
    const std::uint32_t frames = in.varint();
    const std::int64_t first = in.svarint();
    const std::uint32_t regular = in.u8();
    if (!truncated("frame numbers")) return false;
    if (frames < 1 || frames > static_cast<std::uint32_t>(kMaxFrames)) return fail_at("frame count not in 1..10000000");
    if (first < INT32_MIN || first > INT32_MAX) return fail_at("first frame number out of range");
    if (regular > 1) return fail_at("frame numbering flag not 0 or 1");
    clip.frame_count = static_cast<int>(frames);
    clip.first_frame = static_cast<int>(first);
    if (regular == 0) {
      if (!in.has(frames - 1)) return fail_at("truncated frame numbers");
      clip.irregular_frame_numbers.resize(frames);
      std::int64_t number = first;
      clip.irregular_frame_numbers[0] = clip.first_frame;
      for (std::uint32_t f = 1; f < frames; ++f) {
        const std::uint32_t d = in.varint();
        if (!truncated("frame numbers")) return false;
        number += d;
        if (d == 0 || number > INT32_MAX) return fail_at("frame numbers not increasing or out of range");
        clip.irregular_frame_numbers[f] = static_cast<int>(number);
      }
    } else if (first + frames - 1 > INT32_MAX) {
      return fail_at("last frame number out of range");
    }
    for (int k = 0; k < 3; ++k) clip.root_position[k] = in.f32();
    if (!truncated("root position")) return false;
    if (!(clip.root_position.array().abs() <= kMaxValue).all())
      return fail_at("root position not finite or out of range");
    const std::uint32_t bones = in.varint();
    if (!truncated("bone count")) return false;
    if (bones < 1 || bones > static_cast<std::uint32_t>(kMaxBones)) return fail_at("bone count not in 1..1024");
    clip.bones.resize(bones);
    for (std::uint32_t b = 0; b < bones; ++b) {
      ClipBone& bone = clip.bones[b];
      const std::string what = "bone " + std::to_string(b);
      const std::uint32_t length = in.u8();
      if (!truncated(what + " name")) return false;
      if (length == 0 || !in.has(length)) return fail_at(what + ": empty or truncated name");
      bone.name.assign(reinterpret_cast<const char*>(in.bytes.data() + in.at), length);
      in.at += length;
      for (const char c : bone.name) {
        if (c <= ' ' || c > '~') return fail_at(what + ": name is not printable ASCII without spaces");
      }
      const std::uint32_t parent = in.varint();
      const std::uint32_t dofs = in.u8();
      if (!truncated(what)) return false;
      if ((b == 0) != (parent == 0) || parent > bones)
        return fail_at(what + " '" + bone.name + "': parent out of range");
      bone.parent = static_cast<int>(parent) - 1;
      if (dofs > static_cast<std::uint32_t>(kMaxDofs)) return fail_at(what + " '" + bone.name + "': more than 8 dofs");
      unsigned seen = 0;
      for (std::uint32_t k = 0; k < dofs; ++k) {
        const std::uint32_t c = in.u8();
        if (!truncated(what)) return false;
        if (c > 6 || (seen & (1u << c))) return fail_at(what + " '" + bone.name + "': bad or repeated dof code");
        seen |= 1u << c;
        bone.dofs.push_back(static_cast<Channel>(c));
      }
      bone.length = in.f32();
      for (int k = 0; k < 3; ++k) bone.axis[k] = in.f32();
      bone.axis_order = static_cast<std::uint8_t>(in.u8());
      if (!truncated(what)) return false;
      if (!(bone.length >= 0.0f && bone.length <= kMaxValue)) return fail_at(what + " '" + bone.name + "': bad length");
      if (!(bone.axis.array().abs() <= 100.0f).all()) return fail_at(what + " '" + bone.name + "': bad axis");
      if (bone.axis_order > 5) return fail_at(what + " '" + bone.name + "': axis order not 0..5");
    }
    // Parents must form a tree rooted at bone 0: walking up from any bone reaches it.
    for (std::uint32_t b = 1; b < bones; ++b) {
      int at = static_cast<int>(b);
      for (std::uint32_t steps = 0; at > 0 && steps <= bones; ++steps) at = clip.bones[at].parent;
      if (at != 0) return fail_at("bone " + std::to_string(b) + " '" + clip.bones[b].name + "' is not under the root");
    }
    derive(clip);
    const std::uint32_t keys = in.varint();
    if (!truncated("key count")) return false;
    if (keys > frames) return fail_at("more keys than frames");
    if (keys > 0) {
      if (!in.has(keys - 1)) return fail_at("truncated key frames");
      clip.keys.resize(keys);
      std::int64_t key = 0;
      for (std::uint32_t i = 1; i < keys; ++i) {
        const std::uint32_t d = in.varint();
        if (!truncated("key frames")) return false;
        key += d;
        if (d == 0 || key >= frames) return fail_at("key frames not increasing or beyond the last frame");
        clip.keys[i] = static_cast<int>(key);
      }
      if (key != frames - 1) return fail_at("the last key is not the last frame");
    }
    clip.tracks.resize(static_cast<std::size_t>(clip.channel_count));
    for (int c = 0; c < clip.channel_count; ++c) {
      if (!track(clip, clip.tracks[c], c)) return false;
    }
    if (in.at != in.bytes.size())
      return fail_at(std::to_string(in.bytes.size() - in.at) + " bytes after the last track");
    derive(clip);
    return true;
  }
};

}  // namespace

double step_of(int step_code) {
  return std::ldexp(8.0 + (step_code & 7), (step_code >> 3) - 3);
}

bool looks_like_compressed_clip(std::span<const std::uint8_t> first_bytes) {
  return first_bytes.size() >= kMagic.size() && std::equal(kMagic.begin(), kMagic.end(), first_bytes.begin());
}

Result<CompressedClip> parse_compressed_clip(std::span<const std::uint8_t> bytes, const std::string& name) {
  if (bytes.size() < kHeaderBytes) {
    if (!looks_like_compressed_clip(bytes) && bytes.size() >= 4)
      return fail(name, 0, "not a compressed clip (no MKC magic)");
    return fail(name, 0, "truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the 16-byte header");
  }
  if (!looks_like_compressed_clip(bytes)) return fail(name, 0, "not a compressed clip (no MKC magic)");
  ByteReader head{bytes.subspan(4, 12), 0, false};
  const std::uint32_t version = head.u16();
  const std::uint32_t flags = head.u16();
  const std::uint32_t size = head.u32();
  const std::uint32_t crc = head.u32();
  if (version != kClipFormatVersion)
    return fail(name, 0,
                "format version " + std::to_string(version) + ", this reader knows version " +
                    std::to_string(kClipFormatVersion));
  if (size != bytes.size())
    return fail(name, 0,
                "header says " + std::to_string(size) + " bytes, the file has " + std::to_string(bytes.size()) +
                    (size > bytes.size() ? " (truncated)" : " (extra bytes)"));
  if (crc32(bytes.subspan(kHeaderBytes)) != crc) return fail(name, 0, "checksum mismatch (corrupted)");
  if ((flags & ~std::uint32_t{kCubicFlag | kBvhFlag}) != 0)
    return fail(name, 0, "unknown flags " + std::to_string(flags));
  CompressedClip clip;
  clip.name = name;
  clip.version = static_cast<std::uint16_t>(version);
  clip.interpolation = (flags & kCubicFlag) ? Interpolation::kCubic : Interpolation::kSlerp;
  clip.offsets_in_parent_frame = (flags & kBvhFlag) != 0;
  Parser p{ByteReader{bytes, kHeaderBytes, false}, name, {}, 0};
  if (!p.body(clip)) {
    if (p.problem.empty()) p.problem = "malformed";
    return fail(name, 0, p.problem + " (at byte " + std::to_string(p.problem_at) + ")");
  }
  if (clip.keys.empty() && clip.interpolation != Interpolation::kSlerp)
    return fail(name, 0, "the cubic rebuild flag is set on a clip without key frames");
  clip.byte_size = bytes.size();
  return clip;
}

Result<CompressedClip> read_compressed_clip(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return fail(path, 0, "cannot open for reading");
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) return fail(path, 0, "read error");
  return parse_compressed_clip(bytes, path);
}

std::vector<std::uint8_t> format_compressed_clip(const CompressedClip& clip) {
  ByteWriter w;
  for (const std::uint8_t b : kMagic) w.u8(b);
  w.u16(clip.version);
  w.u16((!clip.keys.empty() && clip.interpolation == Interpolation::kCubic ? kCubicFlag : 0) |
        (clip.offsets_in_parent_frame ? kBvhFlag : 0));
  w.u32(0);  // size, filled below
  w.u32(0);  // crc, filled below
  w.f64(clip.fps);
  w.varint(static_cast<std::uint32_t>(clip.frame_count));
  w.svarint(clip.first_frame);
  w.u8(clip.irregular_frame_numbers.empty() ? 1 : 0);
  for (std::size_t f = 1; f < clip.irregular_frame_numbers.size(); ++f)
    w.varint(static_cast<std::uint32_t>(clip.irregular_frame_numbers[f] - clip.irregular_frame_numbers[f - 1]));
  for (int k = 0; k < 3; ++k) w.f32(clip.root_position[k]);
  w.varint(static_cast<std::uint32_t>(clip.bones.size()));
  for (const ClipBone& bone : clip.bones) {
    w.u8(static_cast<std::uint32_t>(bone.name.size()));
    w.bytes.insert(w.bytes.end(), bone.name.begin(), bone.name.end());
    w.varint(static_cast<std::uint32_t>(bone.parent + 1));
    w.u8(static_cast<std::uint32_t>(bone.dofs.size()));
    for (const Channel c : bone.dofs) w.u8(static_cast<std::uint32_t>(c));
    w.f32(bone.length);
    for (int k = 0; k < 3; ++k) w.f32(bone.axis[k]);
    w.u8(bone.axis_order);
  }
  w.varint(static_cast<std::uint32_t>(clip.keys.size()));
  for (std::size_t i = 1; i < clip.keys.size(); ++i)
    w.varint(static_cast<std::uint32_t>(clip.keys[i] - clip.keys[i - 1]));
  for (const ClipTrack& t : clip.tracks) write_track(w, t);
  std::vector<std::uint8_t>& out = w.bytes;
  const auto size = static_cast<std::uint32_t>(out.size());
  const std::uint32_t crc = crc32(std::span(out).subspan(kHeaderBytes));
  for (int i = 0; i < 4; ++i) out[8 + i] = static_cast<std::uint8_t>(size >> (8 * i));
  for (int i = 0; i < 4; ++i) out[12 + i] = static_cast<std::uint8_t>(crc >> (8 * i));
  return out;
}

Result<void> write_compressed_clip(const std::string& path, const CompressedClip& clip) {
  const std::vector<std::uint8_t> bytes = format_compressed_clip(clip);
  return write_file_atomically(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Result<void> check_skeleton(const CompressedClip& clip, const Skeleton& skeleton, const std::string& skeleton_name) {
  const auto differs = [&](std::string what) {
    return fail(skeleton_name, 0, "not the skeleton of " + clip.name + ": " + std::move(what));
  };
  if (clip.bones.size() != skeleton.bones.size())
    return differs(std::to_string(skeleton.bones.size()) + " bones, the clip has " + std::to_string(clip.bones.size()));
  const auto convention = [](bool bvh) {
    return bvh ? "a BVH skeleton (offsets turn with the parent)" : "an Acclaim (ASF) skeleton";
  };
  if (clip.offsets_in_parent_frame != skeleton.offsets_in_parent_frame)
    return differs(std::string("it is ") + convention(skeleton.offsets_in_parent_frame) + ", the clip's is " +
                   convention(clip.offsets_in_parent_frame));
  const auto close = [](double a, double b, double tolerance) {
    return std::abs(a - b) <= tolerance * std::max(1.0, std::abs(b));
  };
  const Eigen::Vector3f root = skeleton.root_position.cast<float>();
  if (!(root - clip.root_position).isZero(1e-6f)) return differs("the root position differs");
  for (std::size_t b = 0; b < clip.bones.size(); ++b) {
    const ClipBone& c = clip.bones[b];
    const Bone& s = skeleton.bones[b];
    const std::string at = "bone " + std::to_string(b) + " '" + s.name + "'";
    if (c.name != s.name) return differs(at + " is '" + c.name + "' in the clip");
    if (c.parent != s.parent) return differs(at + " has another parent in the clip");
    if (c.dofs != s.dofs) return differs(at + " has other dofs in the clip");
    if (!close(c.length, s.length, 1e-6))
      return differs(at + " is " + std::to_string(s.length) + " m long, " + std::to_string(c.length) +
                     " m in the clip");
    // The clip stores C as float Euler angles: compare rotations, not angles,
    // so that any order or angle triple giving the same C matches.
    const Eigen::Quaterniond clip_axis = euler_to_quaternion(c.axis.cast<double>(), kAxisOrders[c.axis_order]);
    const Eigen::Quaterniond turn = clip_axis.conjugate() * s.axis_rotation;
    const double angle = 2.0 * std::atan2(turn.vec().norm(), std::abs(turn.w()));
    if (!(angle <= 1e-6)) return differs(at + "'s axis is " + std::to_string(angle) + " rad from the clip's");
  }
  return {};
}

ClipSummary summarize(const CompressedClip& clip) {
  ClipSummary s;
  s.frames = clip.frame_count;
  s.fps = clip.fps;
  s.first_frame_number = clip.frame_count > 0 ? clip.frame_number(0) : 0;
  s.last_frame_number = clip.frame_count > 0 ? clip.frame_number(clip.frame_count - 1) : 0;
  s.bones = static_cast<int>(clip.bones.size());
  s.tracks = static_cast<int>(clip.tracks.size());
  for (const ClipTrack& t : clip.tracks) {
    if (t.storage == TrackStorage::kConstant) {
      ++s.constant_tracks;
      ++s.keys;
    } else {
      s.keys += static_cast<int>(t.points.size());
    }
  }
  s.whole_pose = !clip.keys.empty();
  s.bytes = clip.byte_size;
  return s;
}

void finalize_clip(CompressedClip& clip) {
  derive(clip);
}

}  // namespace mocap
