// The lanes of core/fk.cc's world_transforms, included there twice: for the
// baseline target and under an AVX2 target pragma (no FMA: a fused
// multiply-add rounds once where the frame-by-frame code rounds twice).
// No include guard, no namespace: the includer gives both.

constexpr int kLanes = MOCAP_FK_LANE_COUNT;
using V = double __attribute__((vector_size(8 * kLanes)));
using U = unsigned long long __attribute__((vector_size(8 * kLanes)));
using M = long long __attribute__((vector_size(8 * kLanes)));

struct Q {
  V w, x, y, z;
};
struct P {
  V x, y, z;
};

MOCAP_FK_INLINE V splat(double v) {
  return V{} + v;
}

// Eigen's a * b for double quaternions under SSE2 (quat_product in
// Geometry_SIMD.h), lane by lane.
MOCAP_FK_INLINE Q multiply(const Q& a, const Q& b) {
  return {(a.w * b.w - a.y * b.y) - (a.z * b.z + a.x * b.x), (a.w * b.x + a.y * b.z) - (a.z * b.y - a.x * b.w),
          (a.w * b.y + a.y * b.w) + (a.z * b.x - a.x * b.z), (a.w * b.z - a.y * b.x) + (a.z * b.w + a.x * b.y)};
}

// Eigen's q * v (_transformVector): uv = 2 (q.vec x v), v + w uv + q.vec x uv.
MOCAP_FK_INLINE P rotate(const Q& q, const P& v) {
  P uv{q.y * v.z - q.z * v.y, q.z * v.x - q.x * v.z, q.x * v.y - q.y * v.x};
  uv = {uv.x + uv.x, uv.y + uv.y, uv.z + uv.z};
  return {(v.x + q.w * uv.x) + (q.y * uv.z - q.z * uv.y), (v.y + q.w * uv.y) + (q.z * uv.x - q.x * uv.z),
          (v.z + q.w * uv.z) + (q.x * uv.y - q.y * uv.x)};
}

// rotation::sin_cos of every lane of x.
MOCAP_FK_INLINE void sin_cos(V x, V& s, V& c) {
  constexpr double kTwoOverPi = 0.636619772367581343076;
  constexpr double kPiOver2Hi = 1.57079632673412561417e+00;
  constexpr double kPiOver2Lo = 6.07710050650619224932e-11;
  constexpr double kRound = 6755399441055744.0;
  const M near = (x < 1e5) & (x > -1e5);
  long long all = -1;
  for (int i = 0; i < kLanes; ++i) all &= near[i];
  if (!all) {  // beyond 1e5 rad or NaN: libm, as sin_cos
    for (int i = 0; i < kLanes; ++i) {
      double si = 0.0, ci = 0.0;
      rotation::sin_cos(x[i], si, ci);
      s[i] = si;
      c[i] = ci;
    }
    return;
  }
  const V t = x * kTwoOverPi + kRound;
  const V n = t - kRound;
  const V r = (x - n * kPiOver2Hi) - n * kPiOver2Lo;
  const V r2 = r * r;
  const V sr =
      r * (1.0 + r2 * (-1.0 / 6 +
                       r2 * (1.0 / 120 +
                             r2 * (-1.0 / 5040 + r2 * (1.0 / 362880 +
                                                       r2 * (-1.0 / 39916800 + r2 * (1.0 / 6227020800 +
                                                                                     r2 * (-1.0 / 1307674368000))))))));
  const V cr =
      1.0 +
      r2 * (-0.5 + r2 * (1.0 / 24 +
                         r2 * (-1.0 / 720 + r2 * (1.0 / 40320 +
                                                  r2 * (-1.0 / 3628800 + r2 * (1.0 / 479001600 +
                                                                               r2 * (-1.0 / 87178291200 +
                                                                                     r2 * (1.0 / 20922789888000))))))));
  const U quadrant = (U)t & 3;  // t = 1.5 * 2^52 + n: its low mantissa bits are n's, mod 4 as (long long)n & 3
  const U swap = -(quadrant & 1);
  const U su = (U)sr, cu = (U)cr;
  s = (V)(((cu & swap) | (su & ~swap)) ^ ((quadrant & 2) << 62));        // negative in quadrants 2 and 3
  c = (V)(((su & swap) | (cu & ~swap)) ^ (((quadrant + 1) & 2) << 62));  // negative in 1 and 2
}

