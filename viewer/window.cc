#include "window.h"

#include <epoxy/gl.h>
// GLFW after the GL loader, which it must not replace.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdio>

namespace mocap::viewer {
namespace {

void glfw_error(int code, const char* message) {
  std::fprintf(stderr, "mocap-viewer: GLFW error %d: %s\n", code, message);
}

// Files dropped on the window since the last take_dropped_files.
std::vector<std::string> g_dropped;
void on_drop(GLFWwindow*, int count, const char** paths) {
  for (int i = 0; i < count; ++i) g_dropped.emplace_back(paths[i]);
}

}  // namespace

GLFWwindow* open_window(int width, int height, bool visible, const char* title, int samples) {
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) return nullptr;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, samples);
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  GLFWwindow* window = glfwCreateWindow(width, height, title, nullptr, nullptr);
  if (!window) {
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  return window;
}

GLFWwindow* open_main_window(int width, int height, int samples) {
  GLFWwindow* window = open_window(width, height, true, "mocap-viewer", samples < 0 ? 4 : samples);
  if (window && samples < 0 && software_gl()) {
    // Multisampling a whole window costs llvmpipe about 4x the frame time.
    close_window(window);
    window = open_window(width, height, true, "mocap-viewer", 0);
  }
  return window;
}

bool software_gl() {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const std::string name = renderer ? renderer : "";
  return name.find("llvmpipe") != std::string::npos || name.find("softpipe") != std::string::npos;
}

void close_window(GLFWwindow* window) {
  glfwDestroyWindow(window);
  glfwTerminate();
}

void watch_drops(GLFWwindow* window) {
  glfwSetDropCallback(window, on_drop);
}

std::vector<std::string> take_dropped_files() {
  std::vector<std::string> dropped;
  dropped.swap(g_dropped);
  return dropped;
}

void start_imgui(GLFWwindow* window) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini beside wherever the viewer was started
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

void stop_imgui() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

}  // namespace mocap::viewer
