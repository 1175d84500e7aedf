#include <mocap/skin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace mocap {

Eigen::Affine3d Placement::matrix() const {
  Eigen::Affine3d m = Eigen::Affine3d::Identity();
  m.translate(translation);
  m.rotate(Eigen::AngleAxisd(yaw_radians, Eigen::Vector3d::UnitY()));
  m.scale(scale);
  return m;
}

Placement fit_placement(const Skeleton& skeleton, const Pose& bind_pose, const Mesh& mesh, double yaw_radians) {
  const std::size_t bones = skeleton.bones.size();
  std::vector<Eigen::Vector3d> positions(bones);
  std::vector<Eigen::Quaterniond> rotations(bones);
  forward_kinematics(skeleton, bind_pose, positions, rotations);
  const Eigen::AngleAxisd yaw(yaw_radians, Eigen::Vector3d::UnitY());
  Eigen::AlignedBox3d joints;
  for (const auto& p : positions) joints.extend(yaw * p);
  Eigen::AlignedBox3d body;
  for (const auto& p : mesh.positions) body.extend(p.cast<double>());
  Placement placement;
  placement.yaw_radians = yaw_radians;
  const double height = body.sizes().y();
  const double joint_height = joints.sizes().y();
  placement.scale = joint_height > 0.0 ? (1.0 - kFootRatio - kHeadRatio) * height / joint_height : 1.0;
  placement.translation.y() = body.min().y() + kFootRatio * height - placement.scale * joints.min().y();
  const Eigen::Vector3d root = placement.scale * (yaw * positions[0]);
  const double root_y = root.y() + placement.translation.y();
  Eigen::AlignedBox3d section;
  for (const auto& p : mesh.positions) {
    if (std::abs(p.y() - root_y) <= 0.025 * height && std::abs(p.x() - body.center().x()) <= 0.1 * height) {
      section.extend(p.cast<double>());
    }
  }
  if (section.isEmpty()) section = body;
  placement.translation.x() = section.center().x() - root.x();
  placement.translation.z() = section.center().z() - root.z();

  // Refinement in Z (X is symmetric already): every joint should sit in the middle of the limb or trunk
  // around it. Per joint, the offset to the centre of the mesh's slice at its
  // height (within 0.08 H of it); medians so that a few odd joints (a hand, a
  // toe) do not pull; the joints below the root (legs) and above it (trunk,
  // arms) count as much as each other, because a capture's rest posture
  // rarely matches the mesh's (CMU hips stand ~3.5 cm in front of the spine,
  // MakeHuman's do not) and neither half should end up outside its limbs.
  std::array<std::vector<double>, 2> dz;
  for (std::size_t b = 1; b < bones; ++b) {
    const Eigen::Vector3d joint = placement.scale * (yaw * positions[b]) + placement.translation;
    Eigen::AlignedBox3d slice;
    for (const auto& p : mesh.positions) {
      const Eigen::Vector3d q = p.cast<double>();
      if (std::abs(q.y() - joint.y()) <= 0.02 * height &&
          Eigen::Vector2d(q.x() - joint.x(), q.z() - joint.z()).norm() <= 0.08 * height) {
        slice.extend(q);
      }
    }
    if (slice.isEmpty()) continue;
    const int half = joint.y() < root_y ? 0 : 1;
    dz[half].push_back(slice.center().z() - joint.z());
  }
  auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  double shift = 0.0;
  int halves = 0;
  for (int half = 0; half < 2; ++half) {
    if (dz[half].empty()) continue;
    shift += median(dz[half]);
    ++halves;
  }
  if (halves > 0) placement.translation.z() += shift / halves;
  return placement;
}

void bone_frames(const Skeleton& skeleton, const Pose& pose, const Placement& placement,
                 std::span<Eigen::Vector3d> positions, std::span<Eigen::Quaterniond> rotations,
                 std::span<Eigen::Affine3d> frames) {
  forward_kinematics(skeleton, pose, positions, rotations);
  const Eigen::Quaterniond yaw(Eigen::AngleAxisd(placement.yaw_radians, Eigen::Vector3d::UnitY()));
  for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
    const int parent = skeleton.bones[b].parent;
    const Eigen::Vector3d& origin = parent < 0 ? positions[b] : positions[parent];
    // Rigid frames: the placement's scale moves the origin, it does not scale
    // the frame, so K_b = M_b B_b^-1 stays a rotation plus translation.
    Eigen::Affine3d& frame = frames[b];
    frame.linear() = (yaw * rotations[b]).toRotationMatrix();
    frame.translation() = placement.scale * (yaw * origin) + placement.translation;
    frame.makeAffine();
  }
}

