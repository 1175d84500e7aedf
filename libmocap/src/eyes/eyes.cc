#include <mocap/core/parse_name.h>
#include <mocap/eyes/eyes.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>

namespace mocap {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kDegPerRad = 180.0 / std::numbers::pi;

double clamp_or(double v, double lo, double hi, double fallback) {
  if (std::isnan(v)) return fallback;
  return std::clamp(v, lo, hi);
}

inline double vergence_of(double interocular_m, double distance_m) {
  if (!(distance_m > 0.0) || std::isinf(distance_m)) return 0.0;
  return std::atan(0.5 * interocular_m / distance_m);
}

// Radially into the unit disc, the usable range (a per-component clamp
// would leave the corners); x and y already in [-1, 1].
inline void into_disc(EyeSample& e) {
  const double r2 = e.x * e.x + e.y * e.y;
  if (r2 > 1.0) {
    const double r = std::sqrt(r2);
    e.x /= r, e.y /= r;
  }
}

// One eye's values into their ranges, as clamped(EyeFrame) documents.
inline void clamp_sample(EyeSample& e) {
  e.x = clamp_or(e.x, -1.0, 1.0, 0.0);
  e.y = clamp_or(e.y, -1.0, 1.0, 0.0);
  into_disc(e);
  e.openness = clamp_or(e.openness, 0.0, 1.0, 1.0);
  e.pupil = clamp_or(e.pupil, 0.0, 1.0, 0.5);
}

// smoothstep(), inlined where it runs per frame.
inline double ease(double e) {
  e = clamp_or(e, 0.0, 1.0, 0.0);
  return e * e * (3.0 - 2.0 * e);
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

// Approximately standard normal: the sum of four uniforms (Irwin-Hall),
// centred and scaled to unit variance, bounded at +-3.46. Box-Muller's log,
// sqrt and cos cost more than the rest of an event, and no track is long
// enough for the missing far tail to show.
double standard_normal(EyeRig& rig) {
  const double sum = uniform(rig) + uniform(rig) + uniform(rig) + uniform(rig);
  return (sum - 2.0) * 1.7320508075688772;
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

constexpr double kPeakVelocityCapDegS = 700.0;
constexpr double kMinClosingS = 0.030;
constexpr double kMinOpeningS = 0.060;
constexpr double kMaxBlinksPerMinute = 60.0;
constexpr double kMinMeanFixationS = 0.18;
constexpr double kMaxMeanFixationS = 3.0;
// Microsaccades: 0.12 s refractory after any move, then exponential with
// this mean, while they fit in the fixation.
constexpr double kMicroMeanS = 0.28;

double lognormal(EyeRig& rig, double mean, double sigma) {
  // mu = ln(mean) - sigma^2 / 2 gives the mean asked for.
  return std::exp(std::log(mean) - 0.5 * sigma * sigma + sigma * standard_normal(rig));
}

double move_duration(const EyeParams& p, EyeRig& rig, double amplitude, bool micro) {
  const double degrees = amplitude * p.range_rad * kDegPerRad;
  double seconds;
  if (p.model == EyeModel::kPhysiological) {
    seconds = 0.021 + 0.0022 * degrees;
  } else {
    seconds = micro ? uniform(rig, 0.007, 0.025) : uniform(rig, 0.083, 0.166);
  }
  // Smoothstep peaks at 1.5 amplitude / duration; no eye turns faster than
  // about 700 deg/s, whatever the factors ask.
  return std::max(seconds / (p.factors.move_speed * arousal_speed(p)), 1.5 * degrees / kPeakVelocityCapDegS);
}

// Mean blinks per minute of a model before factors.
double base_blink_rate(const EyeParams& p) {
  if (p.model == EyeModel::kPhysiological) return in_conversation(p.mode) ? 26.0 : 17.0;
  return 15.0;  // uniform 2-6 s: mean 4 s
}
double blink_rate_factor(const EyeParams& p) {
  return std::min(p.factors.blink_freq * arousal_blink_rate(p), kMaxBlinksPerMinute / base_blink_rate(p));
}

double blink_interval(const EyeParams& p, EyeRig& rig) {
  const double seconds =
      p.model == EyeModel::kPhysiological ? lognormal(rig, 60.0 / base_blink_rate(p), 0.7) : uniform(rig, 2.0, 6.0);
  return seconds / blink_rate_factor(p);
}

double mean_fixation_s(const EyeParams& p) {
  double mean = 0.30;
  switch (p.mode) {
    case ConversationMode::kFree: break;
    case ConversationMode::kListening: mean = 0.45; break;
    case ConversationMode::kSpeaking: mean = 0.35; break;
    case ConversationMode::kThinking: mean = 0.50; break;
  }
  return std::clamp(mean * p.factors.gaze_scale, kMinMeanFixationS, kMaxMeanFixationS);
}

// A sine-like wave of period 1 in `cycles`, in [-1, 1] and smooth (C1): a
// triangle through t (1.5 - 0.5 t^2), a few times cheaper than std::sin,
// which would take a third of a rig-frame's budget.
double slow_wave(double cycles) {
  const double u = cycles - std::floor(cycles);
  const double t = 4.0 * std::abs(u - 0.5) - 1.0;
  return t * (1.5 - 0.5 * t * t);
}

double degrees_to_gaze(const EyeParams& p, double degrees) {
  return degrees / (p.range_rad * kDegPerRad);
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
  rig.blink_close = std::max(close / p.factors.blink_speed, kMinClosingS);
  rig.blink_open = std::max(open / p.factors.blink_speed, kMinOpeningS);
  rig.blink_depth = depth;
  rig.saccade_evoked_blink = evoked;
  // The next spontaneous blink is counted from this one's start, and never
  // comes before it ends. An evoked blink leaves the spontaneous rhythm alone
  // but takes the place of its next blink (the credit), so all blinks
  // together keep the model's rate.
  const double earliest = now + rig.blink_close + rig.blink_open + 0.05;
  if (evoked) {
    rig.blink_credit = 1;
    rig.next_blink = std::max(rig.next_blink, earliest);
  } else {
    rig.next_blink = std::max(now + blink_interval(p, rig), earliest);
  }
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
  } else if (p.model == EyeModel::kPhysiological) {
    // A lab's microsaccade: under 1 degree, median 0.4, heading back toward
    // the fixation point (within 60 degrees of it), so the eye stays within
    // about 1 degree of it and the amplitude is the one drawn.
    const double amplitude =
        degrees_to_gaze(p, std::clamp(lognormal(rig, 0.4 * std::exp(0.5 * 0.5 * 0.5), 0.5), 0.1, 0.95));
    // Back toward the fixation point, turned by atan(1.73 w) for w uniform
    // in [-1, 1]: within 60 degrees, without atan2, cos and sin.
    double bx = rig.fix_x - gx, by = rig.fix_y - gy;
    double norm = std::hypot(bx, by);
    if (norm == 0.0) bx = 1.0, by = 0.0, norm = 1.0;
    bx /= norm, by /= norm;
    const double w = 1.7320508075688772 * uniform(rig, -1.0, 1.0);
    const double dx = bx - w * by, dy = by + w * bx;
    const double scale = amplitude / std::hypot(dx, dy);
    tx = gx + dx * scale;
    ty = gy + dy * scale;
  } else {
    // Within R/2 of the fixation point: no jump exceeds R.
    const auto d = disc_point(0.5 * p.saccade_radius * p.microsaccade_radius, uniform(rig), uniform(rig));
    tx = rig.fix_x + d[0];
    ty = rig.fix_y + d[1];
  }
  // Keep targets inside the usable range. Nearly every target is well
  // inside, and below a square of 0.99 the radius is under 1 however either
  // rounds, so hypot (6 % of a physiological rig-frame) runs only near the edge.
  if (tx * tx + ty * ty > 0.99) {
    const double r = std::hypot(tx, ty);
    if (r > 1.0) tx /= r, ty /= r;
  }
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
    if (p.model == EyeModel::kPhysiological) {
      const double fixation = std::clamp(lognormal(rig, mean_fixation_s(p), 0.5), 0.08, std::max(longest, 0.08));
      rig.next_saccade = now + rig.move_duration + fixation;
    } else {
      rig.next_saccade = now + std::max(rig.move_duration, uniform(rig, rig.move_duration, longest));
    }
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
  // Only while no evoked blink holds the next spontaneous one's place: they
  // share the rate, never add to it.
  if (saccade && p.model == EyeModel::kPhysiological && rig.blink == BlinkPhase::kOpen && rig.blink_credit == 0 &&
      degrees > 15.0) {
    const double probability = std::min(1.0, std::min(0.8, 0.8 * (degrees - 15.0) / 30.0) * p.factors.blink_freq);
    if (uniform(rig) < probability) start_blink(rig, p, now, true, stats);
  }
}

// After a move ends at `now`: a microsaccade if one fits before the next saccade.
void schedule_next_move(EyeRig& rig, const EyeParams& p, double now) {
  constexpr double kMicroLongest = 0.025;
  const double micro = p.model == EyeModel::kPhysiological ? now + 0.12 - kMicroMeanS * std::log(1.0 - uniform(rig))
                                                           : now + uniform(rig, 0.25, 1.0);
  if (micro + kMicroLongest < rig.next_saccade) {
    rig.next_move = micro;
    rig.next_is_saccade = false;
  } else {
    rig.next_move = std::max(now, rig.next_saccade);
    rig.next_is_saccade = true;
  }
}

}  // namespace

Result<EyeModel> parse_eye_model(std::string_view name) {
  return parse_name<EyeModel>(name, {{"design", EyeModel::kDesign}, {"physio", EyeModel::kPhysiological}});
}

Result<ConversationMode> parse_conversation_mode(std::string_view name) {
  return parse_name<ConversationMode>(name, {{"free", ConversationMode::kFree},
                                             {"listen", ConversationMode::kListening},
                                             {"speak", ConversationMode::kSpeaking},
                                             {"think", ConversationMode::kThinking}});
}

namespace {

// The fields that events read (start_move, start_blink, schedule_next_move,
// blink_interval and what they call), clamped as clamped() documents. The
// others (pupil, light, brow, vergence) are read per frame by advance() and
// sample(), which clamp each on its own, so run_events() clamps only these
// (the whole set was 8 % of a physiological rig-frame). An event that comes
// to read another field must have it clamped here.
void clamp_event_fields(EyeParams& p) {
  const EyeParams d;
  auto factor = [](double v) { return clamp_or(v, 0.1, 10.0, 1.0); };
  p.factors.gaze_scale = factor(p.factors.gaze_scale);
  p.factors.move_speed = factor(p.factors.move_speed);
  p.factors.blink_freq = factor(p.factors.blink_freq);
  p.factors.blink_speed = factor(p.factors.blink_speed);
  p.emotion.arousal = clamp_or(p.emotion.arousal, -1.0, 1.0, 0.0);
  p.emotion.dominance = clamp_or(p.emotion.dominance, -1.0, 1.0, 0.0);
  if (p.model != EyeModel::kDesign && p.model != EyeModel::kPhysiological) p.model = EyeModel::kDesign;
  if (static_cast<int>(p.mode) > static_cast<int>(ConversationMode::kThinking)) p.mode = ConversationMode::kFree;
  p.range_rad = clamp_or(p.range_rad, 0.05, 1.5, d.range_rad);
  p.saccade_radius = clamp_or(p.saccade_radius, 0.0, 1.0, d.saccade_radius);
  p.microsaccade_radius = clamp_or(p.microsaccade_radius, 0.0, 1.0, d.microsaccade_radius);
  p.max_gaze_s = clamp_or(p.max_gaze_s, 0.05, 60.0, d.max_gaze_s);
  p.partner_radius = clamp_or(p.partner_radius, 0.01, 1.0, d.partner_radius);
  p.think_aversion_rad = clamp_or(p.think_aversion_rad, 0.0, 1.5, d.think_aversion_rad);
}

}  // namespace

EyeParams clamped(const EyeParams& in) {
  const EyeParams d;
  EyeParams p = in;
  clamp_event_fields(p);
  p.emotion.pleasure = clamp_or(in.emotion.pleasure, -1.0, 1.0, 0.0);
  p.ambient_light = clamp_or(in.ambient_light, 0.0, 1.0, d.ambient_light);
  p.vergence = clamp_or(in.vergence, 0.0, 0.5, d.vergence);
  p.pupil_constrict_s = clamp_or(in.pupil_constrict_s, 0.01, 10.0, d.pupil_constrict_s);
  p.pupil_dilate_s = clamp_or(in.pupil_dilate_s, 0.01, 10.0, d.pupil_dilate_s);
  p.pupil_latency_s = clamp_or(in.pupil_latency_s, 0.0, 2.0, d.pupil_latency_s);
  p.hippus = clamp_or(in.hippus, 0.0, 0.2, d.hippus);
  p.interocular_m = clamp_or(in.interocular_m, 0.03, 0.1, d.interocular_m);
  p.distance_m = clamp_or(in.distance_m, 0.1, kInf, d.distance_m);
  return p;
}

double vergence_angle_rad(double interocular_m, double distance_m) {
  return vergence_of(interocular_m, distance_m);
}

std::vector<std::string> eye_caps(const EyeParams& in) {
  const EyeParams p = clamped(in);
  std::vector<std::string> out;
  auto number = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return std::string(buf);
  };
  // The largest saccade crosses the saccade disc; its peak is 1.5 A / D.
  const double degrees = 2.0 * p.saccade_radius * p.range_rad * kDegPerRad;
  const double speed = p.factors.move_speed * arousal_speed(p);
  const double shortest = p.model == EyeModel::kPhysiological ? 0.021 + 0.0022 * degrees : 0.083;
  // The design's own 83 ms for the largest saccades is already past the cap
  // (813 deg/s at 45 degrees): only a factor that makes it bind is worth a warning.
  if (speed > 1.0 && degrees > 0 && 1.5 * degrees * speed / shortest > kPeakVelocityCapDegS) {
    out.push_back("move speed x" + number(speed) + ": saccades capped at a peak of 700 deg/s");
  }
  const double blink_speed = p.factors.blink_speed;
  if ((p.model == EyeModel::kPhysiological ? 0.072 : 0.050) / blink_speed < kMinClosingS) {
    out.push_back("blink speed x" + number(blink_speed) + ": blinks capped at 30 ms closing and 60 ms opening");
  }
  const double rate = p.factors.blink_freq * arousal_blink_rate(p);
  if (rate > kMaxBlinksPerMinute / base_blink_rate(p)) {
    out.push_back("blink frequency x" + number(rate) + ": capped at 60 blinks per minute");
  }
  if (p.model == EyeModel::kPhysiological) {
    const double mean = mean_fixation_s(p);
    if (mean == kMinMeanFixationS || mean == kMaxMeanFixationS) {
      out.push_back("gaze scale x" + number(p.factors.gaze_scale) + ": mean fixation capped at " +
                    number(1000.0 * mean) + " ms (0.18-3 s)");
    }
  }
  return out;
}

