// mocap fk <asf> <amc>: world joint positions of every frame, in metres.
#include <mocap/core/fk.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

#include "cli_util.h"

namespace mocap::cli {
namespace {

struct FkOptions {
  std::string asf;
  std::string amc;
  std::string frames;
  std::string format;  // csv or json; empty: from the output's extension (csv on standard output)
  std::string output;
  double fps = 120.0;
  std::string bvh_units = "cm";
};

void append_fixed(std::string& out, double v) {
  char buf[40];
  const int n = std::snprintf(buf, sizeof buf, "%.9f", v);
  out.append(buf, static_cast<std::size_t>(n));
}

int run_fk(const FkOptions& options) {
  const auto range = frames_option("fk", options.frames);
  if (!range) return kUsage;
  const auto format = format_option("fk", options.output, options.format, {"csv", "json"}, "csv");
  if (!format) return kUsage;
  if (const int code = check_outputs("fk", {options.output}); code != kOk) return code;
  auto clip = load_capture("fk", options.asf, options.amc, options.fps, options.bvh_units);
  if (!clip) return clip.error();
  const Skeleton& skeleton = clip->skeleton;
  const Motion& motion = clip->motion;
  const std::size_t bones = skeleton.bones.size();
  Pose pose = make_pose(skeleton);
  std::vector<Eigen::Vector3d> positions(bones);
  std::vector<Eigen::Quaterniond> rotations(bones);

  const bool csv = *format == "csv";
  std::string out = csv ? "frame,bone,x,y,z\n" : "";
  nlohmann::ordered_json frames = nlohmann::ordered_json::array();
  for (const int f : select_frames(*range, motion.frame_numbers)) {
    const int number = motion.frame_numbers[f];
    pose_from_channels(skeleton, motion.frame(f), pose);
    forward_kinematics(skeleton, pose, positions, rotations);
    nlohmann::ordered_json joints;
    for (std::size_t b = 0; b < bones; ++b) {
      const Eigen::Vector3d& p = positions[b];
      if (csv) {
        out += std::to_string(number) + ',' + skeleton.bones[b].name;
        for (int i = 0; i < 3; ++i) {
          out += ',';
          append_fixed(out, p[i]);
        }
        out += '\n';
      } else {
        joints[skeleton.bones[b].name] = {p.x(), p.y(), p.z()};
      }
    }
    if (!csv) frames.push_back({{"frame", number}, {"positions_m", std::move(joints)}});
  }
  if (!csv) {
    nlohmann::ordered_json j = {{"units", "m"}, {"fps", motion.fps}, {"frames", std::move(frames)}};
    out = j.dump() + "\n";
  }
  return emit(options.output, out);
}

}  // namespace

void add_fk_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<FkOptions>();
  CLI::App* command = app.add_subcommand("fk", "World joint positions in metres on every frame (CSV or JSON)");
  command->add_option("asf", options->asf, "ASF skeleton, or a BVH clip (.bvh) alone")->required();
  command->add_option("amc", options->amc, "AMC motion");
  add_frames_option(*command, options->frames);
  command->add_option("--format", options->format,
                      "csv (frame,bone,x,y,z) or json (default: from the extension of -o, csv on standard output)");
  command->add_option("-o,--output", options->output, "Output file, .csv or .json (default: standard output)");
  add_fps_option(*command, options->fps);
  add_bvh_units_option(*command, options->bvh_units);
  command->callback([options, &exit_code] { exit_code = run_fk(*options); });
}

}  // namespace mocap::cli
