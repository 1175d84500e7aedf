// mocap retarget <asf> <amc> | <in.bvh> --model M -o out.glb: the capture played by a rigged character.
#include <mocap/retarget/gltf_splice.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli_util.h"

namespace mocap::cli {
namespace {

struct RetargetCliOptions {
  std::vector<std::string> inputs;
  std::string model;
  std::string output;
  std::string map;
  bool print_map = false;
  bool keep_animations = false;
  bool no_plant = false;
  std::string bvh_units = "cm";
  double fps = 120.0;
};

int run_retarget(const RetargetCliOptions& o) {
  const auto format = format_option("retarget", o.output, "", {"glb"}, "");
  if (!format) return kUsage;
  if (const int code = check_outputs("retarget", {o.output}); code != kOk) return code;
  const std::string second = o.inputs.size() > 1 ? o.inputs[1] : "";
  auto clip = load_capture("retarget", o.inputs[0], second, o.fps, o.bvh_units);
  if (!clip) return clip.error();
  const std::string motion_path = second.empty() ? o.inputs[0] : second;
  RetargetOptions options;
  options.map_path = o.map;
  options.plant_feet = !o.no_plant;
  const auto start = std::chrono::steady_clock::now();
  auto result = retarget_model_file(clip->skeleton, clip->motion, o.inputs[0], o.model,
                                    std::filesystem::path(motion_path).stem().string(), options, o.keep_animations);
  if (!result) {
    if (o.print_map) {
      // What was found and what was not, before the error.
      if (auto map = describe_bone_map_file(clip->skeleton, o.inputs[0], o.model, options)) std::cout << *map;
    }
    std::cerr << "mocap: " << result.error().to_string() << "\n";
    return kBadInput;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (o.print_map) {
    std::cout << format_bone_map(result->rig.capture_joints, result->rig.capture_map, result->rig.target_joints,
                                 result->rig.target_map);
  }
  for (const std::string& warning : result->warnings) std::cerr << "mocap: " << o.model << ": " << warning << "\n";
  if (const int code = emit(o.output, result->glb); code != kOk) return code;
  const RetargetedClip& c = result->clip;
  std::printf(
      "%s: %d frames at %g Hz onto %zu driven joints of %s (scale %.4g model units per metre, foot contacts "
      "%zu left %zu right) in %.3f s\n",
      o.output.c_str(), c.frame_count, c.fps, result->rig.driven.size(), o.model.c_str(), result->rig.scale,
      c.contacts[0].contacts.size(), c.contacts[1].contacts.size(), seconds);
  return kOk;
}

}  // namespace

void add_retarget_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<RetargetCliOptions>();
  CLI::App* c = app.add_subcommand(
      "retarget", "Play a capture on a rigged character (.glb, .gltf, .dae, .fbx) as a GLB with its feet planted");
  c->footer(
      "The model's meshes, materials, skin and node names are kept; one animation is added, named after the clip, "
      "at the capture's rate.");
  c->add_option("inputs", o->inputs, "A .bvh file, or an ASF skeleton and an AMC motion")->required()->expected(1, 2);
  c->add_option("--model", o->model, "The rigged character")->required();
  c->add_option("-o,--output", o->output, "Output .glb")->required();
  c->add_option("--map", o->map,
                "JSON object {\"model bone\": \"capture bone\", ...} overriding the bone mapping found by names and "
                "topology; a model bone whose name repeats is named as --print-map shows it (\"Foot.L #12\") or by "
                "its glTF node index alone (\"#12\")");
  c->add_flag("--print-map", o->print_map, "Print each humanoid role, the bones chosen and why");
  c->add_flag("--keep-animations", o->keep_animations, "Keep the model's own animations beside the new one");
  c->add_flag("--no-plant", o->no_plant, "Do not pin planted feet (no leg IK)");
  add_bvh_units_option(*c, o->bvh_units);
  add_fps_option(*c, o->fps);
  c->callback([o, &exit_code] { exit_code = run_retarget(*o); });
}

}  // namespace mocap::cli
