// Which frames of a clip a command works on, in the file's frame numbers
// (the AMC's own numbers, 1-based in CMU files), as every front end writes
// it: "a:b[:step]".
//
//   "10:20"     frames 10 to 20, inclusive
//   "10:20:5"   10, 15, 20: every step-th frame of the range, from its first
//   "10:" ":20" open at one end; ""  every frame
//   "::2"       every other frame of the clip
#pragma once

#include <mocap/core/error.h>

#include <limits>
#include <span>
#include <string_view>
#include <vector>

namespace mocap {

struct FrameRange {
  int first = std::numeric_limits<int>::min();  // frame number, inclusive
  int last = std::numeric_limits<int>::max();   // frame number, inclusive, >= first
  int step = 1;                                 // >= 1: every step-th frame of the range counts

  bool contains(int frame) const { return frame >= first && frame <= last; }
};

// `text` as above. The error (no file) quotes the text and the syntax.
Result<FrameRange> parse_frame_range(std::string_view text);

// Indices into `numbers` (a clip's frame numbers, increasing) that `range`
// selects: the frames within it, then every range.step-th of those from the
// first. Empty when none is.
std::vector<int> select_frames(const FrameRange& range, std::span<const int> numbers);

}  // namespace mocap
