// glTF export: the GLB layout, then the closest check to "Blender opens it"
// available here: Assimp reads the file back with the same vertices, joints,
// channels and duration, and skinning what it read gives the same mesh as
// skinning ours. Bad documents and bad files fail with a message.
#include <gtest/gtest.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/bvh.h>
#include <mocap/rig/auto_weights.h>
#include <mocap/rig/gltf.h>
#include <mocap/rig/rigged_model.h>
#include <mocap/skin/skin_job.h>

#include <unistd.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "test_data.h"

namespace mocap {
namespace {

std::filesystem::path temp(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("mocap_test_gltf_" + std::to_string(getpid()) + "_" + name);
}

std::uint32_t u32(const std::string& bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
  return v;
}

// A bundled CMU clip bound to a mesh of one triangular prism around each
// bone, automatic weights: small, real motion, every bone weighted.
struct ClipScene {
  Skeleton skeleton;
  Motion motion;
  Pose bind_pose;
  SkeletonBind bind;
  Mesh mesh;
  std::vector<VertexWeights> weights;
};

ClipScene clip_scene() {
  ClipScene s;
  const auto clip = test::bundled_clips().front();
  EXPECT_TRUE(test::load(clip, s.skeleton, s.motion));
  s.bind_pose = rest_pose(s.skeleton);
  // The clavicles turned down and rest-relative, as an embedding fits a
  // sloping shoulder line (embed.h): the file must key what pose_for_bind gives.
  const Eigen::Quaterniond slope(Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitZ()));
  for (const char* name : {"lclavicle", "rclavicle"}) {
    const int b = s.skeleton.find_bone(name);
    EXPECT_GE(b, 0) << name;
    if (b < 0) continue;
    s.bind_pose.rotation[b] = name[0] == 'l' ? slope.conjugate() : slope;
  }
  s.bind = bind_skeleton(s.skeleton, s.bind_pose, Placement{});
  for (const char* name : {"lclavicle", "rclavicle"}) {
    if (const int b = s.skeleton.find_bone(name); b >= 0) s.bind.rest_relative.push_back({b, s.bind_pose.rotation[b]});
  }
  s.mesh.group_names = {"prisms"};
  for (const BoneSegment& segment : s.bind.segments) {
    if (!segment.deforms) continue;
    const Eigen::Vector3f axis = (segment.end - segment.start).normalized();
    const Eigen::Vector3f u = axis.unitOrthogonal();
    const Eigen::Vector3f w = axis.cross(u);
    const int base = s.mesh.vertex_count();
    for (const Eigen::Vector3f& end : {segment.start, segment.end}) {
      for (int k = 0; k < 3; ++k) {
        const float a = 2.0943951f * static_cast<float>(k);
        s.mesh.positions.push_back(end + 0.02f * (std::cos(a) * u + std::sin(a) * w));
      }
    }
    for (int k = 0; k < 3; ++k) {
      const int a = base + k;
      const int b = base + (k + 1) % 3;
      s.mesh.triangles.push_back({{a, b, b + 3}, {-1, -1, -1}, 0});
      s.mesh.triangles.push_back({{a, b + 3, a + 3}, {-1, -1, -1}, 0});
    }
  }
  compute_normals(s.mesh);
  s.weights = automatic_weights(s.mesh, s.bind.segments);
  return s;
}

std::vector<int> every_frame(const Motion& motion, int step = 1) {
  std::vector<int> frames;
  for (int f = 0; f < motion.frame_count(); f += step) frames.push_back(f);
  return frames;
}

TEST(Glb, HeaderChunksAndAccessorsFollowTheSpec) {
  const ClipScene s = clip_scene();
  const auto frames = every_frame(s.motion, 10);
  const GltfDocument document =
      gltf_from_clip(s.skeleton, s.motion, s.bind_pose, s.bind, s.mesh, s.weights, frames, "clip");
  const auto glb = format_glb(document);
  ASSERT_TRUE(glb) << glb.error().to_string();
  ASSERT_GE(glb->size(), 28u);
  EXPECT_EQ(glb->substr(0, 4), "glTF");
  EXPECT_EQ(u32(*glb, 4), 2u);
  EXPECT_EQ(u32(*glb, 8), glb->size());
  const std::uint32_t json_length = u32(*glb, 12);
  EXPECT_EQ(json_length % 4, 0u);
  EXPECT_EQ(u32(*glb, 16), 0x4E4F534Au);
  const std::string text = glb->substr(20, json_length);
  const std::size_t bin_at = 20 + json_length;
  const std::uint32_t bin_length = u32(*glb, bin_at);
  EXPECT_EQ(bin_length % 4, 0u);
  EXPECT_EQ(u32(*glb, bin_at + 4), 0x004E4942u);
  EXPECT_EQ(bin_at + 8 + bin_length, glb->size());

  const auto gltf = nlohmann::json::parse(text);
  EXPECT_EQ(gltf["asset"]["version"], "2.0");
  const auto& attributes = gltf["meshes"][0]["primitives"][0]["attributes"];
  const auto& position = gltf["accessors"][attributes["POSITION"].get<int>()];
  EXPECT_EQ(position["componentType"], 5126);
  EXPECT_EQ(position["count"], s.mesh.positions.size());
  ASSERT_TRUE(position.contains("min") && position.contains("max"));
  EXPECT_EQ(gltf["accessors"][attributes["JOINTS_0"].get<int>()]["componentType"], 5123);
  EXPECT_EQ(gltf["accessors"][attributes["WEIGHTS_0"].get<int>()]["componentType"], 5126);
  EXPECT_EQ(gltf["skins"][0]["joints"].size(), s.skeleton.bones.size());
  EXPECT_EQ(gltf["animations"][0]["channels"].size(), 2 * s.skeleton.bones.size());
  EXPECT_LE(gltf["buffers"][0]["byteLength"].get<std::size_t>(), bin_length);
  for (const auto& view : gltf["bufferViews"]) EXPECT_EQ(view["byteOffset"].get<std::size_t>() % 4, 0u);
}

TEST(Glb, AClipReimportsThroughAssimpAndSkinsTheSame) {
  const ClipScene s = clip_scene();
  const auto frames = every_frame(s.motion);
  const auto path = temp("clip.glb");
  ASSERT_TRUE(write_glb(path.string(),
                        gltf_from_clip(s.skeleton, s.motion, s.bind_pose, s.bind, s.mesh, s.weights, frames, "09_06")));
  ModelReadOptions options;
  options.join_identical_vertices = false;
  const auto model = read_rigged_model(path.string(), options);
  ASSERT_TRUE(model) << model.error().to_string();
  EXPECT_EQ(model->mesh.vertex_count(), s.mesh.vertex_count());
  EXPECT_EQ(model->mesh.triangles.size(), s.mesh.triangles.size());
  EXPECT_EQ(model->joint_count(), static_cast<int>(s.skeleton.bones.size()));
  ASSERT_EQ(model->animations.size(), 1u);
  EXPECT_EQ(model->animations[0].name, "09_06");
  EXPECT_EQ(model->animations[0].tracks.size(), s.skeleton.bones.size());
  EXPECT_NEAR(model->animations[0].duration_seconds, (s.motion.frame_count() - 1) / s.motion.fps, 1e-4);

  // Frame f skinned by us and by the re-imported file at f / fps.
  SkinScratch scratch(s.skeleton);
  std::vector<SkinMatrix> ours(s.skeleton.bones.size());
  std::vector<SkinMatrix> theirs(model->joints.size());
  std::vector<Eigen::Affine3d> world(model->nodes.size());
  Pose pose = make_pose(s.skeleton);
  ModelPose model_pose = rest_pose(*model);
  std::vector<Eigen::Vector3f> a(s.mesh.positions.size());
  std::vector<Eigen::Vector3f> b(model->mesh.positions.size());
  for (const int f : {0, s.motion.frame_count() / 3, s.motion.frame_count() - 1}) {
    pose_from_channels(s.skeleton, s.motion.frame(f), pose);
    pose_for_bind(s.skeleton, s.bind, pose);
    skinning_matrices(s.skeleton, pose, s.bind, scratch, ours);
    sample_animation(*model, model->animations[0], f / s.motion.fps, model_pose);
    model_skinning_matrices(*model, model_pose, world, theirs);
    SkinJob job;
    job.matrices = ours;
    job.weights = s.weights;
    job.positions = s.mesh.positions;
    job.out_positions = a;
    job.run();
    job.matrices = theirs;
    job.weights = model->weights;
    job.positions = model->mesh.positions;
    job.out_positions = b;
    job.run();
    float worst = 0.0f;
    for (std::size_t v = 0; v < a.size(); ++v) worst = std::max(worst, (a[v] - b[v]).norm());
    EXPECT_LT(worst, 1e-4f) << "frame " << f;  // 0.1 mm
  }
  std::filesystem::remove(path);
}

TEST(Glb, ARiggedModelRoundTrips) {
  if (!std::filesystem::is_directory(test::shared_data_dir() / "meshes" / "khronos"))
    GTEST_SKIP() << "no Khronos models under " << test::shared_data_dir() << ": skipped";
  const auto fox = read_rigged_model((test::shared_data_dir() / "meshes" / "khronos" / "Fox.glb").string());
  ASSERT_TRUE(fox) << fox.error().to_string();
  const ModelAnimation& walk = **find_animation(*fox, "Walk");
  std::vector<float> times;
  for (int k = 0; k / 30.0 <= walk.duration_seconds; ++k) times.push_back(static_cast<float>(k / 30.0));
  const auto path = temp("fox.glb");
  ASSERT_TRUE(write_glb(path.string(), gltf_from_model(*fox, walk, times)));
  ModelReadOptions options;
  options.join_identical_vertices = false;
  const auto back = read_rigged_model(path.string(), options);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->mesh.vertex_count(), fox->mesh.vertex_count());
  EXPECT_EQ(back->joint_count(), fox->joint_count());
  ASSERT_EQ(back->animations.size(), 1u);
  EXPECT_EQ(back->animations[0].name, "Walk");
  EXPECT_EQ(back->animations[0].tracks.size(), walk.tracks.size());
  EXPECT_NEAR(back->animations[0].duration_seconds, times.back(), 1e-4);
  // Same deformation at a sampled time.
  std::vector<Eigen::Affine3d> world_a(fox->nodes.size());
  std::vector<Eigen::Affine3d> world_b(back->nodes.size());
  std::vector<SkinMatrix> ka(fox->joints.size());
  std::vector<SkinMatrix> kb(back->joints.size());
  ModelPose pa = rest_pose(*fox);
  ModelPose pb = rest_pose(*back);
  sample_animation(*fox, walk, times[7], pa);
  sample_animation(*back, back->animations[0], times[7], pb);
  model_skinning_matrices(*fox, pa, world_a, ka);
  model_skinning_matrices(*back, pb, world_b, kb);
  std::vector<Eigen::Vector3f> a(fox->mesh.positions.size());
  std::vector<Eigen::Vector3f> b(back->mesh.positions.size());
  SkinJob job{SkinMethod::kLinear, ka, {}, fox->weights, fox->mesh.positions, {}, a, {}, {}};
  job.run();
  job = SkinJob{SkinMethod::kLinear, kb, {}, back->weights, back->mesh.positions, {}, b, {}, {}};
  job.run();
  float worst = 0.0f;
  for (std::size_t v = 0; v < a.size(); ++v) worst = std::max(worst, (a[v] - b[v]).norm());
  EXPECT_LT(worst, 1e-3f);  // the fox is ~1.5 units long; float keys
  std::filesystem::remove(path);
}

