#include "test_data.h"

#include <gtest/gtest.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>

#include <algorithm>

namespace mocap::test {

std::filesystem::path bundled_data_dir() { return MOCAP_BUNDLED_DATA_DIR; }
std::filesystem::path shared_data_dir() { return MOCAP_SHARED_DATA_DIR; }

std::vector<ClipFiles> clips_in(const std::filesystem::path& dir) {
  std::vector<ClipFiles> clips;
  if (!std::filesystem::is_directory(dir)) return clips;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".amc") continue;
    const std::string stem = entry.path().stem().string();
    const auto asf = dir / (stem.substr(0, stem.find('_')) + ".asf");
    if (std::filesystem::exists(asf)) clips.push_back({stem, asf, entry.path()});
  }
  std::sort(clips.begin(), clips.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return clips;
}

std::vector<ClipFiles> shared_clips() { return clips_in(shared_data_dir() / "cmu"); }
std::vector<ClipFiles> bundled_clips() { return clips_in(bundled_data_dir()); }

std::vector<ClipFiles> all_real_clips() {
  auto clips = shared_clips();
  return clips.empty() ? bundled_clips() : clips;
}

bool load(const ClipFiles& clip, Skeleton& skeleton, Motion& motion) {
  auto s = read_asf(clip.asf.string());
  if (!s) {
    ADD_FAILURE() << s.error().to_string();
    return false;
  }
  auto m = read_amc(clip.amc.string(), *s);
  if (!m) {
    ADD_FAILURE() << m.error().to_string();
    return false;
  }
  skeleton = std::move(*s);
  motion = std::move(*m);
  return true;
}

LoadedClip load_bundled(const std::string& name) {
  LoadedClip l;
  for (const auto& clip : bundled_clips()) {
    if (clip.name == name) load(clip, l.skeleton, l.motion);
  }
  if (l.motion.frame_count() == 0) ADD_FAILURE() << "bundled clip " << name << " missing";
  return l;
}

double quaternion_gap(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  return std::min((a.coeffs() - b.coeffs()).norm(), (a.coeffs() + b.coeffs()).norm());
}

}  // namespace mocap::test
