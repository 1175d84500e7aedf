#include "test_data.h"

#include <gtest/gtest.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>

#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace mocap::test {

std::filesystem::path bundled_data_dir() {
  return MOCAP_BUNDLED_DATA_DIR;
}
std::filesystem::path shared_data_dir() {
  return MOCAP_SHARED_DATA_DIR;
}

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

bool under_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

std::vector<ClipFiles> shared_clips() {
  auto clips = clips_in(shared_data_dir() / "cmu");
  // CI has ../shared/data beside the clone: a test that quietly ran on fewer
  // clips there would hide that it checked less than it says.
  if (under_ci() && clips.size() != kSharedClipCount) {
    ADD_FAILURE() << "under CI=true " << shared_data_dir() / "cmu"
                  << " must hold " << kSharedClipCount << " clips, found " << clips.size();
  }
  return clips;
}
std::vector<ClipFiles> bundled_clips() {
  return clips_in(bundled_data_dir());
}

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

Motion first_frames(const Motion& motion, int frames) {
  Motion m = motion;
  const auto n = static_cast<std::size_t>(std::min(frames, motion.frame_count()));
  m.frame_numbers.resize(n);
  m.values.resize(n * static_cast<std::size_t>(m.channel_count));
  return m;
}

LoadedClip load_bundled(const std::string& name) {
  LoadedClip l;
  for (const auto& clip : bundled_clips()) {
    if (clip.name == name) load(clip, l.skeleton, l.motion);
  }
  if (l.motion.frame_count() == 0) ADD_FAILURE() << "bundled clip " << name << " missing";
  return l;
}

TempDir::TempDir() {
  std::string name = (std::filesystem::temp_directory_path() / "mocap_test_XXXXXX").string();
  if (::mkdtemp(name.data()) == nullptr) ADD_FAILURE() << "mkdtemp " << name << ": " << std::strerror(errno);
  path_ = name;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::filesystem::path TempDir::touch(const std::string& relative, const std::string& content) const {
  const std::filesystem::path p = path_ / relative;
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
  return p;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<int> end_points_in_bvh(const Skeleton& asf, const Skeleton& bvh) {
  std::vector<int> at(asf.bones.size(), -1);
  for (std::size_t b = 0; b < asf.bones.size(); ++b) {
    const std::vector<int> children = asf.children(static_cast<int>(b));
    const std::string name = b == 0             ? asf.bones[0].name
                             : children.empty() ? asf.bones[b].name + "_end"
                                                : asf.bones[static_cast<std::size_t>(children[0])].name;
    at[b] = bvh.find_bone(name);
  }
  return at;
}

double quaternion_gap(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  return std::min((a.coeffs() - b.coeffs()).norm(), (a.coeffs() + b.coeffs()).norm());
}

}  // namespace mocap::test