TEST(Glb, InconsistentDocumentsAreRefused) {
  const ClipScene s = clip_scene();
  const std::vector<int> frames{0, 1, 2};
  GltfDocument document = gltf_from_clip(s.skeleton, s.motion, s.bind_pose, s.bind, s.mesh, s.weights, frames, "x");
  EXPECT_TRUE(format_glb(document));
  GltfDocument bad = document;
  bad.weights = std::span(s.weights).first(3);
  auto glb = format_glb(bad);
  ASSERT_FALSE(glb);
  EXPECT_NE(glb.error().message.find("weights"), std::string::npos) << glb.error().to_string();
  bad = document;
  bad.animations[0].times[2] = bad.animations[0].times[1];
  glb = format_glb(bad);
  ASSERT_FALSE(glb);
  EXPECT_NE(glb.error().message.find("increasing"), std::string::npos) << glb.error().to_string();
  bad = document;
  bad.animations[0].tracks[1].rotations.pop_back();
  glb = format_glb(bad);
  ASSERT_FALSE(glb);
  EXPECT_NE(glb.error().message.find("2 values for 3 times"), std::string::npos) << glb.error().to_string();
  const auto unwritable = write_glb("/nonexistent/dir/out.glb", document);
  ASSERT_FALSE(unwritable);
  EXPECT_EQ(unwritable.error().file.find("/nonexistent/dir/"), 0u) << unwritable.error().to_string();
}

