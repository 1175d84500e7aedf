// Auto-rigging bodies other than the bundled humanoid (issue 29): the
// humanoid cut into parts with armour plates, eyes and teeth, turned to
// other axes and scaled (scripts/make_rig_test_meshes.py, run here into the
// test's folder), the humanoid posed here with its arms hanging, in a
// T-pose and in a wide stance, and the Khronos characters CesiumMan and
// RiggedFigure written as OBJs from their own skins; each bound with automatic weights,
// skinned by a walk and a cartwheel, and measured: limb joints inside the
// skinned mesh, edge stretch, and agreement with the artists' weights.
#include <gtest/gtest.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/atomic_write.h>
#include <mocap/io/mesh.h>
#include <mocap/rig/embed.h>
#include <mocap/rig/mesh_bind.h>
#include <mocap/rig/mesh_inside.h>
#include <mocap/rig/mesh_orientation.h>
#include <mocap/skin/bind.h>
#include <mocap/skin/edge_stretch.h>
#include <mocap/skin/skinner.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <sstream>
#include <utility>
#include <vector>

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
  int max_over_3x;          // edge-frames stretched past 3x, per clip, likewise
};
// Measured with voxel weights, the default, the clavicles and thumbs
// rest-relative (embed.h step 6), the spine fitted to the neck (step 3b),
// the pelvis a girdle and the spine thick (step 7), falloff 0.1
// (voxel_weights.h step 4), the creases relaxed (voxel_weights.h step 7),
// the thorax ending at the neck's base (embed.h step 3b), 20 relaxing
// passes and the legs' stretch summed (voxel_weights.h step 7)
// (cartwheel / walk, both on subject 49's skeleton; edge-frames past 3x in
// brackets): worst limb joint -0.62 / -0.12 cm, longest edge 2.41x / 2.00x
// (0 / 0) on the parts; overlapping parts -0.01 / -0.08 cm, 2.38x / 2.00x;
// heavy -1.88 / -0.27 cm, 2.41x / 1.62x; thin -0.04 / -0.82 cm, 2.53x /
// 1.94x; big head -0.45 / -1.70 cm, 2.49x / 1.87x: none past 3x. With ten
// passes and the worst joint alone: 2.43x / 2.00x, 2.39x / 2.01x, 2.49x /
// 1.70x, 2.48x / 1.95x, 2.57x / 1.80x. Before
// the thorax ended at the neck's base (lowerneck did): -0.96 / -0.21 cm,
// 2.67x / 2.00x on the parts; overlapping parts -0.37 / -0.15 cm, 2.50x /
// 2.02x; heavy -1.94 / -0.69 cm, 2.80x / 1.87x; thin -0.17 / -0.80 cm, 2.48x
// / 1.97x; big head -0.47 / -1.70 cm, 2.57x / 1.81x. Before
// the creases were relaxed: -0.97 / -0.21 cm, 3.19x / 1.98x (3 / 0) on the parts; overlapping
// parts -0.37 / -0.15 cm, 2.72x / 2.22x (0 / 0); heavy -1.94 / -0.69 cm,
// 3.51x / 1.88x (4 / 0, its armpit with the arm overhead); thin -0.15 /
// -0.80 cm, 2.48x / 2.26x (0 / 0); big head -0.47 / -1.70 cm, 3.16x /
// 1.91x (2 / 0, the crotch). With falloff 0.5: -1.07 / -0.31 cm, 3.39x /
// 2.12x (7 / 0) on the parts; overlapping parts -0.13 / -0.02 cm, 2.75x /
// 2.38x (0 / 0); heavy -1.88 / -0.51 cm, 4.04x / 2.08x (10 / 0); thin -0.11
// / -0.82 cm, 2.55x / 2.35x (0 / 0); big head -0.18 / -1.69 cm, 3.51x /
// 1.98x (2 / 0). Before step 7: worst limb joint -1.10 / -0.31 cm, longest edge 3.52x / 2.35x
// (9 / 0) on the parts; the overlapping parts with a pouch and a belt -0.00
// / -0.05 cm, 3.38x / 2.38x (5 / 0); heavy -1.72 / -0.45 cm, 4.01x / 2.18x
// (25 / 0); thin -0.10 / -0.82 cm, 3.14x / 2.36x (3 / 0); big head -0.10 /
// -1.69 cm, 3.73x / 1.99x (9 / 0). Every walk under 3x; the cartwheel's long
// edges are at the crotch (its splits) and heavy's armpit. With the thumbs
// absolute: parts 3.79x / 3.25x (21 / 9), overlap 3.38x / 3.32x (9 / 16),
// thin 3.14x / 3.54x (3 / 89), big head 3.73x / 2.88x: the walks' longest
// edges at the thumbs' roots. Before the spine was fitted (its neck inside
// the big head, turning the head about the chin): parts 3.77x / 3.26x
// (15 / 9), overlap 3.39x / 3.32x (6 / 16), heavy 3.70x / 2.29x (22 / 0),
// thin 3.17x / 3.53x (3 / 87), big head 4.78x / 3.13x (97 / 9, at the
// neck); the limb joints -0.36 / -0.85, -0.04 / -0.41, -2.25 / -0.45,
// -0.79 / -0.82, -0.39 / -1.69 cm.
// With the clavicles posed absolute (the capture's own, before): the parts
// 3.77x / 3.26x (36 / 9), overlap 3.39x / 3.32x (18 / 16), heavy 3.86x /
// 2.58x (59 / 0), thin 3.20x / 3.53x (8 / 87), big head 4.98x / 4.95x (594 /
// 526: 27 mm edges at the clavicles, which the capture's level line lifted
// 19 cm above the mesh's sloping one); the limb joints -0.76 / -0.24,
// -0.00 / -0.13, -0.56 / -0.01, -0.79 / -0.82, -1.65 / -1.69 cm. Then the
// turned copies, when bound, gave -0.75 / -0.23 cm, 3.55x / 3.40x
// (parts_zup_m) and -0.73 cm, 3.64x (parts_ymz_cm): the solid's cells fall
// otherwise on a turned and scaled mesh, so the figures differ by a hair,
// not at all with bone heat; the one-piece body, turned, -0.55 / -0.41 cm,
// 3.91x / 3.09x (26 / 12). With bone heat (before): 9.9x to 32.4x, 18-537
// edge-frames past 3x. The bounds are what the voxel weights do, and a
// margin; the 3x is met on every body since the creases are relaxed.
// Before that, no global option reached it without a loss elsewhere (measured 2026-12-07,
// clavicles absolute, longest edge cartwheel / walk): 30 diffusion passes,
// parts 3.50x / 2.96x, base.obj 9.37x, but MakeHuman's hands 0.705,
// arms_down 4.77x and its wrist 0.30 cm outside; 25 passes, MakeHuman's legs
// 0.867; falloff 0, the bar's end weight 0.946 and base.obj 10.26x (0.1,
// the default since: see above);
// min_weight 0, no edge longer but at most 0.12x shorter (parts 3.66x /
// 3.17x, base.obj 10.59x as now), limb joints up to 0.07 cm nearer the
// surface and base.obj's walk 61 edge-frames past 3x, not 57; 256 cells
// worse on most bodies (base.obj 13.83x).
// The one-piece body and the turned copies have their orientation checked,
// not their figures: a voxel binding costs 7-10 s of CPU under ASan.
const TestMesh kHumanoidMeshes[] = {
    {"parts_dm.obj", "dm", "+y", "+z", -0.05, 2.7, 0},     {"parts_zup_m.obj", "m", "+z", "-y", -0.05, 2.7, 0},
    {"parts_ymz_cm.obj", "cm", "+y", "-z", -0.05, 2.7, 0}, {"body_zup_cm.obj", "cm", "+z", "+x", -0.05, 2.7, 0},
    {"overlap_zup_cm.obj", "cm", "+z", "-y", 0.2, 2.7, 0},  // separate overlapping parts: no weld joins them
    {"heavy_dm.obj", "dm", "+y", "+z", -0.1, 2.8, 0},      {"thin_dm.obj", "dm", "+y", "+z", 0.0, 2.8, 0},
    {"bighead_dm.obj", "dm", "+y", "+z", -0.05, 2.9, 0},
};

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

