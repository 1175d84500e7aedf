// What the two eye displays show: each eye's sample drawn as the displays'
// firmware draws a line of the serial protocol (eye_stream.h), on the round
// panel the hardware has, so a track can be looked at instead of read.
//
// One display (EyeDisplayGeometry, pixels of its square screen, y down):
//   panel   the lit disc of radius `effective_radius_px` around the screen's
//           centre; nothing outside it is shown (the panel is round).
//   iris    a disc of `iris_radius_px` whose centre sits at
//           centre + map_radius_px * (-x, -y): gaze (x, y) in the unit disc
//           maps onto the disc of `map_radius_px`. The screen faces the
//           viewer, so the character's right (x > 0) is the viewer's left and
//           up (y > 0) is up.
//   pupil   a disc at the iris centre, its radius from `pupil_min_radius_px`
//           (pupil 0) to `pupil_max_radius_px` (pupil 1), linearly.
//   lids    an upper and a lower lid closing with the lid opening `l`
//           (EyeSample::openness): at 1 both are out of the panel, at 0
//           they meet on a line `lid_meet` * effective radius below the
//           centre. Their edges curve by the opening, so a closed eye is a
//           straight seam.
// Values outside their ranges are clamped as the stream clamps them.
//
// The pair (draw_eye_pair): both screens side by side on a dark ground as a
// person facing the character sees them: its right eye's display on the
// left. Pictures are RGB, 3 bytes a pixel, rows top first.
//
// The defaults are a 240 x 240 round panel (GC9A01 class, lit to its edge:
// effective radius 120 px) with an iris of radius 60 px and a map radius
// of 60 px, so that at gaze 1 the iris touches the panel's edge: the furthest
// the hardware can show it. A firmware with other numbers sets them here.
#pragma once

#include <mocap/core/error.h>
#include <mocap/eyes/eyes.h>

#include <cstdint>
#include <span>

namespace mocap {

struct EyeDisplayGeometry {
  int screen_px = 240;                 // square screen's side, pixels, [16, 4096]
  double effective_radius_px = 120.0;  // lit disc, (0, screen_px / 2]
  double map_radius_px = 60.0;         // iris centre's offset at gaze 1, [0, effective radius]
  double iris_radius_px = 60.0;        // (0, effective radius]
  double pupil_min_radius_px = 14.0;   // at pupil 0, (0, pupil max]
  double pupil_max_radius_px = 38.0;   // at pupil 1, [pupil min, iris radius]
  double lid_meet = 0.15;              // closed lids' seam below the centre, of the effective radius, [-0.5, 0.5]

  // Fails (no file) naming the first field outside its range.
  Result<void> validate() const;
};

// Draws one display into `rgb` (rows of `stride_px` pixels) with the
// screen's top-left corner at (left, top); the screen must lie inside the
// picture (it is clipped otherwise). Allocates nothing.
void draw_eye_display(const EyeDisplayGeometry& geometry, const EyeSample& eye, std::span<std::uint8_t> rgb,
                      int stride_px, int left, int top);

// The pair's picture: a margin of screen_px / 20 around and a gap of
// screen_px / 10 between the screens, rounded up to even sizes (a movie's
// 4:2:0 needs them). 528 x 264 for the defaults.
struct EyePairSize {
  int width = 0;
  int height = 0;
};
EyePairSize eye_pair_size(const EyeDisplayGeometry& geometry);

// Draws both displays of `frame` into `rgb`, which holds at least
// eye_pair_size(geometry) pixels (3 bytes each; a smaller span is left as it
// is). Allocates nothing.
void draw_eye_pair(const EyeDisplayGeometry& geometry, const EyeFrame& frame, std::span<std::uint8_t> rgb);

}  // namespace mocap