TEST(Glb, TruncatedOrCorruptFilesFailWithTheFileNamed) {
  const ClipScene s = clip_scene();
  const std::vector<int> frames{0, 1, 2};
  const auto glb =
      format_glb(gltf_from_clip(s.skeleton, s.motion, s.bind_pose, s.bind, s.mesh, s.weights, frames, "x"));
  ASSERT_TRUE(glb);
  const auto truncated = temp("truncated.glb");
  std::ofstream(truncated, std::ios::binary) << glb->substr(0, glb->size() / 2);
  auto model = read_rigged_model(truncated.string());
  ASSERT_FALSE(model) << "a half file was accepted";
  EXPECT_EQ(model.error().file, truncated.string());
  EXPECT_FALSE(model.error().message.empty());
  std::string corrupt = *glb;
  corrupt[20] = '[';  // JSON chunk no longer an object
  const auto broken = temp("broken.glb");
  std::ofstream(broken, std::ios::binary) << corrupt;
  model = read_rigged_model(broken.string());
  ASSERT_FALSE(model) << "a corrupt file was accepted";
  EXPECT_EQ(model.error().file, broken.string());
  std::filesystem::remove(truncated);
  std::filesystem::remove(broken);
}

// A .glb read back by hand: the JSON and the floats of an accessor.
struct GlbFile {
  nlohmann::json gltf;
  std::string bin;
  std::vector<float> floats(int accessor) const {
    const auto& a = gltf["accessors"][accessor];
    const auto& view = gltf["bufferViews"][a["bufferView"].get<int>()];
    const std::size_t offset = view.value("byteOffset", std::size_t{0});
    const std::size_t length = view["byteLength"].get<std::size_t>();
    EXPECT_EQ(a["componentType"], 5126);
    EXPECT_LE(offset + length, bin.size());
    std::vector<float> out(length / 4);
    std::memcpy(out.data(), bin.data() + offset, out.size() * 4);
    return out;
  }
};