// `bound` (bound to `skeleton`) in its bind pose.
ClipMeasure measure_bind_pose(const BoundMesh& bound, const Skeleton& skeleton) {
  ClipMeasure m;
  m.orientation = bound.orientation;
  const FitReport report = fit_report(skeleton, bound.bind_pose, bound.bind, bound.mesh.positions, bound.mesh.triangles,
                                      test::bone_indices(skeleton));
  const auto [d, name] = test::worst_limb_joint(skeleton, report);
  m.worst_cm = 100 * d, m.worst_where = name + " bind pose";
  return m;
}

// `bound` (bound to `skeleton`) skinned by `motion` at 9 frames spread over
// the clip, added to `m`, its bind pose's figures (one per body, not per clip).
ClipMeasure measure(const BoundMesh& bound, const Skeleton& skeleton, const Motion& motion, ClipMeasure m) {
  auto skinner = Skinner::create(bound.mesh, bound.weights, skeleton.bones.size(), SkinMethod::kLinear, 1);
  EXPECT_TRUE(skinner);
  if (!skinner) return m;
  // fit_report measures the limb joints alone: all 31 joints cost nine
  // tenths of the measuring's CPU under ASan, 2.5 s a clip.
  const std::vector<int> limbs = test::bone_indices(skeleton);
  auto consider = [&](const Pose& pose, std::span<const Eigen::Vector3f> positions, const std::string& where) {
    const auto [d, name] = test::worst_limb_joint(
        skeleton, fit_report(skeleton, pose, bound.bind, positions, bound.mesh.triangles, limbs));
    if (100 * d > m.worst_cm) m.worst_cm = 100 * d, m.worst_where = name + " " + where;
  };
  EdgeStretch stretch = make_edge_stretch(bound.mesh, 3.0);
  Pose pose = make_pose(skeleton);
  for (int k = 0; k < 9; ++k) {
    const int f = k * (motion.frame_count() - 1) / 8;
    pose_from_channels(skeleton, motion.frame(f), pose);
    pose_for_bind(skeleton, bound.bind, pose);
    skinner->skin(skeleton, pose, bound.bind);
    consider(pose, skinner->positions(), "frame " + std::to_string(motion.frame_numbers[f]));
    add_stretch_frame(stretch, motion.frame_numbers[f], skinner->positions());
  }
  m.over_3x = static_cast<int>(stretch.past_bound);
  if (stretch.longest_edge >= 0) {
    const auto e = static_cast<std::size_t>(stretch.longest_edge);
    const int v = stretch.edges[e][0];
    m.stretch = stretch.longest, m.stretch_rest_mm = 1000 * stretch.rest[e];
    m.stretch_bone = skeleton.bones[bound.weights[v].bone[0]].name;
    const Eigen::Vector3f at = 100.0f * bound.mesh.positions[v];
    char where[128];
    std::snprintf(where, sizeof where, "(%.1f %.1f %.1f) cm, frame %d", at.x(), at.y(), at.z(), stretch.longest_frame);
    m.stretch_where = where;
  }
  return m;
}