double smoothstep(double e) {
  return ease(e);
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
  rig.light = rig.light_next = p.ambient_light;
  rig.light_at = start_s;
  rig.hippus_phase = uniform(rig);
  // The first saccade and blink come a random while in, so that rigs started
  // together do not move together.
  rig.next_saccade = start_s + uniform(rig, 0.0, p.max_gaze_s * p.factors.gaze_scale);
  rig.next_move = rig.next_saccade;
  rig.next_is_saccade = true;
  rig.next_blink = start_s + uniform(rig) * blink_interval(p, rig);
  return rig;
}

namespace {

// The times at which each kind of event is next due, and the earliest.
struct Due {
  double move_end, next_move, blink, cue, now;
};
inline Due due(const EyeRig& rig, std::span<const double> blink_cues) {
  Due d;
  d.move_end = rig.moving ? rig.move_start + rig.move_duration : kInf;
  d.next_move = rig.moving ? kInf : rig.next_move;
  d.blink = rig.next_blink;
  if (rig.blink == BlinkPhase::kClosing) d.blink = rig.blink_start + rig.blink_close;
  if (rig.blink == BlinkPhase::kOpening) d.blink = rig.blink_start + rig.blink_close + rig.blink_open;
  d.cue = rig.cue < blink_cues.size() ? blink_cues[rig.cue] : kInf;
  d.now = std::min({d.move_end, d.next_move, d.blink, d.cue});
  return d;
}

// Runs every event due by `time_s`, starting with `d`. Apart from advance()
// because most frames hold none, and the parameter set below (clamped only
// when an event needs it) cost a 192-byte clear per frame when it lived there.
// Events read only the fields clamp_event_fields() clamps.
void run_events(EyeRig& rig, const EyeParams& in, double time_s, EyeStats* stats, std::span<const double> blink_cues,
                Due d) {
  std::optional<EyeParams> p;
  auto params = [&]() -> const EyeParams& {
    if (!p) clamp_event_fields(p.emplace(in));
    return *p;
  };
  for (; d.now <= time_s; d = due(rig, blink_cues)) {
    const double now = d.now;
    // Ties resolve in a fixed order, so the order of draws depends on event
    // times only, never on when the caller samples.
    if (d.move_end == now) {
      rig.moving = false;
      schedule_next_move(rig, params(), now);
    } else if (d.blink == now) {
      switch (rig.blink) {
        case BlinkPhase::kOpen:
          if (rig.blink_credit > 0) {  // an evoked blink took this one's place
            --rig.blink_credit;
            rig.next_blink = now + blink_interval(params(), rig);
          } else {
            start_blink(rig, params(), now, false, stats);
          }
          break;
        case BlinkPhase::kClosing: rig.blink = BlinkPhase::kOpening; break;
        case BlinkPhase::kOpening: rig.blink = BlinkPhase::kOpen; break;
      }
    } else if (d.cue == now) {
      ++rig.cue;
      if (rig.blink == BlinkPhase::kOpen) start_blink(rig, params(), now, true, stats);
    } else {
      start_move(rig, params(), now, rig.next_is_saccade, stats);
    }
  }
}

}  // namespace

