#include <mocap/eyes/eye_stats_json.h>

#include <nlohmann/json.hpp>

namespace mocap {
namespace {

nlohmann::ordered_json generator_json(const EyeStats& s, std::size_t turns) {
  nlohmann::ordered_json histogram = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < s.amplitude_histogram.size(); ++i) {
    histogram.push_back({{"from_deg", 5 * i}, {"count", s.amplitude_histogram[i]}});
  }
  return {{"seconds", s.time_s},
          {"blinks_per_minute", s.blinks_per_minute()},
          {"partial_blinks", s.partial_blinks},
          {"evoked_blinks", s.evoked_blinks},
          {"mean_closing_ms", 1000.0 * s.mean_closing_s()},
          {"mean_opening_ms", 1000.0 * s.mean_opening_s()},
          {"saccades_per_second", s.saccades_per_second()},
          {"mean_saccade_ms", s.saccades > 0 ? 1000.0 * s.saccade_duration_sum_s / s.saccades : 0.0},
          {"microsaccades_per_second", s.microsaccades_per_second()},
          {"saccade_amplitude_histogram", std::move(histogram)},
          {"share_on_partner", s.share_on_partner()},
          {"head_turns", turns}};
}

nlohmann::ordered_json port_json(const EyePortStats& p) {
  return {
      {"device", p.path},
      {"lines", p.lines},
      {"dropped", p.dropped},
      {"write_errors", p.write_errors},
      {"reconnects", p.reconnects},
      {"lateness_ms",
       {{"p50", 1000.0 * p.lateness_p50_s}, {"p99", 1000.0 * p.lateness_p99_s}, {"max", 1000.0 * p.lateness_max_s}}}};
}

}  // namespace

std::string eye_stats_json(const EyeStats& stats, std::size_t head_turns) {
  return generator_json(stats, head_turns).dump();
}

std::string eye_stream_stats_json(const EyeStreamStats& stream, double fps, const EyeStats& stats,
                                  std::size_t head_turns) {
  const nlohmann::ordered_json j = {{"fps", fps},
                                    {"frames", stream.frames},
                                    {"left", port_json(stream.left)},
                                    {"right", port_json(stream.right)},
                                    {"generator", generator_json(stats, head_turns)}};
  return j.dump();
}

}  // namespace mocap