// One line per body and clip: the worst limb joint and the stretch figures.
void print(const std::string& body, const std::string& clip, const ClipMeasure& m) {
  std::printf(
      "%s, %s: worst limb joint %.2f cm (%s), longest edge %.2fx (%.2f mm at rest, %s at %s), %d edge-frames "
      "past 3x\n",
      body.c_str(), clip.c_str(), m.worst_cm, m.worst_where.c_str(), m.stretch, m.stretch_rest_mm,
      m.stretch_bone.c_str(), m.stretch_where.c_str(), m.over_3x);
}

// The clips: the cartwheel (bundled) and a walk (shared; 16_05 is a jump),
// both on subject 49's skeleton, so that a body is bound once for both (a
// voxel binding costs 7-10 s of CPU under ASan). Subjects 16 and 49 have
// the same bones, axes and degrees of freedom (data/16.asf, data/49.asf):
// the walk's angles are the walk; only its bone lengths are 49's.
struct Clip {
  std::string name;
  Motion motion;
};
struct Clips {
  Skeleton skeleton;
  std::vector<Clip> clips;
};
const Clips& clips() {
  static const Clips out = [] {
    Clips c;
    Motion cartwheel;
    const auto d = test::bundled_data_dir();
    if (!test::load({"49_06", d / "49.asf", d / "49_06.amc"}, c.skeleton, cartwheel)) return c;
    c.clips.push_back({"cartwheel 49_06", std::move(cartwheel)});
    const auto walk = test::shared_data_dir() / "cmu" / "16_15.amc";
    if (std::filesystem::exists(walk)) {
      auto motion = read_amc(walk.string(), c.skeleton);
      EXPECT_TRUE(motion) << motion.error().to_string();
      if (motion) c.clips.push_back({"walk 16_15", std::move(*motion)});
    } else {
      std::printf("no walk at %s: the cartwheel alone\n", walk.string().c_str());
    }
    return c;
  }();
  return out;
}