GlbFile split_glb(const std::string& glb) {
  GlbFile f;
  EXPECT_EQ(glb.substr(0, 4), "glTF");
  EXPECT_EQ(u32(glb, 8), glb.size());
  const std::uint32_t json_length = u32(glb, 12);
  f.gltf = nlohmann::json::parse(glb.substr(20, json_length));
  const std::size_t bin_at = 20 + json_length;
  if (bin_at < glb.size()) {
    EXPECT_EQ(u32(glb, bin_at + 4), 0x004E4942u);
    f.bin = glb.substr(bin_at + 8, u32(glb, bin_at));
  }
  return f;
}

// Every node's world position on frame `f` of the file's one animation
// (rest values where a node is not keyed), by node name.
std::map<std::string, Eigen::Vector3f> node_positions(const GlbFile& file, int f) {
  const auto& nodes = file.gltf["nodes"];
  const std::size_t n = nodes.size();
  std::vector<Eigen::Vector3f> t(n, Eigen::Vector3f::Zero());
  std::vector<Eigen::Quaternionf> r(n, Eigen::Quaternionf::Identity());
  std::vector<int> parent(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    if (nodes[i].contains("translation"))
      for (int k = 0; k < 3; ++k) t[i][k] = nodes[i]["translation"][k].get<float>();
    if (nodes[i].contains("rotation")) {
      const auto& q = nodes[i]["rotation"];
      r[i] = Eigen::Quaternionf(q[3].get<float>(), q[0].get<float>(), q[1].get<float>(), q[2].get<float>());
    }
    if (nodes[i].contains("children"))
      for (const auto& c : nodes[i]["children"]) parent[c.get<std::size_t>()] = static_cast<int>(i);
  }
  const auto& animation = file.gltf["animations"][0];
  for (const auto& channel : animation["channels"]) {
    const int node = channel["target"]["node"].get<int>();
    const auto& sampler = animation["samplers"][channel["sampler"].get<int>()];
    const std::vector<float> v = file.floats(sampler["output"].get<int>());
    if (channel["target"]["path"] == "translation") {
      t[node] = Eigen::Vector3f(v[3 * f], v[3 * f + 1], v[3 * f + 2]);
    } else if (channel["target"]["path"] == "rotation") {
      r[node] = Eigen::Quaternionf(v[4 * f + 3], v[4 * f], v[4 * f + 1], v[4 * f + 2]);
    }
  }
  // Parents come first in a BVH's node order.
  std::vector<Eigen::Vector3f> p(n);
  std::vector<Eigen::Quaternionf> q(n);
  std::map<std::string, Eigen::Vector3f> out;
  for (std::size_t i = 0; i < n; ++i) {
    const int up = parent[i];
    EXPECT_LT(up, static_cast<int>(i));
    p[i] = up < 0 ? t[i] : Eigen::Vector3f(p[up] + q[up] * t[i]);
    q[i] = up < 0 ? r[i] : Eigen::Quaternionf(q[up] * r[i]);
    out[nodes[i]["name"].get<std::string>()] = p[i];
  }
  return out;
}

