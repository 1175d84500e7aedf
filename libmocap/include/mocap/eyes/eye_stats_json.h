// The JSON summaries `mocap eyes --stats` prints on stderr, one object on
// one line, keys in this order:
//   generator  seconds, blinks_per_minute, partial_blinks, evoked_blinks,
//              mean_closing_ms, mean_opening_ms, saccades_per_second,
//              mean_saccade_ms, microsaccades_per_second,
//              saccade_amplitude_histogram ([{from_deg, count}] per 5-degree
//              bin), share_on_partner, head_turns
//   stream     fps, frames, left and right (device, lines, dropped,
//              write_errors, reconnects, lateness_ms {p50, p99, max}),
//              generator (as above)
#pragma once

#include <mocap/eyes/eye_stream.h>
#include <mocap/eyes/eyes.h>

#include <cstddef>
#include <string>

namespace mocap {

// What the generator did (EyeTimeline::stats(), head_turns().size()).
std::string eye_stats_json(const EyeStats& stats, std::size_t head_turns);

// A stream at `fps` (EyeStreamer::stats()) and its generator's summary.
std::string eye_stream_stats_json(const EyeStreamStats& stream, double fps, const EyeStats& stats,
                                  std::size_t head_turns);

}  // namespace mocap
