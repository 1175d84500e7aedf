// Auto-rigging bodies other than the bundled humanoid (issue 29): the
// humanoid cut into parts with armour plates, eyes and teeth, turned to
// other axes and scaled (scripts/make_rig_test_meshes.py, run here into the
// test's folder), and the Khronos characters CesiumMan and RiggedFigure
// written as OBJs from their own skins; each bound with automatic weights,
// skinned by a walk and a cartwheel, and measured: limb joints inside the
// skinned mesh, edge stretch, and agreement with the artists' weights.
#include <gtest/gtest.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/atomic_write.h>
#include <mocap/rig/embed.h>
#include <mocap/rig/mesh_bind.h>
#include <mocap/rig/mesh_orientation.h>
#include <mocap/skin/skinner.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "limb_joints.h"
#include "rig/rigged_reference.h"
#include "test_data.h"

namespace mocap {
namespace {

// Where the generated meshes go: rig_meshes/ in the test's working folder (build/tests).
std::filesystem::path mesh_dir() {
  return std::filesystem::current_path() / "rig_meshes";
}

// The humanoid's test meshes, made once per run by the script.
const std::filesystem::path& humanoid_meshes() {
  static const std::filesystem::path dir = [] {
    const auto script = test::bundled_data_dir().parent_path() / "scripts" / "make_rig_test_meshes.py";
    const std::string command = "python3 '" + script.string() + "' '" + mesh_dir().string() + "' > /dev/null";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return mesh_dir();
  }();
  return dir;
}

struct TestMesh {
  std::string file;
  std::string units;
  std::string up, forward;  // what the orientation should find
  double max_worst_cm;      // the worst limb joint's bound (cm, < 0 inside), from what was measured
  double max_stretch;       // the longest edge's bound, likewise
};
// Measured (cartwheel / walk): worst limb joint -0.66 / -1.06 cm and longest
// edge 9.9x / 14.35x on every turned copy of the parts (identical figures);
// the one-piece body -0.45 / -1.06 cm, 11.6x / 14.4x; the overlapping parts
// with a pouch and a belt -0.04 / -0.01 cm (inside the body: the wrist
// passes a hair from a belt box's surface), 27.0x / 4.5x; heavy -0.61 /
// -0.56 cm, 10.9x / 18.4x; thin -0.79 / -0.86 cm, 32.4x / 7.9x; big head
// -1.61 / -1.65 cm, 5.7x / 3.2x (its arms fitted 0.69-0.72 of their placed
// lengths: the head's height made the placed skeleton taller). The long edges
// are 1-5 mm edges on upperback near the armpit (18-537 edge-frames past
// 3x): the 3x is not met by bone heat; the bounds are what it does.
const TestMesh kHumanoidMeshes[] = {
    {"parts_dm.obj", "dm", "+y", "+z", -0.3, 16.0},      {"parts_zup_m.obj", "m", "+z", "-y", -0.3, 16.0},
    {"parts_ymz_cm.obj", "cm", "+y", "-z", -0.3, 16.0},  {"body_zup_cm.obj", "cm", "+z", "+x", -0.3, 16.0},
    {"overlap_zup_cm.obj", "cm", "+z", "-y", 0.5, 30.0},  // separate overlapping parts: no weld joins them
    {"heavy_dm.obj", "dm", "+y", "+z", -0.3, 20.0},      {"thin_dm.obj", "dm", "+y", "+z", -0.5, 35.0},
    {"bighead_dm.obj", "dm", "+y", "+z", -1.3, 6.5},
};

using test::worst_limb_joint;

struct ClipMeasure {
  double worst_cm = -100.0;  // worst limb joint, bind pose and 9 frames; > 0 outside
  std::string worst_where;
  double stretch = 0.0;          // longest edge over its bind length
  double stretch_rest_mm = 0.0;  // that edge's bind length
  std::string stretch_bone;      // the dominant bone of its first vertex
  std::string stretch_where;     // its first vertex in the bind pose (mesh space, cm) and the frame
  int over_3x = 0;               // edge-frames stretched past 3x
  std::string orientation;       // what the binding found (BoundMesh::orientation)
};

// The mesh bound to the clip's skeleton and skinned at 9 frames spread over
// the clip (and the bind pose).
ClipMeasure measure(const MeshBindOptions& options, const std::filesystem::path& asf,
                    const std::filesystem::path& amc) {
  ClipMeasure m;
  Skeleton skeleton;
  Motion motion;
  if (!test::load({amc.stem().string(), asf, amc}, skeleton, motion)) return m;
  const auto bound = bind_mesh(skeleton, options);
  EXPECT_TRUE(bound) << bound.error().to_string();
  if (!bound) return m;
  m.orientation = bound->orientation;
  auto skinner = Skinner::create(bound->mesh, bound->weights, skeleton.bones.size(), SkinMethod::kLinear, 1);
  EXPECT_TRUE(skinner);
  if (!skinner) return m;
  auto consider = [&](const FitReport& report, const std::string& where) {
    const auto [d, name] = worst_limb_joint(skeleton, report);
    if (100 * d > m.worst_cm) m.worst_cm = 100 * d, m.worst_where = name + " " + where;
  };
  consider(fit_report(skeleton, bound->bind_pose, bound->bind, bound->mesh.positions, bound->mesh.triangles),
           "bind pose");
  const auto edges = mesh_edges(bound->mesh);
  Pose pose = make_pose(skeleton);
  for (int k = 0; k < 9; ++k) {
    const int f = k * (motion.frame_count() - 1) / 8;
    pose_from_channels(skeleton, motion.frame(f), pose);
    skinner->skin(skeleton, pose, bound->bind);
    consider(fit_report(skeleton, pose, bound->bind, skinner->positions(), bound->mesh.triangles),
             "frame " + std::to_string(motion.frame_numbers[f]));
    for (const auto& e : edges) {
      const float rest = (bound->mesh.positions[e[0]] - bound->mesh.positions[e[1]]).norm();
      if (rest < 1e-5f) continue;
      const float now = (skinner->positions()[e[0]] - skinner->positions()[e[1]]).norm();
      m.over_3x += now > 3.0f * rest;
      if (now / rest > m.stretch) {
        m.stretch = now / rest, m.stretch_rest_mm = 1000 * rest;
        m.stretch_bone = skeleton.bones[bound->weights[e[0]].bone[0]].name;
        const Eigen::Vector3f at = 100.0f * bound->mesh.positions[e[0]];
        char where[128];
        std::snprintf(where, sizeof where, "(%.1f %.1f %.1f) cm, frame %d", at.x(), at.y(), at.z(),
                      motion.frame_numbers[f]);
        m.stretch_where = where;
      }
    }
  }
  return m;
}

// The clips: the cartwheel (bundled) and a walk (shared; 16_05 is a jump).
struct Clip {
  std::string name;
  std::filesystem::path asf, amc;
};
std::vector<Clip> clips() {
  const auto d = test::bundled_data_dir();
  std::vector<Clip> out{{"cartwheel 49_06", d / "49.asf", d / "49_06.amc"}};
  const auto walk = test::shared_data_dir() / "cmu";
  if (std::filesystem::exists(walk / "16_15.amc")) {
    out.push_back({"walk 16_15", walk / "16.asf", walk / "16_15.amc"});
  } else {
    std::printf("no walk at %s: the cartwheel alone\n", walk.string().c_str());
  }
  return out;
}

// Bone heat, named rather than taken as the default: the figures below are its.
MeshBindOptions options_for(const std::filesystem::path& path, const std::string& units) {
  MeshBindOptions o;
  o.mesh_path = path.string();
  o.units = units;
  o.weight_method = WeightMethod::kHeat;
  return o;
}

// Up and facing found on every turned copy; the joints inside; no tearing.
TEST(EmbedBodies, HumanoidPartsTurnedAndScaled) {
  for (const TestMesh& t : kHumanoidMeshes) {
    const auto path = humanoid_meshes() / t.file;
    // The turned and scaled copies of the parts give parts_dm's figures (see
    // above): the cartwheel shows it; the walk on them only cost CI time.
    const bool turned_copy = t.file.starts_with("parts_") && t.file != "parts_dm.obj";
    for (const Clip& c : clips()) {
      if (turned_copy && !c.name.starts_with("cartwheel")) continue;
      const ClipMeasure m = measure(options_for(path, t.units), c.asf, c.amc);
      EXPECT_TRUE(m.orientation.starts_with("up " + t.up + ", facing " + t.forward)) << t.file << ": " << m.orientation;
      std::printf("%s, %s: worst limb joint %.2f cm (%s), longest edge %.2fx (%.2f mm at rest, %s at %s), %d past 3x\n",
                  t.file.c_str(), c.name.c_str(), m.worst_cm, m.worst_where.c_str(), m.stretch, m.stretch_rest_mm,
                  m.stretch_bone.c_str(), m.stretch_where.c_str(), m.over_3x);
      EXPECT_LT(m.worst_cm, t.max_worst_cm) << t.file << " " << c.name << ": " << m.worst_where;
      EXPECT_LT(m.stretch, t.max_stretch) << t.file << " " << c.name;
    }
  }
}

// The humanoid with its arms hanging at its sides, made here: bound in its
// A-pose (data/makehuman_apose.amc) and skinned to that pose with the upper
// arms at rz 78 degrees (the A-pose's 42; 90 hangs straight down) and the
// elbows at 12 (the A-pose's 45), written as an OBJ (decimetres). The hands
// hang at hip height, 25 cm out from the middle and in front of the thighs;
// the armpits closed as bone heat closes them.
std::filesystem::path arms_down_mesh() {
  const auto path = mesh_dir() / "arms_down_dm.obj";
  std::filesystem::create_directories(mesh_dir());
  const auto clip = test::load_bundled("09_06");
  MeshBindOptions o = options_for(test::bundled_data_dir() / "humanoid.obj", "dm");
  o.bind_pose_amc = (test::bundled_data_dir() / "makehuman_apose.amc").string();
  const auto bound = bind_mesh(clip.skeleton, o);
  EXPECT_TRUE(bound) << bound.error().to_string();
  if (!bound) return path;
  // The pose: the A-pose file with the arms' lines replaced.
  std::string amc;
  std::istringstream lines(test::read_text(o.bind_pose_amc));
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("lhumerus ")) {
      amc += "lhumerus -5 5 78\n";
    } else if (line.starts_with("rhumerus ")) {
      amc += "rhumerus -5 -5 -78\n";
    } else if (line.starts_with("lradius ") || line.starts_with("rradius ")) {
      amc += line.substr(0, 8) + "12\n";
    } else {
      amc += line + "\n";
    }
  }
  const auto amc_path = mesh_dir() / "arms_down.amc";
  EXPECT_TRUE(write_file_atomically(amc_path.string(), amc));
  const auto motion = read_amc(amc_path.string(), clip.skeleton, 120.0);
  EXPECT_TRUE(motion) << motion.error().to_string();
  if (!motion) return path;
  Pose pose = make_pose(clip.skeleton);
  pose_from_channels(clip.skeleton, motion->frame(0), pose);
  auto skinner = Skinner::create(bound->mesh, bound->weights, clip.skeleton.bones.size(), SkinMethod::kLinear, 1);
  EXPECT_TRUE(skinner);
  if (!skinner) return path;
  skinner->skin(clip.skeleton, pose, bound->bind);
  const std::string text = format_obj(bound->mesh, skinner->positions(), skinner->normals(), 0.1);
  EXPECT_TRUE(write_file_atomically(path.string(), text));
  return path;
}

