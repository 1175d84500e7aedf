#include <mocap/eyes/eyes.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace mocap {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kDegPerRad = 180.0 / std::numbers::pi;

double clamp_or(double v, double lo, double hi, double fallback) {
  if (std::isnan(v)) return fallback;
  return std::clamp(v, lo, hi);
}

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// xorshift64*: 8 bytes of state, good enough for animation, and fast.
double uniform(EyeRig& rig) {
  std::uint64_t x = rig.rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rig.rng = x;
  return static_cast<double>((x * 0x2545f4914f6cdd1dull) >> 11) * 0x1.0p-53;
}
double uniform(EyeRig& rig, double lo, double hi) {
  return lo + (hi - lo) * uniform(rig);
}

double standard_normal(EyeRig& rig) {
  const double u = 1.0 - uniform(rig);  // (0, 1]
  const double v = uniform(rig);
  return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
}

bool in_conversation(ConversationMode mode) {
  return mode != ConversationMode::kFree;
}

double arousal_speed(const EyeParams& p) {
  return 1.0 + 0.25 * p.emotion.arousal;
}
double arousal_blink_rate(const EyeParams& p) {
  return 1.0 + 0.4 * p.emotion.arousal;
}

const EyeParams kDefaults;

double pupil_target(double light, double arousal) {
  return std::clamp(0.2 + 0.6 * (1.0 - light) + 0.2 * arousal, 0.0, 1.0);
}
double pupil_target(const EyeParams& p) {
  return pupil_target(p.ambient_light, p.emotion.arousal);
}

double move_duration(const EyeParams& p, EyeRig& rig, double amplitude, bool micro) {
  double seconds;
  if (p.model == EyeModel::kPhysiological) {
    seconds = 0.021 + 0.0022 * amplitude * p.range_rad * kDegPerRad;
  } else {
    seconds = micro ? uniform(rig, 0.007, 0.025) : uniform(rig, 0.083, 0.166);
  }
  return seconds / (p.factors.move_speed * arousal_speed(p));
}

double blink_interval(const EyeParams& p, EyeRig& rig) {
  const double rate = p.factors.blink_freq * arousal_blink_rate(p);
  double seconds;
  if (p.model == EyeModel::kPhysiological) {
    // Log-normal with the given mean: mu = ln(mean) - sigma^2 / 2.
    const double mean = 60.0 / (in_conversation(p.mode) ? 26.0 : 17.0);
    constexpr double kSigma = 0.7;
    seconds = std::exp(std::log(mean) - 0.5 * kSigma * kSigma + kSigma * standard_normal(rig));
  } else {
    seconds = uniform(rig, 2.0, 6.0);
  }
  return seconds / rate;
}

void start_blink(EyeRig& rig, const EyeParams& p, double now, bool evoked, EyeStats* stats) {
  double close, open, depth = 1.0;
  if (p.model == EyeModel::kPhysiological) {
    close = 0.090 * uniform(rig, 0.8, 1.2);
    open = 0.240 * uniform(rig, 0.8, 1.2);
    if (uniform(rig) < 0.2) depth = uniform(rig, 0.4, 0.85);
  } else {
    close = uniform(rig, 0.050, 0.100);
    open = 2.0 * close;
  }
  rig.blink = BlinkPhase::kClosing;
  rig.blink_start = now;
  rig.blink_close = close / p.factors.blink_speed;
  rig.blink_open = open / p.factors.blink_speed;
  rig.blink_depth = depth;
  rig.saccade_evoked_blink = evoked;
  // The next spontaneous blink is counted from this one's start, and never
  // comes before it ends. Evoked blinks come on top of the spontaneous rhythm
  // and leave it alone, so the spontaneous rate stays what the model says.
  const double earliest = now + rig.blink_close + rig.blink_open + 0.05;
  rig.next_blink = evoked ? std::max(rig.next_blink, earliest) : std::max(now + blink_interval(p, rig), earliest);
  if (stats) {
    ++stats->blinks;
    stats->closing_sum_s += rig.blink_close;
    stats->opening_sum_s += rig.blink_open;
    if (depth < 1.0) ++stats->partial_blinks;
    if (evoked) ++stats->evoked_blinks;
    if (stats->events) {
      stats->events->push_back(
          {EyeEvent::Kind::kBlink, now, rig.blink_close, rig.blink_open, 0.0, 0.0, 0.0, depth, evoked});
    }
  }
}

