// mocap info <asf> [<amc>]: what a skeleton and a motion hold.
#include <mocap/compress/compressed_clip.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>

#include <nlohmann/json.hpp>

#include <iostream>
#include <optional>
#include <sstream>

#include "cli_util.h"

namespace mocap::cli {
namespace {

struct InfoOptions {
  std::string asf;
  std::string amc;
  double fps = 120.0;
  bool json = false;
  std::string bvh_units = "cm";
};

std::string dof_list(const Bone& bone) {
  std::string s;
  for (Channel c : bone.dofs) (s += s.empty() ? "" : " ") += channel_name(c, bone.parent < 0);
  return s;
}

// What `mocap info` reads: the ASF as written (names, version, units, ids),
// its runtime skeleton (lengths in metres, channels) and maybe a motion.
struct Loaded {
  AsfSkeleton asf;
  Skeleton skeleton;
  std::optional<AmcFile> amc;
};

nlohmann::ordered_json info_json(const Loaded& in) {
  const AsfSkeleton& asf = in.asf;
  const Skeleton& skeleton = in.skeleton;
  const Motion* motion = in.amc ? &in.amc->motion : nullptr;
  nlohmann::ordered_json j;
  j["name"] = asf.name;
  j["version"] = asf.version;
  j["units"] = {{"mass", asf.mass_unit},
                {"length", asf.length_unit},
                {"metres_per_length_unit", asf.metres_per_unit()},
                {"angle", asf.angles_in_degrees ? "deg" : "rad"}};
  j["bones"] = nlohmann::ordered_json::array();
  for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
    const Bone& bone = skeleton.bones[b];
    j["bones"].push_back(
        {{"name", bone.name},
         {"id", asf.bones[b].id},
         {"parent", bone.parent < 0 ? nullptr : nlohmann::ordered_json(skeleton.bones[bone.parent].name)},
         {"length_m", bone.length},
         {"dofs", dof_list(bone)}});
  }
  j["channels"] = skeleton.channel_count;
  if (motion) {
    j["frames"] = motion->frame_count();
    j["first_frame"] = motion->frame_numbers.front();
    j["last_frame"] = motion->frame_numbers.back();
    j["fps"] = motion->fps;
    j["duration_s"] = motion->duration_seconds();
    j["angles_in_file"] = in.amc->layout.degrees ? "deg" : "rad";
  }
  return j;
}

void print_tree(std::ostream& out, const Skeleton& skeleton, int bone, int depth) {
  const Bone& b = skeleton.bones[bone];
  out << std::string(2 * depth + 2, ' ') << b.name;
  if (bone != 0) out << "  " << b.length << " m";
  if (!b.dofs.empty()) out << "  [" << dof_list(b) << "]";
  out << "\n";
  for (int child : skeleton.children(bone)) print_tree(out, skeleton, child, depth + 1);
}

std::string info_text(const Loaded& in) {
  const AsfSkeleton& asf = in.asf;
  const Skeleton& skeleton = in.skeleton;
  const Motion* motion = in.amc ? &in.amc->motion : nullptr;
  std::ostringstream out;
  int with_dofs = 0;
  for (const Bone& bone : skeleton.bones) with_dofs += bone.dofs.empty() ? 0 : 1;
  out << "skeleton  " << (asf.name.empty() ? "(unnamed)" : asf.name) << ", version "
      << (asf.version.empty() ? "-" : asf.version) << "\n";
  out << "units     length " << asf.length_unit << " (1 unit = " << asf.metres_per_unit() << " m), angle "
      << (asf.angles_in_degrees ? "deg" : "rad") << ", mass " << asf.mass_unit << "\n";
  out << "bones     " << skeleton.bones.size() << " including the root, " << with_dofs << " with dofs, "
      << skeleton.channel_count << " channels\n";
  if (motion) {
    out << "frames    " << motion->frame_count() << " (" << motion->frame_numbers.front() << " to "
        << motion->frame_numbers.back() << ")\n";
    out << "fps       " << motion->fps << "\n";
    out << "duration  " << motion->duration_seconds() << " s\n";
  }
  out << "hierarchy\n";
  print_tree(out, skeleton, 0, 0);
  return out.str();
}

// `mocap info clip.mkc`: what the compressed clip holds, without a skeleton.
int run_clip_file_info(const InfoOptions& options) {
  auto file = read_compressed_clip(options.asf);
  if (!file) return failed("mocap info: ", file.error(), kBadInput);
  const ClipSummary s = summarize(*file);
  const double seconds = s.fps > 0 ? s.frames / s.fps : 0.0;
  std::ostringstream out;
  if (options.json) {
    nlohmann::ordered_json j;
    j["format"] = "mkc";
    j["version"] = file->version;
    j["frames"] = s.frames;
    j["fps"] = s.fps;
    j["first_frame"] = s.first_frame_number;
    j["last_frame"] = s.last_frame_number;
    j["duration_s"] = seconds;
    j["bones"] = s.bones;
    j["tracks"] = s.tracks;
    j["constant_tracks"] = s.constant_tracks;
    j["keys"] = s.keys;
    j["whole_pose"] = s.whole_pose;
    j["bytes"] = s.bytes;
    j["bytes_per_second"] = seconds > 0 ? s.bytes / seconds : 0.0;
    out << j.dump(2) << "\n";
  } else {
    out << "compressed clip (mkc version " << file->version << "): " << s.bytes << " bytes\n"
        << "frames " << s.frames << " (" << s.first_frame_number << " to " << s.last_frame_number << ") at " << s.fps
        << " fps, " << seconds << " s\n"
        << "bones " << s.bones << ", tracks " << s.tracks << " (" << s.constant_tracks << " constant), "
        << (s.whole_pose ? "whole-pose keys, " : "per-track keys, ") << s.keys << " points stored\n";
  }
  return emit("", out.str());
}

// `mocap info run.bvh`: the BVH's skeleton and motion (io/bvh.h).
int run_bvh_info(const InfoOptions& options) {
  auto clip = load_capture("info", options.asf, options.amc, options.fps, options.bvh_units);
  if (!clip) return clip.error();
  const Skeleton& skeleton = clip->skeleton;
  const Motion& motion = clip->motion;
  int with_dofs = 0;
  for (const Bone& bone : skeleton.bones) with_dofs += bone.dofs.empty() ? 0 : 1;
  if (options.json) {
    const nlohmann::ordered_json j = {{"format", "bvh"},
                                      {"root", skeleton.name},
                                      {"metres_per_length_unit", skeleton.metres_per_unit()},
                                      {"bones", skeleton.bones.size()},
                                      {"bones_with_dofs", with_dofs},
                                      {"channels", skeleton.channel_count},
                                      {"frames", motion.frame_count()},
                                      {"fps", motion.fps},
                                      {"duration_s", motion.duration_seconds()}};
    return emit("", j.dump(2) + "\n");
  }
  std::ostringstream out;
  out << "skeleton  BVH, root " << skeleton.name << "\n";
  out << "units     1 unit = " << skeleton.metres_per_unit() << " m (--bvh-units), angle deg\n";
  out << "bones     " << skeleton.bones.size() << " including the root and End Sites, " << with_dofs << " with dofs, "
      << skeleton.channel_count << " channels\n";
  out << "frames    " << motion.frame_count() << " (0 to " << motion.frame_count() - 1 << ")\n";
  out << "fps       " << motion.fps << "\n";
  out << "duration  " << motion.duration_seconds() << " s\n";
  out << "hierarchy\n";
  print_tree(out, skeleton, 0, 0);
  return emit("", out.str());
}

int run_info(const InfoOptions& options) {
  if (options.amc.empty() && is_clip_file_name(options.asf)) return run_clip_file_info(options);
  if (is_bvh_path(options.asf)) return run_bvh_info(options);
  Loaded in;
  const auto bad = [](const Error& e) {
    std::cerr << "mocap: " << e.to_string() << "\n";
    return kBadInput;
  };
  auto asf = read_asf_file(options.asf);
  if (!asf) return bad(asf.error());
  auto skeleton = build_skeleton(*asf, options.asf);
  if (!skeleton) return bad(skeleton.error());
  in.asf = std::move(*asf);
  in.skeleton = std::move(*skeleton);
  if (!options.amc.empty()) {
    auto amc = read_amc_file(options.amc, in.skeleton, options.fps);
    if (!amc) return bad(amc.error());
    in.amc = std::move(*amc);
    warn_if_implausible(in.skeleton, in.amc->motion, options.asf, options.amc);
  }
  const std::string out = options.json ? info_json(in).dump(2) + "\n" : info_text(in);
  return emit("", out);
}

}  // namespace

void add_info_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<InfoOptions>();
  CLI::App* command =
      app.add_subcommand("info", "Describe a clip or a .mkc: bones, dofs, hierarchy, units, frames, fps, duration");
  command->add_option("asf", options->asf, "ASF skeleton, or a compressed clip (.mkc) or BVH clip (.bvh) alone")
      ->required();
  command->add_option("amc", options->amc, "AMC motion of that skeleton");
  add_fps_option(*command, options->fps);
  command->add_flag("--json", options->json, "Print one JSON object");
  add_bvh_units_option(*command, options->bvh_units);
  command->callback([options, &exit_code] { exit_code = run_info(*options); });
}

}  // namespace mocap::cli
