// Procedural eyes: gaze, blinks, pupil and brow of one rig (a pair of eyes),
// generated from a seed on a time axis the caller owns.
//
// Units and conventions
//   time      seconds, from the caller; never read from a clock. The same seed
//             and parameters give the same values at a given time however
//             often (or rarely) the rig is advanced, so a track can be sampled
//             at 120 Hz for a capture and at 40 Hz for the displays and agree.
//   gaze      normalised eye-in-head direction, x and y in [-1, 1]: (0, 0)
//             straight ahead, x > 0 toward the character's own right, y > 0 up.
//             1 is `EyeParams::range_rad` of eccentricity (30 degrees by
//             default); the disc of radius 1 is the usable range.
//   openness  lid opening in [0, 1]: 1 open, 0 closed.
//   pupil     diameter in [0, 1]: 0 fully constricted, 1 fully dilated.
//   brow      [-1, 1]: -1 lowered, 0 neutral, 1 raised.
// Every value is clamped to its range (NaN becomes the neutral value; the gaze
// radially into the unit disc) before it leaves the library, and every parameter is clamped to its documented
// range before it is used.
//
// Two models (EyeModel):
//   kDesign         the numbers of the design this follows: saccades 83-166 ms
//                   whatever their size, the next saccade uniformly up to
//                   `max_gaze_s` after one starts, microsaccades of 7-25 ms
//                   every 0.25-1 s, blinks every 2-6 s (uniform), closing
//                   50-100 ms and opening twice as long, always complete.
//   kPhysiological  where those numbers disagree with measurements of people:
//                   saccade duration 21 ms + 2.2 ms per degree of amplitude
//                   (the "main sequence"); fixations log-normal (sigma 0.5 of
//                   the logarithm: skewed right) with a mean of 0.30 s in free
//                   viewing, 0.45 s listening, 0.35 s speaking, 0.5 s thinking
//                   (times gaze_scale), at least 80 ms, so saccades of 1 degree
//                   or more come at about 2-3 per second; microsaccades during
//                   fixations at about 1.5 per second (0.12 s refractory after
//                   any move, then exponential), amplitude log-normal with a
//                   median of 0.4 degrees, 0.1-0.95 degrees, by the main
//                   sequence (21-23 ms); blink intervals log-normal (sigma 0.7)
//                   for all blinks together at 17 per minute at rest and 26 in
//                   conversation, closing ~90 ms and opening ~240 ms (jittered
//                   +-20 %), one blink in five partial, and gaze-evoked blinks:
//                   a saccade larger than 15 degrees brings a blink with a
//                   probability rising to 0.8 at 45 degrees (times blink_freq,
//                   at most 1).
//
// Blink rate in both models: an evoked blink (gaze-evoked, or a head turn's,
// eye_body.h) takes the place of the next spontaneous one, and a saccade
// evokes no blink while one already holds that place, so evoked blinks change
// when blinks come, not how many: blink_freq scales the rate of all blinks
// and gaze_scale leaves it alone. (A head turn's blink comes regardless, so
// a clip full of large turns can add a few.)
//
// Gaze in both models: a saccade picks a target uniformly over a disc of
// radius `saccade_radius` (area-uniform: r = R sqrt(u)) and moves there with
// smoothstep easing 3e^2 - 2e^3 (peak velocity 1.5 amplitude / duration). The
// target is the fixation point; microsaccades stay around it, never drift:
// in the design model each lands within R/2 of it, R = microsaccade_radius *
// saccade_radius, so no jump exceeds R (1.6 degrees by default); in the
// physiological model each goes the drawn amplitude in a direction within 60
// degrees of the way back to the fixation point.
//
// Vergence: each eye looks at the partner `distance_m` away with its own line
// of sight, the eyes `interocular_m` apart: each turns inward by
// atan(interocular_m / 2 / distance_m) (parallel at infinity), plus the
// constant `vergence`. With a world target on a clip, eye_body.h aims each
// eye from its own position instead.
//
// Pupil: the level is set by light (darker: larger) and arousal (larger). A
// change of light acts after `pupil_latency_s` (the light reflex latency, from
// the first advance() that sees it), then the pupil follows with time constant
// `pupil_constrict_s` when shrinking and `pupil_dilate_s` (slower) when
// growing. Hippus adds a slow fluctuation of at most +-`hippus` (two smooth
// sine-like waves at 0.07 and 0.19 Hz with per-rig phases); set hippus 0 for
// a constant pupil.
//
// Physiological caps (both models, whatever the factors and emotion; see
// eye_caps() for the ones that factors make bind): peak saccade velocity at
// most 700 deg/s (a move is lengthened to 1.5 amplitude / 700 deg/s; this
// already lengthens the design's largest saccades, up to 96 ms at 45
// degrees), blink closing at least 30 ms and opening at least 60 ms, at most
// 60 blinks per minute on average, a mean physiological fixation between
// 0.18 and 3 s.
#pragma once

