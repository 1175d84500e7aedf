// skin_frames (skin/skin_frames.h): the frame loop `mocap skin -o out_%04d.obj`
// runs, on the bundled humanoid bound to a bundled CMU clip; and the edge
// stretch (skin/edge_stretch.h) measured over such a loop.
#include <gtest/gtest.h>
#include <mocap/io/mesh.h>
#include <mocap/rig/mesh_bind.h>
#include <mocap/skin/edge_stretch.h>
#include <mocap/skin/skin_frames.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "test_data.h"

namespace mocap {
namespace {

TEST(FramePathPattern, PadsTheNumberAndRefusesAnythingButOneDecimal) {
  const auto padded = parse_frame_path_pattern("out/f_%04d.obj");
  ASSERT_TRUE(padded);
  EXPECT_EQ(padded->path(7), "out/f_0007.obj");
  EXPECT_EQ(padded->path(123456), "out/f_123456.obj");
  const auto spaced = parse_frame_path_pattern("x%5d");
  ASSERT_TRUE(spaced);
  EXPECT_EQ(spaced->path(3), "x    3");
  const auto plain = parse_frame_path_pattern("%d.obj");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->path(12), "12.obj");
  for (const char* bad : {"out.obj", "out_%s.obj", "%d_%d.obj", "%13d", "%", "a%0"}) {
    EXPECT_FALSE(parse_frame_path_pattern(bad)) << bad;
  }
}

struct Scene {
  test::LoadedClip clip;
  BoundMesh bound;
};

const Scene& scene() {
  static const Scene s = [] {
    Scene out{test::load_bundled("09_06"), {}};
    MeshBindOptions options;
    options.mesh_path = (test::bundled_data_dir() / "humanoid.obj").string();
    options.units = "dm";
    options.bind_pose_amc = (test::bundled_data_dir() / "makehuman_apose.amc").string();
    options.fit = BindFit::kHeight;
    options.weight_method = WeightMethod::kDistance;
    auto bound = bind_mesh(out.clip.skeleton, options);
    EXPECT_TRUE(bound) << bound.error().to_string();
    if (bound) out.bound = std::move(*bound);
    return out;
  }();
  return s;
}

// Each frame the writer sees is what one Skinner::skin of that frame gives,
// in the order asked, and the seconds are the Skinner's.
TEST(SkinFrames, HandsTheWriterEachFrameAsOneSkinGivesIt) {
  const Scene& s = scene();
  ASSERT_FALSE(s.bound.weights.empty());
  const Skeleton& skeleton = s.clip.skeleton;
  auto skinner = Skinner::create(s.bound.mesh, s.bound.weights, skeleton.bones.size());
  ASSERT_TRUE(skinner);
  const std::vector<int> frames{40, 0, 81};
  std::vector<int> seen;
  std::vector<std::vector<Eigen::Vector3f>> positions;
  const auto result = skin_frames(*skinner, frames, pose_from_motion(skeleton, s.clip.motion, s.bound.bind),
                                  [&](int frame, const Skinner& posed) -> Result<void> {
                                    seen.push_back(frame);
                                    positions.emplace_back(posed.positions().begin(), posed.positions().end());
                                    return {};
                                  });
  ASSERT_TRUE(result);
  EXPECT_EQ(result->frames, 3);
  EXPECT_GT(result->skin_seconds, 0.0);
  EXPECT_EQ(seen, frames);
  auto reference = Skinner::create(s.bound.mesh, s.bound.weights, skeleton.bones.size());
  ASSERT_TRUE(reference);
  Pose pose = make_pose(skeleton);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    pose_from_channels(skeleton, s.clip.motion.frame(frames[i]), pose);
    reference->skin(skeleton, pose, s.bound.bind);
    EXPECT_TRUE(std::ranges::equal(reference->positions(), positions[i])) << "frame " << frames[i];
  }
  EXPECT_FALSE(std::ranges::equal(positions[0], positions[1]));  // the frames differ
}