// Frames a and b of `channels` (a motion's values) into `world` and `at`
// (scratch, one per bone), then into the outputs (rotations may be null).
void lane_frames(const Skeleton& skeleton, const double* const* frames, Q* world, P* at,
                 Eigen::Vector3d* const* positions, Eigen::Quaterniond* const* rotations) {
  for (const int index : skeleton.eval_order) {
    const auto bi = static_cast<std::size_t>(index);
    const Bone& bone = skeleton.bones[bi];
    const bool root = bone.parent < 0;
    const Eigen::Quaterniond& axis = bone.axis_rotation;
    Q q = root ? Q{splat(axis.w()), splat(axis.x()), splat(axis.y()), splat(axis.z())}
               : Q{splat(1.0), splat(0.0), splat(0.0), splat(0.0)};
    bool identity = !root;
    P translation{splat(0.0), splat(0.0), splat(0.0)};
    bool translated = false;
    V stretch = splat(0.0);
    const auto first = static_cast<std::size_t>(bone.first_channel);
    for (std::size_t k = 0; k < bone.dofs.size(); ++k) {
      V v;
      for (int i = 0; i < kLanes; ++i) v[i] = frames[i][first + k];
      const Channel channel = bone.dofs[k];
      if (is_rotation(channel)) {
        V sine, cosine;
        sin_cos(0.5 * v, sine, cosine);
        const Eigen::Vector3d& e = bone.dof_axes[k];
        const Q turn{cosine, sine * e.x(), sine * e.y(), sine * e.z()};
        q = identity ? turn : multiply(turn, q);
        identity = false;
      } else if (channel == Channel::L) {
        stretch = v;
      } else {
        const int c = static_cast<int>(channel) - static_cast<int>(Channel::TX);
        (c == 0 ? translation.x : c == 1 ? translation.y : translation.z) = v;
        translated = true;
      }
    }
    P offset;
    if (root) {
      const Eigen::Vector3d& r = skeleton.root_position;
      offset = {r.x() + translation.x, r.y() + translation.y, r.z() + translation.z};
    } else {
      const V length = bone.length + stretch;
      offset = {length * bone.direction.x(), length * bone.direction.y(), length * bone.direction.z()};
      if (translated) {
        const P turned = rotate({splat(axis.w()), splat(axis.x()), splat(axis.y()), splat(axis.z())}, translation);
        offset = {offset.x + turned.x, offset.y + turned.y, offset.z + turned.z};
      }
    }
    if (root) {
      world[bi] = q;
      at[bi] = offset;
    } else {
      const auto parent = static_cast<std::size_t>(bone.parent);
      world[bi] = multiply(world[parent], q);
      const P moved = rotate(skeleton.offsets_in_parent_frame ? world[parent] : world[bi], offset);
      at[bi] = {at[parent].x + moved.x, at[parent].y + moved.y, at[parent].z + moved.z};
    }
    for (int i = 0; i < kLanes; ++i) positions[i][bi] = {at[bi].x[i], at[bi].y[i], at[bi].z[i]};
    if (rotations[0]) {
      for (int i = 0; i < kLanes; ++i)
        rotations[i][bi] = Eigen::Quaterniond(world[bi].w[i], world[bi].x[i], world[bi].y[i], world[bi].z[i]);
    }
  }
}

// Frames [first, end) of `motion`, kLanes at a time, into `positions` and
// `rotations` (empty: none; rows from `first`); returns the first frame
// not done (fewer than kLanes are left).
int lane_blocks(const Skeleton& skeleton, const Motion& motion, int first, int end,
                std::span<Eigen::Vector3d> positions, std::span<Eigen::Quaterniond> rotations) {
  const std::size_t bones = skeleton.bones.size();
  int f = first;
  if (end - first < kLanes) return f;
  // new[], not std::vector: under the AVX2 pragma Q is 32-byte aligned, and
  // std::allocator (instantiated outside it) would hand out 16-byte aligned
  // memory (GCC 12).
  const std::unique_ptr<Q[]> world(new Q[bones]);
  const std::unique_ptr<P[]> at(new P[bones]);
  for (; f + kLanes <= end; f += kLanes) {
    const double* rows[kLanes];
    Eigen::Vector3d* out[kLanes];
    Eigen::Quaterniond* turns[kLanes];
    for (int i = 0; i < kLanes; ++i) {
      const std::size_t row = static_cast<std::size_t>(f + i - first) * bones;
      rows[i] = motion.frame(f + i).data();
      out[i] = positions.data() + row;
      turns[i] = rotations.empty() ? nullptr : rotations.data() + row;
    }
    lane_frames(skeleton, rows, world.get(), at.get(), out, turns);
  }
  return f;
}
