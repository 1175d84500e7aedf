// read_capture, the output-format picker and the table of mesh units: what the
// CLI and the viewer share for loading and naming outputs.
#include <gtest/gtest.h>
#include <mocap/io/capture.h>
#include <mocap/io/mesh.h>
#include <mocap/io/output_format.h>

#include <cmath>
#include <limits>

#include "test_data.h"

namespace mocap {
namespace {

TEST(ReadCapture, ReadsEveryRealClipAtTheGivenRate) {
  const auto clips = test::all_real_clips();
  ASSERT_FALSE(clips.empty());
  for (const auto& files : clips) {
    const auto clip = read_capture(files.asf.string(), files.amc.string(), 60.0);
    ASSERT_TRUE(clip) << clip.error().to_string();
    EXPECT_EQ(clip->motion.fps, 60.0);
    EXPECT_GT(clip->motion.frame_count(), 0) << files.name;
    ASSERT_EQ(clip->bone_names.size(), clip->skeleton.bones.size());
    for (std::size_t b = 0; b < clip->bone_names.size(); ++b)
      EXPECT_EQ(clip->bone_names[b], clip->skeleton.bones[b].name);
    EXPECT_EQ(clip->amc_path, files.amc.string());
  }
}

TEST(ReadCapture, ErrorsNameTheFile) {
  const std::string asf = (test::bundled_data_dir() / "09.asf").string();
  const std::string amc = (test::bundled_data_dir() / "09_06.amc").string();
  const auto no_asf = read_capture("/nonexistent/x.asf", amc);
  ASSERT_FALSE(no_asf);
  EXPECT_EQ(no_asf.error().file, "/nonexistent/x.asf");
  const auto no_amc = read_capture(asf, "/nonexistent/y.amc");
  ASSERT_FALSE(no_amc);
  EXPECT_EQ(no_amc.error().file, "/nonexistent/y.amc");
  // The skeleton file given as a motion: the AMC parser's error, with a line.
  const auto swapped = read_capture(asf, asf);
  ASSERT_FALSE(swapped);
  EXPECT_EQ(swapped.error().file, asf);
}

TEST(OutputFormat, FromTheExtensionOrTheFlag) {
  EXPECT_EQ(pick_output_format("out/x.json", "", {"csv", "json"}, "csv").value(), "json");
  EXPECT_EQ(pick_output_format("X.CSV", "", {"csv", "json"}, "json").value(), "csv");
  EXPECT_EQ(pick_output_format("", "", {"csv", "json"}, "csv").value(), "csv");  // standard output
  EXPECT_EQ(pick_output_format("-", "", {"csv", "json"}, "json").value(), "json");
  EXPECT_EQ(pick_output_format("x.json", "csv", {"csv", "json"}, "csv").value(), "csv");  // --format wins
  EXPECT_EQ(pick_output_format("a.b/track", "jsonl", {"csv", "jsonl"}, "jsonl").value(), "jsonl");
}

TEST(OutputFormat, UnknownIsAnErrorListingTheExtensions) {
  auto picked = pick_output_format("x.txt", "", {"csv", "json"}, "csv");
  ASSERT_FALSE(picked);
  EXPECT_EQ(picked.error().message, "-o x.txt: unknown extension .txt: expected .csv, .json, or --format csv|json");
  picked = pick_output_format("dir.d/noext", "", {"csv", "json"}, "csv");
  ASSERT_FALSE(picked);
  EXPECT_NE(picked.error().message.find("no extension"), std::string::npos);
  picked = pick_output_format("x.csv", "xml", {"csv", "json"}, "csv");
  ASSERT_FALSE(picked);
  EXPECT_EQ(picked.error().message, "--format xml: expected csv, json");
}

TEST(MeshUnits, OneTable) {
  EXPECT_EQ(metres_per_mesh_unit("m").value(), 1.0);
  EXPECT_EQ(metres_per_mesh_unit("dm").value(), 0.1);
  EXPECT_EQ(metres_per_mesh_unit("in").value(), 0.0254);
  EXPECT_EQ(metres_per_mesh_unit("ft").value(), 0.3048);
  const auto bad = metres_per_mesh_unit("furlong");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("m, dm, cm, mm, in, ft"), std::string::npos) << bad.error().message;
  EXPECT_EQ(mesh_unit_names(), (std::vector<std::string>{"m", "dm", "cm", "mm", "in", "ft"}));
}

TEST(ObjReadOptionsValidity, UnitsMustBePositiveAndFinite) {
  for (const MeshUnit& unit : kMeshUnits) EXPECT_TRUE(ObjReadOptions{unit.metres}.validate()) << unit.name;
  EXPECT_FALSE(ObjReadOptions{0.0}.validate());
  EXPECT_FALSE(ObjReadOptions{-0.1}.validate());
  EXPECT_FALSE(ObjReadOptions{std::numeric_limits<double>::infinity()}.validate());
  EXPECT_FALSE(ObjReadOptions{std::nan("")}.validate());
}

}  // namespace
}  // namespace mocap