TEST(EmbedBodies, ArmsHangingAtTheSides) {
  const auto path = arms_down_mesh();
  for (const Clip& c : clips()) {
    const ClipMeasure m = measure(options_for(path, "dm"), c.asf, c.amc);
    std::printf(
        "arms_down_dm.obj, %s: worst limb joint %.2f cm (%s), longest edge %.2fx (%.2f mm at rest, %s at %s), %d past "
        "3x\n",
        c.name.c_str(), m.worst_cm, m.worst_where.c_str(), m.stretch, m.stretch_rest_mm, m.stretch_bone.c_str(),
        m.stretch_where.c_str(), m.over_3x);
    // Measured: worst -0.51 cm (cartwheel), -0.73 cm (walk); longest edge 9.2x / 5.0x.
    EXPECT_LT(m.worst_cm, -0.3) << c.name << ": " << m.worst_where;
    EXPECT_LT(m.stretch, 10.0) << c.name;
  }
}

// MakeHuman's whole base mesh: the body with its 46 helper meshes (tights,
// proxies: offset shells) and 125 joint locator cubes inside the body, one
// OBJ group each.
TEST(EmbedBodies, MakeHumanBaseMeshWithHelpers) {
  const auto path = test::shared_data_dir() / "meshes" / "makehuman" / "base.obj";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no MakeHuman base mesh at " << path;
  for (const Clip& c : clips()) {
    const ClipMeasure m = measure(options_for(path, "dm"), c.asf, c.amc);
    std::printf(
        "base.obj, %s: worst limb joint %.2f cm (%s), longest edge %.2fx (%.2f mm at rest, %s at %s), %d past 3x\n",
        c.name.c_str(), m.worst_cm, m.worst_where.c_str(), m.stretch, m.stretch_rest_mm, m.stretch_bone.c_str(),
        m.stretch_where.c_str(), m.over_3x);
    // Measured: worst -0.41 cm (cartwheel), -0.06 cm (walk); longest edge 10.1x / 23.1x (upperback).
    EXPECT_LT(m.worst_cm, 0.5) << c.name << ": " << m.worst_where;
    EXPECT_LT(m.stretch, 25.0) << c.name;
  }
}

