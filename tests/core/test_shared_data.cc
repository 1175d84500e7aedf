// The real data the suites read from ../shared/data, counted: under CI=true
// (where a copy of shared/ sits beside the clone) it must all be there, so
// that no suite quietly runs on the three bundled clips or skips. Outside CI
// an absent folder is a skip that says so; a present one must be whole.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_data.h"

namespace mocap {
namespace {

namespace fs = std::filesystem;

long count_files(const fs::path& dir, const std::string& suffix) {
  long n = 0;
  if (!fs::is_directory(dir)) return 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    n += name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  }
  return n;
}

TEST(SharedData, EveryClipMeshAndOracleFileIsThere) {
  const fs::path shared = test::shared_data_dir();
  if (!fs::is_directory(shared)) {
    if (test::under_ci()) FAIL() << shared << " is absent under CI=true: the real-data suites would skip";
    GTEST_SKIP() << shared << " is absent: the real-data suites run on the bundled clips only";
  }
  EXPECT_EQ(test::shared_clips().size(), test::kSharedClipCount);
  EXPECT_EQ(test::all_real_clips().size(), test::kSharedClipCount) << "the suites' clip list is not the shared one";
  EXPECT_TRUE(fs::exists(shared / "cmu-bvh" / "09_06.bvh"));
  EXPECT_EQ(count_files(shared / "oracle", ".fk.csv"), 6) << "the independent program's world positions";
  EXPECT_TRUE(fs::exists(shared / "meshes" / "makehuman" / "base.obj"));
  EXPECT_EQ(count_files(shared / "meshes" / "khronos", ".glb") + count_files(shared / "meshes" / "khronos", ".dae"), 5)
      << "Khronos' rigged models (CesiumMan glb and dae, Fox, RiggedFigure, riggedSimple)";
  EXPECT_TRUE(fs::exists(shared / "PROVENANCE.md"));
}

}  // namespace
}  // namespace mocap
