// mocap decompress: every frame back from a key file (AMC, compress/rebuild.h)
// or a compressed clip (.mkc, compress/clip_decoder.h).
#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/rebuild.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>

#include <iostream>

#include "cli_util.h"

namespace mocap::cli {
namespace {

struct DecompressOptions {
  std::string asf, keys, output;
  std::string interp = "slerp";
  double fps = 120.0;
  std::string bvh_units = "cm";
};

int run_decompress(const DecompressOptions& o) {
  const bool bvh = is_bvh_path(o.asf);
  if (bvh && !is_clip_file_name(o.keys)) {
    std::cerr << "mocap decompress: " << o.keys << ": a BVH skeleton (" << o.asf
              << ") takes a compressed clip (.mkc); BVH key files are not written\n";
    return kUsage;
  }
  // Output as -o's extension says; standard output in the skeleton's format.
  if (!format_option("decompress", o.output, "", {"amc", "bvh"}, bvh ? "bvh" : "amc")) return kUsage;
  if (bvh && !o.output.empty() && o.output != "-" && !is_bvh_path(o.output)) {
    std::cerr << "mocap decompress: " << o.output
              << ": a BVH skeleton's motion is written as .bvh (no ASF for an AMC)\n";
    return kUsage;
  }
  if (!parse_length_unit(o.bvh_units)) {
    std::cerr << "mocap decompress: --bvh-units " << o.bvh_units
              << ": expected m, cm, mm, in, ft or a positive number of metres\n";
    return kUsage;
  }
  if (const int code = check_outputs("decompress", {o.output}); code != kOk) return code;
  if (is_clip_file_name(o.keys)) {
    std::optional<Skeleton> skeleton;
    if (bvh) {
      auto clip = load_capture("decompress", o.asf, "", o.fps, o.bvh_units);
      if (!clip) return clip.error();
      skeleton = std::move(clip->skeleton);
    } else if (auto asf = read_asf(o.asf)) {
      skeleton = std::move(*asf);
    } else {
      std::cerr << "mocap decompress: " << asf.error().to_string() << "\n";
      return kBadInput;
    }
    auto decoded = read_clip_motion(o.keys, *skeleton, o.asf);
    if (!decoded) return failed("mocap decompress: ", decoded.error(), kBadInput);
    auto text = motion_text("decompress", *skeleton, *decoded, o.output, o.bvh_units);
    if (!text) return kBadInput;
    return emit(o.output, *text);
  }
  auto clip = load_asf_amc(o.asf, o.keys, o.fps);
  if (!clip) return clip.error();
  auto rebuilt = rebuild_motion(clip->skeleton, clip->motion, o.keys, interpolation_option(o.interp));
  if (!rebuilt) return failed("mocap decompress: ", rebuilt.error(), kBadInput);
  auto text = motion_text("decompress", clip->skeleton, *rebuilt, o.output, o.bvh_units, &clip->layout);
  if (!text) return kBadInput;
  return emit(o.output, *text);
}

}  // namespace

void add_decompress_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<DecompressOptions>();
  CLI::App* c = app.add_subcommand("decompress", "Rebuild every frame of a clip from its .mkc or key-frame AMC");
  c->add_option("asf", o->asf, "ASF skeleton, or a BVH clip (.bvh) whose skeleton the .mkc was made of")->required();
  c->add_option("keys", o->keys, "Key file (AMC) or compressed clip (.mkc)")->required();
  c->add_option("-o,--output", o->output,
                "Output .amc or .bvh (default: standard output, AMC for an ASF, BVH for a BVH skeleton)");
  add_bvh_units_option(*c, o->bvh_units);
  add_interp_option(*c, o->interp);
  add_fps_option(*c, o->fps);
  c->callback([o, &exit_code] { exit_code = run_decompress(*o); });
}

}  // namespace mocap::cli
