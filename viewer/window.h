// The window and its OpenGL and Dear ImGui setup, as Dear ImGui's
// example_glfw_opengl3 does it: GLFW with an OpenGL 3.3 core context (GL
// through libepoxy), then Dear ImGui's GLFW and OpenGL3 backends on it. Also
// the files dropped on the window and the --stats frame-time report. The
// headless run opens a hidden window for its context and renders offscreen.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

struct GLFWwindow;

namespace mocap::viewer {

// A window of `width` x `height` with a current OpenGL 3.3 core context and
// `samples`-fold multisampling (0: none), shown if `visible`; nullptr when
// there is none (GLFW's error on stderr).
GLFWwindow* open_window(int width, int height, bool visible, const char* title, int samples = 0);

// The viewer's visible window: `samples` as --samples asks (-1: 4, or 0
// under software OpenGL, where multisampling the whole window costs about 4x
// the frame time); nullptr when there is none.
GLFWwindow* open_main_window(int width, int height, int samples);

// True under Mesa's software rasterisers (llvmpipe, softpipe), e.g. in Xvfb.
bool software_gl();

// Destroys `window` and ends GLFW.
void close_window(GLFWwindow* window);

// Collects the files dropped on `window`, for take_dropped_files.
void watch_drops(GLFWwindow* window);
// The files dropped since the last call.
std::vector<std::string> take_dropped_files();

// Dear ImGui on `window`: its context (no imgui.ini), the dark style, the
// GLFW backend (with its input callbacks) and the OpenGL3 backend.
void start_imgui(GLFWwindow* window);
// Shuts the backends down and destroys the context.
void stop_imgui();

// Per-second frame-time report for --stats.
struct FrameStats {
  double window_start = 0.0;
  double sum_s = 0.0, max_s = 0.0;
  int frames = 0;
  void add(double now, double frame_s) {
    sum_s += frame_s, max_s = std::max(max_s, frame_s), ++frames;
    if (now - window_start < 2.0) return;
    std::printf("mocap-viewer: %d frames, frame time mean %.2f ms (%.0f fps), max %.2f ms\n", frames,
                1e3 * sum_s / frames, frames / sum_s, 1e3 * max_s);
    std::fflush(stdout);
    window_start = now, sum_s = max_s = 0.0, frames = 0;
  }
};

}  // namespace mocap::viewer
