#include "options.h"

#include <mocap/io/mesh.h>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

namespace mocap::viewer {

std::optional<int> parse_options(int argc, char** argv, Options& options) {
  CLI::App app{"mocap-viewer: play an Acclaim ASF/AMC capture (no files: the bundled clip)", "mocap-viewer"};
  app.option_defaults()->always_capture_default();  // --help shows every default
  app.add_option("files", options.files, "subject.asf motion.amc (or clip.bvh) [mesh.obj [weights.txt]]")
      ->expected(0, 4);
  app.add_option("--compare", options.compare,
                 "another motion beside the main clip, repeatable: an AMC of its skeleton, a BVH, or another "
                 "skeleton as --compare other.asf other.amc (put --compare after the files)")
      ->expected(1, 2)
      ->check(CLI::ExistingFile);
  app.add_option("--model", options.model.path,
                 "retarget the clip onto this rigged character (.glb, .gltf, .dae, .fbx), drawn beside it, as mocap "
                 "retarget does")
      ->check(CLI::ExistingFile);
  app.add_option("--map", options.model.map,
                 "with --model: JSON {\"model bone\": \"capture bone\", ...} overriding the bone map found by names "
                 "and topology")
      ->check(CLI::ExistingFile);
  app.add_option("--bvh-units", options.bvh_units,
                 "length unit of BVH files: m, cm, mm, in, ft, or metres per unit (CMU's cgspeed BVH: 0.0564444)")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            return mocap::parse_length_unit(value) ? ""
                                                   : "expected m, cm, mm, in, ft or a positive number of metres, "
                                                     "found '" +
                                                         value + "'";
          },
          "UNIT"));
  app.add_option("--record", options.record,
                 "write a movie of frames --frame to --last (default: the whole clip) through ffmpeg, e.g. out.mp4 "
                 "(headless)");
  app.add_option("--record-fps", options.record_fps, "the movie's frame rate (default: the clip's)")
      ->check(CLI::Range(0.1, 1000.0));
  app.add_option("--azimuth", options.camera.azimuth_deg,
                 "camera direction about the vertical, degrees: 0 faces a CMU rest pose, 90 from its left "
                 "(default 31.5)")
      ->check(CLI::Range(-3600.0, 3600.0));
  app.add_option("--elevation", options.camera.elevation_deg, "camera height angle, degrees (default 10.3)")
      ->check(CLI::Range(-89.0, 89.0));
  app.add_option("--distance", options.camera.distance_m, "camera distance to its target, metres (default: framed)")
      ->check(CLI::Range(0.05, 400.0));
  app.add_option("--target", options.camera.target,
                 "what the camera looks at: a bone to follow (e.g. head) or x,y,z in metres (default: the figure, "
                 "following the root over the ground)");
  app.add_option("--fov", options.camera.fov_deg, "vertical field of view, degrees (default 45)")
      ->check(CLI::Range(5.0, 150.0));
  app.add_option("--turntable", options.camera.turntable_deg_per_s,
                 "turn the camera about the target, degrees per second of clip time (e.g. 30)");
  app.add_option("--frame", options.frame,
                 "frame to show, or to render with --screenshot: the file's frame number (default: the first)");
  app.add_option("--screenshot", options.screenshot,
                 "render one frame to this PNG and exit (headless); with --last, a prefix: PREFIX00012.png ...");
  app.add_option("--last", options.last_frame,
                 "with --screenshot: render a PNG sequence of frames --frame to --last (file frame numbers, "
                 "inclusive), named PREFIX + 5-digit frame number + .png");
  app.add_option("--step", options.frame_step, "with --last: every n-th frame")->check(CLI::PositiveNumber);
  app.add_option("--size", options.size, "picture or window size, WxH")->capture_default_str();
  auto* keys = app.add_option("--keys", options.key_count,
                              "this many keyframes from the start, as mocap compress --keys (ghost, error colours, "
                              "timeline)")
                   ->check(CLI::Range(2, 1 << 30));
  app.add_option("--threshold", options.keys_threshold,
                 "keyframes by this distance threshold from the start, as mocap compress --threshold")
      ->check(CLI::NonNegativeNumber)
      ->excludes(keys);
  app.add_option("--mesh-units", options.mesh_units, "unit of the OBJ's numbers (dm: MakeHuman)")
      ->check(CLI::IsMember(mocap::mesh_unit_names()));
  app.add_option("--groups", options.groups, "OBJ groups to keep, e.g. body (separated by spaces)");
  app.add_option("--bind-pose", options.bind_pose,
                 "AMC whose first frame poses the skeleton as the mesh stands (default: rest pose)");
  app.add_flag("--eyes", options.eyes, "generate and show the eyes from the start");
  app.add_flag("--no-contacts", options.no_contacts,
               "do not mark the clip's foot contacts on the timeline (left foot magenta, right yellow)");
  app.add_option("--stretch", options.stretch,
                 "draw the skinned mesh's edges stretched past this many times their rest length, in pink, e.g. 3")
      ->check(CLI::Range(1.0, 1000.0));
  app.add_flag("--xray", options.xray,
               "draw the skeleton over the skinned mesh, as fitted into it (bone lengths of the mesh)");
  app.add_flag("--stats", options.stats, "print the frame time every two seconds (vsync off)");
  app.add_option("--samples", options.samples,
                 "multisampling of the window: 0, 2, 4 (default: 4, or 0 under software OpenGL)");
  app.add_option("--quit-after", options.quit_after_s, "close the window after this many seconds");
  app.add_option("--window-screenshot", options.window_screenshot,
                 "save the whole window, panels included, as a PNG on closing (by --quit-after or by hand)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // CLI11's own errors in the shape of the viewer's (and mocap's): one line, exit 1.
    std::cerr << "mocap-viewer: " << e.what() << " (mocap-viewer --help for the options)\n";
    return kUsage;
  }
  if (options.files.size() == 1 && !options.main_is_bvh()) {
    std::cerr << "mocap-viewer: " << options.files[0]
              << ": an ASF needs its AMC (mocap-viewer subject.asf motion.amc, or a BVH alone)\n";
    return kUsage;
  }
  if (!options.model.map.empty() && options.model.path.empty()) {
    std::cerr << "mocap-viewer: --map " << options.model.map << ": a bone map is for --model, which is not given\n";
    return kUsage;
  }
  if (!options.screenshot.empty() && !options.record.empty()) {
    std::cerr << "mocap-viewer: --screenshot and --record: one output at a time\n";
    return kUsage;
  }
  return std::nullopt;
}

bool parse_size(const std::string& text, int& width, int& height) {
  int w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X')) return false;
  if (w < 16 || h < 16 || w > 8192 || h > 8192) return false;
  width = w, height = h;
  return true;
}

}  // namespace mocap::viewer
