#include <mocap/core/fk.h>
#include <mocap/eyes/eye_body.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>

namespace mocap {
namespace {

// The two frames around `time_s` and the weight of the second.
struct Bracket {
  int a = 0;
  int b = 0;
  double w = 0.0;
};
Bracket bracket(const HeadTrack& head, double time_s) {
  const int n = head.frame_count();
  const double f = std::clamp(time_s * head.fps, 0.0, static_cast<double>(n - 1));
  Bracket k;
  k.a = std::min(static_cast<int>(f), n - 1);
  k.b = std::min(k.a + 1, n - 1);
  k.w = f - k.a;
  return k;
}

}  // namespace

Eigen::Quaterniond HeadTrack::rotation_at(double time_s) const {
  if (rotation.empty()) return Eigen::Quaterniond::Identity();
  const Bracket k = bracket(*this, time_s);
  return rotation[k.a].slerp(k.w, rotation[k.b]).normalized();
}

Eigen::Vector3d HeadTrack::eye_position_at(double time_s) const {
  if (eye_position.empty()) return Eigen::Vector3d::Zero();
  const Bracket k = bracket(*this, time_s);
  return (1.0 - k.w) * eye_position[k.a] + k.w * eye_position[k.b];
}

Result<HeadTrack> head_track(const Skeleton& skeleton, const Motion& motion, std::string_view head_bone) {
  int bone = skeleton.find_bone(head_bone);
  // BVH tools write "Head" where CMU's ASF says "head".
  for (std::size_t b = 0; bone < 0 && b < skeleton.bones.size(); ++b) {
    const std::string& name = skeleton.bones[b].name;
    if (name.size() == head_bone.size() && std::equal(name.begin(), name.end(), head_bone.begin(), [](char x, char y) {
          return std::tolower(x) == std::tolower(y);
        }))
      bone = static_cast<int>(b);
  }
  if (bone < 0) return fail("", 0, "no bone called '" + std::string(head_bone) + "' for the head");
  if (motion.frame_count() == 0) return fail("", 0, "the motion has no frames");
  // Acclaim: the head bone runs from its parent's end to its own and turns
  // with its own rotation. BVH (offsets_in_parent_frame): the joint sits at
  // the head's base, turns the head, and the head ends at its first child
  // (its End Site).
  const int turning = bone;
  int parent = std::max(skeleton.bones[bone].parent, 0);
  if (skeleton.offsets_in_parent_frame) {
    const std::vector<int> children = skeleton.children(bone);
    parent = bone;
    if (!children.empty()) bone = children.front();
  }
  HeadTrack head;
  head.fps = motion.fps;
  head.rotation.reserve(motion.frame_count());
  head.eye_position.reserve(motion.frame_count());
  Pose pose = make_pose(skeleton);
  std::vector<Eigen::Vector3d> positions(skeleton.bones.size());
  std::vector<Eigen::Quaterniond> rotations(skeleton.bones.size());
  for (int f = 0; f < motion.frame_count(); ++f) {
    pose_from_channels(skeleton, motion.frame(f), pose);
    forward_kinematics(skeleton, pose, positions, rotations);
    head.rotation.push_back(rotations[turning].normalized());
    head.eye_position.push_back(0.5 * (positions[parent] + positions[bone]));
  }
  return head;
}

double head_yaw(const HeadTrack& head, const Eigen::Quaterniond& rotation) {
  const Eigen::Vector3d facing = rotation * head.forward;
  const Eigen::Vector3d left = head.up.cross(head.forward);
  return std::atan2(facing.dot(left), facing.dot(head.forward));
}

Result<void> HeadTurnOptions::validate() const {
  if (!(std::isfinite(speed_threshold_rad_s) && speed_threshold_rad_s > 0.0)) {
    return fail("", 0, "head-turn speed threshold: expected > 0 rad/s");
  }
  if (!(std::isfinite(min_amplitude_rad) && min_amplitude_rad >= 0.0)) {
    return fail("", 0, "head-turn amplitude: expected >= 0 rad");
  }
  return {};
}

Result<void> EyeTimelineOptions::validate() const {
  if (world_target && !head) return fail("", 0, "a world gaze target needs a head track (a clip)");
  if (world_target && !world_target->allFinite()) return fail("", 0, "the world gaze target is not finite");
  if (!(large_turn_rad >= 0.0)) return fail("", 0, "large head turn: expected >= 0 rad");
  return turns.validate();
}

std::vector<HeadTurn> detect_head_turns(const HeadTrack& head, const HeadTurnOptions& options) {
  const int n = head.frame_count();
  std::vector<HeadTurn> turns;
  if (n < 3) return turns;
  std::vector<double> yaw(n);
  for (int f = 0; f < n; ++f) {
    yaw[f] = head_yaw(head, head.rotation[f]);
    if (f > 0) {  // unwrap
      while (yaw[f] - yaw[f - 1] > std::numbers::pi) yaw[f] -= 2.0 * std::numbers::pi;
      while (yaw[f] - yaw[f - 1] < -std::numbers::pi) yaw[f] += 2.0 * std::numbers::pi;
    }
  }
  const int k = std::max(1, static_cast<int>(std::lround(0.025 * head.fps)));
  std::vector<double> speed(n);
  for (int f = 0; f < n; ++f) {
    const int a = std::max(f - k, 0), b = std::min(f + k, n - 1);
    speed[f] = (yaw[b] - yaw[a]) * head.fps / (b - a);
  }
  const double threshold = options.speed_threshold_rad_s;
  for (int f = 0; f < n; ++f) {
    if (std::abs(speed[f]) <= threshold) continue;
    const double sign = speed[f] > 0 ? 1.0 : -1.0;
    int first = f;  // where the turn began: speed above a third of the threshold
    while (first > 0 && sign * speed[first - 1] > threshold / 3.0) --first;
    int last = f;
    double peak = 0.0;
    while (last + 1 < n && sign * speed[last + 1] > threshold / 3.0) {
      ++last;
      peak = std::max(peak, std::abs(speed[last]));
    }
    peak = std::max(peak, std::abs(speed[f]));
    const double amplitude = yaw[last] - yaw[first];
    if (std::abs(amplitude) >= options.min_amplitude_rad) {
      turns.push_back({f / head.fps, last / head.fps, amplitude, peak});
    }
    f = last;
  }
  return turns;
}

Eigen::Vector2d gaze_toward(const HeadTrack& head, const Eigen::Quaterniond& rotation,
                            const Eigen::Vector3d& eye_position, const Eigen::Vector3d& target, double range_rad) {
  const Eigen::Vector3d d = rotation.conjugate() * (target - eye_position);
  const Eigen::Vector3d right = head.forward.cross(head.up);
  const double f = d.dot(head.forward), r = d.dot(right), u = d.dot(head.up);
  const double yaw = std::atan2(r, f);
  const double pitch = std::atan2(u, std::hypot(f, r));
  return {yaw / range_rad, pitch / range_rad};
}

Eigen::Vector3d gaze_direction(const HeadTrack& head, const Eigen::Quaterniond& rotation, const Eigen::Vector2d& gaze,
                               double range_rad) {
  const Eigen::Vector3d right = head.forward.cross(head.up);
  const double yaw = gaze.x() * range_rad, pitch = gaze.y() * range_rad;
  const Eigen::Vector3d local =
      std::cos(pitch) * (std::cos(yaw) * head.forward + std::sin(yaw) * right) + std::sin(pitch) * head.up;
  return rotation * local;
}

Eigen::Vector3d eye_center(const HeadTrack& head, const Eigen::Quaterniond& rotation, const Eigen::Vector3d& mid,
                           double interocular_m, bool left_eye) {
  const Eigen::Vector3d right = head.forward.cross(head.up);
  return mid + rotation * ((left_eye ? -0.5 : 0.5) * interocular_m * right);
}

LookAtRotations split_look_at(const Eigen::Quaterniond& total, const LookAtSplit& split) {
  const double sum = split.neck + split.head + split.eyes;
  const double neck = sum > 0 ? split.neck / sum : 0.0, head = sum > 0 ? split.head / sum : 0.0;
  // Fractions of one angle about one axis compose exactly.
  const Eigen::AngleAxisd aa(total.normalized());
  LookAtRotations out;
  out.neck = Eigen::Quaterniond(Eigen::AngleAxisd(aa.angle() * neck, aa.axis()));
  out.head = Eigen::Quaterniond(Eigen::AngleAxisd(aa.angle() * head, aa.axis()));
  out.eyes = Eigen::Quaterniond(Eigen::AngleAxisd(aa.angle() * (1.0 - neck - head), aa.axis()));
  return out;
}

EyeTimeline::EyeTimeline(const EyeTimelineOptions& options)
    : options_(options), rig_(make_eye_rig(options.params, options.seed)) {
  if (options_.head && options_.head->frame_count() > 0) {
    turns_ = detect_head_turns(*options_.head, options_.turns);
    for (const HeadTurn& turn : turns_) {
      if (std::abs(turn.yaw_rad) >= options_.large_turn_rad) blink_cues_.push_back(turn.start_s);
    }
  }
}

Eigen::Vector2d EyeTimeline::partner(double time_s, bool left_eye, double& last_x) const {
  if (!options_.head || !options_.world_target || options_.head->frame_count() == 0) return Eigen::Vector2d::Zero();
  const HeadTrack& head = *options_.head;
  const EyeParams p = clamped(options_.params);
  const Eigen::Quaterniond rotation = head.rotation_at(time_s);
  const Eigen::Vector3d eye = eye_center(head, rotation, head.eye_position_at(time_s), p.interocular_m, left_eye);
  Eigen::Vector2d g = gaze_toward(head, rotation, eye, *options_.world_target, p.range_rad);
  // atan2 wraps at the back of the head; follow the target's yaw
  // continuously instead, so it stays on the side where it went, and take
  // the wrapped value again once it is within reach.
  const double period = 2.0 * std::numbers::pi / p.range_rad;
  double x = g.x();
  if (have_last_) x -= period * std::round((x - last_x) / period);
  if (std::abs(g.x()) <= 1.0) x = g.x();
  last_x = x;
  g.x() = x;
  return g;
}

Eigen::Vector2d EyeTimeline::lead(double time_s) const {
  if (!options_.head || options_.world_target || !options_.lead_head_turns) return Eigen::Vector2d::Zero();
  const HeadTrack& head = *options_.head;
  const EyeParams p = clamped(options_.params);
  for (const HeadTurn& turn : turns_) {
    if (time_s < turn.start_s) break;
    if (time_s >= turn.end_s) continue;
    // The eyes go to where the head is going, as far as they reach, and hold
    // it in the world while the head follows.
    const Eigen::Vector3d goal = head.rotation_at(turn.end_s) * head.forward;
    auto toward_goal = [&](double t) {
      const Eigen::Vector3d eye = head.eye_position_at(t);
      Eigen::Vector2d g = gaze_toward(head, head.rotation_at(t), eye, eye + goal, p.range_rad);
      if (g.norm() > 1.0) g.normalize();
      return g;
    };
    // One saccade on the main sequence, sized at the turn's onset.
    const double degrees = toward_goal(turn.start_s).norm() * p.range_rad * 180.0 / std::numbers::pi;
    const double duration =
        std::max((0.021 + 0.0022 * degrees) / p.factors.move_speed, 1.5 * degrees / kMaxEyeInHeadDegS);
    return smoothstep((time_s - turn.start_s) / duration) * toward_goal(time_s);
  }
  return Eigen::Vector2d::Zero();
}

namespace {

// Radially into the unit disc.
void clamp_to_disc(EyeSample& e) {
  const double r2 = e.x * e.x + e.y * e.y;
  if (r2 > 1.0) {
    const double r = std::sqrt(r2);
    e.x /= r, e.y /= r;
  }
}

}  // namespace

EyeFrame EyeTimeline::at(double time_s) {
  time_s = std::max(time_s, last_time_);
  last_time_ = time_s;
  EyeParams params = options_.params;
  // A world target sets each eye's line of sight itself.
  if (options_.world_target) params.distance_m = std::numeric_limits<double>::infinity();
  advance(rig_, params, time_s, &stats_, blink_cues_);
  EyeFrame f = sample(rig_, params, time_s);
  const double own_x = 0.5 * (f.left.x + f.right.x), own_y = f.left.y;
  ++stats_.samples;
  if (std::hypot(own_x, own_y) <= clamped(options_.params).partner_radius) ++stats_.samples_on_partner;
  if (!options_.head) return f;
  const Eigen::Vector2d lead_offset = lead(time_s);
  int index = 0;
  for (EyeSample* e : {&f.left, &f.right}) {
    const Eigen::Vector2d offset = partner(time_s, index == 0, partner_x_[index]) + lead_offset;
    e->x += offset.x();
    e->y += offset.y();
    clamp_to_disc(*e);
    ++index;
  }
  if (have_last_ && time_s > last_.time_s) {
    const double range = clamped(options_.params).range_rad;
    const double step = kMaxEyeInHeadDegS * std::numbers::pi / 180.0 / range * (time_s - last_.time_s);
    for (auto [e, before] : {std::pair{&f.left, &last_.left}, std::pair{&f.right, &last_.right}}) {
      const double dx = e->x - before->x, dy = e->y - before->y, d = std::hypot(dx, dy);
      if (d > step) {
        e->x = before->x + dx * step / d;
        e->y = before->y + dy * step / d;
      }
    }
  }
  f = clamped(f);
  last_ = f;
  have_last_ = true;
  return f;
}

std::vector<EyeFrame> eye_track(EyeTimeline& timeline, double fps, double duration_s) {
  std::vector<EyeFrame> frames;
  if (!(fps > 0) || !(duration_s > 0)) return frames;
  const auto n = static_cast<std::size_t>(std::ceil(duration_s * fps - 1e-9));
  frames.reserve(n);
  for (std::size_t k = 0; k < n; ++k) frames.push_back(timeline.at(static_cast<double>(k) / fps));
  return frames;
}

}  // namespace mocap