// `options`' mesh bound once to the clips' skeleton and measured on each clip.
std::vector<std::pair<std::string, ClipMeasure>> measure_clips(const MeshBindOptions& options) {
  std::vector<std::pair<std::string, ClipMeasure>> out;
  const Clips& c = clips();
  const auto bound = bind_mesh(c.skeleton, options);
  EXPECT_TRUE(bound) << bound.error().to_string();
  if (!bound) return out;
  const ClipMeasure bind_pose = measure_bind_pose(*bound, c.skeleton);
  for (const Clip& clip : c.clips) out.emplace_back(clip.name, measure(*bound, c.skeleton, clip.motion, bind_pose));
  return out;
}

// The default binding, what `mocap skin --auto-weights` gives users (voxel
// weights): the criteria are judged on it.
MeshBindOptions options_for(const std::filesystem::path& path, const std::string& units) {
  MeshBindOptions o;
  o.mesh_path = path.string();
  o.units = units;
  return o;
}

// Up and facing found on every turned copy; the joints inside; no tearing.
TEST(EmbedBodies, HumanoidPartsTurnedAndScaled) {
  for (const TestMesh& t : kHumanoidMeshes) {
    const auto path = humanoid_meshes() / t.file;
    const std::string axes = "up " + t.up + ", facing " + t.forward;
    // The turned copies: their orientation (see above for their figures).
    if (t.file != "parts_dm.obj" && (t.file.starts_with("parts_") || t.file.starts_with("body_"))) {
      const auto mesh = read_obj(path.string());
      ASSERT_TRUE(mesh) << mesh.error().to_string();
      const auto found = find_mesh_orientation(*mesh, std::nullopt, std::nullopt, path.string());
      ASSERT_TRUE(found) << found.error().to_string();
      EXPECT_TRUE(found->how.starts_with(axes)) << t.file << ": " << found->how;
      continue;
    }
    for (const auto& [clip, m] : measure_clips(options_for(path, t.units))) {
      EXPECT_TRUE(m.orientation.starts_with(axes)) << t.file << ": " << m.orientation;
      print(t.file, clip, m);
      EXPECT_LT(m.worst_cm, t.max_worst_cm) << t.file << " " << clip << ": " << m.worst_where;
      EXPECT_LT(m.stretch, t.max_stretch) << t.file << " " << clip;
      EXPECT_LE(m.over_3x, t.max_over_3x) << t.file << " " << clip;
      if (clip.starts_with("walk")) {
        EXPECT_LT(m.stretch, 3.0) << t.file << ": the issue's bound, met on the walk";
      }
    }
  }
}

