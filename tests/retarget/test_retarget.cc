// Retargeting on real files: CMU captures (ASF/AMC and BVH) onto the Khronos
// CesiumMan (.glb) and RiggedFigure (.dae, through Assimp's glTF export). The
// output .glb is read back with read_rigged_model and its new animation
// sampled: an independent path from the one that wrote it.
// The counting operator new below is malloc's, its delete free's: GCC cannot
// see that they pair when it inlines the standard library's allocators.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <mocap/core/fk.h>
#include <mocap/io/capture.h>
#include <mocap/io/mesh.h>
#include <mocap/io/skin_weights.h>
#include <mocap/retarget/bone_map.h>
#include <mocap/retarget/gltf_splice.h>
#include <mocap/retarget/retarget.h>
#include <mocap/rig/gltf.h>
#include <mocap/rig/rigged_model.h>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <numbers>
#include <numeric>
#include <optional>
#include <random>

#include <mocap/io/atomic_write.h>

#include "retarget/retarget_measure.h"
#include "test_data.h"

// Every allocation of this program counted, to prove RetargetJob::run allocates nothing.
namespace {
std::atomic<long> g_allocations{0};
}  // namespace
void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace mocap {
namespace {

using test::makehuman_glb;
using test::measure;
using test::Measured;
using test::percentile;

std::filesystem::path khronos(const std::string& name) {
  return test::shared_data_dir() / "meshes" / "khronos" / name;
}
std::filesystem::path cmu(const std::string& name) {
  return test::shared_data_dir() / "cmu" / name;
}

#define REQUIRE_SHARED_MODELS()                                                                          \
  do {                                                                                                   \
    if (!std::filesystem::is_directory(khronos("")) || !std::filesystem::is_directory(cmu(""))) {        \
      if (test::under_ci()) FAIL() << "CI: no shared data at " << test::shared_data_dir();               \
      GTEST_SKIP() << "no Khronos models or CMU clips under " << test::shared_data_dir() << ": skipped"; \
    }                                                                                                    \
  } while (0)

TEST(BoneNames, NormalisedAcrossConventions) {
  struct Case {
    const char* name;
    const char* base;
    int side;
  };
  for (const Case& c : {Case{"mixamorig:LeftUpLeg", "upleg", -1},
                        Case{"RightForeArm", "forearm", 1},
                        Case{"thigh_l", "thigh", -1},
                        Case{"calf_r", "calf", 1},
                        Case{"DEF-thigh.L", "thigh", -1},
                        Case{"DEF-upper_arm.R", "upperarm", 1},
                        Case{"upperleg01.L", "upperleg01", -1},
                        Case{"lfemur", "femur", -1},
                        Case{"rtibia", "tibia", 1},
                        Case{"LeftUpperLeg", "upperleg", -1},
                        Case{"leg_joint_R_2", "legjoint2", 1},
                        Case{"Skeleton_torso_joint_1", "torsojoint1", 0},
                        Case{"lowerback", "lowerback", 0},
                        Case{"Hips", "hips", 0},
                        Case{"spine_01", "spine01", 0},
                        Case{"mixamorig:LeftHandMiddle1", "handmiddle1", -1},
                        Case{"middle_01_r", "middle01", 1},
                        Case{"lfingers", "fingers", -1},
                        Case{"rthumb", "thumb", 1},
                        Case{"finger1-1.L", "finger11", -1},
                        Case{"lowerarm_twist_01_l", "lowerarmtwist01", -1}}) {
    const NormalisedName n = normalise_bone_name(c.name);
    EXPECT_EQ(n.base, c.base) << c.name;
    EXPECT_EQ(n.side, c.side) << c.name;
  }
}

// A hierarchy named as a rig convention, shaped as a T-pose, Y up, facing +Z.
JointHierarchy synthetic_rig(const std::vector<std::string>& names) {
  // hips, spine, chest, neck, head, L: shoulder arm forearm hand, R: same, L: upleg leg foot toe, R: same
  const std::vector<int> parents = {-1, 0, 1, 2, 3, 2, 5, 6, 7, 2, 9, 10, 11, 0, 13, 14, 15, 0, 17, 18, 19};
  const std::vector<Eigen::Vector3d> p = {
      {0, 1.0, 0},     {0, 1.15, 0},    {0, 1.35, 0},      {0, 1.5, 0},      {0, 1.6, 0},       {0.05, 1.45, 0},
      {0.18, 1.45, 0}, {0.45, 1.45, 0}, {0.7, 1.45, 0},    {-0.05, 1.45, 0}, {-0.18, 1.45, 0},  {-0.45, 1.45, 0},
      {-0.7, 1.45, 0}, {0.1, 0.95, 0},  {0.1, 0.52, 0},    {0.1, 0.1, 0},    {0.1, 0.02, 0.12}, {-0.1, 0.95, 0},
      {-0.1, 0.52, 0}, {-0.1, 0.1, 0},  {-0.1, 0.02, 0.12}};
  JointHierarchy h;
  h.names = names;
  h.parents = parents;
  h.positions = p;
  return h;
}

TEST(BoneMap, MixamoUnrealAndNamelessRigs) {
  const std::vector<std::string> mixamo = {
      "mixamorig:Hips",        "mixamorig:Spine",         "mixamorig:Spine2",   "mixamorig:Neck",
      "mixamorig:Head",        "mixamorig:LeftShoulder",  "mixamorig:LeftArm",  "mixamorig:LeftForeArm",
      "mixamorig:LeftHand",    "mixamorig:RightShoulder", "mixamorig:RightArm", "mixamorig:RightForeArm",
      "mixamorig:RightHand",   "mixamorig:LeftUpLeg",     "mixamorig:LeftLeg",  "mixamorig:LeftFoot",
      "mixamorig:LeftToeBase", "mixamorig:RightUpLeg",    "mixamorig:RightLeg", "mixamorig:RightFoot",
      "mixamorig:RightToeBase"};
  const std::vector<std::string> unreal = {
      "pelvis",     "spine_01", "spine_03",   "neck_01",    "head",       "clavicle_l", "upperarm_l",
      "lowerarm_l", "hand_l",   "clavicle_r", "upperarm_r", "lowerarm_r", "hand_r",     "thigh_l",
      "calf_l",     "foot_l",   "ball_l",     "thigh_r",    "calf_r",     "foot_r",     "ball_r"};
  std::vector<std::string> nameless;
  for (int j = 0; j < 21; ++j) nameless.push_back("joint" + std::to_string(j));
  const std::vector<std::string>* const rigs[] = {&mixamo, &unreal, &nameless};
  for (const auto* names : rigs) {
    const JointHierarchy h = synthetic_rig(*names);
    auto map = find_humanoid(h, "synthetic");
    ASSERT_TRUE(map) << map.error().to_string();
    // Every role lands on the joint the layout puts it at (clavicles included: four-joint arms; no fingers).
    for (int r = 0; r < kBodyRoleCount; ++r) {
      EXPECT_EQ(map->roles[static_cast<std::size_t>(r)].joint, r)
          << (*names)[0] << ": " << role_name(static_cast<Role>(r)) << " got "
          << (map->roles[static_cast<std::size_t>(r)].joint >= 0
                  ? h.names[static_cast<std::size_t>(map->roles[static_cast<std::size_t>(r)].joint)]
                  : "-");
    }
  }
  // The nameless rig is found by topology and geometry only.
  auto map = find_humanoid(synthetic_rig(nameless), "synthetic");
  ASSERT_TRUE(map);
  EXPECT_EQ((*map)[Role::ThighL].how, "topology");
}

// Left and right names on the wrong sides: swapped back when the feet say
// which way the rig faces, left alone when its legs end at the ankles.
TEST(BoneMap, MirroredNamesSwappedWhenTheFeetShowTheFacing) {
  const std::vector<std::string> mixamo = {
      "Hips",         "Spine",     "Spine2",       "Neck",      "Head",        "RightShoulder", "RightArm",
      "RightForeArm", "RightHand", "LeftShoulder", "LeftArm",   "LeftForeArm", "LeftHand",      "RightUpLeg",
      "RightLeg",     "RightFoot", "RightToeBase", "LeftUpLeg", "LeftLeg",     "LeftFoot",      "LeftToeBase"};
  auto map = find_humanoid(synthetic_rig(mixamo), "mirrored");
  ASSERT_TRUE(map) << map.error().to_string();
  EXPECT_TRUE(map->sides_swapped);
  for (int r = 0; r < kBodyRoleCount; ++r) {
    EXPECT_EQ(map->roles[static_cast<std::size_t>(r)].joint, r) << role_name(static_cast<Role>(r));
  }
  EXPECT_EQ((*map)[Role::ThighL].how, "name table, sides swapped");
  // Without toes the facing is unknown: the names are trusted.
  JointHierarchy no_toes = synthetic_rig(mixamo);
  for (int toe : {16, 20})
    no_toes.positions[static_cast<std::size_t>(toe)] =
        no_toes.positions[static_cast<std::size_t>(toe - 1)] + Eigen::Vector3d(0, -0.02, 0);
  map = find_humanoid(no_toes, "mirrored without toes");
  ASSERT_TRUE(map) << map.error().to_string();
  EXPECT_FALSE(map->sides_swapped);
  EXPECT_EQ((*map)[Role::ThighL].joint, 17);
}

TEST(BoneMap, MissingChainIsNamed) {
  JointHierarchy h;
  h.names = {"Hips", "Spine", "Head"};
  h.parents = {-1, 0, 1};
  h.positions = {{0, 1, 0}, {0, 1.3, 0}, {0, 1.6, 0}};
  auto map = find_humanoid(h, "stick.glb");
  ASSERT_FALSE(map);
  EXPECT_NE(map.error().to_string().find("stick.glb"), std::string::npos) << map.error().to_string();
  EXPECT_NE(map.error().to_string().find("thigh"), std::string::npos) << map.error().to_string();
}

Result<Capture> read_cmu(const std::string& subject, const std::string& clip) {
  return read_capture(cmu(subject + ".asf").string(), cmu(clip + ".amc").string(), 120.0);
}

TEST(BoneMap, CaptureAndKhronosModels) {
  REQUIRE_SHARED_MODELS();
  auto clip = read_cmu("16", "16_15");
  ASSERT_TRUE(clip) << clip.error().to_string();
  struct Expect {
    const char* model;
    const char* upper_arm_l;
    const char* toe_r;
  };
  for (const Expect& e : {Expect{"CesiumMan.glb", "Skeleton_arm_joint_L__4_", "leg_joint_R_5"},
                          Expect{"RiggedFigure.dae", "arm_joint_L_1", "leg_joint_R_5"}}) {
    auto model = read_rigged_model(khronos(e.model).string());
    ASSERT_TRUE(model) << model.error().to_string();
    auto rig = build_retarget_rig(clip->skeleton, "16.asf", *model);
    ASSERT_TRUE(rig) << rig.error().to_string();
    auto capture_name = [&](Role r) {
      return rig->capture_joints.names[static_cast<std::size_t>(rig->capture_map[r].joint)];
    };
    auto target_name = [&](Role r) {
      return rig->target_joints.names[static_cast<std::size_t>(rig->target_map[r].joint)];
    };
    EXPECT_EQ(capture_name(Role::Hips), "root");
    EXPECT_EQ(capture_name(Role::ThighL), "lfemur");
    EXPECT_EQ(capture_name(Role::HandR), "rwrist");
    EXPECT_EQ(capture_name(Role::Chest), "thorax");
    EXPECT_EQ(target_name(Role::UpperArmL), e.upper_arm_l) << e.model;
    EXPECT_EQ(target_name(Role::ToeR), e.toe_r) << e.model;
    EXPECT_EQ(rig->target_map[Role::ClavicleL].joint, -1) << e.model;  // three-joint arms: no clavicle
    std::printf("%s\n%s", e.model,
                format_bone_map(rig->capture_joints, rig->capture_map, rig->target_joints, rig->target_map).c_str());
  }
  // cgspeed's BVH names.
  auto bvh = read_bvh_capture((test::shared_data_dir() / "cmu-bvh" / "09_06.bvh").string());
  ASSERT_TRUE(bvh) << bvh.error().to_string();
  JointHierarchy h;
  for (const Bone& b : bvh->skeleton.bones) {
    h.names.push_back(b.name);
    h.parents.push_back(b.parent);
    h.positions.push_back(Eigen::Vector3d::Zero());
  }
  auto model = read_rigged_model(khronos("CesiumMan.glb").string());
  ASSERT_TRUE(model);
  auto rig = build_retarget_rig(bvh->skeleton, "09_06.bvh", *model);
  ASSERT_TRUE(rig) << rig.error().to_string();
  EXPECT_EQ(rig->capture_joints.names[static_cast<std::size_t>(rig->capture_map[Role::ThighL].joint)], "LeftUpLeg");
  EXPECT_EQ(rig->capture_joints.names[static_cast<std::size_t>(rig->capture_map[Role::ToeR].joint)], "RightToeBase");
  EXPECT_EQ(rig->capture_joints.names[static_cast<std::size_t>(rig->capture_map[Role::FingersL].joint)],
            "LeftHandIndex1");
  EXPECT_EQ(rig->capture_joints.names[static_cast<std::size_t>(rig->capture_map[Role::ThumbR].joint)], "RThumb");
}

TEST(BoneMap, OverridesWithFileAndLine) {
  REQUIRE_SHARED_MODELS();
  auto clip = read_cmu("16", "16_15");
  ASSERT_TRUE(clip);
  auto model = read_rigged_model(khronos("CesiumMan.glb").string());
  ASSERT_TRUE(model);
  test::TempDir dir;
  const auto good = dir.touch("good.json", "{\n  \"leg_joint_L_1\": \"lfemur\"\n}\n");
  RetargetOptions options;
  options.map_path = good.string();
  auto rig = build_retarget_rig(clip->skeleton, "16.asf", *model, options);
  ASSERT_TRUE(rig) << rig.error().to_string();
  EXPECT_EQ(rig->target_map[Role::ThighL].how, "map " + good.string() + ":2");
  const auto bad = dir.touch("bad.json", "{\n  \"leg_joint_L_1\": \"lfemur\",\n  \"no_such_bone\": \"ltibia\"\n}\n");
  options.map_path = bad.string();
  rig = build_retarget_rig(clip->skeleton, "16.asf", *model, options);
  ASSERT_FALSE(rig);
  EXPECT_EQ(rig.error().file, bad.string());
  EXPECT_EQ(rig.error().line, 3);
  EXPECT_NE(rig.error().message.find("no_such_bone"), std::string::npos);
  const auto bad_capture = dir.touch("bad_capture.json", "{\"leg_joint_L_1\": \"lfemurr\"}");
  options.map_path = bad_capture.string();
  rig = build_retarget_rig(clip->skeleton, "16.asf", *model, options);
  ASSERT_FALSE(rig);
  EXPECT_EQ(rig.error().line, 1);
  EXPECT_NE(rig.error().message.find("capture"), std::string::npos) << rig.error().message;
}

TEST(JobValidity, EveryInvalidInputRefused) {
  REQUIRE_SHARED_MODELS();
  auto clip = read_cmu("16", "16_15");
  ASSERT_TRUE(clip);
  auto model = read_rigged_model(khronos("CesiumMan.glb").string());
  ASSERT_TRUE(model);
  auto rig = build_retarget_rig(clip->skeleton, "16.asf", *model);
  ASSERT_TRUE(rig);
  RetargetScratch scratch(*rig);
  EXPECT_EQ(scratch.capture_positions.size(), clip->skeleton.bones.size());
  EXPECT_EQ(scratch.world_rotation.size(), model->nodes.size());
  RetargetJob job;
  EXPECT_FALSE(job.validate());  // no rig
  job.rig = &*rig;
  job.channels = clip->motion.frame(0);
  EXPECT_FALSE(job.validate());  // no scratch
  scratch.bind(job);
  EXPECT_TRUE(job.validate());
  EXPECT_TRUE(job.run());
  job.channels = clip->motion.frame(0).subspan(1);
  EXPECT_FALSE(job.validate());  // a channel short
  EXPECT_FALSE(job.run());
  job.channels = clip->motion.frame(0);
  job.translation = std::span<Eigen::Vector3d>(scratch.translation).subspan(1);
  EXPECT_FALSE(job.validate());
  job.translation = scratch.translation;
  job.pins[0].weight = 1.5;
  EXPECT_FALSE(job.validate());
  job.pins[0].weight = 0.5;
  EXPECT_TRUE(job.validate());
  job.capture_pose = nullptr;
  EXPECT_FALSE(job.validate());
  // Running allocates nothing: every frame of the clip, IK and floor clamp on.
  job.capture_pose = &scratch.capture_pose;
  job.floor_clamp = true;
  job.pins[1] = {1.0, Eigen::Vector3d(0.1, 0.05, 0.2)};
  {
    const long counted = g_allocations.load();
    auto probe = std::make_unique<std::vector<int>>(8);  // the counter sees allocations
    EXPECT_GT(g_allocations.load(), counted);
  }
  const long before = g_allocations.load();
  bool all = true;
  for (int f = 0; f < clip->motion.frame_count(); ++f) {
    job.channels = clip->motion.frame(f);
    all = job.run() && all;
  }
  const long allocations = g_allocations.load() - before;
  EXPECT_TRUE(all);
  EXPECT_EQ(allocations, 0);
}

TEST(Retarget, ModelWithoutSkinRefused) {
  REQUIRE_SHARED_MODELS();
  auto clip = read_cmu("16", "16_15");
  ASSERT_TRUE(clip);
  RiggedModel model;
  model.path = "empty.glb";
  model.nodes.push_back({});
  auto rig = build_retarget_rig(clip->skeleton, "16.asf", model);
  ASSERT_FALSE(rig);
  EXPECT_NE(rig.error().to_string().find("no skin"), std::string::npos);
}

struct Case {
  const char* model;
  const char* subject;
  const char* clip;
};

TEST(Retarget, WrittenFilesFollowTheCapture) {
  REQUIRE_SHARED_MODELS();
  for (const Case& c : {Case{"CesiumMan.glb", "16", "16_15"}, Case{"RiggedFigure.dae", "16", "16_15"},
                        Case{"CesiumMan.glb", "09", "09_06"}, Case{"RiggedFigure.dae", "09", "09_06"},
                        Case{"CesiumMan.glb", "49", "49_02"}, Case{"CesiumMan.glb", "49", "49_06"},
                        Case{"RiggedFigure.dae", "49", "49_06"}}) {
    SCOPED_TRACE(std::string(c.model) + " " + c.clip);
    auto clip = read_cmu(c.subject, c.clip);
    ASSERT_TRUE(clip) << clip.error().to_string();
    const auto start = std::chrono::steady_clock::now();
    auto result = retarget_model_file(clip->skeleton, clip->motion, cmu(std::string(c.subject) + ".asf").string(),
                                      khronos(c.model).string(), c.clip);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(result) << result.error().to_string();
    test::TempDir dir;
    const auto path = dir.path() / "out.glb";
    ASSERT_TRUE(write_file_atomically(path.string(), result->glb));
    auto out = read_rigged_model(path.string());
    ASSERT_TRUE(out) << out.error().to_string();
    auto input = read_rigged_model(khronos(c.model).string());
    ASSERT_TRUE(input);
    // The character stays the character.
    EXPECT_EQ(out->joint_names(), input->joint_names());
    EXPECT_EQ(out->mesh.vertex_count(), input->mesh.vertex_count());
    EXPECT_EQ(out->mesh.triangles.size(), input->mesh.triangles.size());
    ASSERT_EQ(out->animations.size(), 1u);  // the model's own dropped
    auto animation = find_animation(*out, c.clip);
    ASSERT_TRUE(animation) << animation.error().to_string();
    EXPECT_NEAR((*animation)->duration_seconds, (clip->motion.frame_count() - 1) / clip->motion.fps, 1e-3);
    const Measured m = measure(*result, clip->skeleton, clip->motion, *out, **animation);
    const double median = percentile(m.angles_deg, 0.5), p95 = percentile(m.angles_deg, 0.95);
    std::printf(
        "%s %s: %d frames in %.3f s; segments median %.2f deg, p95 %.2f, max %.2f; %d contacts, worst "
        "slide %.2f %% of the leg (capture %.2f %%); lowest foot vertex %+.2f cm (%d vertices); lowest hand vertex "
        "%+.2f cm (frame %d)\n",
        c.model, c.clip, clip->motion.frame_count(), seconds, median, p95, percentile(m.angles_deg, 1.0), m.contacts,
        100 * m.worst_slide_share, 100 * m.worst_capture_share, 100 * m.lowest_foot_vertex, m.foot_vertices,
        100 * m.lowest_hand_vertex, m.lowest_hand_frame);
    EXPECT_LE(median, 4.0);
    EXPECT_LE(p95, 10.0);
    if (std::string(c.clip) != "09_06") {
      EXPECT_GT(m.contacts, 0);  // a run's stance is too short and fast for a pin
    }
    EXPECT_LE(m.worst_extra_slide, 0.0);
    EXPECT_GT(m.foot_vertices, 0);
    EXPECT_GE(m.lowest_foot_vertex, -0.01);  // glTF metres: 1 cm
    // In the cartwheel the hands stay near the floor (the body lift and the
    // arms' IK; -28 and -27 cm before them, the capture's own about -3 cm).
    if (std::string(c.clip) == "49_06") {
      EXPECT_GE(m.lowest_hand_vertex, -0.14);
    }
  }
}

TEST(Retarget, KeepAnimationsKeepsTheModelsOwn) {
  REQUIRE_SHARED_MODELS();
  auto clip = read_cmu("16", "16_15");
  ASSERT_TRUE(clip);
  auto result =
      retarget_model_file(clip->skeleton, clip->motion, "16.asf", khronos("CesiumMan.glb").string(), "walk", {}, true);
  ASSERT_TRUE(result) << result.error().to_string();
  auto out = read_rigged_glb(result->glb, "out.glb");
  ASSERT_TRUE(out) << out.error().to_string();
  ASSERT_EQ(out->animations.size(), 2u);
  EXPECT_EQ(out->animations[1].name, "walk");
  // The input's binary chunk is kept byte for byte at the start of the output's.
  const std::string input = test::read_text(khronos("CesiumMan.glb"));
  std::uint32_t in_json = 0, out_json = 0;
  std::memcpy(&in_json, input.data() + 12, 4);
  std::memcpy(&out_json, result->glb.data() + 12, 4);
  std::uint32_t in_bin = 0;
  std::memcpy(&in_bin, input.data() + 20 + in_json, 4);
  EXPECT_EQ(result->glb.substr(20 + out_json + 8, in_bin), input.substr(20 + in_json + 8, in_bin));
}

// CesiumMan as a Mixamo character in other units and facing: its joints
// renamed "mixamorig:Hips", "mixamorig:LeftUpLeg", ..., the whole scene under
// a new root node scaled by 0.01 and turned 90 degrees about Y (the glTF's
// JSON edited, its binary chunk kept).
std::string mixamo_cesium(double scale) {
  const std::string bytes = test::read_text(khronos("CesiumMan.glb"));
  std::uint32_t json_length = 0;
  std::memcpy(&json_length, bytes.data() + 12, 4);
  nlohmann::json doc = nlohmann::json::parse(bytes.substr(20, json_length));
  const std::pair<const char*, const char*> names[] = {{"Skeleton_torso_joint_1", "Hips"},
                                                       {"Skeleton_torso_joint_2", "Spine"},
                                                       {"torso_joint_3", "Spine2"},
                                                       {"Skeleton_neck_joint_1", "Neck"},
                                                       {"Skeleton_neck_joint_2", "Head"},
                                                       {"Skeleton_arm_joint_L__4_", "LeftArm"},
                                                       {"Skeleton_arm_joint_L__3_", "LeftForeArm"},
                                                       {"Skeleton_arm_joint_L__2_", "LeftHand"},
                                                       {"Skeleton_arm_joint_R", "RightArm"},
                                                       {"Skeleton_arm_joint_R__2_", "RightForeArm"},
                                                       {"Skeleton_arm_joint_R__3_", "RightHand"},
                                                       {"leg_joint_L_1", "LeftUpLeg"},
                                                       {"leg_joint_L_2", "LeftLeg"},
                                                       {"leg_joint_L_3", "LeftFoot"},
                                                       {"leg_joint_L_5", "LeftToeBase"},
                                                       {"leg_joint_R_1", "RightUpLeg"},
                                                       {"leg_joint_R_2", "RightLeg"},
                                                       {"leg_joint_R_3", "RightFoot"},
                                                       {"leg_joint_R_5", "RightToeBase"}};
  for (auto& node : doc["nodes"]) {
    for (const auto& [from, to] : names) {
      if (node.value("name", "") == from) node["name"] = std::string("mixamorig:") + to;
    }
  }
  const double half = std::sqrt(0.5);
  doc["nodes"].push_back({{"name", "Units"},
                          {"children", doc["scenes"][0]["nodes"]},
                          {"rotation", {0.0, half, 0.0, half}},
                          {"scale", {scale, scale, scale}}});
  doc["scenes"][0]["nodes"] = {doc["nodes"].size() - 1};
  std::string json = doc.dump();
  while (json.size() % 4 != 0) json.push_back(' ');
  std::string out = bytes.substr(0, 12);
  const std::string rest = bytes.substr(20 + json_length);  // BIN chunk header and data
  const auto total = static_cast<std::uint32_t>(12 + 8 + json.size() + rest.size());
  const auto length = static_cast<std::uint32_t>(json.size());
  std::memcpy(out.data() + 8, &total, 4);
  out.append(reinterpret_cast<const char*>(&length), 4);
  out.append("JSON", 4);
  out += json + rest;
  return out;
}

TEST(Retarget, MixamoNamesCentimetreScaleOtherFacing) {
  REQUIRE_SHARED_MODELS();
  constexpr double kScale = 0.01;
  test::TempDir dir;
  const auto model_path = dir.path() / "mixamo_cesium.glb";
  ASSERT_TRUE(write_file_atomically(model_path.string(), mixamo_cesium(kScale)));
  auto clip = read_cmu("16", "16_15");
  ASSERT_TRUE(clip);
  auto result = retarget_model_file(clip->skeleton, clip->motion, "16.asf", model_path.string(), "16_15");
  ASSERT_TRUE(result) << result.error().to_string();
  for (int r = 0; r < kRoleCount; ++r) {
    const RoleMatch& m = result->rig.target_map.roles[static_cast<std::size_t>(r)];
    if (m.joint >= 0 && r != static_cast<int>(Role::Spine) && r != static_cast<int>(Role::Chest)) {
      EXPECT_EQ(m.how, "name table") << role_name(static_cast<Role>(r));
    }
  }
  EXPECT_EQ(result->rig.target_joints.names[static_cast<std::size_t>(result->rig.target_map[Role::ForearmL].joint)],
            "mixamorig:LeftForeArm");
  const auto out_path = dir.path() / "out.glb";
  ASSERT_TRUE(write_file_atomically(out_path.string(), result->glb));
  auto out = read_rigged_model(out_path.string());
  ASSERT_TRUE(out) << out.error().to_string();
  auto animation = find_animation(*out, "16_15");
  ASSERT_TRUE(animation);
  const Measured m = measure(*result, clip->skeleton, clip->motion, *out, **animation);
  const double median = percentile(m.angles_deg, 0.5), p95 = percentile(m.angles_deg, 0.95);
  std::printf(
      "Mixamo-named CesiumMan at 0.01 scale, turned 90 deg: scale %.4g units/m; segments median %.2f deg, "
      "p95 %.2f; %d contacts, worst slide %.2f %% of the leg (capture %.2f %%); lowest foot vertex %+.2f cm\n",
      result->rig.scale, median, p95, m.contacts, 100 * m.worst_slide_share, 100 * m.worst_capture_share,
      100 * m.lowest_foot_vertex / kScale);
  EXPECT_LE(median, 4.0);
  EXPECT_LE(p95, 10.0);
  EXPECT_GT(m.contacts, 0);
  EXPECT_LE(m.worst_extra_slide, 0.0);
  EXPECT_GE(m.lowest_foot_vertex, -0.01 * kScale);  // 1 cm of the character's own size
}

// A .glb's JSON and the rest of its bytes (the BIN chunk's header and data), to edit the JSON.
struct GlbParts {
  nlohmann::json doc;
  std::string rest;
};
GlbParts split_glb(const std::string& bytes) {
  std::uint32_t json_length = 0;
  std::memcpy(&json_length, bytes.data() + 12, 4);
  return {nlohmann::json::parse(bytes.substr(20, json_length)), bytes.substr(20 + json_length)};
}
std::string join_glb(const GlbParts& parts) {
  std::string json = parts.doc.dump();
  while (json.size() % 4 != 0) json.push_back(' ');
  std::string out = "glTF";
  const std::uint32_t header[] = {2, static_cast<std::uint32_t>(12 + 8 + json.size() + parts.rest.size()),
                                  static_cast<std::uint32_t>(json.size())};
  out.append(reinterpret_cast<const char*>(header), sizeof header);
  out.append("JSON", 4);
  return out + json + parts.rest;
}

// A node's local transform as translation, rotation and per-axis scale.
struct Trs {
  Eigen::Vector3d t = Eigen::Vector3d::Zero();
  Eigen::Quaterniond r = Eigen::Quaterniond::Identity();
  Eigen::Vector3d s = Eigen::Vector3d::Ones();
};
Trs node_trs(const nlohmann::json& node) {
  Trs trs;
  if (node.contains("matrix")) {
    Eigen::Matrix4d m;
    for (int i = 0; i < 16; ++i) m(i % 4, i / 4) = node["matrix"][static_cast<std::size_t>(i)].get<double>();
    Eigen::Matrix3d rotation, scaling;
    Eigen::Affine3d(m).computeRotationScaling(&rotation, &scaling);
    return {m.col(3).head<3>(), Eigen::Quaterniond(rotation), scaling.diagonal()};
  }
  if (node.contains("translation")) {
    for (int i = 0; i < 3; ++i) trs.t[i] = node["translation"][static_cast<std::size_t>(i)].get<double>();
  }
  if (node.contains("rotation")) {
    const auto& q = node["rotation"];
    trs.r = Eigen::Quaterniond(q[3].get<double>(), q[0].get<double>(), q[1].get<double>(), q[2].get<double>());
  }
  if (node.contains("scale")) {
    for (int i = 0; i < 3; ++i) trs.s[i] = node["scale"][static_cast<std::size_t>(i)].get<double>();
  }
  return trs;
}
void set_trs(nlohmann::json& node, const Trs& trs) {
  node.erase("matrix");
  node["translation"] = {trs.t.x(), trs.t.y(), trs.t.z()};
  const Eigen::Quaterniond r = trs.r.normalized();
  node["rotation"] = {r.x(), r.y(), r.z(), r.w()};
  node["scale"] = {trs.s.x(), trs.s.y(), trs.s.z()};
}

// Puts 1-3 random nodes (a rotation about any axis, a uniform scale in
// [0.001, 100], a translation) between node `x` and its parent, and gives x
// the chain's inverse before its own transform: in world space nothing moves.
void wrap_in_random_chain(nlohmann::json& doc, int x, std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0), exponent(-3.0, 2.0), angle(-3.14159, 3.14159);
  auto& nodes = doc["nodes"];
  const int links = 1 + static_cast<int>(rng() % 3);
  // The chain's scale, 10^[-3, 2], shared out among its links; each link
  // moved by up to a metre in the world.
  std::vector<double> share(static_cast<std::size_t>(links));
  for (double& v : share) v = 0.5 + 0.5 * unit(rng);
  const double total = exponent(rng), sum = std::accumulate(share.begin(), share.end(), 0.0);
  Eigen::Quaterniond r = Eigen::Quaterniond::Identity();  // the chain C = (t, r, s), a similarity
  Eigen::Vector3d t = Eigen::Vector3d::Zero();
  double s = 1.0;
  int top = -1, bottom = -1;
  for (int k = 0; k < links; ++k) {
    Trs link;
    link.r = Eigen::Quaterniond(
        Eigen::AngleAxisd(angle(rng), Eigen::Vector3d(unit(rng), unit(rng), unit(rng)).normalized()));
    link.s = Eigen::Vector3d::Constant(std::pow(10.0, total * share[static_cast<std::size_t>(k)] / sum));
    link.t = Eigen::Vector3d(unit(rng), unit(rng), unit(rng)) / s;
    t += r * (s * link.t);
    r = r * link.r;
    s *= link.s.x();
    nlohmann::json node = {{"name", "chain " + std::to_string(x) + "." + std::to_string(k)}};
    set_trs(node, link);
    nodes.push_back(node);
    const int index = static_cast<int>(nodes.size()) - 1;
    if (bottom >= 0) nodes[static_cast<std::size_t>(bottom)]["children"] = {index};
    if (top < 0) top = index;
    bottom = index;
  }
  // x's place in its parent's children (or the scene's roots) goes to the chain.
  bool found = false;
  for (auto& node : nodes) {
    if (!node.contains("children")) continue;
    for (auto& child : node["children"]) {
      if (child.get<int>() == x) {
        child = top;
        found = true;
      }
    }
  }
  for (auto& scene : doc["scenes"]) {
    for (auto& root : scene["nodes"]) {
      if (root.get<int>() == x) {
        root = top;
        found = true;
      }
    }
  }
  ASSERT_TRUE(found) << "node " << x << " is in no scene";
  nodes[static_cast<std::size_t>(bottom)]["children"] = {x};
  // x's new local: C^-1 * L, still a translation, rotation and scale along its own axes.
  const Trs local = node_trs(nodes[static_cast<std::size_t>(x)]);
  const Eigen::Quaterniond r_inverse = r.conjugate();
  set_trs(nodes[static_cast<std::size_t>(x)], {r_inverse * (local.t - t) / s, r_inverse * local.r, local.s / s});
}

// The world positions of the named nodes of a retargeted .glb at every frame of its animation `clip`.
std::map<std::string, std::vector<Eigen::Vector3d>> joint_tracks(const std::string& glb, const std::string& clip,
                                                                 int frames, double fps,
                                                                 const std::vector<std::string>& names) {
  std::map<std::string, std::vector<Eigen::Vector3d>> tracks;
  auto model = read_rigged_glb(glb, "out.glb");
  EXPECT_TRUE(model) << model.error().to_string();
  if (!model) return tracks;
  auto animation = find_animation(*model, clip);
  EXPECT_TRUE(animation);
  if (!animation) return tracks;
  ModelPose pose = rest_pose(*model);
  std::vector<Eigen::Affine3d> world(model->nodes.size());
  for (int f = 0; f < frames; ++f) {
    sample_animation(*model, **animation, f / fps, pose);
    node_world_transforms(*model, pose, world);
    for (const std::string& name : names) {
      const int n = model->find_node(name);
      EXPECT_GE(n, 0) << name;
      if (n >= 0) tracks[name].push_back(world[static_cast<std::size_t>(n)].translation());
    }
  }
  return tracks;
}

// The same character under other parent chains (rotations about any axis,
// scales 0.001-100, translations; the inverse below, so that it is the same
// in world space), and its skinned meshes' own nodes given any transform
// (which glTF ignores): the retargeted joints are where they are without
// them, in the file as read back, within 0.1 mm (of a character in metres).
TEST(Retarget, TheSameWorldUnderAnyParentChain) {
  REQUIRE_SHARED_MODELS();
  auto clip = read_cmu("16", "16_15");
  ASSERT_TRUE(clip);
  Motion motion = clip->motion;  // 0.4 s of the walk: positions, not contacts, are compared
  const int kept = std::min(48, motion.frame_count());
  motion.frame_numbers.resize(static_cast<std::size_t>(kept));
  motion.values.resize(static_cast<std::size_t>(kept) * static_cast<std::size_t>(motion.channel_count));
  std::vector<std::filesystem::path> models{khronos("CesiumMan.glb")};
  for (const char* name : {"kaykit_knight.glb", "orangejuice_male_base_mesh.glb"}) {
    const auto path = test::shared_data_dir() / "characters" / name;
    if (std::filesystem::exists(path)) {
      models.push_back(path);
    } else if (test::under_ci()) {
      ADD_FAILURE() << "CI: no " << path;
    }
  }
  test::TempDir dir;
  std::mt19937 rng(20261207);
  for (const auto& model_path : models) {
    SCOPED_TRACE(model_path.filename().string());
    const std::string bytes = test::read_text(model_path);
    auto base = retarget_model_file(clip->skeleton, motion, "16.asf", model_path.string(), "walk");
    ASSERT_TRUE(base) << base.error().to_string();
    const std::vector<std::string> joints = base->model.joint_names();
    const auto expected = joint_tracks(base->glb, "walk", motion.frame_count(), motion.fps, joints);
    const GlbParts parts = split_glb(bytes);
    // The nodes to wrap: the skin's top joints and every mesh node.
    std::vector<int> wrapped;
    std::vector<bool> is_joint(parts.doc["nodes"].size(), false), has_joint_parent(is_joint.size(), false);
    for (const auto& skin : parts.doc["skins"]) {
      for (const auto& j : skin["joints"]) is_joint[j.get<std::size_t>()] = true;
    }
    for (std::size_t n = 0; n < is_joint.size(); ++n) {
      for (const auto& c : parts.doc["nodes"][n].value("children", nlohmann::json::array())) {
        if (is_joint[n]) has_joint_parent[c.get<std::size_t>()] = true;
      }
    }
    for (std::size_t n = 0; n < is_joint.size(); ++n) {
      if ((is_joint[n] && !has_joint_parent[n]) || parts.doc["nodes"][n].contains("mesh")) {
        wrapped.push_back(static_cast<int>(n));
      }
    }
    double worst = 0.0;
    std::string worst_at;
    for (int chain = 0; chain < 20; ++chain) {
      GlbParts edited = parts;
      for (int x : wrapped) wrap_in_random_chain(edited.doc, x, rng);
      // A skinned mesh's own node does not place it (glTF: its vertices are
      // in the skin's space): any transform there, as FBX2glTF's rotated,
      // 0.01-scaled node above a Mixamo mesh, changes nothing either.
      for (auto& node : edited.doc["nodes"]) {
        if (!node.contains("mesh") || !node.contains("skin")) continue;
        std::uniform_real_distribution<double> unit(-1.0, 1.0), exponent(-3.0, 2.0);
        Trs any;
        any.r = Eigen::Quaterniond(
            Eigen::AngleAxisd(3.0 * unit(rng), Eigen::Vector3d(unit(rng), unit(rng), unit(rng)).normalized()));
        any.s = Eigen::Vector3d::Constant(std::pow(10.0, exponent(rng)));
        any.t = Eigen::Vector3d(unit(rng), unit(rng), unit(rng));
        set_trs(node, any);
      }
      const auto path = dir.path() / ("chain" + std::to_string(chain) + ".glb");
      ASSERT_TRUE(write_file_atomically(path.string(), join_glb(edited)));
      auto result = retarget_model_file(clip->skeleton, motion, "16.asf", path.string(), "walk");
      ASSERT_TRUE(result) << "chain " << chain << ": " << result.error().to_string();
      const auto got = joint_tracks(result->glb, "walk", motion.frame_count(), motion.fps, joints);
      for (const auto& [name, track] : expected) {
        const auto it = got.find(name);
        ASSERT_NE(it, got.end()) << name;
        for (std::size_t f = 0; f < track.size(); ++f) {
          const double d = (it->second[f] - track[f]).norm();
          if (d > worst) {
            worst = d;
            worst_at = "chain " + std::to_string(chain) + ", " + name + ", frame " + std::to_string(f);
          }
        }
      }
    }
    std::printf("%s under 20 random parent chains: worst joint %.4f mm (%s)\n", model_path.filename().c_str(),
                1000 * worst, worst_at.c_str());
    EXPECT_LE(worst, 1e-4) << worst_at;
  }
}

// glTF lets names repeat: CesiumMan with its right hand renamed as its
// forearm (two joints of one skin called the same, which Assimp alone
// refuses) and an IK target node called as its left foot beside the
// skeleton. The file is read, every joint is keyed by its own index (the
// joints land where they land in the file with unique names, within 0.1
// mm), the IK target is left alone, --print-map names the repeated joints
// with their index, and --map may name one by index.
TEST(Retarget, RepeatedNodeNamesAreReadAndKeyedByIndex) {
  REQUIRE_SHARED_MODELS();
  auto clip = read_cmu("09", "09_06");
  ASSERT_TRUE(clip);
  const std::string bytes = test::read_text(khronos("CesiumMan.glb"));
  GlbParts parts = split_glb(bytes);
  auto& nodes = parts.doc["nodes"];
  auto index_of = [&](const std::string& name) {
    for (std::size_t n = 0; n < nodes.size(); ++n)
      if (nodes[n].value("name", "") == name) return static_cast<int>(n);
    return -1;
  };
  const int hand = index_of("Skeleton_arm_joint_R__3_"), foot = index_of("leg_joint_L_3");
  ASSERT_GE(hand, 0);
  ASSERT_GE(foot, 0);
  nodes[static_cast<std::size_t>(hand)]["name"] = "Skeleton_arm_joint_R__2_";
  nodes.push_back({{"name", "leg_joint_L_3"}, {"translation", {0.3, 0.0, 0.2}}});
  const int target = static_cast<int>(nodes.size()) - 1;
  parts.doc["scenes"][0]["nodes"].push_back(target);
  test::TempDir dir;
  const auto path = dir.path() / "repeated.glb";
  ASSERT_TRUE(write_file_atomically(path.string(), join_glb(parts)));
  auto base = retarget_model_file(clip->skeleton, clip->motion, "09.asf", khronos("CesiumMan.glb").string(), "run");
  ASSERT_TRUE(base) << base.error().to_string();
  auto repeated = retarget_model_file(clip->skeleton, clip->motion, "09.asf", path.string(), "run");
  ASSERT_TRUE(repeated) << repeated.error().to_string();
  // The same world positions, node by glTF index.
  auto tracks = [&](const std::string& glb) {
    std::map<int, std::vector<Eigen::Vector3d>> out;
    auto model = read_rigged_glb(glb, "out.glb");
    EXPECT_TRUE(model) << model.error().to_string();
    if (!model) return out;
    auto animation = find_animation(*model, "run");
    EXPECT_TRUE(animation);
    if (!animation) return out;
    ModelPose pose = rest_pose(*model);
    std::vector<Eigen::Affine3d> world(model->nodes.size());
    for (int f = 0; f < clip->motion.frame_count(); ++f) {
      sample_animation(*model, **animation, f / clip->motion.fps, pose);
      node_world_transforms(*model, pose, world);
      for (const ModelJoint& joint : model->joints) {
        out[model->nodes[static_cast<std::size_t>(joint.node)].source].push_back(world[joint.node].translation());
      }
    }
    return out;
  };
  const auto expected = tracks(base->glb), got = tracks(repeated->glb);
  ASSERT_FALSE(expected.empty());
  double worst = 0.0;
  for (const auto& [source, track] : expected) {
    ASSERT_TRUE(got.contains(source)) << "glTF node " << source;
    for (std::size_t f = 0; f < track.size(); ++f) worst = std::max(worst, (got.at(source)[f] - track[f]).norm());
  }
  std::printf("CesiumMan with repeated names: worst joint %.4f mm off the unique-named file's\n", 1000 * worst);
  EXPECT_LE(worst, 1e-4);
  // No channel moves the IK target; the renamed hand has its own.
  const nlohmann::json out = split_glb(repeated->glb).doc;
  bool hand_keyed = false;
  for (const auto& channel : out["animations"][0]["channels"]) {
    EXPECT_NE(channel["target"]["node"].get<int>(), target);
    hand_keyed = hand_keyed || channel["target"]["node"].get<int>() == hand;
  }
  EXPECT_TRUE(hand_keyed);
  EXPECT_EQ(out["nodes"][static_cast<std::size_t>(hand)]["name"], "Skeleton_arm_joint_R__2_");
  // --print-map's names; --map by index.
  const std::string map = describe_bone_map(clip->skeleton, "09.asf", repeated->model);
  EXPECT_NE(map.find("Skeleton_arm_joint_R__2_ #" + std::to_string(hand)), std::string::npos) << map;
  const auto map_path = dir.path() / "map.json";
  ASSERT_TRUE(write_file_atomically(map_path.string(), "{\"#" + std::to_string(hand) + "\": \"rwrist\"}"));
  RetargetOptions options;
  options.map_path = map_path.string();
  auto mapped = build_retarget_rig(clip->skeleton, "09.asf", repeated->model, options);
  ASSERT_TRUE(mapped) << mapped.error().to_string();
  int hand_node = -1;
  for (std::size_t n = 0; n < repeated->model.nodes.size(); ++n) {
    if (repeated->model.nodes[n].source == hand) hand_node = static_cast<int>(n);
  }
  EXPECT_EQ(mapped->target_nodes[static_cast<std::size_t>(mapped->target_map[Role::HandR].joint)], hand_node);
  EXPECT_EQ(mapped->target_map[Role::HandR].how.rfind("map ", 0), 0u) << mapped->target_map[Role::HandR].how;
}

// A COLLADA file's joints keep the names it gives them (name=), not
// Assimp's ids: RiggedFigure with every joint named "rig:<id>" (as Mixamo's
// "mixamorig:Hips" has the id "mixamorig_Hips") comes out with those names.
TEST(Retarget, ColladaJointsKeepTheirNames) {
  REQUIRE_SHARED_MODELS();
  std::string dae = test::read_text(khronos("RiggedFigure.dae"));
  std::vector<std::string> names;
  for (std::size_t at = dae.find("<node id=\""); at != std::string::npos; at = dae.find("<node id=\"", at + 1)) {
    const std::size_t end = dae.find('>', at);
    const std::string tag = dae.substr(at, end - at);
    if (tag.find("type=\"JOINT\"") == std::string::npos) continue;
    const std::size_t name_at = dae.find("name=\"", at) + 6;
    const std::size_t name_end = dae.find('"', name_at);
    names.push_back("rig:" + dae.substr(name_at, name_end - name_at));
    dae.replace(name_at, name_end - name_at, names.back());
  }
  ASSERT_GE(names.size(), 19u);
  test::TempDir dir;
  const auto path = dir.path() / "named.dae";
  ASSERT_TRUE(write_file_atomically(path.string(), dae));
  auto clip = read_cmu("09", "09_06");
  ASSERT_TRUE(clip);
  auto result = retarget_model_file(clip->skeleton, clip->motion, "09.asf", path.string(), "run");
  ASSERT_TRUE(result) << result.error().to_string();
  const nlohmann::json doc = split_glb(result->glb).doc;
  std::vector<std::string> joints;
  for (const auto& j : doc["skins"][0]["joints"]) joints.push_back(doc["nodes"][j.get<std::size_t>()]["name"]);
  for (const std::string& name : names) {
    EXPECT_NE(std::find(joints.begin(), joints.end(), name), joints.end()) << name << " is not a joint of the output";
  }
}

TEST(Retarget, MakeHumanSkeletonAndWeights) {
  REQUIRE_SHARED_MODELS();
  auto glb = makehuman_glb();
  ASSERT_TRUE(glb) << glb.error().to_string();
  test::TempDir dir;
  const auto model_path = dir.path() / "makehuman.glb";
  ASSERT_TRUE(write_file_atomically(model_path.string(), *glb));
  if (const char* keep = std::getenv("MOCAP_RETARGET_KEEP_MODEL")) std::filesystem::copy_file(model_path, keep);
  for (const char* name : {"16_15", "49_06"}) {
    SCOPED_TRACE(name);
    const std::string subject = std::string(name).substr(0, 2);
    auto clip = read_cmu(subject, name);
    ASSERT_TRUE(clip);
    auto result = retarget_model_file(clip->skeleton, clip->motion, subject + ".asf", model_path.string(), name);
    ASSERT_TRUE(result) << result.error().to_string();
    auto target = [&](Role r) {
      const int j = result->rig.target_map[r].joint;
      return j < 0 ? std::string("-") : result->rig.target_joints.names[static_cast<std::size_t>(j)];
    };
    EXPECT_EQ(target(Role::ThighL), "upperleg01.L");
    EXPECT_EQ(target(Role::ShinR), "lowerleg01.R");
    EXPECT_EQ(target(Role::ClavicleL), "clavicle.L");
    EXPECT_EQ(target(Role::UpperArmL), "upperarm01.L");
    EXPECT_EQ(target(Role::HandR), "wrist.R");
    EXPECT_EQ(target(Role::Neck), "neck01");
    const auto out_path = dir.path() / "out.glb";
    ASSERT_TRUE(write_file_atomically(out_path.string(), result->glb));
    auto out = read_rigged_model(out_path.string());
    ASSERT_TRUE(out) << out.error().to_string();
    EXPECT_EQ(out->joint_count(), 163);
    auto animation = find_animation(*out, name);
    ASSERT_TRUE(animation);
    const Measured m = measure(*result, clip->skeleton, clip->motion, *out, **animation);
    const double median = percentile(m.angles_deg, 0.5), p95 = percentile(m.angles_deg, 0.95);
    std::printf(
        "MakeHuman rig (163 bones) %s: segments median %.2f deg, p95 %.2f, max %.2f; %d contacts, worst slide "
        "%.2f %% of the leg (capture %.2f %%); lowest foot vertex %+.2f cm (%d vertices); lowest hand vertex %+.2f cm "
        "(frame %d)\n",
        name, median, p95, percentile(m.angles_deg, 1.0), m.contacts, 100 * m.worst_slide_share,
        100 * m.worst_capture_share, 100 * m.lowest_foot_vertex, m.foot_vertices, 100 * m.lowest_hand_vertex,
        m.lowest_hand_frame);
    EXPECT_LE(median, 4.0);
    EXPECT_LE(p95, 10.0);
    EXPECT_LE(m.worst_extra_slide, 0.0);
    EXPECT_GE(m.lowest_foot_vertex, -0.01);
    if (std::string(name) == "49_06") {
      EXPECT_GE(m.lowest_hand_vertex, -0.05);  // -28.7 cm before the hands' floor
    }
  }
}

// The twist about unit `axis` of rotation q, radians in (-pi, pi].
double twist_about(const Eigen::Quaterniond& q, const Eigen::Vector3d& axis) {
  double angle = 2.0 * std::atan2(q.vec().dot(axis), q.w());
  if (angle > std::numbers::pi) angle -= 2.0 * std::numbers::pi;
  if (angle < -std::numbers::pi) angle += 2.0 * std::numbers::pi;
  return angle;
}

// Twist bones on the MakeHuman rig, in its own chains (lowerarm02 between
// lowerarm01 and wrist) and as Unreal-style leaves: each takes its share of
// the forearm's twist (the hand's turn about the forearm relative to the
// forearm's), read back from the written file, while every mapped segment
// and the skin on the twist bone follow the capture.
TEST(Retarget, TwistBonesTakeTheirShare) {
  REQUIRE_SHARED_MODELS();
  for (const bool leaf : {false, true}) {
    SCOPED_TRACE(leaf ? "leaf twist bones" : "twist bones in the chain");
    auto glb = makehuman_glb(leaf);
    ASSERT_TRUE(glb) << glb.error().to_string();
    test::TempDir dir;
    const auto model_path = dir.path() / "makehuman.glb";
    ASSERT_TRUE(write_file_atomically(model_path.string(), *glb));
    for (const char* name : {"16_15", "49_06"}) {
      SCOPED_TRACE(name);
      const std::string subject = std::string(name).substr(0, 2);
      auto clip = read_cmu(subject, name);
      ASSERT_TRUE(clip);
      auto result = retarget_model_file(clip->skeleton, clip->motion, subject + ".asf", model_path.string(), name);
      ASSERT_TRUE(result) << result.error().to_string();
      const RetargetRig& rig = result->rig;
      auto node_name = [&](int n) { return result->model.nodes[static_cast<std::size_t>(n)].name; };
      std::map<std::string, TwistNode> twists;
      for (const TwistNode& t : rig.twists) twists[node_name(t.node)] = t;
      for (const char* bone : {"upperarm02.L", "lowerarm02.L", "upperleg02.R", "lowerleg02.R"}) {
        EXPECT_TRUE(twists.contains(bone)) << bone;
      }
      ASSERT_TRUE(twists.contains("lowerarm02.L") && twists.contains("lowerarm02.R"));
      const auto out_path = dir.path() / "out.glb";
      ASSERT_TRUE(write_file_atomically(out_path.string(), result->glb));
      auto out = read_rigged_model(out_path.string());
      ASSERT_TRUE(out) << out.error().to_string();
      auto animation = find_animation(*out, name);
      ASSERT_TRUE(animation);
      const Measured m = measure(*result, clip->skeleton, clip->motion, *out, **animation);
      const double median = percentile(m.angles_deg, 0.5), p95 = percentile(m.angles_deg, 0.95);
      EXPECT_LE(median, 4.0);
      EXPECT_LE(p95, 10.0);
      // Per forearm: the frame where the hand twists most about it.
      ModelPose pose = rest_pose(*out);
      std::vector<Eigen::Affine3d> world(out->nodes.size());
      std::vector<SkinMatrix> skinning(out->joints.size());
      for (const char* bone : {"lowerarm02.L", "lowerarm02.R"}) {
        const TwistNode& t = twists.at(bone);
        EXPECT_EQ(node_name(t.near), std::string("lowerarm01.") + bone[11]);
        EXPECT_EQ(node_name(t.far), std::string("wrist.") + bone[11]);
        EXPECT_GT(t.share, 0.2);
        EXPECT_LT(t.share, 0.8);
        const int x = out->find_node(bone), near = out->find_node(node_name(t.near)),
                  far = out->find_node(node_name(t.far));
        ASSERT_TRUE(x >= 0 && near >= 0 && far >= 0);
        auto turn = [&](int out_node, int rig_node) {
          return Eigen::Quaterniond(world[static_cast<std::size_t>(out_node)].linear()).normalized() *
                 rig.bind_world_rotation[static_cast<std::size_t>(rig_node)].conjugate();
        };
        // Vertices the twist bone carries most, in the bind pose.
        std::vector<int> carried;
        for (std::size_t v = 0; v < out->weights.size(); ++v) {
          if (out->joints[out->weights[v].bone[0]].node == x) carried.push_back(static_cast<int>(v));
        }
        ASSERT_FALSE(carried.empty());
        auto skinned_centroid = [&]() {
          Eigen::Vector3d sum = Eigen::Vector3d::Zero();
          for (int v : carried) {
            const VertexWeights& w = out->weights[static_cast<std::size_t>(v)];
            const Eigen::Vector3f& p = out->mesh.positions[static_cast<std::size_t>(v)];
            const Eigen::Vector4f h(p.x(), p.y(), p.z(), 1.0f);
            Eigen::Vector3f s = Eigen::Vector3f::Zero();
            for (int i = 0; i < kMaxInfluences; ++i)
              s += w.weight[static_cast<std::size_t>(i)] * (skinning[w.bone[static_cast<std::size_t>(i)]] * h);
            sum += s.cast<double>();
          }
          return (sum / static_cast<double>(carried.size())).eval();
        };
        // The centroid's direction from the elbow against the forearm's, in degrees.
        auto centroid_angle = [&]() {
          const Eigen::Vector3d e = world[static_cast<std::size_t>(near)].translation();
          const Eigen::Vector3d fore = world[static_cast<std::size_t>(far)].translation() - e;
          return std::acos(std::clamp((skinned_centroid() - e).normalized().dot(fore.normalized()), -1.0, 1.0)) *
                 180.0 / std::numbers::pi;
        };
        model_skinning_matrices(*out, rest_pose(*out), world, skinning);
        const double bind_angle = centroid_angle();
        int worst = 0;
        double worst_twist = 0.0;
        for (int f = 0; f < clip->motion.frame_count(); ++f) {
          sample_animation(*out, **animation, f / clip->motion.fps, pose);
          model_skinning_matrices(*out, pose, world, skinning);
          const Eigen::Quaterniond n = turn(near, t.near);
          const double tw = twist_about(turn(far, t.far) * n.conjugate(), n * t.axis);
          if (std::abs(tw) > std::abs(worst_twist)) {
            worst_twist = tw;
            worst = f;
          }
        }
        sample_animation(*out, **animation, worst / clip->motion.fps, pose);
        model_skinning_matrices(*out, pose, world, skinning);
        const Eigen::Quaterniond n = turn(near, t.near);
        const Eigen::Quaterniond own = turn(x, t.node) * n.conjugate();  // the twist bone against the forearm
        const double own_twist = twist_about(own, n * t.axis);
        const double off_bind = 2.0 * std::acos(std::min(1.0, std::abs(own.w())));
        const double skin_angle = centroid_angle();
        std::printf(
            "MakeHuman %s %s %s: share %.2f; frame %d: hand twist %.1f deg, %s twist %.1f deg (%.1f deg off its "
            "bind pose); its skin %.2f deg off the forearm (bind %.2f); segments median %.2f deg, p95 %.2f\n",
            leaf ? "leaf" : "chain", name, bone, t.share, worst, worst_twist * 180 / std::numbers::pi, bone,
            own_twist * 180 / std::numbers::pi, off_bind * 180 / std::numbers::pi, skin_angle, bind_angle, median, p95);
        EXPECT_GT(std::abs(worst_twist), 10.0 * std::numbers::pi / 180);  // the forearm does twist
        EXPECT_NEAR(own_twist, t.share * worst_twist, 0.5 * std::numbers::pi / 180);
        EXPECT_GT(off_bind, 3.0 * std::numbers::pi / 180);  // no longer at its bind pose
        EXPECT_NEAR(skin_angle, bind_angle, 2.0);           // the skin stays on the forearm
      }
    }
  }
}

// CesiumMan with its left and right names swapped ("leg_joint_L_1" becomes
// "leg_joint_R_1", ...), the glTF's JSON edited, its binary chunk kept.
std::string mirrored_cesium() {
  const std::string bytes = test::read_text(khronos("CesiumMan.glb"));
  std::uint32_t json_length = 0;
  std::memcpy(&json_length, bytes.data() + 12, 4);
  nlohmann::json doc = nlohmann::json::parse(bytes.substr(20, json_length));
  for (auto& node : doc["nodes"]) {
    std::string name = node.value("name", "");
    for (std::size_t at = name.find("joint_"); at != std::string::npos; at = name.find("joint_", at + 1)) {
      char& side = name[at + 6];
      if (side == 'L' || side == 'R') side = side == 'L' ? 'R' : 'L';
    }
    node["name"] = name;
  }
  std::string json = doc.dump();
  while (json.size() % 4 != 0) json.push_back(' ');
  std::string out = bytes.substr(0, 12);
  const std::string rest = bytes.substr(20 + json_length);
  const auto total = static_cast<std::uint32_t>(12 + 8 + json.size() + rest.size());
  const auto length = static_cast<std::uint32_t>(json.size());
  std::memcpy(out.data() + 8, &total, 4);
  out.append(reinterpret_cast<const char*>(&length), 4);
  out.append("JSON", 4);
  out += json + rest;
  return out;
}

// Mirrored names do not turn the character round: the roles land on the same
// joints as on CesiumMan itself (its geometric left thigh plays thigh.L,
// named leg_joint_R_1 now), the capture is turned the same way, and the
// written file follows the capture as closely.
TEST(Retarget, MirroredLeftRightNamesAreSwappedBack) {
  REQUIRE_SHARED_MODELS();
  test::TempDir dir;
  const auto model_path = dir.path() / "mirrored_cesium.glb";
  ASSERT_TRUE(write_file_atomically(model_path.string(), mirrored_cesium()));
  auto clip = read_cmu("16", "16_15");
  ASSERT_TRUE(clip);
  std::array<double, 2> median{}, p95{};
  std::array<std::optional<RetargetFileResult>, 2> results;
  for (int mirrored = 0; mirrored < 2; ++mirrored) {
    const std::string path = mirrored ? model_path.string() : khronos("CesiumMan.glb").string();
    auto result = retarget_model_file(clip->skeleton, clip->motion, "16.asf", path, "16_15");
    ASSERT_TRUE(result) << result.error().to_string();
    const auto out_path = dir.path() / "out.glb";
    ASSERT_TRUE(write_file_atomically(out_path.string(), result->glb));
    auto out = read_rigged_model(out_path.string());
    ASSERT_TRUE(out) << out.error().to_string();
    auto animation = find_animation(*out, "16_15");
    ASSERT_TRUE(animation);
    const Measured m = measure(*result, clip->skeleton, clip->motion, *out, **animation);
    median[static_cast<std::size_t>(mirrored)] = percentile(m.angles_deg, 0.5);
    p95[static_cast<std::size_t>(mirrored)] = percentile(m.angles_deg, 0.95);
    std::printf("CesiumMan%s 16_15: segments median %.2f deg, p95 %.2f; %d contacts, worst slide %.2f %% of the leg\n",
                mirrored ? " with mirrored names" : "", median[static_cast<std::size_t>(mirrored)],
                p95[static_cast<std::size_t>(mirrored)], m.contacts, 100 * m.worst_slide_share);
    results[static_cast<std::size_t>(mirrored)] = std::move(*result);
  }
  const RetargetRig &plain = results[0]->rig, &swapped = results[1]->rig;
  EXPECT_FALSE(plain.target_map.sides_swapped);
  EXPECT_FALSE(plain.capture_map.sides_swapped);
  EXPECT_TRUE(swapped.target_map.sides_swapped);
  for (int r = 0; r < kRoleCount; ++r) {
    EXPECT_EQ(swapped.target_map.roles[static_cast<std::size_t>(r)].joint,
              plain.target_map.roles[static_cast<std::size_t>(r)].joint)
        << role_name(static_cast<Role>(r));
  }
  EXPECT_EQ(swapped.target_joints.names[static_cast<std::size_t>(swapped.target_map[Role::ThighL].joint)],
            "leg_joint_R_1");
  EXPECT_NE(swapped.target_map[Role::ThighL].how.find("sides swapped"), std::string::npos);
  EXPECT_LT(swapped.align.angularDistance(plain.align), 1e-6);  // facing the same way
  EXPECT_NEAR(median[1], median[0], 0.01);
  EXPECT_NEAR(p95[1], p95[0], 0.01);
  const std::string printed =
      format_bone_map(swapped.capture_joints, swapped.capture_map, swapped.target_joints, swapped.target_map);
  EXPECT_NE(printed.find("left/right swapped on the model"), std::string::npos) << printed;
}

// Fingers where both have them: CMU's lfingers and lthumb onto MakeHuman's
// finger3-1 and finger1-1 (and the other fingers' first joints). Measured on
// the written file: each finger bends off its hand (the angle between the
// hand's segment, wrist to the middle finger's first joint, and the finger's
// first segment) as the capture's finger bone bends off its hand (wrist to
// where lfingers starts) on every frame. Before fingers were mapped they kept
// the bind pose's bend.
TEST(Retarget, FingersFollowTheCapture) {
  REQUIRE_SHARED_MODELS();
  auto glb = makehuman_glb();
  ASSERT_TRUE(glb) << glb.error().to_string();
  test::TempDir dir;
  const auto model_path = dir.path() / "makehuman.glb";
  ASSERT_TRUE(write_file_atomically(model_path.string(), *glb));
  for (const char* name : {"16_15", "49_06"}) {
    SCOPED_TRACE(name);
    const std::string subject = std::string(name).substr(0, 2);
    auto clip = read_cmu(subject, name);
    ASSERT_TRUE(clip);
    auto result = retarget_model_file(clip->skeleton, clip->motion, subject + ".asf", model_path.string(), name);
    ASSERT_TRUE(result) << result.error().to_string();
    const RetargetRig& rig = result->rig;
    auto target = [&](Role r) {
      const int j = rig.target_map[r].joint;
      return j < 0 ? std::string("-") : rig.target_joints.names[static_cast<std::size_t>(j)];
    };
    auto capture = [&](Role r) {
      const int j = rig.capture_map[r].joint;
      return j < 0 ? std::string("-") : rig.capture_joints.names[static_cast<std::size_t>(j)];
    };
    EXPECT_EQ(target(Role::FingersL), "finger3-1.L");
    EXPECT_EQ(target(Role::ThumbR), "finger1-1.R");
    EXPECT_EQ(capture(Role::FingersL), "lfingers");
    EXPECT_EQ(capture(Role::ThumbR), "rthumb");
    EXPECT_EQ(rig.target_map.other_fingers[0].size(), 3u);
    const auto out_path = dir.path() / "out.glb";
    ASSERT_TRUE(write_file_atomically(out_path.string(), result->glb));
    auto out = read_rigged_model(out_path.string());
    ASSERT_TRUE(out) << out.error().to_string();
    auto animation = find_animation(*out, name);
    ASSERT_TRUE(animation);
    ModelPose pose = rest_pose(*out);
    std::vector<Eigen::Affine3d> world(out->nodes.size());
    std::vector<SkinMatrix> skinning(out->joints.size());
    Pose capture_pose = make_pose(clip->skeleton);
    std::vector<Eigen::Vector3d> cpos(clip->skeleton.bones.size());
    std::vector<Eigen::Quaterniond> crot(clip->skeleton.bones.size());
    auto angle = [](const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
      return std::acos(std::clamp(a.normalized().dot(b.normalized()), -1.0, 1.0)) * 180.0 / std::numbers::pi;
    };
    struct Finger {
      Role role, hand, knuckle;  // the finger, its hand, the role the hand's segment ends at
      const char* second;        // the model finger's second joint
    };
    const Finger fingers[] = {{Role::FingersL, Role::HandL, Role::FingersL, "finger3-2.L"},
                              {Role::FingersR, Role::HandR, Role::FingersR, "finger3-2.R"},
                              {Role::ThumbL, Role::HandL, Role::FingersL, "finger1-2.L"},
                              {Role::ThumbR, Role::HandR, Role::FingersR, "finger1-2.R"}};
    for (const Finger& finger : fingers) {
      const int hand = out->find_node(target(finger.hand)), knuckle = out->find_node(target(finger.knuckle)),
                first = out->find_node(target(finger.role)), second = out->find_node(finger.second);
      ASSERT_TRUE(hand >= 0 && knuckle >= 0 && first >= 0 && second >= 0);
      const int c_hand = rig.capture_map[finger.hand].joint, c_knuckle = rig.capture_map[finger.knuckle].joint,
                c_finger = rig.capture_map[finger.role].joint;
      auto pos = [&](int n) { return world[static_cast<std::size_t>(n)].translation(); };
      auto J = [&](int x) {
        return cpos[static_cast<std::size_t>(rig.capture_point_bone[static_cast<std::size_t>(x)])];
      };
      auto model_bend = [&] { return angle(pos(knuckle) - pos(hand), pos(second) - pos(first)); };
      auto capture_bend = [&] {
        return angle(J(c_knuckle) - J(c_hand), cpos[static_cast<std::size_t>(c_finger)] - J(c_finger));
      };
      model_skinning_matrices(*out, rest_pose(*out), world, skinning);
      const double model_bind = model_bend();
      forward_kinematics(clip->skeleton, rest_pose(clip->skeleton), cpos, crot);
      const double capture_rest = capture_bend();
      std::vector<double> errors;
      double lo = 1e9, hi = -1e9;
      for (int f = 0; f < clip->motion.frame_count(); ++f) {
        sample_animation(*out, **animation, f / clip->motion.fps, pose);
        model_skinning_matrices(*out, pose, world, skinning);
        pose_from_channels(clip->skeleton, clip->motion.frame(f), capture_pose);
        forward_kinematics(clip->skeleton, capture_pose, cpos, crot);
        const double c = capture_bend();
        lo = std::min(lo, c);
        hi = std::max(hi, c);
        errors.push_back(std::abs(model_bend() - c));
      }
      std::printf(
          "MakeHuman %s %s (%s): capture's bend off the hand %.1f to %.1f deg (rest %.1f, model's bind %.1f); "
          "model's off the capture's by median %.2f deg, p95 %.2f\n",
          name, std::string(role_name(finger.role)).c_str(), target(finger.role).c_str(), lo, hi, capture_rest,
          model_bind, percentile(errors, 0.5), percentile(errors, 0.95));
      EXPECT_GT(hi - lo, 5.0);  // the capture's finger moves
      EXPECT_LE(percentile(errors, 0.5), 2.0);
      EXPECT_LE(percentile(errors, 0.95), 4.0);
    }
  }
}

}  // namespace
}  // namespace mocap
