// Internal to the compress tier: the plan a ClipSampler (clip_decoder.h)
// holds, and the kernels that evaluate it. clip_sampler.cc builds the plan
// and drives a sample; clip_sampler_kernels.h holds the kernels, compiled
// twice: for the baseline CPU (clip_sampler_portable.cc) and for AVX2 + FMA
// (clip_sampler_avx2.cc), chosen at run time.
//
// A sample, per block of bones:
//   1. values = the block's template (constant channels already in place);
//   2. per curve group (tracks of one spacing and degree): the segment and 2 or 4 basis weights once, then per
//      track a few multiply-adds on control points stored row-interleaved
//      (row r holds point r of every track of the group), scattered into
//      values;
//   3. sin and cos of every half angle, 8 lanes at a time;
//   4. per pack (up to 8 bones turning about the same sequence of
//      coordinate axes, lanes padded with zero turns): M = turns about e_k
//      composed in closed form, then C * M * C^-1 = (w, R_C v), 8 bones at a
//      time; the root's lane has R = I and is multiplied by its C after.
// Whole-pose clips have no blocks: WholePose below.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <memory>
#include <vector>

#include <mocap/compress/clip_decoder.h>

namespace mocap::clip_sampler {

inline constexpr int kLanes = 8;
// Per block: at most this many angle slots (8 per turn of a pack), so that
// a sample's scratch lives on the stack.
inline constexpr int kMaxAngles = 1024;
inline constexpr int kMaxValues = kMaxAngles + kLanes;
inline constexpr int kMaxGroupTracks = 256;

// Tracks sharing a segment and a basis.
struct Group {
  int spacing = 0;   // frames between knots; 0: keyed at Plan::keys
  int degree = 3;    // 1 or 3
  int segments = 1;  // uniform: segment count
  double inv_spacing = 1.0;
  int tracks = 0;           // n
  std::vector<float> rows;  // rows[r * n + k]: point r of track k (keyed: a zero row before and after)
  std::vector<int> slots;   // where track k's value goes in the block's values
};

// Up to 8 bones composed together. Slot of turn d, lane l: slot_base + d * 8 + l.
struct Pack {
  int length = 0;             // turns, 1..8
  std::uint8_t axes[8] = {};  // 0, 1, 2: e_x, e_y, e_z
  int slot_base = 0;
  int bones[kLanes] = {-1, -1, -1, -1, -1, -1, -1, -1};  // -1: padding lane
  alignas(32) float r[9][kLanes] = {};                   // R_C row-major per lane (identity for the root and padding)
};

struct Block {
  std::vector<Group> groups;
  std::vector<Pack> packs;
  std::vector<float> values;  // template: constants in place, the rest 0 (angles then 3 translations)
  int angles = 0;             // angle slots, a multiple of 8
  std::vector<std::pair<int, Eigen::Quaternionf>> fixed;  // bones whose rotation never changes
};

// Whole-pose clips: the rebuild between keys (clip_pose.h, rebuild.h),
// prepared once: per key and bone the local rotation, per segment and bone
// what one sample needs, so that a sample is per bone a slerp (one sin/cos)
// or three exps of the cubic, then the two-dof projection.
struct WholePose {
  bool cubic = false;
  int bones = 0;
  std::vector<Eigen::Quaternionf> key;       // keys x bones: the local rotations at the keys
  std::vector<Eigen::Vector3f> translation;  // keys: the root's tx, ty, tz
  std::vector<Eigen::Vector3f> move;         // keys: cubic: the translation's tangent, metres per frame
  struct Slerp {                             // segments x bones
    Eigen::Quaternionf b;                    // the later key on the earlier one's side of the sphere
    float theta = 0, sin_theta = 0, cos_theta = 1, inv_sin = 0;  // theta: half the angle between them; inv_sin 0: nlerp
  };
  std::vector<Slerp> slerp;
  struct Cubic {  // segments x bones: q_a exp(b1 w1) exp(b2 w2) exp(b3 w3)
    Eigen::Vector3f w1, w2, w3;
  };
  std::vector<Cubic> cubic_arcs;
  struct TwoDof {  // a bone with two rotation dofs, projected onto them
    int bone = 0;
    int a1 = 0, a2 = 0;  // its dofs' axes in dof order (0 x, 1 y, 2 z)
    bool root = false;
    Eigen::Quaternionf c = Eigen::Quaternionf::Identity();
  };
  std::vector<TwoDof> two_dof;
};

struct Kernels {
  // out[k] = sum_j w[j] * rows[(first + j) * n + k], j < taps (2 or 4), k < n.
  void (*curves)(const float* rows, int n, int first, int taps, const float* w, float* out);
  // s[i], c[i] = sin, cos of angles[i] / 2, i < count (a multiple of 8).
  void (*sin_cos)(const float* angles, int count, float* s, float* c);
  // The pack's 8 local rotations as out[0..3][lane] = w, x, y, z.
  void (*compose)(const Pack& pack, const float* s, const float* c, float (*out)[kLanes]);
};

}  // namespace mocap::clip_sampler

namespace mocap {

struct ClipSamplerPlan {
  ClipKernel kernel = ClipKernel::kPortable;
  const clip_sampler::Kernels* kernels = nullptr;
  double fps = 120.0;
  int frame_count = 1;
  int bones = 0;
  std::vector<int> keys;  // whole-pose clips: the key frame indices
  Eigen::Vector3f root_position = Eigen::Vector3f::Zero();
  Eigen::Quaternionf root_axis = Eigen::Quaternionf::Identity();  // O: the root's lane is O * M
  std::vector<clip_sampler::Block> blocks;                        // per-track clips
  std::unique_ptr<clip_sampler::WholePose> whole;                 // whole-pose clips (then no blocks)
};

}  // namespace mocap

namespace mocap::clip_sampler {

const Kernels& portable_kernels();
const Kernels& avx2_kernels();  // only where cpu_has_avx2()
bool cpu_has_avx2();

}  // namespace mocap::clip_sampler