// The humanoid in another rest pose, made here: bound in its A-pose
// (data/makehuman_apose.amc) with bone heat, skinned to the A-pose file
// with the lines of `lines` (an AMC line each, by bone) put in place of its
// own, and written as `file` (an OBJ, decimetres).
std::filesystem::path posed_humanoid(const std::string& file, const std::vector<std::string>& lines) {
  const auto path = mesh_dir() / file;
  std::filesystem::create_directories(mesh_dir());
  const auto clip = test::load_bundled("09_06");
  MeshBindOptions o = options_for(test::bundled_data_dir() / "humanoid.obj", "dm");
  o.weight_method = WeightMethod::kHeat;  // the body as it was made and measured before voxel weights
  o.bind_pose_amc = (test::bundled_data_dir() / "makehuman_apose.amc").string();
  const auto bound = bind_mesh(clip.skeleton, o);
  EXPECT_TRUE(bound) << bound.error().to_string();
  if (!bound) return path;
  std::string amc;
  std::size_t replacements = 0;
  std::istringstream apose(test::read_text(o.bind_pose_amc));
  for (std::string line; std::getline(apose, line);) {
    const std::size_t space = line.find(' ');
    const std::string bone = space == std::string::npos || line.starts_with('#') ? "" : line.substr(0, space + 1);
    const auto replaced =
        std::ranges::find_if(lines, [&](const std::string& l) { return !bone.empty() && l.starts_with(bone); });
    replacements += replaced != lines.end();
    amc += (replaced == lines.end() ? line : *replaced) + "\n";
  }
  EXPECT_EQ(replacements, lines.size()) << file << ": a line names no bone of the A-pose file";
  const auto amc_path = mesh_dir() / (std::filesystem::path(file).stem().string() + ".amc");
  EXPECT_TRUE(write_file_atomically(amc_path.string(), amc));
  const auto motion = read_amc(amc_path.string(), clip.skeleton, 120.0);
  EXPECT_TRUE(motion) << motion.error().to_string();
  if (!motion) return path;
  Pose pose = make_pose(clip.skeleton);
  pose_from_channels(clip.skeleton, motion->frame(0), pose);
  pose_for_bind(clip.skeleton, bound->bind, pose);
  auto skinner = Skinner::create(bound->mesh, bound->weights, clip.skeleton.bones.size(), SkinMethod::kLinear, 1);
  EXPECT_TRUE(skinner);
  if (!skinner) return path;
  skinner->skin(clip.skeleton, pose, bound->bind);
  const std::string text = format_obj(bound->mesh, skinner->positions(), skinner->normals(), 0.1);
  EXPECT_TRUE(write_file_atomically(path.string(), text));
  return path;
}

// The arms hanging at the sides: the upper arms at rz 78 degrees (the
// A-pose's 42; 90 hangs straight down) and the elbows at 12 (the A-pose's
// 45). The hands hang at hip height, 25 cm out from the middle and in
// front of the thighs; the armpits closed as bone heat closes them.
std::filesystem::path arms_down_mesh() {
  return posed_humanoid("arms_down_dm.obj", {"lhumerus -5 5 78", "rhumerus -5 -5 -78", "lradius 12", "rradius 12"});
}

TEST(EmbedBodies, ArmsHangingAtTheSides) {
  const auto path = arms_down_mesh();
  for (const auto& [clip, m] : measure_clips(options_for(path, "dm"))) {
    print("arms_down_dm.obj", clip, m);
    // Measured with voxel weights: worst -0.13 cm (cartwheel), -0.10 cm
    // (walk); longest edge 2.72x / 1.94x (0 / 0 edge-frames past 3x, the
    // crotch); with ten relaxing passes and the worst joint alone
    // (voxel_weights.h step 7) 2.54x / 1.93x; before
    // the thorax ended at the neck's base (embed.h step 3b) -0.56 / -0.30 cm,
    // 2.72x / 2.00x; before the creases were relaxed (voxel_weights.h step 7) 2.95x / 2.17x; with
    // falloff 0.5 -0.59 / -0.24 cm, 2.90x / 2.31x (0 / 0). Before
    // the pelvis was a girdle and the spine thick (embed.h step 7): -0.58 /
    // -0.22 cm, 3.78x / 2.40x (7 / 0, at the crotch). With the thumbs absolute: 3.90x / 3.96x (92 / 70; a 1.8 mm
    // edge at the left thumb). Before the spine was fitted: -0.46 / -0.67 cm,
    // 4.82x / 4.59x (183 / 124). Before the clavicles were rest-relative (a
    // body made with its shoulders lifted to the A-pose's line, and skinned
    // so): -0.31 / -0.54 cm, 4.43x / 4.33x (331 / 272, at the armpits and the
    // thumbs). Bone heat (then): -0.51 / -0.73 cm, 9.2x / 5.0x.
    EXPECT_LT(m.worst_cm, -0.05) << clip << ": " << m.worst_where;
    EXPECT_LT(m.stretch, 3.0) << clip;
    EXPECT_EQ(m.over_3x, 0) << clip;
  }
}