TEST(SkinFrames, StopsAtTheWritersFirstError) {
  const Scene& s = scene();
  ASSERT_FALSE(s.bound.weights.empty());
  auto skinner = Skinner::create(s.bound.mesh, s.bound.weights, s.clip.skeleton.bones.size());
  ASSERT_TRUE(skinner);
  const std::vector<int> frames{0, 1, 2, 3};
  int calls = 0;
  const auto result = skin_frames(*skinner, frames, pose_from_motion(s.clip.skeleton, s.clip.motion, s.bound.bind),
                                  [&](int frame, const Skinner&) -> Result<void> {
                                    ++calls;
                                    if (frame == 1) return fail("frame1.obj", 0, "cannot write");
                                    return {};
                                  });
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message, "cannot write");
  EXPECT_EQ(calls, 2);
}

// The OBJ writer puts frame f at the pattern's path of numbers[f], a mesh
// that reads back with the skinned positions.
TEST(SkinFrames, ObjWriterWritesEachFrameUnderItsNumber) {
  const Scene& s = scene();
  ASSERT_FALSE(s.bound.weights.empty());
  const test::TempDir dir;
  auto skinner = Skinner::create(s.bound.mesh, s.bound.weights, s.clip.skeleton.bones.size());
  ASSERT_TRUE(skinner);
  const auto pattern = parse_frame_path_pattern((dir.path() / "f_%03d.obj").string());
  ASSERT_TRUE(pattern);
  const std::vector<int> frames{2, 9};
  std::vector<Eigen::Vector3f> last;
  const WriteFrame obj = obj_frame_writer(s.bound.mesh, *pattern, s.clip.motion.frame_numbers);
  const auto result = skin_frames(*skinner, frames, pose_from_motion(s.clip.skeleton, s.clip.motion, s.bound.bind),
                                  [&](int frame, const Skinner& posed) {
                                    last.assign(posed.positions().begin(), posed.positions().end());
                                    return obj(frame, posed);
                                  });
  ASSERT_TRUE(result) << result.error().to_string();
  for (const int f : frames) {
    EXPECT_TRUE(std::filesystem::exists(pattern->path(s.clip.motion.frame_numbers[f]))) << f;
  }
  const auto back = read_obj(pattern->path(s.clip.motion.frame_numbers[9]));
  ASSERT_TRUE(back) << back.error().to_string();
  ASSERT_EQ(back->positions.size(), last.size());
  for (std::size_t v = 0; v < last.size(); ++v) ASSERT_LT((back->positions[v] - last[v]).norm(), 1e-5f) << v;
}

// A .glb is written whole; anything else must be a frame pattern, and the
// first frame's file stands for the output when checking it beforehand.
TEST(SkinOutputPlan, GlbWholeOrAnObjPattern) {
  const auto glb = plan_skin_output("out/run.glb", "glb");
  ASSERT_TRUE(glb) << glb.error().to_string();
  EXPECT_TRUE(glb->glb);
  EXPECT_EQ(glb->first_path("out/run.glb"), "out/run.glb");
  const auto obj = plan_skin_output("out/f_%04d.obj", "obj");
  ASSERT_TRUE(obj) << obj.error().to_string();
  EXPECT_FALSE(obj->glb);
  EXPECT_EQ(obj->first_path("out/f_%04d.obj"), "out/f_0000.obj");
  EXPECT_EQ(obj->pattern.path(12), "out/f_0012.obj");
  const auto flat = plan_skin_output("out/f.obj", "obj");
  ASSERT_FALSE(flat);
  EXPECT_EQ(flat.error().to_string(), "out/f.obj: expected a path with one %d, e.g. out_%04d.obj, or a .glb path");
}

