// gltf_splice.h on real files: what Assimp's glTF export of a COLLADA model
// leaves in the binary chunk.
#include <mocap/retarget/gltf_splice.h>

#include <mocap/io/capture.h>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "test_data.h"

namespace mocap {
namespace {

std::uint32_t u32(const std::string& bytes, std::size_t at) {
  std::uint32_t v = 0;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}

// Assimp's glb2 exporter leaves gaps between buffer views (after JOINTS_0)
// holding uninitialised memory. Before model_as_glb zeroed them, 18,483 of
// CesiumMan.dae's 20,896 such bytes and 399 of RiggedFigure.dae's 2,624 were
// non-zero, and two exports of the same file differed: every retargeted
// .dae or .fbx carried some of the process's heap.
TEST(ModelAsGlb, NoUninitialisedBytesFromAssimp) {
  const std::filesystem::path dir = test::shared_data_dir() / "meshes" / "khronos";
  if (!std::filesystem::exists(dir / "CesiumMan.dae")) {
    if (test::under_ci()) FAIL() << "CI: no shared data at " << dir;
    GTEST_SKIP() << "no Khronos models under " << dir << ": skipped";
  }
  for (const char* name : {"CesiumMan.dae", "RiggedFigure.dae"}) {
    SCOPED_TRACE(name);
    auto glb = model_as_glb((dir / name).string());
    ASSERT_TRUE(glb) << glb.error().to_string();
    auto again = model_as_glb((dir / name).string());
    ASSERT_TRUE(again);
    EXPECT_EQ(*glb, *again);
    const std::size_t json_size = u32(*glb, 12), bin_at = 20 + json_size + 8;
    ASSERT_LE(bin_at, glb->size());
    const std::size_t bin_size = u32(*glb, 20 + json_size);
    ASSERT_EQ(bin_at + bin_size, glb->size());
    const nlohmann::json doc = nlohmann::json::parse(glb->substr(20, json_size));
    std::string covered(bin_size, '\0');
    for (const auto& view : doc["bufferViews"]) {
      const std::size_t offset = view.value("byteOffset", std::size_t{0}), length = view["byteLength"];
      ASSERT_LE(offset + length, bin_size);
      covered.replace(offset, length, length, '\1');
    }
    std::size_t gaps = 0, nonzero = 0;
    for (std::size_t i = 0; i < bin_size; ++i) {
      if (covered[i]) continue;
      ++gaps;
      if ((*glb)[bin_at + i] != '\0') ++nonzero;
    }
    std::printf("%s as .glb: %zu bytes in the binary chunk, %zu in no buffer view, %zu of them non-zero\n", name,
                bin_size, gaps, nonzero);
    if (std::string(name) == "CesiumMan.dae") {
      EXPECT_GT(gaps, 10000u);  // the gap this guards is there
    }
    EXPECT_EQ(nonzero, 0u);
  }
}

// An image the model names by a file goes into the output (found beside the
// model), so that the .glb stands alone; one found nowhere is left out with
// the texture slots that use it, and said: a path from another machine
// would not load, and the Khronos validator refuses it.
TEST(SpliceAnimation, ImagesNamedByAFileAreEmbeddedOrLeftOut) {
  const std::filesystem::path dir = test::shared_data_dir() / "meshes" / "khronos";
  const std::filesystem::path cmu = test::shared_data_dir() / "cmu";
  if (!std::filesystem::exists(dir / "CesiumMan.dae") || !std::filesystem::exists(cmu / "09_06.amc")) {
    if (test::under_ci()) FAIL() << "CI: no shared data at " << dir;
    GTEST_SKIP() << "no Khronos models or CMU clips under " << test::shared_data_dir() << ": skipped";
  }
  auto capture = read_capture((cmu / "09.asf").string(), (cmu / "09_06.amc").string());
  ASSERT_TRUE(capture) << capture.error().to_string();
  auto document = [](const std::string& glb) { return nlohmann::json::parse(glb.substr(20, u32(glb, 12))); };
  // Beside its texture (CesiumMan.dae names CesiumMan.jpg): embedded.
  auto found =
      retarget_model_file(capture->skeleton, capture->motion, "09.asf", (dir / "CesiumMan.dae").string(), "run");
  ASSERT_TRUE(found) << found.error().to_string();
  EXPECT_TRUE(found->warnings.empty());
  const nlohmann::json with = document(found->glb);
  ASSERT_EQ(with["images"].size(), 1u);
  EXPECT_FALSE(with["images"][0].contains("uri"));
  EXPECT_EQ(with["images"][0].value("mimeType", ""), "image/jpeg");
  EXPECT_TRUE(with["materials"][0]["pbrMetallicRoughness"].contains("baseColorTexture"));
  // Alone: left out, and said.
  test::TempDir alone;
  std::filesystem::copy_file(dir / "CesiumMan.dae", alone.path() / "CesiumMan.dae");
  auto missing = retarget_model_file(capture->skeleton, capture->motion, "09.asf",
                                     (alone.path() / "CesiumMan.dae").string(), "run");
  ASSERT_TRUE(missing) << missing.error().to_string();
  ASSERT_EQ(missing->warnings.size(), 1u);
  EXPECT_NE(missing->warnings[0].find("CesiumMan.jpg"), std::string::npos) << missing->warnings[0];
  const nlohmann::json without = document(missing->glb);
  EXPECT_FALSE(without.contains("images"));
  EXPECT_FALSE(without.contains("textures"));
  EXPECT_FALSE(without["materials"][0]["pbrMetallicRoughness"].contains("baseColorTexture"));
  EXPECT_EQ(without["materials"].size(), with["materials"].size());
}

}  // namespace
}  // namespace mocap