// The rest poses game characters come in: a T-pose (upper arms level,
// rx -10 and rz 0, elbows at 5 degrees; arm span 15.8 dm for 16.6 dm of
// height) and a wide stance (each thigh 18 degrees further out than the
// A-pose's, the feet 1.04 m apart where the A-pose's are 0.54 m).
// Measured with voxel weights (cartwheel / walk): T-pose worst limb joint
// -0.65 / -0.29 cm, longest edge 2.53x / 1.93x, none past 3x; wide stance
// -0.81 / -0.14 cm, 2.30x / 1.94x, none past 3x (with ten relaxing passes
// and the worst joint alone, voxel_weights.h step 7: 2.23x / 1.93x, 2.25x /
// 1.95x). Before the thorax ended
// at the neck's base (embed.h step 3b): T-pose -0.68 / -0.27 cm, 2.83x /
// 1.89x; wide stance -0.39 / -0.25 cm, 2.58x / 1.93x. Before the creases were
// relaxed (voxel_weights.h step 7): T-pose 2.81x / 2.14x; wide stance
// 2.99x / 2.21x. With falloff 0.5: T-pose
// 2.72x / 2.23x (at the thumbs); wide stance 3.33x / 2.42x (3 / 0
// edge-frames past 3x: the armpit with the arm overhead).
TEST(EmbedBodies, TPoseAndWideStance) {
  struct Body {
    std::string file;
    std::vector<std::string> lines;
    double max_stretch[2];  // cartwheel, walk
    int max_over_3x[2];
  };
  const Body bodies[] = {
      {"tpose_dm.obj", {"lhumerus -10 0 0", "rhumerus -10 0 0", "lradius 5", "rradius 5"}, {2.8, 2.3}, {0, 0}},
      {"wide_dm.obj", {"lfemur -2.72 -0.32 5", "rfemur -2.72 0.32 -5"}, {2.7, 2.3}, {0, 0}},
  };
  for (const Body& body : bodies) {
    const auto path = posed_humanoid(body.file, body.lines);
    int c = 0;
    for (const auto& [clip, m] : measure_clips(options_for(path, "dm"))) {
      print(body.file, clip, m);
      EXPECT_LT(m.worst_cm, 0.0) << body.file << " " << clip << ": " << m.worst_where;
      EXPECT_LT(m.stretch, body.max_stretch[c]) << body.file << " " << clip;
      EXPECT_LE(m.over_3x, body.max_over_3x[c]) << body.file << " " << clip;
      ++c;
    }
  }
}

// MakeHuman's whole base mesh: the body with its 46 helper meshes (tights,
// proxies: offset shells) and 125 joint locator cubes inside the body, one
// OBJ group each.
TEST(EmbedBodies, MakeHumanBaseMeshWithHelpers) {
  const auto path = test::shared_data_dir() / "meshes" / "makehuman" / "base.obj";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no MakeHuman base mesh at " << path;
  for (const auto& [clip, m] : measure_clips(options_for(path, "dm"))) {
    print("base.obj", clip, m);
    // Measured with voxel weights: worst -0.14 cm (cartwheel), -0.04 cm
    // (walk); longest edge 5.61x / 2.83x (176 / 0 edge-frames past 3x): its
    // skirt helper, whose hem joins the shins, stretched as the legs part;
    // with ten relaxing passes and the worst joint alone (voxel_weights.h
    // step 7) 6.52x / 3.42x (225 / 4; before the thorax ended at the neck's
    // base, embed.h step 3b, -0.22 / -0.00 cm, the same edges); before the creases were relaxed
    // (voxel_weights.h step 7) 10.28x / 5.62x (378 / 53). With falloff 0.5: -0.21 / -0.01
    // cm, 10.56x / 5.72x (439 / 59). Before embed.h's step 7: -0.08 /
    // -0.03 cm, 10.59x / 5.73x (397 / 57). Clavicles absolute: -0.41 /
    // -0.02 cm, 409 / 57. Bone heat (then): -0.41 / -0.06 cm, 10.1x / 23.1x.
    EXPECT_LT(m.worst_cm, 0.3) << clip << ": " << m.worst_where;
    EXPECT_LT(m.stretch, clip.starts_with("walk") ? 3.0 : 6.0) << clip;
  }
}

