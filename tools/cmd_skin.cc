// mocap skin <asf> <amc> --mesh M.obj: deform a mesh with a capture, one OBJ per frame or one glTF;
// mocap skin --model rigged.glb: deform a rigged model with its own animation.
#include <mocap/io/bvh.h>
#include <mocap/io/mesh.h>
#include <mocap/io/skin_weights.h>
#include <mocap/rig/embed.h>
#include <mocap/rig/gltf.h>
#include <mocap/rig/mesh_bind.h>
#include <mocap/rig/rigged_model.h>
#include <mocap/skin/edge_stretch.h>
#include <mocap/skin/skin_frames.h>
#include <mocap/skin/skinner.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <optional>

#include "cli_util.h"

namespace mocap::cli {
namespace {

struct SkinOptions {
  std::string asf;
  std::string amc;
  MeshBindOptions bind;  // --mesh, --mesh-units, --group, --weights, --bind-pose, --bind-scale
  bool auto_weights = false;
  std::string weight_method = "voxel";  // with --auto-weights: voxel, heat or distance
  std::string fit = "embed";            // embed or height
  bool fit_report = false;
  bool stretch_report = false;
  std::string save_weights;
  std::vector<double> bind_offset;
  double bind_yaw_degrees = 0.0;
  std::string frames;
  std::string method = "lbs";
  int threads = 0;
  std::string output;
  std::string format;  // obj or glb; empty: from the extension of output
  double fps = 120.0;
  bool fps_given = false;
  std::string bvh_units = "cm";
  std::string model;
  std::string animation;
};

// Models have no capture rate of their own: their animations are sampled at this rate unless --fps says otherwise.
constexpr double kModelFps = 30.0;

// What --frames and -o ask for (skin_frames.h), or nullopt after saying on
// stderr what is wrong (a usage error).
struct OutputPlan : SkinOutputPlan {
  FrameRange range;
};

std::optional<OutputPlan> plan_output(const SkinOptions& options) {
  const auto range = frames_option("skin", options.frames);
  if (!range) return std::nullopt;
  const auto format = format_option("skin", options.output, options.format, {"obj", "glb"}, "");
  if (!format) return std::nullopt;
  auto plan = plan_skin_output(options.output, *format);
  if (!plan) {
    std::cerr << "mocap skin: -o " << plan.error().to_string() << "\n";
    return std::nullopt;
  }
  return OutputPlan{*plan, *range};
}

struct SkinnedFrames {
  int code = kOk;
  double skin_seconds = 0.0;
  int threads = 1;
};

// The frames skinned (skin_frames.h): written as OBJs unless the output is
// a GLB (written whole, elsewhere), and measured into `stretch` when given:
// a GLB's frames by linear blending, as the programs that load it blend.
// A mesh that cannot be skinned is reported with `what` (the input that is wrong).
SkinnedFrames skin_output_frames(const SkinOptions& options, const OutputPlan& plan, const Mesh& mesh,
                                 std::span<const VertexWeights> weights, std::size_t bone_count,
                                 std::span<const int> frames, std::span<const int> numbers, double metres_per_unit,
                                 const std::string& what, const PoseFrame& pose, EdgeStretch* stretch) {
  const SkinMethod method = plan.glb ? SkinMethod::kLinear : *parse_skin_method(options.method);
  auto skinner = Skinner::create(mesh, weights, bone_count, method, options.threads);
  if (!skinner) {
    std::cerr << "mocap skin: " << what << skinner.error().message << "\n";
    return {kBadInput};
  }
  const WriteFrame write_obj = plan.glb ? WriteFrame{} : obj_frame_writer(mesh, plan.pattern, numbers, metres_per_unit);
  const auto skinned = skin_frames(*skinner, frames, pose, [&](int f, const Skinner& posed) -> Result<void> {
    if (stretch) add_stretch_frame(*stretch, numbers[f], posed.positions());
    return write_obj ? write_obj(f, posed) : Result<void>{};
  });
  if (!skinned) {
    std::cerr << "mocap: " << skinned.error().to_string() << "\n";
    return {kOutputError};
  }
  return {kOk, skinned->skin_seconds, skinner->thread_count()};
}

int run_model(const SkinOptions& options);

int run_skin(const SkinOptions& options) {
  if (!options.model.empty()) return run_model(options);
  if (options.asf.empty() || (options.amc.empty() && !is_bvh_path(options.asf)) || options.bind.mesh_path.empty()) {
    std::cerr << "mocap skin: expected <asf> <amc> --mesh M.obj, <bvh> --mesh M.obj, or --model RIGGED\n";
    return kUsage;
  }
  if (!options.animation.empty()) {
    std::cerr << "mocap skin: --animation goes with --model\n";
    return kUsage;
  }
  const auto plan = plan_output(options);
  if (!plan) return kUsage;
  if (const int code = check_outputs("skin", {plan->first_path(options.output), options.save_weights}); code != kOk) {
    return code;
  }
  if (plan->glb && options.method == "dqs") {
    std::cerr << "mocap skin: warning: --method dqs has no effect on a .glb: glTF skins are blended linearly by "
                 "the programs that load them\n";
  }
  if (options.bind.weights_path.empty() == !options.auto_weights) {
    std::cerr << "mocap skin: give exactly one of --weights FILE and --auto-weights\n";
    return kUsage;
  }
  MeshBindOptions bind_options = options.bind;
  bind_options.bind_pose_fps = options.fps;
  bind_options.yaw_radians = options.bind_yaw_degrees * 3.14159265358979323846 / 180.0;
  if (!options.bind_offset.empty()) {
    bind_options.translation = Eigen::Vector3d(options.bind_offset[0], options.bind_offset[1], options.bind_offset[2]);
  }
  bind_options.fit = *parse_bind_fit(options.fit);  // names checked by CLI11
  bind_options.weight_method = *parse_weight_method(options.weight_method);
  if (auto valid = bind_options.validate(); !valid) {
    std::cerr << "mocap skin: " << valid.error().message << "\n";
    return kUsage;
  }

  auto clip = load_capture("skin", options.asf, options.amc, options.fps, options.bvh_units);
  if (!clip) return clip.error();
  const Skeleton& skeleton = clip->skeleton;
  const Motion& motion = clip->motion;
  const auto bound = bind_mesh(skeleton, bind_options);
  if (!bound) return failed("mocap: ", bound.error(), kBadInput);
  if (!bound->units_note.empty()) std::cerr << "mocap skin: warning: " << bound->units_note << " (--mesh-units)\n";
  std::printf("mesh: %s\n", bound->orientation.c_str());  // what was found, a result beside the others
  if (!bound->fit_note.empty()) std::cerr << "mocap skin: warning: embedding: " << bound->fit_note << "\n";
  if (!bound->weights_note.empty()) std::cerr << "mocap skin: warning: " << bound->weights_note << "\n";
  if (options.fit_report) {
    const FitReport report =
        fit_report(skeleton, bound->bind_pose, bound->bind, bound->mesh.positions, bound->mesh.triangles);
    std::fputs(format_fit_report(skeleton, bound->bind, report).c_str(), stdout);
  }
  if (bound->automatic_weights && !options.save_weights.empty()) {
    if (auto saved = write_skin_weights(options.save_weights, bound->weights, clip->bone_names); !saved)
      return failed("mocap: ", saved.error(), kOutputError);
  }
  const double scale = bound->bind.placement.scale;

  const std::vector<int> frames = select_frames(plan->range, motion.frame_numbers);
  if (frames.empty()) {
    std::cerr << "mocap skin: no frame of " << clip->amc_path << " in --frames " << options.frames << "\n";
    return kUsage;
  }
  if (plan->glb) {
    const std::string name = std::filesystem::path(clip->amc_path).stem().string();
    const GltfDocument document =
        gltf_from_clip(skeleton, motion, bound->bind_pose, bound->bind, bound->mesh, bound->weights, frames, name);
    if (auto saved = write_glb(options.output, document); !saved) return failed("mocap: ", saved.error(), kOutputError);
    std::printf("wrote %s: %d vertices, %zu joints, %zu frames at %g fps; scale %.4f\n", options.output.c_str(),
                bound->mesh.vertex_count(), skeleton.bones.size(), frames.size(), motion.fps / plan->range.step, scale);
    if (!options.stretch_report) return kOk;
  }

  std::optional<EdgeStretch> stretch;
  if (options.stretch_report) stretch = make_edge_stretch(bound->mesh);
  const auto skinned =
      skin_output_frames(options, *plan, bound->mesh, bound->weights, skeleton.bones.size(), frames,
                         motion.frame_numbers, *metres_per_mesh_unit(options.bind.units), "",
                         pose_from_motion(skeleton, motion, bound->bind), stretch ? &*stretch : nullptr);
  if (skinned.code != kOk) return skinned.code;
  const std::size_t n = bound->mesh.positions.size();
  const int written = static_cast<int>(frames.size());
  const double skin_seconds = skinned.skin_seconds;
  if (!plan->glb) {
    std::printf("skinned %zu vertices x %d frames (%s, %d threads): %.3f ms per frame, %.1f M vertices/s; scale %.4f\n",
                n, written, options.method.c_str(), skinned.threads, 1e3 * skin_seconds / written,
                skin_seconds > 0.0 ? 1e-6 * static_cast<double>(n) * written / skin_seconds : 0.0, scale);
  }
  if (stretch)
    std::printf("%s\n", format_edge_stretch(*stretch, bound->mesh, bound->weights, clip->bone_names).c_str());
  return kOk;
}

// A rigged model skinned by its own animation, sampled at --fps (default kModelFps): frame k is at k / fps s.
int run_model(const SkinOptions& options) {
  const MeshBindOptions& bind = options.bind;
  if (!options.asf.empty() || !bind.mesh_path.empty() || !bind.weights_path.empty() || options.auto_weights ||
      !bind.bind_pose_amc.empty()) {
    std::cerr << "mocap skin: --model takes no ASF, AMC, --mesh, weights or --bind-pose: the model has its own\n";
    return kUsage;
  }
  const auto plan = plan_output(options);
  if (!plan) return kUsage;
  if (const int code = check_outputs("skin", {plan->first_path(options.output), options.save_weights}); code != kOk) {
    return code;
  }
  const double fps = options.fps_given ? options.fps : kModelFps;
  auto model = read_rigged_model(options.model);
  if (!model) return failed("mocap: ", model.error(), kBadInput);
  const auto animation = find_animation(*model, options.animation);
  if (!animation) {
    std::cerr << "mocap: " << animation.error().to_string() << "\n";
    return options.animation.empty() ? kBadInput : kUsage;
  }
  const ModelAnimation& clip = **animation;
  std::vector<int> numbers(static_cast<std::size_t>(animation_frame_count(clip, fps)));
  const int last = static_cast<int>(numbers.size()) - 1;
  std::iota(numbers.begin(), numbers.end(), 0);
  const std::vector<int> frames = select_frames(plan->range, numbers);  // frame k is numbered k
  if (frames.empty()) {
    std::cerr << "mocap skin: no frame of animation `" << clip.name << "` (0:" << last << " at " << fps
              << " fps) in --frames " << options.frames << "\n";
    return kUsage;
  }

  if (plan->glb) {
    std::vector<float> times;
    for (const int k : frames) times.push_back(static_cast<float>(k / fps));
    const GltfDocument document = gltf_from_model(*model, clip, times);
    if (auto saved = write_glb(options.output, document); !saved) return failed("mocap: ", saved.error(), kOutputError);
    std::printf("wrote %s: %d vertices, %d joints, %zu frames of `%s` at %g fps\n", options.output.c_str(),
                model->mesh.vertex_count(), model->joint_count(), frames.size(), clip.name.c_str(),
                fps / plan->range.step);
    if (!options.stretch_report) return kOk;
  }

  std::optional<EdgeStretch> stretch;
  if (options.stretch_report) stretch = make_edge_stretch(model->mesh);
  const auto skinned =
      skin_output_frames(options, *plan, model->mesh, model->weights, model->joints.size(), frames, numbers, 1.0,
                         options.model + ": ", pose_from_animation(*model, clip, fps), stretch ? &*stretch : nullptr);
  if (skinned.code != kOk) return skinned.code;
  const std::size_t n = model->mesh.positions.size();
  const double skin_seconds = skinned.skin_seconds;
  if (!plan->glb) {
    std::printf("skinned %zu vertices x %zu frames of `%s` (%s, %d joints, %d threads): %.3f ms per frame\n", n,
                frames.size(), clip.name.c_str(), options.method.c_str(), model->joint_count(), skinned.threads,
                1e3 * skin_seconds / static_cast<double>(frames.size()));
  }
  if (stretch) {  // the model's lengths are its file's (Assimp scales none)
    std::printf(
        "%s\n",
        format_edge_stretch(*stretch, model->mesh, model->weights, model->joint_names(), "model units").c_str());
  }
  return kOk;
}

}  // namespace

void add_skin_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<SkinOptions>();
  CLI::App* command = app.add_subcommand(
      "skin", "Deform a mesh with a capture, or a rigged model with its animation: OBJ frames or a GLB");
  command->add_option("asf", options->asf, "ASF skeleton, or a .bvh motion alone (not with --model)");
  command->add_option("amc", options->amc, "AMC motion (not with --model or a .bvh)");
  command->add_option("--mesh", options->bind.mesh_path, "OBJ mesh, any up axis and facing (found, or --up/--forward)");
  command->add_option("--up", options->bind.up,
                      "The mesh's up axis, +x -x +y -y +z -z (default: found from its shape)");
  command->add_option("--forward", options->bind.forward,
                      "The way the mesh faces, +x ... -z (default: found from its shape)");
  command->add_option("--model", options->model,
                      "Rigged model (glTF/GLB, COLLADA, FBX: anything Assimp reads) skinned by its own animation, "
                      "sampled at --fps (default 30); frame k is at k / fps seconds");
  command->add_option("--animation", options->animation, "With --model: the animation's name (default: the first)");
  command->add_option("--mesh-units", options->bind.units, "Unit of the OBJ's numbers; output OBJs use the same")
      ->check(CLI::IsMember(mesh_unit_names()))
      ->default_val("m");
  command->add_option("--group", options->bind.groups, "Keep only these OBJ groups (repeatable), e.g. --group body");
  command->add_option("--weights", options->bind.weights_path,
                      "Skin weights file (format: libmocap/include/mocap/skin_weights.h)");
  command->add_flag("--auto-weights", options->auto_weights, "Compute weights from the bound skeleton");
  command
      ->add_option("--weight-method", options->weight_method,
                   "With --auto-weights: voxel (geodesic voxel binding: any mesh, of many parts, shells, holes), "
                   "heat (bone heat over the surface, with visibility) or distance")
      ->check(CLI::IsMember({"voxel", "heat", "distance"}));
  command
      ->add_option("--fit", options->fit,
                   "embed (limbs fitted into the mesh, bone lengths following it) or height (one scale from the "
                   "mesh's height); an explicit --bind-scale/--bind-offset fits nothing")
      ->check(CLI::IsMember({"embed", "height"}));
  command->add_flag("--fit-report", options->fit_report,
                    "Print every joint's signed distance to the bind-pose mesh (cm, < 0 inside)");
  command->add_flag("--stretch-report", options->stretch_report,
                    "Measure every skinned frame's edges against their rest lengths (OBJ frames, or a GLB's frames "
                    "skinned to measure) and print the longest, named (vertices, bones, frame), and how many pass 3x");
  command->add_option("--save-weights", options->save_weights, "With --auto-weights: write the weights to this file");
  command->add_option("--bind-pose", options->bind.bind_pose_amc,
                      "AMC whose first frame poses the skeleton as the mesh stands (default: the ASF rest pose)");
  command->add_option("--bind-scale", options->bind.scale,
                      "Explicit placement: skeleton scale (replaces the fit to the mesh's height)");
  command->add_option("--bind-offset", options->bind_offset, "Explicit placement: X,Y,Z in metres")
      ->delimiter(',')
      ->expected(3);
  command->add_option("--bind-yaw", options->bind_yaw_degrees, "Turn the skeleton about +Y, degrees, before placing");
  add_frames_option(*command, options->frames);
  command->add_option("--method", options->method, "lbs (linear blend) or dqs (dual quaternion)")
      ->check(CLI::IsMember({"lbs", "dqs"}));
  command->add_option("--threads", options->threads, "Threads for skinning (0: all cores)")->check(kNonNegative);
  command
      ->add_option("-o,--output", options->output,
                   "Output OBJ per frame, with %d for the frame number, or one .glb (glTF 2.0: mesh, skin, animation)")
      ->required();
  command->add_option("--format", options->format, "obj or glb (default: from the extension of -o)");
  add_fps_option(*command, options->fps);
  add_bvh_units_option(*command, options->bvh_units);
  command->callback([options, command, &exit_code] {
    options->fps_given = command->count("--fps") > 0;
    exit_code = run_skin(*options);
  });
}

}  // namespace mocap::cli
