// Where the tests find real data, and the CMU clips they run on.
#pragma once

#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <Eigen/Geometry>

#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

namespace mocap::test {

// data/ of this repository: always there.
std::filesystem::path bundled_data_dir();
// ../shared/data beside the checkout; may be absent on a user's machine.
std::filesystem::path shared_data_dir();

struct ClipFiles {
  std::string name;  // "09_06"
  std::filesystem::path asf;
  std::filesystem::path amc;
};

// Every NN_MM.amc in `dir` paired with its NN.asf, sorted by name.
std::vector<ClipFiles> clips_in(const std::filesystem::path& dir);
// How many clips ../shared/data/cmu holds (PROVENANCE.md).
inline constexpr std::size_t kSharedClipCount = 18;

// Radians per degree (AMC and BVH angles), and metres per length unit of
// CMU's ASFs and of cgspeed's BVH conversion of them (0.0254 / 0.45).
inline constexpr double kDegree = std::numbers::pi / 180.0;
inline constexpr double kCmuUnit = 0.0254 / 0.45;
// True under CI=true, where ../shared/data must be there whole.
bool under_ci();
// The clips of ../shared/data/cmu, or empty when it is absent; under CI a
// count other than kSharedClipCount fails the current test.
std::vector<ClipFiles> shared_clips();
// The clips bundled in data/.
std::vector<ClipFiles> bundled_clips();
// Shared clips when present, else the bundled ones: tests that must run on
// real data run on as much of it as this machine has.
std::vector<ClipFiles> all_real_clips();

// Reads a clip or fails the current test (ADD_FAILURE) and returns false.
bool load(const ClipFiles& clip, Skeleton& skeleton, Motion& motion);

struct LoadedClip {
  Skeleton skeleton;
  Motion motion;
};
// The bundled clip called `name` ("09_06"); fails the current test when it is missing.
LoadedClip load_bundled(const std::string& name);

// The first `frames` frames of `motion` (all of them when it has fewer).
Motion first_frames(const Motion& motion, int frames);

// A fresh folder under the system's temp folder, removed with everything in it.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // Creates `relative` (and its folders) holding `content`.
  std::filesystem::path touch(const std::string& relative, const std::string& content = "") const;

 private:
  std::filesystem::path path_;
};

// The whole file as bytes; empty when it cannot be read.
std::string read_text(const std::filesystem::path& path);

// For each bone of an Acclaim skeleton, the bone of its BVH (to_bvh's layout)
// at that bone's end point: its first child's joint, or its End Site; the
// root itself. -1 where the BVH has no such joint.
std::vector<int> end_points_in_bvh(const Skeleton& asf, const Skeleton& bvh);

// Distance between two unit quaternions as rotations: q and -q are the same.
double quaternion_gap(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b);

}  // namespace mocap::test

// Skips the test with a message when ../shared/data is not on this machine.
#define MOCAP_REQUIRE_SHARED_DATA()                                                            \
  do {                                                                                         \
    if (!std::filesystem::is_directory(::mocap::test::shared_data_dir() / "cmu"))              \
      GTEST_SKIP() << "no shared data at " << ::mocap::test::shared_data_dir() << ": skipped"; \
  } while (0)