// A skeleton-only glTF of an ASF/AMC clip: no mesh or skin, a node per BVH
// joint, one animation keying every frame; read back by hand, each node is
// where the ASF bone starts (a bone named X: its parent's end) and each
// End Site where its bone ends, on every frame.
TEST(Glb, SkeletonOnlyAnimationOfAnAmcClip) {
  const auto l = test::load_bundled("09_06");
  auto document = gltf_from_motion(l.skeleton, l.motion, "09_06");
  ASSERT_TRUE(document) << document.error().to_string();
  EXPECT_EQ(document->mesh, nullptr);
  const auto glb = format_glb(*document);
  ASSERT_TRUE(glb) << glb.error().to_string();
  const GlbFile file = split_glb(*glb);
  EXPECT_FALSE(file.gltf.contains("meshes"));
  EXPECT_FALSE(file.gltf.contains("skins"));
  int leaves = 0;
  for (std::size_t b = 0; b < l.skeleton.bones.size(); ++b) {
    leaves += std::none_of(l.skeleton.bones.begin(), l.skeleton.bones.end(),
                           [&](const Bone& c) { return c.parent == static_cast<int>(b); });
  }
  ASSERT_EQ(file.gltf["nodes"].size(), l.skeleton.bones.size() + leaves);
  ASSERT_EQ(file.gltf["animations"].size(), 1u);
  const auto& animation = file.gltf["animations"][0];
  EXPECT_EQ(animation["name"], "09_06");
  int translations = 0, rotations = 0;
  for (const auto& channel : animation["channels"]) {
    const auto& sampler = animation["samplers"][channel["sampler"].get<int>()];
    EXPECT_EQ(file.gltf["accessors"][sampler["input"].get<int>()]["count"], l.motion.frame_count());
    EXPECT_EQ(file.gltf["accessors"][sampler["output"].get<int>()]["count"], l.motion.frame_count());
    (channel["target"]["path"] == "translation" ? translations : rotations) += 1;
  }
  EXPECT_EQ(translations, 1);  // the root
  int with_rotation = 0;
  for (const Bone& bone : l.skeleton.bones)
    with_rotation += std::any_of(bone.dofs.begin(), bone.dofs.end(), is_rotation);
  EXPECT_EQ(rotations, with_rotation);
  const std::vector<float> times = file.floats(animation["samplers"][0]["input"].get<int>());
  EXPECT_FLOAT_EQ(times.back(), static_cast<float>((l.motion.frame_count() - 1) / l.motion.fps));

  const auto world = world_positions(l.skeleton, l.motion);
  const std::size_t bones = l.skeleton.bones.size();
  double worst = 0.0;
  for (int f = 0; f < l.motion.frame_count(); ++f) {
    const auto nodes = node_positions(file, f);
    for (std::size_t b = 0; b < bones; ++b) {
      const Bone& bone = l.skeleton.bones[b];
      const Eigen::Vector3d start = world[f * bones + (bone.parent < 0 ? 0 : bone.parent)];
      ASSERT_TRUE(nodes.contains(bone.name)) << bone.name;
      worst = std::max(worst, (nodes.at(bone.name).cast<double>() - start).norm());
      if (nodes.contains(bone.name + "_end"))
        worst = std::max(worst, (nodes.at(bone.name + "_end").cast<double>() - world[f * bones + b]).norm());
    }
  }
  std::printf("09_06 glTF node positions against the AMC's joints: worst %.3g m over %d frames\n", worst,
              l.motion.frame_count());
  EXPECT_LT(worst, 1e-5);  // float keys, 10 micrometres
}