Pose rest_pose(const Skeleton& skeleton) {
  Pose pose = make_pose(skeleton);
  const std::vector<double> zeros(static_cast<std::size_t>(skeleton.channel_count), 0.0);
  pose_from_channels(skeleton, zeros, pose);
  return pose;
}

SkeletonBind bind_skeleton(const Skeleton& skeleton, const Pose& bind_pose, const Placement& placement) {
  const std::size_t bones = skeleton.bones.size();
  std::vector<Eigen::Vector3d> positions(bones);
  std::vector<Eigen::Quaterniond> rotations(bones);
  std::vector<Eigen::Affine3d> frames(bones);
  bone_frames(skeleton, bind_pose, placement, positions, rotations, frames);
  SkeletonBind bind;
  bind.placement = placement;
  bind.inverse_bind.resize(bones);
  bind.segments.resize(bones);
  const Eigen::Affine3d place = placement.matrix();
  for (std::size_t b = 0; b < bones; ++b) {
    bind.inverse_bind[b] = frames[b].inverse(Eigen::Isometry);
    const int parent = skeleton.bones[b].parent;
    BoneSegment& segment = bind.segments[b];
    segment.start = (place * (parent < 0 ? positions[b] : positions[parent])).cast<float>();
    segment.end = (place * positions[b]).cast<float>();
    segment.parent = parent;
    segment.deforms = parent >= 0 && (segment.end - segment.start).norm() > 0.0f;
  }
  return bind;
}

SkinScratch::SkinScratch(const Skeleton& skeleton)
    : positions(skeleton.bones.size()), rotations(skeleton.bones.size()), frames(skeleton.bones.size()) {}

void skinning_matrices(const Skeleton& skeleton, const Pose& pose, const SkeletonBind& bind, SkinScratch& scratch,
                       std::span<SkinMatrix> matrices) {
  bone_frames(skeleton, pose, bind.placement, scratch.positions, scratch.rotations, scratch.frames);
  for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
    const Eigen::Affine3d k = scratch.frames[b] * bind.inverse_bind[b];
    matrices[b] = k.matrix().topRows<3>().cast<float>();
  }
}

namespace {

// Quaternion product of (x, y, z, w) vectors.
Eigen::Vector4f quaternion_product(const Eigen::Vector4f& a, const Eigen::Vector4f& b) {
  const Eigen::Vector3f av = a.head<3>();
  const Eigen::Vector3f bv = b.head<3>();
  Eigen::Vector4f out;
  out.head<3>() = a.w() * bv + b.w() * av + av.cross(bv);
  out.w() = a.w() * b.w() - av.dot(bv);
  return out;
}

}  // namespace

void dual_quaternions_from(std::span<const SkinMatrix> matrices, std::span<DualQuaternion> out) {
  for (std::size_t b = 0; b < matrices.size(); ++b) {
    const Eigen::Matrix3f linear = matrices[b].leftCols<3>();
    // Nearest rotation, so that a matrix with rounding (or scale) still gives a unit quaternion.
    const Eigen::Quaternionf q = Eigen::Quaternionf(linear).normalized();
    const Eigen::Vector3f t = matrices[b].col(3);
    DualQuaternion& dq = out[b];
    dq.real = Eigen::Vector4f(q.x(), q.y(), q.z(), q.w());
    dq.dual = 0.5f * quaternion_product(Eigen::Vector4f(t.x(), t.y(), t.z(), 0.0f), dq.real);
  }
}

std::optional<std::string> SkinJob::validate() const {
  const std::size_t n = positions.size();
  if (out_positions.size() != n)
    return "out_positions has " + std::to_string(out_positions.size()) + " entries, expected " + std::to_string(n);
  if (weights.size() != n)
    return "weights has " + std::to_string(weights.size()) + " entries, expected " + std::to_string(n);
  if (!normals.empty() && normals.size() != n)
    return "normals has " + std::to_string(normals.size()) + " entries, expected " + std::to_string(n);
  if (out_normals.size() != normals.size()) return "out_normals must have as many entries as normals";
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) return "too many vertices";
  const std::size_t bones = method == SkinMethod::kLinear ? matrices.size() : dual_quaternions.size();
  if (bones == 0) return method == SkinMethod::kLinear ? "no skinning matrices" : "no dual quaternions";
  for (std::size_t v = 0; v < n; ++v) {
    for (int k = 0; k < kMaxInfluences; ++k) {
      if (weights[v].bone[k] >= bones) {
        return "vertex " + std::to_string(v) + " refers to bone " + std::to_string(weights[v].bone[k]) + " of " +
               std::to_string(bones);
      }
    }
  }
  return std::nullopt;
}

