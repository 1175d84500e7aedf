#include "startup.h"

#include <mocap/io/mesh.h>

#include <filesystem>
#include <utility>
#include <vector>

namespace mocap::viewer {
namespace {

// The --compare motions: (ASF, AMC), or (motion, "") for one path.
std::vector<std::pair<std::string, std::string>> compare_inputs(const Options& options) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::vector<std::string>& paths : options.compare) {
    if (paths.empty()) continue;
    out.emplace_back(paths[0], paths.size() > 1 ? paths[1] : "");
  }
  return out;
}

}  // namespace

Result<PosedCapture> load_initial(const Options& options) {
  if (options.main_is_bvh()) return load_capture(options.files[0], "", options.bvh_metres());
  if (options.files.size() >= 2) return load_capture(options.files[0], options.files[1]);
  const std::string asf = default_asf(), amc = default_amc();
  if (!std::filesystem::exists(asf) || !std::filesystem::exists(amc)) {
    return fail(bundled_data_dir(), 0,
                "bundled clip 09.asf + 09_06.amc not found (the viewer looks in the source tree's data/ "
                "directory); give an ASF and an AMC on the command line or open them in the window");
  }
  return load_capture(asf, amc);
}

std::optional<std::string> load_compare(CompareState& state, const Options& options, const PosedCapture& main) {
  for (const auto& [first, second] : compare_inputs(options)) {
    Result<PosedCapture> other = load_other(first, second, main.capture.asf_path, options.bvh_metres());
    if (!other) return "--compare: " + other.error().to_string();
    add_motion(state, std::move(*other), main);
  }
  return std::nullopt;
}

std::optional<SkinForm> skin_form(const Options& options) {
  const std::size_t at = options.clip_files();
  if (options.files.size() <= at) return std::nullopt;
  SkinForm form;
  form.obj = options.files[at];
  if (options.files.size() > at + 1) form.weights = options.files[at + 1];
  form.bind_pose = options.bind_pose;
  form.groups = options.groups;
  for (std::size_t i = 0; i < kMeshUnits.size(); ++i) {
    if (options.mesh_units == kMeshUnits[i].name) form.units = static_cast<int>(i);
  }
  return form;
}

bool start_keyframes(KeyframeState& keyframes, const Options& options) {
  if (options.key_count >= 2) {
    keyframes.mode = KeyframeState::Mode::kCount;
    keyframes.key_count = options.key_count;
  } else if (options.keys_threshold >= 0.0) {
    keyframes.mode = KeyframeState::Mode::kThreshold;
    keyframes.threshold = static_cast<float>(options.keys_threshold);
  } else {
    return false;
  }
  keyframes.enabled = true;
  return true;
}

}  // namespace mocap::viewer