// A BVH skeleton's joints are the nodes as they are (cgspeed's 09_06,
// every joint and End Site), and a document without a mesh refuses skin
// parts and motions without frames.
TEST(Glb, SkeletonOnlyAnimationOfABvhAndItsRefusals) {
  const auto path = test::shared_data_dir() / "cmu-bvh" / "09_06.bvh";
  if (std::filesystem::exists(path)) {
    auto bvh = read_bvh(path.string(), 0.0254 / 0.45);
    ASSERT_TRUE(bvh) << bvh.error().to_string();
    auto document = gltf_from_motion(bvh->skeleton, bvh->motion, "cgspeed");
    ASSERT_TRUE(document) << document.error().to_string();
    const auto glb = format_glb(*document);
    ASSERT_TRUE(glb) << glb.error().to_string();
    const GlbFile file = split_glb(*glb);
    const std::size_t bones = bvh->skeleton.bones.size();
    ASSERT_EQ(file.gltf["nodes"].size(), bones);
    const auto world = world_positions(bvh->skeleton, bvh->motion);
    double worst = 0.0;
    for (int f = 0; f < bvh->motion.frame_count(); f += 7) {
      const auto nodes = node_positions(file, f);
      for (std::size_t b = 0; b < bones; ++b)
        worst = std::max(worst, (nodes.at(bvh->skeleton.bones[b].name).cast<double>() - world[f * bones + b]).norm());
    }
    std::printf("cgspeed 09_06.bvh glTF node positions against its FK: worst %.3g m\n", worst);
    EXPECT_LT(worst, 1e-5);
  }
  const auto l = test::load_bundled("09_06");
  Motion empty = l.motion;
  empty.frame_numbers.clear();
  empty.values.clear();
  auto none = gltf_from_motion(l.skeleton, empty, "x");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no frames"), std::string::npos) << none.error().message;
  auto document = gltf_from_motion(l.skeleton, l.motion, "x");
  ASSERT_TRUE(document);
  GltfDocument bad = *document;
  bad.joints = {0};
  auto glb = format_glb(bad);
  ASSERT_FALSE(glb);
  EXPECT_NE(glb.error().message.find("without a mesh"), std::string::npos) << glb.error().message;
  bad = *document;
  bad.nodes.clear();
  bad.animations.clear();
  glb = format_glb(bad);
  ASSERT_FALSE(glb);
  EXPECT_NE(glb.error().message.find("no nodes"), std::string::npos) << glb.error().message;
  // Nodes alone: no buffer at all (a glTF buffer has at least one byte).
  bad = *document;
  bad.animations.clear();
  glb = format_glb(bad);
  ASSERT_TRUE(glb) << glb.error().to_string();
  EXPECT_EQ(u32(*glb, 8), 20 + u32(*glb, 12));
  EXPECT_FALSE(split_glb(*glb).gltf.contains("buffers"));
}

}  // namespace
}  // namespace mocap
