// The compare panel (the motions beside the main clip: add, show, colour,
// offset, remove, and the error against the main clip) and the legend, a
// small window naming what each colour is and the scales of the error.
#pragma once

#include "compare.h"
#include "panels.h"

#include <imgui.h>

#include <string>
#include <vector>

namespace mocap::viewer {

// Paths typed into the panel to add a motion: an AMC of the main skeleton, a
// BVH, or another skeleton's ASF (second) and AMC.
struct CompareForm {
  std::string motion;
  std::string asf;  // empty: the main clip's
};

// What the panel asks of the main loop.
struct CompareRequest {
  bool add = false;       // load form.motion (+ form.asf) and add it
  int remove = -1;        // motion to drop
  bool relayout = false;  // offsets by the layout again
};

CompareRequest compare_panel(CompareForm& form, CompareState& state, const PosedCapture* main);

// The motion whose error the timeline and the joints show: the first with
// one, or -1.
int error_motion(const CompareState& state);

// The timeline's marks for that motion's error (the statistic named), empty
// when there is none.
TimelineMarks compare_marks(const CompareState& state);

// Adds the main clip's foot contacts to `marks` when they are shown and the
// clip has feet.
void add_contact_marks(const CompareState& state, TimelineMarks& marks);

// What the legend lists besides the motions.
struct LegendExtras {
  bool ghost = false;                    // the keyframe rebuild drawn thin and blue
  float key_red_at_cm = 0.0f;            // > 0: joints coloured by the keyframe error, red at this
  const TimelineMarks* marks = nullptr;  // the graph on the timeline, if any
};

// The legend at the top right of the free part of the window; returns its
// size (0 when there is none, or it has no size yet).
ImVec2 legend_window(const CompareState& state, const PosedCapture* main, const LegendExtras& extras, float right_edge);

}  // namespace mocap::viewer
