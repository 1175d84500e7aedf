// mocap convert: a clip (ASF + AMC, or BVH) written as BVH (io/bvh.h) or
// as a skeleton-only glTF animation (skin/gltf.h).
#include <mocap/io/bvh.h>
#include <mocap/skin/gltf.h>

#include <filesystem>

#include <iostream>
#include <memory>

#include "cli_util.h"

namespace mocap::cli {

namespace {

struct ConvertOptions {
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::string bvh_units = "cm";
  double fps = 120.0;
};

int run_convert(const ConvertOptions& o) {
  if (o.inputs.size() > 2) {
    std::cerr << "mocap convert: expected a .bvh or an ASF and an AMC, found " << o.inputs.size() << " inputs\n";
    return kUsage;
  }
  const auto is_glb = [](const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".glb";
  };
  if (o.outputs.size() != 1 || !(is_bvh_path(o.outputs[0]) || is_glb(o.outputs[0]) || o.outputs[0] == "-")) {
    std::cerr << "mocap convert: -o takes one .bvh or .glb file (or - for BVH on standard output); writing ASF/AMC "
                 "from BVH is not supported yet\n";
    return kUsage;
  }
  const std::string& output = o.outputs[0];
  const auto units = parse_length_unit(o.bvh_units);
  if (!units) {
    std::cerr << "mocap convert: --bvh-units " << o.bvh_units
              << ": expected m, cm, mm, in, ft or a positive number of metres\n";
    return kUsage;
  }
  if (const int code = check_outputs("convert", {output}); code != kOk) return code;
  std::optional<Clip> clip;
  if (const int code =
          load_clip_or_bvh("convert", o.inputs[0], o.inputs.size() > 1 ? o.inputs[1] : "", o.fps, o.bvh_units, clip);
      code != kOk)
    return code;
  if (is_glb(output)) {
    // Skeleton only: the joints as nodes, the motion as one animation, no mesh.
    auto document =
        gltf_from_motion(clip->skeleton, clip->motion, std::filesystem::path(clip->amc_path).stem().string());
    auto glb = document ? format_glb(*document) : Result<std::string>(std::unexpected(document.error()));
    if (!glb) {
      std::cerr << "mocap convert: " << clip->amc_path << ": " << glb.error().message << "\n";
      return kBadInput;
    }
    return emit(output, *glb);
  }
  auto text = format_bvh(clip->skeleton, clip->motion, *units);
  if (!text) {
    std::cerr << "mocap convert: " << clip->amc_path << ": " << text.error().message << "\n";
    return kBadInput;
  }
  return emit(output, *text);
}

}  // namespace

void add_convert_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ConvertOptions>();
  CLI::App* c = app.add_subcommand(
      "convert",
      "Write a clip (ASF + AMC, or BVH) as BVH, or as a skeleton-only glTF (.glb: the BVH joints as nodes, the motion "
      "as an animation, no mesh): same world joint positions on every frame");
  c->add_option("inputs", o->inputs, "A .bvh file, or an ASF skeleton and an AMC motion")->required()->expected(1, 2);
  c->add_option("-o,--output", o->outputs, "Output .bvh (- for standard output) or .glb (metres, Y up)")
      ->required()
      ->expected(1, 2);
  add_bvh_units_option(*c, o->bvh_units);
  add_fps_option(*c, o->fps);
  c->callback([o, &exit_code] { exit_code = run_convert(*o); });
}

}  // namespace mocap::cli