void advance(EyeRig& rig, const EyeParams& in, double time_s, EyeStats* stats, std::span<const double> blink_cues) {
  if (!(time_s > rig.last_time)) return;  // also NaN
  // Most frames hold no event: clamp parameters for events only when one
  // comes (this keeps a rig-frame within the speed target).
  if (const Due d = due(rig, blink_cues); d.now <= time_s) run_events(rig, in, time_s, stats, blink_cues, d);
  // The pupil follows its target with a time constant, not a per-frame rate:
  // exp(-a) exp(-b) = exp(-(a + b)), so any sampling gives the same curve. A
  // new light acts `pupil_latency_s` after the first advance that sees it.
  const double light = clamp_or(in.ambient_light, 0.0, 1.0, kDefaults.ambient_light);
  if (light != rig.light_next) {
    rig.light_next = light;
    rig.light_at = rig.last_time + clamp_or(in.pupil_latency_s, 0.0, 2.0, kDefaults.pupil_latency_s);
  }
  const double arousal = clamp_or(in.emotion.arousal, -1.0, 1.0, 0.0);
  double from = rig.last_time;
  while (from < time_s) {
    double to = time_s;
    if (rig.light != rig.light_next) {
      if (rig.light_at <= from) {
        rig.light = rig.light_next;
      } else {
        to = std::min(to, rig.light_at);
      }
    }
    const double target = pupil_target(rig.light, arousal);
    if (rig.pupil != target) {
      const double tau = target < rig.pupil ? clamp_or(in.pupil_constrict_s, 0.01, 10.0, kDefaults.pupil_constrict_s)
                                            : clamp_or(in.pupil_dilate_s, 0.01, 10.0, kDefaults.pupil_dilate_s);
      rig.pupil = target + (rig.pupil - target) * std::exp(-(to - from) / tau);
    }
    from = to;
  }
  if (stats) stats->time_s += time_s - rig.last_time;
  rig.last_time = time_s;
}