// Given axes replace the found ones; wrong ones are refused before any work.
TEST(EmbedBodies, UpAndForwardOverride) {
  const auto clip = test::load_bundled("49_06");
  // The humanoid turned to Z up, facing -Y, made here: the script that
  // makes the other bodies costs 3 s of CPU.
  const auto humanoid = read_obj((test::bundled_data_dir() / "humanoid.obj").string(), ObjReadOptions{0.1});
  ASSERT_TRUE(humanoid) << humanoid.error().to_string();
  const MeshOrientation zup_facing_my{{2, 1}, {1, -1}, ""};
  const Mesh turned = turned_mesh(*humanoid, zup_facing_my.axes());
  const test::TempDir dir;
  const auto path = dir.touch("humanoid_zup_m.obj", format_obj(turned, turned.positions, turned.normals));
  MeshBindOptions o = options_for(path, "m");
  o.weight_method = WeightMethod::kDistance;  // the weights are not looked at here; voxel's cost 5 s under ASan
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
  // One binding per body for the agreement and both clips.
  const Clips& c = clips();
  {
    const auto obj = mesh_dir() / "CesiumMan.obj";
    const auto reference = test::rigged_reference(dir / "CesiumMan.glb", obj);
    ASSERT_TRUE(reference) << reference.error().to_string();
    const auto bound = bind_mesh(c.skeleton, options_for(obj, "m"));
    ASSERT_TRUE(bound) << bound.error().to_string();
    EXPECT_TRUE(bound->orientation.starts_with("up +y, facing +z")) << bound->orientation;
    const auto agreement = test::segment_agreement(bound->weights, c.skeleton, *reference);
    std::printf("CesiumMan agreement (voxel): %s\n", agreement.summary(8).c_str());
    RecordProperty("cesiumman_agreement", agreement.summary());
    const ClipMeasure bind_pose = measure_bind_pose(*bound, c.skeleton);
    for (const Clip& clip : c.clips) {
      const ClipMeasure m = measure(*bound, c.skeleton, clip.motion, bind_pose);
      print("CesiumMan", clip.name, m);
      // Measured with voxel weights: worst -0.58 cm (cartwheel), -0.05 cm
      // (walk); longest edge 2.15x / 1.68x (0 / 0 edge-frames past 3x); with
      // ten relaxing passes and the worst joint alone (voxel_weights.h step
      // 7) 2.85x / 1.68x, at the crotch, both legs' weight on one edge (the
      // same before the thorax ended at the neck's base, embed.h step 3b, the
      // joints -0.60 / -0.03 cm); before the creases were relaxed (voxel_weights.h step 7) 3.23x / 1.72x (6 /
      // 0, at the crotch); with falloff 0.5 -0.30 / -0.05 cm, 3.80x / 1.92x (5 / 0); before the pelvis was a girdle and
      // the spine thick (embed.h step 7): -0.03 / -0.03 cm, 3.74x / 2.03x (7 / 0). Before the spine was fitted (the
      // placed neck began at its chin): 4.80x / 3.01x (28 / 1), at the neck; before the clavicles were rest-relative
      // (its shoulder line slopes 44 degrees from the thorax's end; the capture's rises 20): -2.16 / -2.76 cm, 4.81x
      // / 3.80x (79 / 58, at the neck and the upper arms). Bone heat (then): -2.52 / -2.74 cm, 2.77x / 2.67x.
      EXPECT_LT(m.worst_cm, 0.2) << clip.name << ": " << m.worst_where;
      EXPECT_LT(m.stretch, 2.5) << clip.name;
      EXPECT_EQ(m.over_3x, 0) << clip.name;
    }
    // Measured with voxel weights, our weights summed per segment as the
    // artists' are (rigged_reference.h): overall 0.896, arms 0.627, hands
    // 0.695, legs 0.842, spine/head 0.960 (the thorax ending at the neck's
    // base, embed.h step 3b: head->trunk 24, was 38; upper arms->trunk 23,
    // was 21: the clavicles start higher); before, 0.893, arms 0.645,
    // spine/head 0.953 (the creases relaxed,
    // voxel_weights.h step 7: trunk->head 38, was 30); before, 0.897,
    // spine/head 0.959; with falloff 0.5 0.887, arms
    // 0.654, hands 0.627, legs 0.837, spine/head 0.950. By our one heaviest bone's
    // segment (before 608a1d1): 0.878, hands 0.568, spine/head 0.941
    // (before embed.h's step 7: 0.876, arms
    // 0.675, spine/head 0.934; before the spine was fitted: 0.867,
    // arms 0.667, spine/head 0.922). With heat weights (then): overall 0.849, arms
    // 0.662, hands 0.602, legs 0.825, spine/head 0.897. Before the arms were
    // found from their tips: overall 0.555, arms and hands 0.000 (the goal
    // is 0.7 overall).
    EXPECT_GT(agreement.overall.fraction(), 0.88);
    EXPECT_GT(agreement.regions[int(test::BodyRegion::kArms)].fraction(), 0.62);
    EXPECT_GT(agreement.regions[int(test::BodyRegion::kHands)].fraction(), 0.66);
    EXPECT_GT(agreement.regions[int(test::BodyRegion::kLegs)].fraction(), 0.81);
  }
  {
    const auto obj = mesh_dir() / "RiggedFigure.obj";
    const auto reference = test::rigged_reference(dir / "RiggedFigure.dae", obj);
    ASSERT_TRUE(reference) << reference.error().to_string();
    const auto bound = bind_mesh(c.skeleton, options_for(obj, "m"));
    ASSERT_TRUE(bound) << bound.error().to_string();
    const auto agreement = test::segment_agreement(bound->weights, c.skeleton, *reference);
    std::printf("RiggedFigure agreement (voxel): %s\n", agreement.summary(8).c_str());
    RecordProperty("riggedfigure_agreement", agreement.summary());
    const ClipMeasure bind_pose = measure_bind_pose(*bound, c.skeleton);
    for (const Clip& clip : c.clips) {
      const ClipMeasure m = measure(*bound, c.skeleton, clip.motion, bind_pose);
      print("RiggedFigure", clip.name, m);
      // Measured with voxel weights: worst -0.84 cm (cartwheel), -0.10 cm
      // (walk); edges 1.56x / 1.27x, none past 3x (ten relaxing passes and
      // the worst joint alone, voxel_weights.h step 7: -0.75 / -0.10 cm,
      // 1.56x / 1.48x; before the thorax ended
      // at the neck's base, embed.h step 3b, -0.75 / -0.08 cm, 1.57x / 1.48x; before the creases were
      // relaxed, voxel_weights.h step 7, 1.58x / 1.50x; falloff 0.5: -0.36 /
      // -0.06 cm, 1.91x / 1.53x; before embed.h's step 7
      // -0.11 / -0.11 cm, 2.01x / 1.54x; before the spine was
      // fitted -0.50 / -0.04 cm, 2.01x / 1.67x; clavicles absolute: -0.01 /
      // -0.12 cm, 2.46x / 2.28x). Bone heat (then): 0.58 cm outside (lfemur,
      // cartwheel), -1.09 cm (walk); 2.55x / 2.33x.
      EXPECT_LT(m.worst_cm, 0.2) << clip.name << ": " << m.worst_where;
      EXPECT_LT(m.stretch, 2.3) << clip.name;
      EXPECT_EQ(m.over_3x, 0) << clip.name;
    }
    // Measured with voxel weights, summed per segment: overall 0.710, arms
    // 0.143, hands 0.846, legs 0.786, spine/head 0.861: the goal, 0.7, met
    // since the thorax ends at the neck's base (embed.h step 3b), where its
    // artist ends the torso. Before, lowerneck covered the torso's top:
    // trunk->head 23 (now 2), overall 0.652, spine/head 0.685 (0.662 and
    // 0.713 before the creases were relaxed, voxel_weights.h step 7; falloff
    // 0.5: 0.646). By our heaviest bone (before 608a1d1): 0.613, hands 0.769,
    // spine/head 0.602. What is still missed is a toy's joints: its elbows
    // 4.6 cm nearer the body than the capture's proportions put ours
    // (forearms->upper arms 16), its shoulders on its torso's corners, ours
    // 3 cm out (upper arms->trunk 32), its hips 11 cm below ours (on its
    // thighs' tops, under its pelvis box: trunk->thighs 11). With heat
    // weights (then): overall 0.619 (its upper arms' vertices near the
    // shoulder on CMU's clavicles, which it lacks: the trunk). Before its
    // legs were found (a bind error), with --fit height: 0.293.
    EXPECT_GE(agreement.overall.fraction(), 0.7);
    EXPECT_GT(agreement.regions[int(test::BodyRegion::kSpineHead)].fraction(), 0.84);
  }
}

}  // namespace
}  // namespace mocap
