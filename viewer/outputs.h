// What the viewer writes besides the window: PNG names of a sequence, one
// picture rendered offscreen, and which clip frame each frame of a movie
// shows. The headless run and the Export panel write through the same calls.
#pragma once

#include "panels.h"
#include "posed_capture.h"
#include "render.h"
#include "scene.h"

#include <optional>
#include <string>

namespace mocap::viewer {

// PREFIX + the file's frame number `number`, 5 digits + ".png".
std::string frame_file(const std::string& prefix, int number);

// Renders `clip` into `offscreen` at its size and writes the PNG. The folder
// must exist, as the CLI's outputs (io/atomic_write.h check_output_path).
std::optional<std::string> save_png(Renderer& renderer, Offscreen& offscreen, const PosedCapture* clip,
                                    const ViewState& view, const std::string& path, const SceneExtras& extras = {});

// One output frame of a movie of frames [first, last] at `movie_fps`: the
// clip frame shown `i` frames in (frame f covers [f / fps, (f + 1) / fps)).
int movie_frame(int first, int i, double clip_fps, double movie_fps);
// How many output frames cover frames [first, last].
int movie_length(int first, int last, double clip_fps, double movie_fps);

}  // namespace mocap::viewer
