// mocap convert: a clip (ASF + AMC, or BVH) written as BVH (io/bvh.h), as
// an ASF skeleton and AMC motion (io/bvh_to_asf.h) or as a skeleton-only
// glTF animation (rig/gltf.h).
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>
#include <mocap/io/bvh_names.h>
#include <mocap/io/bvh_to_asf.h>
#include <mocap/rig/gltf.h>

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
  std::string joint_names = "source";
  double fps = 120.0;
};

int run_convert(const ConvertOptions& o) {
  if (o.inputs.size() > 2) {
    std::cerr << "mocap convert: expected a .bvh or an ASF and an AMC, found " << o.inputs.size() << " inputs\n";
    return kUsage;
  }
  const auto has_extension = [](const std::string& path, std::string_view wanted) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == wanted;
  };
  const auto is_glb = [&](const std::string& path) { return has_extension(path, ".glb"); };
  const bool acclaim = o.outputs.size() == 2;
  if (acclaim ? !(has_extension(o.outputs[0], ".asf") && has_extension(o.outputs[1], ".amc"))
              : !(is_bvh_path(o.outputs[0]) || is_glb(o.outputs[0]) || o.outputs[0] == "-")) {
    std::cerr << "mocap convert: -o takes one .bvh or .glb file (or - for BVH on standard output), or an .asf and "
                 "an .amc file\n";
    return kUsage;
  }
  if (acclaim && o.outputs[0] == o.outputs[1]) {
    std::cerr << "mocap convert: -o " << o.outputs[0] << " twice: expected an .asf and an .amc file\n";
    return kUsage;
  }
  const std::string& output = o.outputs[0];
  const double units = *parse_length_unit(o.bvh_units);               // checked by --bvh-units
  const BvhJointNames names = *parse_bvh_joint_names(o.joint_names);  // checked by --joint-names
  if (const int code = check_outputs("convert", {output, acclaim ? o.outputs[1] : ""}); code != kOk) return code;
  auto clip = load_capture("convert", o.inputs[0], o.inputs.size() > 1 ? o.inputs[1] : "", o.fps, o.bvh_units);
  if (!clip) return clip.error();
  if (auto renamed = rename_joints(clip->skeleton, names); !renamed) {
    std::cerr << "mocap convert: " << clip->amc_path << ": " << renamed.error().message << "\n";
    return kBadInput;
  }
  if (acclaim) {
    // ASF + AMC: both files or neither (io/atomic_write.h).
    auto converted = bvh_to_asf(clip->skeleton, clip->motion);
    if (!converted) {
      std::cerr << "mocap convert: " << clip->amc_path << ": " << converted.error().message << "\n";
      return kBadInput;
    }
    converted->asf.name = std::filesystem::path(clip->amc_path).stem().string();
    converted->asf.documentation = "converted from " + std::filesystem::path(clip->amc_path).filename().string() +
                                   " by mocap convert (io/bvh_to_asf.h)";
    std::vector<OutputFile> outputs{{o.outputs[0], format_asf(converted->asf)},
                                    {o.outputs[1], format_amc(converted->motion, converted->skeleton)}};
    return emit_all(std::move(outputs));
  }
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
  auto text = format_bvh(clip->skeleton, clip->motion, units);
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
      "convert", "Convert a clip between ASF + AMC, BVH and skeleton-only glTF, joints where they were");
  c->footer(
      "Writes a clip (ASF + AMC, or BVH) as BVH, as ASF + AMC (-o x.asf x.amc), or as a skeleton-only glTF (.glb: "
      "the BVH joints as nodes, the motion as an animation, no mesh): the same world joint positions on every frame.");
  c->add_option("inputs", o->inputs, "A .bvh file, or an ASF skeleton and an AMC motion")->required()->expected(1, 2);
  c->add_option("-o,--output", o->outputs,
                "Output .bvh (- for standard output), .glb (metres, Y up), or an .asf and an .amc")
      ->required()
      ->expected(1, 2);
  add_bvh_units_option(*c, o->bvh_units);
  c->add_option("--joint-names", o->joint_names,
                "Names of the joints written: source (as read), cmu (root, lfemur, ...) or motionbuilder (cgspeed's "
                "Hips, LeftUpLeg, ..., which retargeting tools look for)")
      ->check(CLI::IsMember({"source", "cmu", "motionbuilder", "mobu"}))
      ->default_val("source");
  add_fps_option(*c, o->fps);
  c->callback([o, &exit_code] { exit_code = run_convert(*o); });
}

}  // namespace mocap::cli