// Where a saccade goes, before the dominance bias.
std::array<double, 2> saccade_target(EyeRig& rig, const EyeParams& p) {
  const double radius = p.saccade_radius;
  const double u = uniform(rig), v = uniform(rig);
  double on_partner = 0.0;
  switch (p.mode) {
    case ConversationMode::kFree: return disc_point(radius, u, v);
    case ConversationMode::kListening: on_partner = 0.75; break;
    case ConversationMode::kSpeaking: on_partner = 0.41; break;
    case ConversationMode::kThinking: {
      const double away = p.think_aversion_rad / p.range_rad;
      const auto jitter = disc_point(radius * p.microsaccade_radius, u, v);
      return {rig.think_x * away + jitter[0], rig.think_y * away + jitter[1]};
    }
  }
  const double w = uniform(rig);
  if (w < on_partner) return disc_point(std::min(radius, 0.5 * p.partner_radius), u, v);
  // Averted: area-uniform over the ring between the partner zone and the disc's edge.
  const double inner = std::min(1.5 * p.partner_radius, radius);
  const double r = std::sqrt(inner * inner + u * (radius * radius - inner * inner));
  const double a = 2.0 * std::numbers::pi * v;
  return {r * std::cos(a), r * std::sin(a)};
}

void start_move(EyeRig& rig, const EyeParams& p, double now, bool saccade, EyeStats* stats) {
  const double gx = rig.to_x, gy = rig.to_y;  // not moving: the gaze is at the target
  double tx, ty;
  if (saccade) {
    auto t = saccade_target(rig, p);
    tx = t[0];
    ty = t[1] - 0.3 * std::max(0.0, -p.emotion.dominance);
  } else {
    const auto d = disc_point(p.saccade_radius * p.microsaccade_radius, uniform(rig), uniform(rig));
    tx = rig.fix_x + d[0];
    ty = rig.fix_y + d[1];
  }
  // Keep targets inside the usable range.
  const double r = std::hypot(tx, ty);
  if (r > 1.0) tx /= r, ty /= r;
  const double amplitude = std::hypot(tx - gx, ty - gy);
  rig.from_x = gx;
  rig.from_y = gy;
  rig.to_x = tx;
  rig.to_y = ty;
  rig.moving = true;
  rig.move_start = now;
  rig.move_duration = move_duration(p, rig, amplitude, !saccade);
  if (saccade) {
    rig.fix_x = tx;
    rig.fix_y = ty;
    const double longest = p.max_gaze_s * p.factors.gaze_scale;
    rig.next_saccade = now + std::max(rig.move_duration, uniform(rig, rig.move_duration, longest));
  }
  const double degrees = amplitude * p.range_rad * kDegPerRad;
  if (stats) {
    if (saccade) {
      ++stats->saccades;
      stats->saccade_duration_sum_s += rig.move_duration;
      ++stats->amplitude_histogram[std::min<std::size_t>(static_cast<std::size_t>(degrees / 5.0), 11)];
    } else {
      ++stats->microsaccades;
    }
    if (stats->events) {
      stats->events->push_back({saccade ? EyeEvent::Kind::kSaccade : EyeEvent::Kind::kMicrosaccade, now,
                                rig.move_duration, 0.0, amplitude, tx, ty, 1.0, false});
    }
  }
  // Gaze-evoked blinks accompany large saccades.
  if (saccade && p.model == EyeModel::kPhysiological && rig.blink == BlinkPhase::kOpen && degrees > 15.0) {
    const double probability = std::min(0.8, 0.8 * (degrees - 15.0) / 30.0);
    if (uniform(rig) < probability) start_blink(rig, p, now, true, stats);
  }
}

// After a move ends at `now`: a microsaccade if one fits before the next saccade.
void schedule_next_move(EyeRig& rig, double now) {
  constexpr double kMicroLongest = 0.025;
  const double micro = now + uniform(rig, 0.25, 1.0);
  if (micro + kMicroLongest < rig.next_saccade) {
    rig.next_move = micro;
    rig.next_is_saccade = false;
  } else {
    rig.next_move = std::max(now, rig.next_saccade);
    rig.next_is_saccade = true;
  }
}

}  // namespace

