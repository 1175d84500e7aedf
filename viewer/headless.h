// The headless run: --screenshot (one PNG, or with --last a PNG per frame)
// and --record (a movie through ffmpeg). Every input and output is checked
// before a hidden window opens for its OpenGL context; each frame is posed,
// drawn offscreen by draw_scene with the camera the flags ask for
// (camera_flags.h, following the root over the ground by default) and
// written.
#pragma once

#include "options.h"

namespace mocap::viewer {

// Renders what `options` asks for; an ExitCode (a bad input or output is one
// line on stderr and nothing written).
int run_headless(const Options& options);

}  // namespace mocap::viewer