TEST(SkinNames, ParseEveryNameAndRefuseOthers) {
  EXPECT_EQ(parse_skin_method("lbs"), SkinMethod::kLinear);
  EXPECT_EQ(parse_skin_method("dqs"), SkinMethod::kDualQuaternion);
  ASSERT_FALSE(parse_skin_method("LBS"));
  EXPECT_EQ(parse_skin_method("x").error().message, "expected 'lbs' or 'dqs', found 'x'");
  EXPECT_EQ(parse_bind_fit("embed"), BindFit::kEmbed);
  EXPECT_EQ(parse_bind_fit("height"), BindFit::kHeight);
  EXPECT_FALSE(parse_bind_fit("scale"));
  EXPECT_EQ(parse_weight_method("voxel"), WeightMethod::kVoxel);
  EXPECT_EQ(parse_weight_method("heat"), WeightMethod::kHeat);
  EXPECT_EQ(parse_weight_method("distance"), WeightMethod::kDistance);
  ASSERT_FALSE(parse_weight_method("bones"));
  EXPECT_EQ(parse_weight_method("bones").error().message, "expected 'voxel', 'heat' or 'distance', found 'bones'");
}

// Edge stretch (skin/edge_stretch.h) over a sequence: the humanoid skinned
// by 09_06 at 12 frames, the longest ratio and the count past 1.5x are
// those of every triangle's edges measured here one by one, and the named
// edge is one of them.
TEST(EdgeStretch, TheHumanoidsLongestIsEveryTrianglesEdgesLongest) {
  const Scene& s = scene();
  ASSERT_FALSE(s.bound.weights.empty());
  const test::LoadedClip& clip = s.clip;
  const BoundMesh& bound = s.bound;
  auto skinner = Skinner::create(bound.mesh, bound.weights, clip.skeleton.bones.size(), SkinMethod::kLinear, 1);
  ASSERT_TRUE(skinner);

  // Every triangle's edges, each once, as a set of pairs: not mesh_edges'.
  std::set<std::pair<int, int>> edges;
  for (const MeshTriangle& t : bound.mesh.triangles) {
    for (int k = 0; k < 3; ++k) edges.insert(std::minmax(t.vertex[k], t.vertex[(k + 1) % 3]));
  }
  EdgeStretch stretch = make_edge_stretch(bound.mesh, 1.5);
  double longest = 0.0;
  long past = 0;
  auto measure_here = [&](std::span<const Eigen::Vector3f> posed) {
    for (const auto& [a, b] : edges) {
      const float rest = (bound.mesh.positions[a] - bound.mesh.positions[b]).norm();
      if (!(rest > EdgeStretch::kMinRestLength)) continue;
      const double ratio = (posed[a] - posed[b]).norm() / rest;
      longest = std::max(longest, ratio);
      past += ratio > 1.5;
    }
  };
  std::vector<int> frames;
  for (int f = 0; f < clip.motion.frame_count(); f += clip.motion.frame_count() / 12) frames.push_back(f);
  const auto skinned = skin_frames(*skinner, frames, pose_from_motion(clip.skeleton, clip.motion, bound.bind),
                                   [&](int f, const Skinner& posed) -> Result<void> {
                                     add_stretch_frame(stretch, clip.motion.frame_numbers[f], posed.positions());
                                     measure_here(posed.positions());
                                     return {};
                                   });
  ASSERT_TRUE(skinned);
  EXPECT_EQ(stretch.frames, static_cast<int>(frames.size()));
  EXPECT_NEAR(stretch.longest, longest, 1e-6 * longest);
  EXPECT_GT(stretch.longest, 1.5);
  EXPECT_EQ(stretch.past_bound, past);
  const auto [a, b] = stretch.edges[static_cast<std::size_t>(stretch.longest_edge)];
  EXPECT_TRUE(edges.contains({a, b}));
  std::vector<std::string> names;
  for (const Bone& bone : clip.skeleton.bones) names.push_back(bone.name);
  const std::string line = format_edge_stretch(stretch, bound.mesh, bound.weights, names);
  std::printf("%s\n", line.c_str());
  EXPECT_TRUE(line.starts_with("stretch: longest edge ")) << line;
  EXPECT_NE(line.find(" at frame " + std::to_string(stretch.longest_frame) + ","), std::string::npos) << line;
}

}  // namespace
}  // namespace mocap