EyeParams clamped(const EyeParams& in) {
  const EyeParams d;
  EyeParams p = in;
  auto factor = [](double v) { return clamp_or(v, 0.1, 10.0, 1.0); };
  p.factors.gaze_scale = factor(in.factors.gaze_scale);
  p.factors.move_speed = factor(in.factors.move_speed);
  p.factors.blink_freq = factor(in.factors.blink_freq);
  p.factors.blink_speed = factor(in.factors.blink_speed);
  p.emotion.pleasure = clamp_or(in.emotion.pleasure, -1.0, 1.0, 0.0);
  p.emotion.arousal = clamp_or(in.emotion.arousal, -1.0, 1.0, 0.0);
  p.emotion.dominance = clamp_or(in.emotion.dominance, -1.0, 1.0, 0.0);
  if (p.model != EyeModel::kDesign && p.model != EyeModel::kPhysiological) p.model = EyeModel::kDesign;
  if (static_cast<int>(p.mode) > static_cast<int>(ConversationMode::kThinking)) p.mode = ConversationMode::kFree;
  p.ambient_light = clamp_or(in.ambient_light, 0.0, 1.0, d.ambient_light);
  p.range_rad = clamp_or(in.range_rad, 0.05, 1.5, d.range_rad);
  p.saccade_radius = clamp_or(in.saccade_radius, 0.0, 1.0, d.saccade_radius);
  p.microsaccade_radius = clamp_or(in.microsaccade_radius, 0.0, 1.0, d.microsaccade_radius);
  p.max_gaze_s = clamp_or(in.max_gaze_s, 0.05, 60.0, d.max_gaze_s);
  p.partner_radius = clamp_or(in.partner_radius, 0.01, 1.0, d.partner_radius);
  p.think_aversion_rad = clamp_or(in.think_aversion_rad, 0.0, 1.5, d.think_aversion_rad);
  p.vergence = clamp_or(in.vergence, 0.0, 0.5, d.vergence);
  p.pupil_constrict_s = clamp_or(in.pupil_constrict_s, 0.01, 10.0, d.pupil_constrict_s);
  p.pupil_dilate_s = clamp_or(in.pupil_dilate_s, 0.01, 10.0, d.pupil_dilate_s);
  return p;
}

double smoothstep(double e) {
  e = clamp_or(e, 0.0, 1.0, 0.0);
  return e * e * (3.0 - 2.0 * e);
}

std::array<double, 2> disc_point(double radius, double u, double v) {
  const double r = radius * std::sqrt(u);
  const double a = 2.0 * std::numbers::pi * v;
  return {r * std::cos(a), r * std::sin(a)};
}

EyeRig make_eye_rig(const EyeParams& in, std::uint64_t seed, double start_s) {
  const EyeParams p = clamped(in);
  EyeRig rig;
  std::uint64_t s = seed;
  rig.rng = splitmix64(s);
  if (rig.rng == 0) rig.rng = 0x9e3779b97f4a7c15ull;  // xorshift must not start at 0
  rig.last_time = start_s;
  const double a = uniform(rig, 0.0, 2.0 * std::numbers::pi);
  rig.think_x = std::cos(a);
  rig.think_y = std::sin(a);
  rig.pupil = pupil_target(p);
  // The first saccade and blink come a random while in, so that rigs started
  // together do not move together.
  rig.next_saccade = start_s + uniform(rig, 0.0, p.max_gaze_s * p.factors.gaze_scale);
  rig.next_move = rig.next_saccade;
  rig.next_is_saccade = true;
  rig.next_blink = start_s + uniform(rig) * blink_interval(p, rig);
  return rig;
}