// Given axes replace the found ones; wrong ones are refused before any work.
TEST(EmbedBodies, UpAndForwardOverride) {
  const auto clip = test::load_bundled("49_06");
  MeshBindOptions o = options_for(humanoid_meshes() / "parts_zup_m.obj", "m");
  o.up = "+z";
  o.forward = "-y";
  const auto given = bind_mesh(clip.skeleton, o);
  ASSERT_TRUE(given) << given.error().to_string();
  EXPECT_EQ(given->orientation, "up +z, facing -y (given)");
  // The wrong axes: the skeleton lies along the mesh and limbs are not found.
  o.up = "+y";
  o.forward = "+z";
  const auto wrong = bind_mesh(clip.skeleton, o);
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().message.find("was not found in the mesh"), std::string::npos) << wrong.error().message;
  o.forward = "-y";
  EXPECT_FALSE(o.validate());  // up +y, forward -y: one axis
  o.forward = "sideways";
  EXPECT_FALSE(o.validate());
}

// CesiumMan (a big head, arms out and down) and RiggedFigure (130 welded
// vertices, triangles longer than a limb is thick): bound, skinned, and
// against their artists' weights.
TEST(EmbedBodies, KhronosCharacters) {
  const auto dir = test::shared_data_dir() / "meshes" / "khronos";
  if (!std::filesystem::exists(dir / "CesiumMan.glb")) GTEST_SKIP() << "no Khronos models at " << dir;
  std::filesystem::create_directories(mesh_dir());
  const auto clip = test::load_bundled("49_06");
  {
    const auto obj = mesh_dir() / "CesiumMan.obj";
    const auto reference = test::rigged_reference(dir / "CesiumMan.glb", obj);
    ASSERT_TRUE(reference) << reference.error().to_string();
    const auto bound = bind_mesh(clip.skeleton, options_for(obj, "m"));
    ASSERT_TRUE(bound) << bound.error().to_string();
    EXPECT_TRUE(bound->orientation.starts_with("up +y, facing +z")) << bound->orientation;
    const auto agreement = test::segment_agreement(bound->weights, clip.skeleton, *reference);
    std::printf("CesiumMan agreement (heat): %s\n", agreement.summary(8).c_str());
    RecordProperty("cesiumman_agreement", agreement.summary());
    for (const Clip& c : clips()) {
      const ClipMeasure m = measure(options_for(obj, "m"), c.asf, c.amc);
      std::printf("CesiumMan, %s: worst limb joint %.2f cm (%s), longest edge %.2fx (%.2f mm at rest, %s)\n",
                  c.name.c_str(), m.worst_cm, m.worst_where.c_str(), m.stretch, m.stretch_rest_mm,
                  m.stretch_bone.c_str());
      // Measured: worst -2.52 cm (cartwheel), -2.74 cm (walk), longest edge 2.77x / 2.67x.
      EXPECT_LT(m.worst_cm, -2.0) << c.name << ": " << m.worst_where;
      EXPECT_LT(m.stretch, 3.0) << c.name;
    }
    // Measured with heat weights: overall 0.849, arms 0.662, hands 0.602,
    // legs 0.825, spine/head 0.897. Before the arms were found from their
    // tips: overall 0.555, arms and hands 0.000 (the goal is 0.7 overall).
    EXPECT_GT(agreement.overall.fraction(), 0.82);
    EXPECT_GT(agreement.regions[int(test::BodyRegion::kArms)].fraction(), 0.63);
    EXPECT_GT(agreement.regions[int(test::BodyRegion::kHands)].fraction(), 0.57);
    EXPECT_GT(agreement.regions[int(test::BodyRegion::kLegs)].fraction(), 0.79);
  }
  {
    const auto obj = mesh_dir() / "RiggedFigure.obj";
    const auto reference = test::rigged_reference(dir / "RiggedFigure.dae", obj);
    ASSERT_TRUE(reference) << reference.error().to_string();
    const auto bound = bind_mesh(clip.skeleton, options_for(obj, "m"));
    ASSERT_TRUE(bound) << bound.error().to_string();
    const auto agreement = test::segment_agreement(bound->weights, clip.skeleton, *reference);
    std::printf("RiggedFigure agreement (heat): %s\n", agreement.summary(8).c_str());
    RecordProperty("riggedfigure_agreement", agreement.summary());
    for (const Clip& c : clips()) {
      const ClipMeasure m = measure(options_for(obj, "m"), c.asf, c.amc);
      std::printf("RiggedFigure, %s: worst limb joint %.2f cm (%s), longest edge %.2fx (%.2f mm at rest, %s)\n",
                  c.name.c_str(), m.worst_cm, m.worst_where.c_str(), m.stretch, m.stretch_rest_mm,
                  m.stretch_bone.c_str());
      // Measured: worst 0.58 cm outside (lfemur, cartwheel; within the 1 cm), -1.09 cm (walk); edges 2.55x / 2.33x.
      EXPECT_LT(m.worst_cm, 0.8) << c.name << ": " << m.worst_where;
      EXPECT_LT(m.stretch, 2.8) << c.name;
    }
    // Measured with heat weights: overall 0.619, arms 0.143 (its upper arms'
    // vertices near the shoulder go to CMU's clavicles, which it lacks: the
    // trunk), hands 0.692, legs 0.679, spine/head 0.769. Before its legs were
    // found (a bind error), with --fit height: 0.293. The goal, 0.7, is not
    // met: when the second bound fails, it is; raise the first.
    EXPECT_GT(agreement.overall.fraction(), 0.59);
    EXPECT_LT(agreement.overall.fraction(), 0.7);
  }
}

}  // namespace
}  // namespace mocap