EyeFrame sample(const EyeRig& rig, const EyeParams& in, double time_s) {
  // Only these parameters matter here; each is clamped on its own.
  const double range = clamp_or(in.range_rad, 0.05, 1.5, kDefaults.range_rad);
  const double distance = clamp_or(in.distance_m, 0.1, kInf, kDefaults.distance_m);
  // At infinity (the default) the partner adds no turn: skip its clamp and
  // division. "+ 0.0" keeps the sum's value (a -0.0 becomes 0.0 as before).
  double vergence = clamp_or(in.vergence, 0.0, 0.5, 0.0);
  if (std::isinf(distance)) {
    vergence += 0.0;
  } else {
    vergence += vergence_of(clamp_or(in.interocular_m, 0.03, 0.1, kDefaults.interocular_m), distance) / range;
  }
  const double pleasure = clamp_or(in.emotion.pleasure, -1.0, 1.0, 0.0);
  const double arousal = clamp_or(in.emotion.arousal, -1.0, 1.0, 0.0);
  double x = rig.to_x, y = rig.to_y;
  if (rig.moving) {
    const double s = ease((time_s - rig.move_start) / rig.move_duration);
    x = rig.from_x + (rig.to_x - rig.from_x) * s;
    y = rig.from_y + (rig.to_y - rig.from_y) * s;
  }
  double closed = 0.0;
  if (rig.blink == BlinkPhase::kClosing) {
    closed = rig.blink_depth * ease((time_s - rig.blink_start) / rig.blink_close);
  } else if (rig.blink == BlinkPhase::kOpening) {
    const double e = (time_s - rig.blink_start - rig.blink_close) / rig.blink_open;
    closed = rig.blink_depth * (1.0 - ease(e));
  }
  const double max_openness = 1.0 + 0.15 * std::min(arousal, 0.0);  // drooping lids when calm
  // Hippus: two incommensurate slow waves, weights 0.6 and 0.4.
  const double hippus = clamp_or(in.hippus, 0.0, 0.2, kDefaults.hippus);
  double pupil = rig.pupil;
  if (hippus > 0.0) {
    pupil += hippus * (0.6 * slow_wave(0.07 * time_s + rig.hippus_phase) +
                       0.4 * slow_wave(0.19 * time_s + 2.0 * rig.hippus_phase + 0.3));
  }
  // Clamped here as clamped(EyeFrame) would, in registers: clamped() on the
  // frame built in memory was a fifth of a rig-frame, most of it reloading
  // what had just been stored. The eyes share y, openness and pupil, so those
  // are clamped once.
  EyeFrame f;
  f.time_s = time_s;
  y = clamp_or(y, -1.0, 1.0, 0.0);
  const double openness = clamp_or(max_openness * (1.0 - closed), 0.0, 1.0, 1.0);
  pupil = clamp_or(pupil, 0.0, 1.0, 0.5);
  f.left = {clamp_or(x + vergence, -1.0, 1.0, 0.0), y, openness, pupil};
  f.right = {clamp_or(x - vergence, -1.0, 1.0, 0.0), y, openness, pupil};
  into_disc(f.left);
  into_disc(f.right);
  f.brow = clamp_or(0.5 * pleasure + 0.5 * arousal, -1.0, 1.0, 0.0);
  return f;
}

EyeFrame clamped(const EyeFrame& in) {
  EyeFrame f = in;
  clamp_sample(f.left);
  clamp_sample(f.right);
  f.brow = clamp_or(f.brow, -1.0, 1.0, 0.0);
  return f;
}

EyeFrame neutral_eye_frame(double time_s) {
  EyeFrame f;
  f.time_s = time_s;
  return f;
}

}  // namespace mocap