void advance(EyeRig& rig, const EyeParams& in, double time_s, EyeStats* stats, std::span<const double> blink_cues) {
  if (!(time_s > rig.last_time)) return;  // also NaN
  // Most frames hold no event: clamp the whole parameter set only when one
  // comes (this keeps a rig-frame within the speed target).
  EyeParams p;
  bool have_params = false;
  auto params = [&]() -> const EyeParams& {
    if (!have_params) p = clamped(in), have_params = true;
    return p;
  };
  for (;;) {
    const double move_end = rig.moving ? rig.move_start + rig.move_duration : kInf;
    const double next_move = rig.moving ? kInf : rig.next_move;
    double blink = rig.next_blink;
    if (rig.blink == BlinkPhase::kClosing) blink = rig.blink_start + rig.blink_close;
    if (rig.blink == BlinkPhase::kOpening) blink = rig.blink_start + rig.blink_close + rig.blink_open;
    const double cue = rig.cue < blink_cues.size() ? blink_cues[rig.cue] : kInf;
    const double now = std::min({move_end, next_move, blink, cue});
    if (now > time_s) break;
    // Ties resolve in a fixed order, so the order of draws depends on event
    // times only, never on when the caller samples.
    if (move_end == now) {
      rig.moving = false;
      schedule_next_move(rig, now);
    } else if (blink == now) {
      switch (rig.blink) {
        case BlinkPhase::kOpen: start_blink(rig, params(), now, false, stats); break;
        case BlinkPhase::kClosing: rig.blink = BlinkPhase::kOpening; break;
        case BlinkPhase::kOpening: rig.blink = BlinkPhase::kOpen; break;
      }
    } else if (cue == now) {
      ++rig.cue;
      if (rig.blink == BlinkPhase::kOpen) start_blink(rig, params(), now, true, stats);
    } else {
      start_move(rig, params(), now, rig.next_is_saccade, stats);
    }
  }
  // The pupil follows its target with a time constant, not a per-frame rate:
  // exp(-a) exp(-b) = exp(-(a + b)), so any sampling gives the same curve.
  const double target = pupil_target(clamp_or(in.ambient_light, 0.0, 1.0, kDefaults.ambient_light),
                                     clamp_or(in.emotion.arousal, -1.0, 1.0, 0.0));
  if (rig.pupil != target) {
    const double tau = target < rig.pupil ? clamp_or(in.pupil_constrict_s, 0.01, 10.0, kDefaults.pupil_constrict_s)
                                          : clamp_or(in.pupil_dilate_s, 0.01, 10.0, kDefaults.pupil_dilate_s);
    rig.pupil = target + (rig.pupil - target) * std::exp(-(time_s - rig.last_time) / tau);
  }
  if (stats) stats->time_s += time_s - rig.last_time;
  rig.last_time = time_s;
}

EyeFrame sample(const EyeRig& rig, const EyeParams& in, double time_s) {
  // Only these parameters matter here; each is clamped on its own.
  const double vergence = clamp_or(in.vergence, 0.0, 0.5, 0.0);
  const double pleasure = clamp_or(in.emotion.pleasure, -1.0, 1.0, 0.0);
  const double arousal = clamp_or(in.emotion.arousal, -1.0, 1.0, 0.0);
  double x = rig.to_x, y = rig.to_y;
  if (rig.moving) {
    const double s = smoothstep((time_s - rig.move_start) / rig.move_duration);
    x = rig.from_x + (rig.to_x - rig.from_x) * s;
    y = rig.from_y + (rig.to_y - rig.from_y) * s;
  }
  double closed = 0.0;
  if (rig.blink == BlinkPhase::kClosing) {
    closed = rig.blink_depth * smoothstep((time_s - rig.blink_start) / rig.blink_close);
  } else if (rig.blink == BlinkPhase::kOpening) {
    const double e = (time_s - rig.blink_start - rig.blink_close) / rig.blink_open;
    closed = rig.blink_depth * (1.0 - smoothstep(e));
  }
  EyeFrame f;
  f.time_s = time_s;
  const double max_openness = 1.0 + 0.15 * std::min(arousal, 0.0);  // drooping lids when calm
  f.left = {x + vergence, y, max_openness * (1.0 - closed), rig.pupil};
  f.right = {x - vergence, y, f.left.openness, rig.pupil};
  f.brow = 0.5 * pleasure + 0.5 * arousal;
  return clamped(f);
}

EyeFrame clamped(const EyeFrame& in) {
  EyeFrame f = in;
  for (EyeSample* e : {&f.left, &f.right}) {
    e->x = clamp_or(e->x, -1.0, 1.0, 0.0);
    e->y = clamp_or(e->y, -1.0, 1.0, 0.0);
    e->openness = clamp_or(e->openness, 0.0, 1.0, 1.0);
    e->pupil = clamp_or(e->pupil, 0.0, 1.0, 0.5);
  }
  f.brow = clamp_or(f.brow, -1.0, 1.0, 0.0);
  return f;
}

EyeFrame neutral_eye_frame(double time_s) {
  EyeFrame f;
  f.time_s = time_s;
  return f;
}

}  // namespace mocap
