// mocap-viewer: an ImGui + GLFW player for Acclaim ASF/AMC captures.
//
//   mocap-viewer [subject.asf motion.amc | clip.bvh] [mesh.obj [weights.txt]] [--compare other.amc ...]
//   mocap-viewer [subject.asf motion.amc | clip.bvh] --model character.glb [--map F.json]
//   mocap-viewer [files] --frame N --screenshot out.png [--size WxH]   (headless)
//   mocap-viewer [files] --frame A --last B [--step S] --screenshot prefix_   (a PNG per frame)
//   mocap-viewer [files] --frame A --last B --record out.mp4 [--record-fps R]   (a movie, through ffmpeg)
// Camera flags (--azimuth, --elevation, --distance, --target, --fov,
// --turntable) set the headless camera; --compare adds motions beside the
// main clip (an AMC of its skeleton, a BVH, or another skeleton's ASF + AMC);
// --model retargets the clip onto a rigged character drawn beside it.
// Frames are the file's frame numbers (the AMC's, 1-based in CMU files), as
// in the CLI, in flags, the HUD, the timeline and the PNG names.
//
// One plain loop, as in Dear ImGui's GLFW + OpenGL3 example: the flags
// (options.h), then either the headless run (headless.h) or the window,
// opened with Dear ImGui on it (window.h), then poll, App::frame (app.h:
// input and panels, pose, draw the scene, draw the panels), swap, and shut
// down in reverse. Animation is the library's (clip.h); the state that the
// command line starts with is startup.h's, the scene scene.h's.
//
// Exit codes: 0 success, 1 usage, 2 bad input, 3 no window or OpenGL, 4 output.
#include "app.h"
#include "headless.h"
#include "options.h"
#include "render.h"
#include "window.h"

#include <mocap/io/atomic_write.h>
#include <mocap/io/image.h>

#include <epoxy/gl.h>
// GLFW after the GL loader, which it must not replace.
#include <GLFW/glfw3.h>

#include <cstdio>
#include <iostream>
#include <optional>

namespace mocap::viewer {
namespace {

int run_window(const Options& options) {
  int width = 1280, height = 720;
  if (!parse_size(options.size, width, height)) {
    std::cerr << "mocap-viewer: --size " << options.size << ": expected WxH, e.g. 1280x720\n";
    return kUsage;
  }
  if (!options.window_screenshot.empty()) {
    if (auto ok = check_output_path(options.window_screenshot); !ok) {
      std::cerr << "mocap-viewer: --window-screenshot " << ok.error().to_string() << "\n";
      return kOutput;
    }
  }
  GLFWwindow* window = open_main_window(width, height, options.samples);
  if (!window) {
    std::cerr << "mocap-viewer: cannot open an OpenGL 3.3 window\n";
    return kNoGl;
  }
  glfwSwapInterval(options.stats ? 0 : 1);  // --stats measures what the machine can do
  watch_drops(window);
  start_imgui(window);

  int code = kOk;
  {
    App app(window);
    if (auto e = app.init()) {
      std::cerr << "mocap-viewer: " << *e << "\n";
      code = kNoGl;
    } else {
      app.start(options);
      FrameStats stats;
      const double start = glfwGetTime();
      double last = start;
      stats.window_start = start;
      int stats_frames = 0, drawn = 0;
      for (;;) {
        glfwPollEvents();
        // Closed by the user or by --quit-after: one more frame is drawn, so
        // that --window-screenshot saves what the window showed.
        const double now = glfwGetTime();
        // At least three frames first: an auto-sized window (the legend)
        // shows from its second, and a slow (sanitized) start must not skip it.
        const bool quit = glfwWindowShouldClose(window) ||
                          (options.quit_after_s > 0.0 && now - start >= options.quit_after_s && drawn >= 3);
        app.take_drops();
        const double dt = now - last;
        last = now;
        app.frame(dt);
        ++drawn;
        if (quit && !options.window_screenshot.empty()) {
          int w = 0, h = 0;
          glfwGetFramebufferSize(window, &w, &h);
          if (auto ok = write_png(options.window_screenshot, w, h, read_window_rgb(w, h)); !ok) {
            std::cerr << "mocap-viewer: " << ok.error().to_string() << "\n";
            code = kOutput;
          }
        }
        glfwSwapBuffers(window);
        if (options.stats) stats.add(now, dt), ++stats_frames;
        if (quit) break;
      }
      if (options.stats) {
        const double seconds = glfwGetTime() - start;
        std::printf("mocap-viewer: %d frames in %.2f s: %.1f fps overall\n", stats_frames, seconds,
                    stats_frames / seconds);
      }
    }
  }
  stop_imgui();
  close_window(window);
  return code;
}

}  // namespace
}  // namespace mocap::viewer

int main(int argc, char** argv) {
  using namespace mocap::viewer;
  Options options;
  if (const std::optional<int> code = parse_options(argc, argv, options)) return *code;
  return options.screenshot.empty() && options.record.empty() ? run_window(options) : run_headless(options);
}
