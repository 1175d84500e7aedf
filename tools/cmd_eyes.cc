// mocap eyes: procedural eye and blink tracks, exported to a file or streamed
// to two serial eye displays (one JSON line per eye per frame, eye_stream.h).
#include <mocap/eyes/capture_eyes.h>
#include <mocap/eyes/eye_preview.h>
#include <mocap/eyes/eye_stats_json.h>
#include <mocap/eyes/eye_stream.h>
#include <mocap/eyes/eye_track_file.h>
#include <mocap/eyes/eyes.h>
#include <mocap/eyes/stream_eyes.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli_util.h"

namespace mocap::cli {
namespace {

struct EyesOptions {
  std::string asf;
  std::string amc;
  std::string bvh;  // a BVH motion in place of asf + amc
  std::string bvh_units = "cm";
  double fps = 120.0;  // the motion's rate (--fps, as every command that reads AMC)
  std::string output;
  std::string format;  // csv or jsonl; default from the output's extension
  double rate = 0.0;   // output frames per second (--rate); 0: the clip's frames, or 40 without a clip
  double duration = 0.0;
  std::uint64_t seed = 1;
  std::vector<double> pad;  // pleasure, arousal, dominance
  std::string mode = "free";
  std::string model = "design";
  std::vector<double> target;  // x, y, z metres
  EyeParams params;
  EyeStreamOptions stream;  // --left, --right, --baud, --swap, --open-wait and the wire's format
  bool stats = false;
  std::vector<std::string> keys;                  // x, y, openness
  std::vector<double> x_range, y_range, l_range;  // lo, hi
  double open_timeout = 3.0;
  std::string preview;      // a picture (.png) or movie (.mp4 ...) of what the displays show
  double preview_at = 0.0;  // seconds: the frame a .png shows
};

int run_stream(const EyesOptions& o, EyeTimeline& timeline, double fps, double duration) {
  EyeStreamOptions so = o.stream;
  so.fps = fps;
  so.duration_s = duration;
  if (!o.keys.empty()) {
    so.format.x_key = o.keys[0];
    so.format.y_key = o.keys[1];
    so.format.openness_key = o.keys[2];
  }
  auto range = [](const std::vector<double>& given, double& lo, double& hi) {
    if (given.empty()) return;
    lo = given[0];
    hi = given[1];
  };
  range(o.x_range, so.format.x_min, so.format.x_max);
  range(o.y_range, so.format.y_min, so.format.y_max);
  range(o.l_range, so.format.l_min, so.format.l_max);
  if (auto valid = so.validate(); !valid) {
    std::cerr << "mocap eyes: " << valid.error().message << "\n";
    return kUsage;
  }
  auto streamed = stream_eyes(so, timeline, o.open_timeout);
  if (!streamed) {
    std::cerr << "mocap eyes: " << streamed.error().to_string() << " (gave up after --open-timeout " << o.open_timeout
              << " s)\n";
    return kOutputError;
  }
  if (o.stats) {
    std::cerr << eye_stream_stats_json(*streamed, fps, timeline.stats(), timeline.head_turns().size()) << "\n";
  }
  return kOk;
}

int run_eyes(EyesOptions o) {
  if (o.asf.empty() != o.amc.empty()) {
    std::cerr << "mocap eyes: --asf and --amc go together\n";
    return kUsage;
  }
  if (!o.bvh.empty() && !o.asf.empty()) {
    std::cerr << "mocap eyes: --bvh or --asf and --amc, not both\n";
    return kUsage;
  }
  if (o.stream.left_path.empty() != o.stream.right_path.empty()) {
    std::cerr << "mocap eyes: --left and --right go together\n";
    return kUsage;
  }
  const bool streaming = !o.stream.left_path.empty();
  if (streaming && !o.output.empty()) {
    std::cerr << "mocap eyes: stream to --left/--right or write -o, not both\n";
    return kUsage;
  }
  const auto format = format_option("eyes", o.output, o.format, {"csv", "jsonl"}, "jsonl");
  if (!format) return kUsage;
  if (const int code = check_outputs("eyes", {o.output}); code != kOk) return code;
  if (!o.preview.empty() && streaming) {
    std::cerr << "mocap eyes: --preview draws a track written to a file, not a stream to --left/--right\n";
    return kUsage;
  }
  if (!is_standard_baud(o.stream.baud)) {
    std::cerr << "mocap eyes: --baud " << o.stream.baud
              << ": expected a standard rate (9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 921600, "
                 "1000000, 2000000, 3000000, 4000000)\n";
    return kUsage;
  }
  if (!o.pad.empty()) o.params.emotion = {o.pad[0], o.pad[1], o.pad[2]};  // three, in [-1, 1]: CLI11
  o.params.mode = *parse_conversation_mode(o.mode);                       // checked by CLI11
  o.params.model = *parse_eye_model(o.model);

  CaptureEyesRequest request;
  request.params = o.params;
  request.seed = o.seed;
  request.to_displays = streaming;
  if (o.rate > 0) request.rate_hz = o.rate;
  if (o.duration > 0) request.duration_s = o.duration;
  const bool with_clip = !o.asf.empty() || !o.bvh.empty();
  if (!o.target.empty()) {
    if (!with_clip) {
      std::cerr << "mocap eyes: --target needs a clip whose head it turns: --asf and --amc, or --bvh\n";
      return kUsage;
    }
    request.world_target = Eigen::Vector3d(o.target[0], o.target[1], o.target[2]);
  }
  std::optional<Capture> clip;
  if (with_clip) {
    auto loaded = load_capture("eyes", o.bvh.empty() ? o.asf : o.bvh, o.amc, o.fps, o.bvh_units);
    if (!loaded) return loaded.error();
    clip = std::move(*loaded);
  }
  auto eyes = capture_eyes(clip ? &*clip : nullptr, request);
  // An error naming the capture's file is the input's (no head); one naming none, the flags' (a NaN --pad).
  if (!eyes) return failed("mocap eyes: ", eyes.error(), eyes.error().file.empty() ? kUsage : kBadInput);
  const double fps = eyes->fps;
  const double duration = eyes->seconds;
  const EyeDisplayGeometry display;
  if (!o.preview.empty()) {
    if (auto kind = eye_preview_kind(o.preview); !kind) return failed("mocap eyes: --preview ", kind.error(), kUsage);
    if (auto ok = check_eye_preview(o.preview, display, fps); !ok)
      return failed("mocap eyes: --preview ", ok.error(), kOutputError);
    if (o.preview_at > duration) {
      std::cerr << "mocap eyes: --preview-at " << o.preview_at << " s: expected at most the track's " << duration
                << " s\n";
      return kUsage;
    }
  }
  for (const std::string& cap : eye_caps(o.params)) std::cerr << "mocap eyes: warning: " << cap << "\n";
  EyeTimeline timeline(eyes->options);
  if (streaming) return run_stream(o, timeline, fps, duration);

  const std::vector<EyeFrame> frames = eye_track(timeline, fps, duration);
  const EyeTrackFormat track_format = *parse_eye_track_format(*format);
  int code = kOk;
  if (!o.preview.empty()) {
    const auto frame = static_cast<std::size_t>(std::lround(o.preview_at * fps));
    if (auto written = write_eye_preview(o.preview, frames, fps, display, frame); !written)
      return failed("mocap eyes: --preview ", written.error(), kOutputError);
    // The track goes where -o says; with a preview alone, nowhere.
    if (!o.output.empty()) code = emit(o.output, format_eye_track(frames, track_format));
    if (code != kOk) std::filesystem::remove(o.preview);  // all outputs or none
  } else {
    code = emit(o.output, format_eye_track(frames, track_format));
  }
  if (o.stats) {
    std::cerr << eye_stats_json(timeline.stats(), timeline.head_turns().size()) << "\n";
  }
  return code;
}

}  // namespace

void add_eyes_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<EyesOptions>();
  CLI::App* c = app.add_subcommand(
      "eyes", "Procedural gaze and blinks on a clip's timeline: to a file, or to two serial eye displays");
  c->footer(
      "Procedural eye and blink tracks (gaze x,y in the unit disc, x > 0 toward the character's right, y > 0 up; "
      "openness and pupil in [0,1]), on a clip's timeline when given; written to a file (CSV columns "
      "left_x,left_y,left_openness,left_pupil,..., JSONL keys x,y,openness,pupil) or streamed to two serial eye "
      "displays. Serial protocol (docs/eyes.md): one JSON object per eye per frame ending in LF, the displays' own "
      "{\"req\":\"c\",\"d\":{\"x\":0.25,\"y\":-0.33,\"l\":0.95}}, at most 50 bytes with the defaults; "
      "file name -> wire key: x -> x, y -> y, openness -> l, pupil -> --pupil-key (not sent by default), frame "
      "number -> --seq-key (not sent by default); "
      "8N1 without flow control, nothing to reply, the newest frame wins (a slow port drops frames), a neutral frame "
      "(0,0,1) on exit; --open-wait for boards that reset when the port opens, --seq-key to count drops. "
      "Exit 1: bad options (--baud not standard, --pad outside [-1,1], --keys not three names); 4: a device not open "
      "within --open-timeout");
  c->add_option("--asf", o->asf, "ASF skeleton of the clip whose head drives the eyes");
  c->add_option("--amc", o->amc, "AMC motion: the tracks cover its duration, sampled on its frames");
  c->add_option("--bvh", o->bvh, "A BVH motion in place of --asf and --amc (its joint Head or head drives the eyes)");
  add_bvh_units_option(*c, o->bvh_units);
  add_fps_option(*c, o->fps);
  c->add_option("--left", o->stream.left_path, "Serial device of the left eye's display");
  c->add_option("--right", o->stream.right_path, "Serial device of the right eye's display");
  c->add_option("-o,--output", o->output, "Track file, .csv or .jsonl (default: standard output)");
  c->add_option("--format", o->format, "csv or jsonl (default: from the extension of -o, jsonl on standard output)")
      ->check(CLI::IsMember({"csv", "jsonl"}));
  c->add_option("--rate", o->rate,
                "Output frames per second, Hz (default 0: the clip's frames, or 40 for displays and without a clip)")
      ->check(CLI::Range(0.001, 1000.0));
  c->add_option("--duration", o->duration,
                "Seconds (default: the clip's; without one, 10 for a file and until SIGINT for displays)")
      ->check(kNonNegative);
  c->add_option("--seed", o->seed, "Seed: the same seed gives the same track at any rate")->default_val(1);
  c->add_option("--pad", o->pad, "Emotion as pleasure,arousal,dominance, each in [-1,1] (outside: exit 1)")
      ->delimiter(',')
      ->expected(3)
      ->check(CLI::Range(-1.0, 1.0));
  c->add_option("--mode", o->mode, "Conversation mode")->check(CLI::IsMember({"free", "listen", "speak", "think"}));
  c->add_option("--model", o->model, "design (the design's numbers) or physio (physiological timing)")
      ->check(CLI::IsMember({"design", "physio"}));
  c->add_option("--gazescale", o->params.factors.gaze_scale, "Longer (>1) or shorter gazes")
      ->check(CLI::Range(0.1, 10.0));
  c->add_option("--movespeed", o->params.factors.move_speed,
                "Faster (>1) or slower eye moves (saccades capped at 700 deg/s peak, with a warning)")
      ->check(CLI::Range(0.1, 10.0));
  c->add_option("--blinkfreq", o->params.factors.blink_freq,
                "More (>1) or fewer blinks, evoked ones included (capped at 60 per minute, with a warning)")
      ->check(CLI::Range(0.1, 10.0));
  c->add_option("--blinkspeed", o->params.factors.blink_speed,
                "Faster (>1) or slower blinks (capped at 30 ms closing, 60 ms opening, with a warning)")
      ->check(CLI::Range(0.1, 10.0));
  c->add_option("--light", o->params.ambient_light, "Ambient light, 0 dark to 1 bright")->check(CLI::Range(0.0, 1.0));
  c->add_option("--target", o->target,
                "Fixed gaze target in the world, x,y,z metres (needs a clip); each eye aims at it from its own centre")
      ->delimiter(',')
      ->expected(3);
  c->add_option("--distance", o->params.distance_m,
                "Metres to the partner without a --target: the eyes converge on it (default: infinity, parallel)")
      ->check(CLI::Range(0.1, 1e9));
  c->add_option("--interocular", o->params.interocular_m, "Distance between the eyes, metres (default 0.063)")
      ->check(CLI::Range(0.03, 0.1));
  c->add_option("--hippus", o->params.hippus,
                "Pupil fluctuation amplitude, 0 to 0.2 (default 0.03; 0: the pupil is constant unless light changes)")
      ->check(CLI::Range(0.0, 0.2));
  c->add_flag("--swap", o->stream.swap, "Send the left eye's data to --right and the right's to --left");
  c->add_option("--baud", o->stream.baud, "Serial rate, a standard one (9600 ... 4000000); 8N1, no flow control")
      ->default_val(115200);
  c->add_option("--open-timeout", o->open_timeout,
                "Seconds to wait for both devices to open before giving up with exit 4 (default 3)")
      ->check(CLI::Range(0.0, 3600.0));
  c->add_option("--open-wait", o->stream.settle_s,
                "Seconds to send nothing after each open, while an Arduino-class board resets on DTR (default 0)")
      ->check(CLI::Range(0.0, 10.0));
  c->add_option("--seq-key", o->stream.format.sequence_key,
                "Also send the frame number under this key, so a display can count dropped frames");
  c->add_option("--keys", o->keys,
                "Wire keys for x, y and openness in the serial lines, for displays other than the design's "
                "(default x,y,l: the displays' own format)")
      ->delimiter(',')
      ->expected(3);
  c->add_option("--x-range", o->x_range, "Serial x mapped to lo,hi (default -1,1; 1,-1 mirrors)")
      ->delimiter(',')
      ->expected(2);
  c->add_option("--y-range", o->y_range, "Serial y mapped to lo,hi (default -1,1)")->delimiter(',')->expected(2);
  c->add_option("--l-range", o->l_range, "Serial openness mapped to lo,hi (default 0,1)")->delimiter(',')->expected(2);
  c->add_option("--pupil-key", o->stream.format.pupil_key,
                "Also send the pupil under this key (pupil, as in the exports)");
  c->add_option("--decimals", o->stream.format.decimals, "Decimal places in serial lines")->check(CLI::Range(0, 9));
  c->add_option("--preview", o->preview,
                "Draw what the two displays show (the round 240 x 240 panels, iris at x,y, lids at l, pupil): "
                "out.png for one frame (--preview-at), or a movie of every frame (.mp4, .mkv, .mov, .webm, .avi) "
                "through ffmpeg; the track is then written only with -o");
  c->add_option("--preview-at", o->preview_at, "Seconds into the track of the frame a .png preview shows (default 0)")
      ->check(kNonNegative);
  c->add_flag("--stats", o->stats,
              "Print a JSON summary on stderr: blinks per minute, closing/opening ms, saccades and microsaccades "
              "per second, amplitude histogram, share on the partner; when streaming, frame lateness p50/p99/max");
  c->callback([o, &exit_code] { exit_code = run_eyes(*o); });
}

}  // namespace mocap::cli