#include <mocap/core/error.h>

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mocap {

enum class EyeModel : std::uint8_t { kDesign, kPhysiological };

// What the eyes are doing in a conversation. The partner is the point
// (0, 0) of the gaze, or a world target (see eye_body.h).
enum class ConversationMode : std::uint8_t {
  kFree,       // no partner: saccades anywhere in the disc
  kListening,  // about 75 % of the time on the partner
  kSpeaking,   // about 41 % of the time on the partner
  kThinking,   // gaze averted about 15 degrees, in a direction drawn once per rig
};

// The names `mocap eyes --model/--mode` and the Python module take:
// "design" or "physio"; "free", "listen", "speak" or "think". Fail (no
// file) on any other name, the message listing the names.
Result<EyeModel> parse_eye_model(std::string_view name);
Result<ConversationMode> parse_conversation_mode(std::string_view name);

// The four tuning factors, each clamped to [0.1, 10]; 1 is the model's own.
struct EyeFactors {
  double gaze_scale = 1.0;   // > 1: longer gazes (scales the maximum gaze time)
  double move_speed = 1.0;   // > 1: faster (shorter) saccades and microsaccades
  double blink_freq = 1.0;   // > 1: more blinks per minute
  double blink_speed = 1.0;  // > 1: faster (shorter) blinks
};

// Pleasure, arousal, dominance, each clamped to [-1, 1]; 0 is neutral.
//   arousal   dilates the pupil, raises the blink rate (x 1 + 0.4 a) and the
//             saccade speed (x 1 + 0.25 a); below 0 the lids droop (openness
//             at most 1 + 0.15 a).
//   dominance below 0 biases saccade targets downward (by 0.3 |d|).
//   brow      = 0.5 pleasure + 0.5 arousal.
struct Emotion {
  double pleasure = 0.0;
  double arousal = 0.0;
  double dominance = 0.0;
};

struct EyeParams {
  EyeModel model = EyeModel::kDesign;
  EyeFactors factors;
  Emotion emotion;
  ConversationMode mode = ConversationMode::kFree;
  double ambient_light = 0.5;                // [0, 1]: 0 dark (pupil dilates), 1 bright
  double range_rad = 0.5235987756;           // eccentricity of gaze 1, radians, [0.05, 1.5]; 30 degrees
  double saccade_radius = 0.75;              // of the usable range, [0, 1]
  double microsaccade_radius = 0.07;         // of saccade_radius, [0, 1]
  double max_gaze_s = 3.0;                   // longest gaze before gaze_scale, seconds, [0.05, 60]
  double partner_radius = 0.15;              // gaze within this of the partner counts as on it, [0.01, 1]
  double think_aversion_rad = 0.2617993878;  // thinking: gaze averted this far, radians; 15 degrees
  double vergence = 0.0;                     // extra inward turn of each eye (normalised x), [0, 0.5]
  double pupil_constrict_s = 0.3;            // pupil time constant toward smaller, seconds, [0.01, 10]
  double pupil_dilate_s = 1.0;               // pupil time constant toward larger, seconds, [0.01, 10]
  double pupil_latency_s = 0.2;              // light reflex latency, seconds, [0, 2]
  double hippus = 0.03;                      // pupil fluctuation amplitude (pupil units), [0, 0.2]; 0: none
  double interocular_m = 0.063;              // distance between the eyes' centres, metres, [0.03, 0.1]
  double distance_m = std::numeric_limits<double>::infinity();  // to the partner, metres, [0.1, inf]; inf: parallel
};

// The caps of the file comment that bind for `params` (after clamping), one
// sentence each naming the cap and the parameter it limits; empty when none.
std::vector<std::string> eye_caps(const EyeParams& params);

// Inward turn of each eye, radians, looking at a point `distance_m` ahead
// with eyes `interocular_m` apart: atan(interocular_m / 2 / distance_m); 0 at
// infinity.
double vergence_angle_rad(double interocular_m, double distance_m);

// `params` with every field clamped to its documented range (NaN: default).
EyeParams clamped(const EyeParams& params);

// 3e^2 - 2e^3 for e clamped to [0, 1]: 0 at 0, 1 at 1, flat at both ends.
double smoothstep(double e);

// An area-uniform point in the disc of `radius` centred at the origin, from
// two uniform numbers u, v in [0, 1): r = radius * sqrt(u), angle = 2 pi v.
std::array<double, 2> disc_point(double radius, double u, double v);

enum class BlinkPhase : std::uint8_t { kOpen, kClosing, kOpening };

// The state of one rig: 256 bytes at most (the generator's speed target is for
// thousands of rigs). Plain fields; change them only through the functions
// below.
struct EyeRig {
  std::uint64_t rng = 0;
  double last_time = 0.0;           // time of the last advance, s
  double from_x = 0, from_y = 0;    // current move's start
  double to_x = 0, to_y = 0;        // current move's target (the gaze when not moving)
  double fix_x = 0, fix_y = 0;      // fixation point microsaccades jitter around
  double think_x = 1, think_y = 0;  // thinking: unit direction of aversion
  double move_start = 0.0;          // s
  double move_duration = 0.0;       // s
  double next_saccade = 0.0;        // s
  double next_move = 0.0;           // s, the next saccade or microsaccade
  double blink_start = 0.0;         // s
  double blink_close = 0.0;         // closing duration, s
  double blink_open = 0.0;          // opening duration, s
  double blink_depth = 1.0;         // 1 complete, < 1 partial
  double next_blink = 0.0;          // s
  double pupil = 0.5;               // smoothed pupil, [0, 1], before hippus
  double light = 0.5;               // ambient light the pupil is reacting to
  double light_next = 0.5;          // the latest light seen, acting from light_at
  double light_at = 0.0;            // s
  double hippus_phase = 0.0;        // cycles, [0, 1)
  std::uint32_t cue = 0;            // index of the next blink cue
  std::uint8_t blink_credit = 0;    // spontaneous blinks to skip (evoked ones took their place)
  BlinkPhase blink = BlinkPhase::kOpen;
  bool moving = false;
  bool next_is_saccade = true;
  bool saccade_evoked_blink = false;  // the current blink was gaze- or head-evoked
};
static_assert(sizeof(EyeRig) <= 256, "a rig's state must stay within 256 bytes");

// One event, for statistics and tests.
struct EyeEvent {
  enum class Kind : std::uint8_t { kSaccade, kMicrosaccade, kBlink };
  Kind kind = Kind::kSaccade;
  double time_s = 0.0;      // start
  double duration_s = 0.0;  // move duration, or a blink's closing time
  double open_s = 0.0;      // a blink's opening time
  double amplitude = 0.0;   // a move's amplitude, normalised gaze units
  double x = 0.0, y = 0.0;  // a move's target, normalised
  double depth = 1.0;       // a blink's depth (1 complete)
  bool evoked = false;      // a blink brought by a gaze shift or a head turn
};

// Counters a caller may pass to advance(); `events`, when set, also receives
// every event in time order.
struct EyeStats {
  double time_s = 0.0;  // simulated time covered
  int saccades = 0;
  int microsaccades = 0;
  int blinks = 0;  // started
  int partial_blinks = 0;
  int evoked_blinks = 0;
  double closing_sum_s = 0.0;
  double opening_sum_s = 0.0;
  double saccade_duration_sum_s = 0.0;
  // Saccade amplitudes in degrees, 5-degree bins: [0,5), [5,10), ... the last
  // bin also holds everything beyond.
  std::array<int, 12> amplitude_histogram{};
  // Gaze samples, and those within partner_radius of the partner.
  long samples = 0;
  long samples_on_partner = 0;
  std::vector<EyeEvent>* events = nullptr;

  double blinks_per_minute() const { return time_s > 0 ? blinks * 60.0 / time_s : 0.0; }
  double mean_closing_s() const { return blinks > 0 ? closing_sum_s / blinks : 0.0; }
  double mean_opening_s() const { return blinks > 0 ? opening_sum_s / blinks : 0.0; }
  double saccades_per_second() const { return time_s > 0 ? saccades / time_s : 0.0; }
  double microsaccades_per_second() const { return time_s > 0 ? microsaccades / time_s : 0.0; }
  double share_on_partner() const { return samples > 0 ? double(samples_on_partner) / samples : 0.0; }
};

// What a rig shows at one time: gaze per eye (they differ by the vergence
// only), openness, pupil and brow.
struct EyeSample {
  double x = 0.0;
  double y = 0.0;
  double openness = 1.0;
  double pupil = 0.5;
};
struct EyeFrame {
  double time_s = 0.0;
  EyeSample left;
  EyeSample right;
  double brow = 0.0;
};

// A rig at `start_s` with its eyes centred and open; `seed` fixes every draw.
// Different seeds give unrelated rigs (the seed is mixed with splitmix64).
EyeRig make_eye_rig(const EyeParams& params, std::uint64_t seed, double start_s = 0.0);

// Runs every event up to and including `time_s` in time order, and smooths the
// pupil over the elapsed time. `time_s` earlier than the last advance is
// treated as the last advance (time does not run backwards). `blink_cues` are
// times (s, ascending) at which a blink is forced, e.g. head turns; a rig
// keeps its place in them, so pass the same span on every call. `params` may
// change between calls (emotion, mode); changes act from the next event.
void advance(EyeRig& rig, const EyeParams& params, double time_s, EyeStats* stats = nullptr,
             std::span<const double> blink_cues = {});

// The frame at `time_s`, which must be the time of the last advance(). Gaze
// is the rig's own (partner at the origin); see eye_body.h to add a head.
EyeFrame sample(const EyeRig& rig, const EyeParams& params, double time_s);

// Clamps a frame's values to their ranges (NaN: neutral; each eye's gaze
// first to [-1, 1] per component, then radially into the unit disc).
// Everything the library returns has been through this.
EyeFrame clamped(const EyeFrame& frame);

// The neutral frame: centred, open, pupil 0.5, brow 0.
EyeFrame neutral_eye_frame(double time_s = 0.0);

}  // namespace mocap