namespace {

void run_linear(const SkinJob& job, int begin, int end) {
  const SkinMatrix* matrices = job.matrices.data();
  const bool with_normals = !job.normals.empty();
  for (int v = begin; v < end; ++v) {
    const VertexWeights& w = job.weights[v];
    // Four slots always: unused ones have weight 0 on bone 0, cheaper than a branch.
    const SkinMatrix m = w.weight[0] * matrices[w.bone[0]] + w.weight[1] * matrices[w.bone[1]] +
                         w.weight[2] * matrices[w.bone[2]] + w.weight[3] * matrices[w.bone[3]];
    job.out_positions[v] = m.leftCols<3>() * job.positions[v] + m.col(3);
    if (with_normals) job.out_normals[v] = (m.leftCols<3>() * job.normals[v]).normalized();
  }
}

void run_dual_quaternion(const SkinJob& job, int begin, int end) {
  const DualQuaternion* dqs = job.dual_quaternions.data();
  const bool with_normals = !job.normals.empty();
  for (int v = begin; v < end; ++v) {
    const VertexWeights& w = job.weights[v];
    const Eigen::Vector4f& pivot = dqs[w.bone[0]].real;
    Eigen::Vector4f real = Eigen::Vector4f::Zero();
    Eigen::Vector4f dual = Eigen::Vector4f::Zero();
    for (int k = 0; k < kMaxInfluences; ++k) {
      const DualQuaternion& dq = dqs[w.bone[k]];
      // q and -q are the same rotation: blend along the shorter arc.
      const float s = dq.real.dot(pivot) < 0.0f ? -w.weight[k] : w.weight[k];
      real += s * dq.real;
      dual += s * dq.dual;
    }
    const float inverse_norm = 1.0f / real.norm();
    real *= inverse_norm;
    dual *= inverse_norm;
    const Eigen::Vector3f r = real.head<3>();
    const Eigen::Vector3f d = dual.head<3>();
    const Eigen::Vector3f t = 2.0f * (real.w() * d - dual.w() * r + r.cross(d));
    auto rotate = [&](const Eigen::Vector3f& p) -> Eigen::Vector3f {
      return p + 2.0f * r.cross(r.cross(p) + real.w() * p);
    };
    job.out_positions[v] = rotate(job.positions[v]) + t;
    if (with_normals) job.out_normals[v] = rotate(job.normals[v]).normalized();
  }
}

}  // namespace

void SkinJob::run(int begin, int end) const {
  if (method == SkinMethod::kLinear) {
    run_linear(*this, begin, end);
  } else {
    run_dual_quaternion(*this, begin, end);
  }
}

SkinThreads::SkinThreads(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  workers_.reserve(static_cast<std::size_t>(threads - 1));
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

SkinThreads::~SkinThreads() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void SkinThreads::work() {
  for (;;) {
    const int chunk = next_chunk_.fetch_add(1, std::memory_order_relaxed);
    if (chunk >= chunk_count_) return;
    const int begin = chunk * chunk_size_;
    const int end = std::min(begin + chunk_size_, static_cast<int>(job_->positions.size()));
    job_->run(begin, end);
  }
}

void SkinThreads::worker_loop() {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    work();
    {
      std::lock_guard lock(mutex_);
      if (--busy_ == 0) done_.notify_one();
    }
  }
}

void SkinThreads::run(const SkinJob& job) {
  const int n = static_cast<int>(job.positions.size());
  if (workers_.empty() || n < 4096) {
    job.run();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    job_ = &job;
    // A few chunks per thread balance the load without much contention on the counter.
    chunk_size_ = std::max(1024, n / (thread_count() * 8));
    chunk_count_ = (n + chunk_size_ - 1) / chunk_size_;
    next_chunk_.store(0, std::memory_order_relaxed);
    busy_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  work();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
  job_ = nullptr;
}

}  // namespace mocap
