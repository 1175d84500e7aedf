// What the command line asks the viewer to start with, loaded: the clip (or
// the bundled one), the motions to compare beside it, the mesh to skin and
// the keyframes to select. The headless run and the window start from the
// same calls, so that a picture and the window show the same scene.
#pragma once

#include "compare.h"
#include "keyframes_panel.h"
#include "options.h"
#include "posed_capture.h"
#include "skin_panel.h"

#include <optional>
#include <string>

namespace mocap::viewer {

// The clip the files on the command line name, or the bundled one.
Result<PosedCapture> load_initial(const Options& options);

// The --compare motions, added beside `main`; the error names the file.
std::optional<std::string> load_compare(CompareState& state, const Options& options, const PosedCapture& main);

// The mesh the command line names, if any (after the clip's files).
std::optional<SkinForm> skin_form(const Options& options);

// Turns on the keyframe panel in the selection the command line asked for;
// false when it asked for none.
bool start_keyframes(KeyframeState& keyframes, const Options& options);

}  // namespace mocap::viewer
