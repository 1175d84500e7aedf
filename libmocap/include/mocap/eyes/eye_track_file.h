// An eye track as a file, as `mocap eyes -o track.csv` writes it: one row
// (CSV) or one JSON object (JSONL) per frame, the values under the names
// people read (x, y, openness, pupil; docs/eyes.md maps them to the wire
// keys of eye_stream.h). Numbers have six decimals, written with
// std::to_chars so that no locale changes them.
//   CSV:   time,left_x,left_y,left_openness,left_pupil,right_x,...,brow
//   JSONL: {"t":..,"left":{"x":..,"y":..,"openness":..,"pupil":..},"right":{..},"brow":..}
#pragma once

#include <mocap/core/error.h>
#include <mocap/eyes/eyes.h>

#include <span>
#include <string>
#include <string_view>

namespace mocap {

enum class EyeTrackFormat : std::uint8_t { kCsv, kJsonl };

// "csv" or "jsonl"; fails (no file) on any other name.
Result<EyeTrackFormat> parse_eye_track_format(std::string_view name);

// The whole file: a header line then one line per frame (CSV), or one line
// per frame (JSONL); every line ends in '\n'.
std::string format_eye_track(std::span<const EyeFrame> frames, EyeTrackFormat format);

}  // namespace mocap
