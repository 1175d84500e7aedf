// The game-convention characters of tests/retarget/blender_game_rigs.py,
// checked as Assimp reads them and as `mocap retarget` plays captures on them
// (tests/retarget/blender_game_rigs.sh runs it).
//
//   retarget_game_rig_check makehuman OUT.glb
//     writes MakeHuman's own rig as a .glb (retarget_measure.h), the script's input.
//   retarget_game_rig_check check MODEL.fbx REFERENCE.glb mixamo|unreal t|a node|world y|z ASF AMC OUT.glb
//     MODEL (the script's FBX) against REFERENCE (that .glb, metres): the
//     conventions the script meant (Mixamo's or Unreal's names, mapped by
//     the name table; the armature in centimetres, under a 0.01 scale node
//     (node) or with no scale node in a centimetre world (world), both read
//     as metres; Y up and facing +X, turned 90 degrees from the
//     glTF, or Z up and facing +Y (Unreal's); arms horizontal (t) or lowered (a)); then
//     OUT.glb, what `mocap retarget ASF AMC --model MODEL` wrote, byte for
//     byte what the library makes, its
//     joints the model's, measured (retarget_measure.h) against the issue's
//     bounds: segments median <= 4 deg and p95 <= 10 deg after one rotation
//     for the clip, each planted foot's slide <= the capture's + 2 % of the
//     leg, no foot vertex more than 1 cm below the floor.
// Prints one "ok"/"FAIL" line per check and the figures; exit 0 when every
// check held, 1 when one failed, 2 on bad arguments or unreadable files.
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/atomic_write.h>
#include <mocap/retarget/bone_map.h>
#include <mocap/retarget/gltf_splice.h>
#include <mocap/retarget/retarget.h>
#include <mocap/rig/rigged_model.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "retarget/retarget_measure.h"
#include "test_data.h"

namespace mocap {
namespace {

int g_failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  if (!ok) ++g_failures;
}

double degrees(double radians) {
  return radians * 180.0 / std::numbers::pi;
}

// World positions of the model's nodes in its bind pose.
std::vector<Eigen::Vector3d> bind_positions(const RiggedModel& model) {
  std::vector<Eigen::Affine3d> world(model.nodes.size());
  node_world_transforms(model, bind_pose(model), world);
  std::vector<Eigen::Vector3d> out;
  for (const Eigen::Affine3d& w : world) out.push_back(w.translation());
  return out;
}

// Where a body stands and faces in its own world, from named joints.
struct Stance {
  double leg = 0.0;                                   // left thigh to knee to ankle, world units
  Eigen::Vector3d forward = Eigen::Vector3d::Zero();  // unit, horizontal: left x up
  double arm_elevation_deg = 0.0;                     // left shoulder-to-wrist line above the horizontal
};

Stance stance(const RiggedModel& model, const Eigen::Vector3d& up, const std::string& thigh_l,
              const std::string& knee_l, const std::string& ankle_l, const std::string& thigh_r,
              const std::string& shoulder_l, const std::string& wrist_l) {
  const std::vector<Eigen::Vector3d> p = bind_positions(model);
  auto at = [&](const std::string& name) {
    const int n = model.find_node(name);
    return n < 0 ? Eigen::Vector3d(Eigen::Vector3d::Constant(std::nan(""))) : p[static_cast<std::size_t>(n)];
  };
  Stance s;
  s.leg = (at(knee_l) - at(thigh_l)).norm() + (at(ankle_l) - at(knee_l)).norm();
  Eigen::Vector3d left = at(thigh_l) - at(thigh_r);
  left -= left.dot(up) * up;
  s.forward = left.cross(up).normalized();
  const Eigen::Vector3d reach = (at(wrist_l) - at(shoulder_l)).normalized();
  s.arm_elevation_deg = degrees(std::asin(std::clamp(reach.dot(up), -1.0, 1.0)));
  return s;
}

// The bones blender_game_rigs.py renamed, per role, in one convention.
struct Naming {
  std::string name;
  std::vector<std::pair<Role, std::string>> roles;
  std::string bone(Role role) const {
    for (const auto& [r, b] : roles) {
      if (r == role) return b;
    }
    return "";
  }
};

Naming mixamo() {
  const std::string m = "mixamorig:";
  return {"mixamo",
          {{Role::Hips, m + "Hips"},
           {Role::Neck, m + "Neck"},
           {Role::Head, m + "Head"},
           {Role::ClavicleL, m + "LeftShoulder"},
           {Role::UpperArmL, m + "LeftArm"},
           {Role::HandL, m + "LeftHand"},
           {Role::ForearmR, m + "RightForeArm"},
           {Role::HandR, m + "RightHand"},
           {Role::ThighL, m + "LeftUpLeg"},
           {Role::ShinL, m + "LeftLeg"},
           {Role::FootL, m + "LeftFoot"},
           {Role::ThighR, m + "RightUpLeg"},
           {Role::ShinR, m + "RightLeg"},
           {Role::ToeR, m + "RightToeBase"},
           {Role::FingersL, m + "LeftHandMiddle1"},
           {Role::ThumbR, m + "RightHandThumb1"}}};
}

Naming unreal() {
  return {"unreal",
          {{Role::Hips, "pelvis"},
           {Role::Neck, "neck_01"},
           {Role::Head, "head"},
           {Role::ClavicleL, "clavicle_l"},
           {Role::UpperArmL, "upperarm_l"},
           {Role::HandL, "hand_l"},
           {Role::ForearmR, "lowerarm_r"},
           {Role::HandR, "hand_r"},
           {Role::ThighL, "thigh_l"},
           {Role::ShinL, "calf_l"},
           {Role::FootL, "foot_l"},
           {Role::ThighR, "thigh_r"},
           {Role::ShinR, "calf_r"},
           {Role::ToeR, "ball_r"},
           {Role::FingersL, "middle_01_l"},
           {Role::ThumbR, "thumb_01_r"}}};
}

int check_model(const std::string& model_path, const std::string& reference_path, const Naming& naming, char pose,
                bool scale_node_expected, char up_axis, const std::string& asf_path, const std::string& amc_path,
                const std::string& out_path) {
  const std::string model_name = std::filesystem::path(model_path).filename().string();
  const std::string clip = std::filesystem::path(amc_path).stem().string();
  auto model = read_rigged_model(model_path);
  auto reference = read_rigged_model(reference_path);
  auto skeleton = read_asf(asf_path);
  if (!model || !reference || !skeleton) {
    std::fprintf(stderr, "game_rig_check: %s\n",
                 (!model       ? model.error()
                  : !reference ? reference.error()
                               : skeleton.error())
                     .to_string()
                     .c_str());
    return 2;
  }
  auto motion = read_amc(amc_path, *skeleton);
  if (!motion) {
    std::fprintf(stderr, "game_rig_check: %s\n", motion.error().to_string().c_str());
    return 2;
  }
  auto result = retarget_model_file(*skeleton, *motion, asf_path, model_path, clip);
  check(result.has_value(), model_name + ": retargets " + clip + (result ? "" : ": " + result.error().to_string()));
  if (!result) return 1;
  const RetargetRig& rig = result->rig;

  // Names: the convention's where the script renamed, found by the name table; MakeHuman's extras kept.
  std::printf("== %s (%d joints) with %s (%d frames)\n", model_name.c_str(), model->joint_count(), clip.c_str(),
              motion->frame_count());
  check(model->joint_count() == reference->joint_count(),
        "as many joints as MakeHuman's rig: " + std::to_string(model->joint_count()) + " and " +
            std::to_string(reference->joint_count()));
  for (const auto& [role, bone] : naming.roles) {
    const RoleMatch& m = rig.target_map[role];
    const std::string got = m.joint < 0 ? "-" : rig.target_joints.names[static_cast<std::size_t>(m.joint)];
    check(got == bone && m.how == "name table", std::string(role_name(role)) + " is " + bone + " by " + naming.name +
                                                    "'s name in the name table (got " + got + ", " + m.how + ")");
  }
  check(model->find_node("upperarm02.L") >= 0 && model->find_node("upperleg01.L") < 0,
        "MakeHuman's extra bones kept (upperarm02.L), the renamed ones gone (upperleg01.L)");

  // Units: the armature in centimetres, under a 0.01 scale node or in a centimetre world.
  const int hips = model->find_node(naming.bone(Role::Hips));
  check(hips >= 0, "a node named " + naming.bone(Role::Hips));
  if (hips < 0) return 1;
  std::string scale_node;
  std::string chain;   // the hips' ancestors, root last, with their scales
  double above = 1.0;  // product of the mean scales above the hips
  for (int n = model->nodes[static_cast<std::size_t>(hips)].parent; n >= 0;
       n = model->nodes[static_cast<std::size_t>(n)].parent) {
    const ModelNode& node = model->nodes[static_cast<std::size_t>(n)];
    above *= node.scale.mean();
    if ((node.scale - Eigen::Vector3d::Constant(0.01)).cwiseAbs().maxCoeff() < 1e-6) scale_node = node.name;
    char part[160];
    std::snprintf(part, sizeof part, " '%s' (scale %.4g %.4g %.4g)", node.name.c_str(), node.scale.x(), node.scale.y(),
                  node.scale.z());
    chain += part;
  }
  if (scale_node_expected) {
    check(!scale_node.empty(), "a node scaled 0.01 above the hips: '" + scale_node + "'; above the hips:" + chain);
  } else {
    check(std::abs(above - 1.0) < 1e-6, "no scale node above the hips; above the hips:" + chain);
  }
  const Eigen::Vector3d up = rig.up;
  const Eigen::Vector3d expected_up = up_axis == 'y' ? Eigen::Vector3d::UnitY() : Eigen::Vector3d::UnitZ();
  char line[256];
  std::snprintf(line, sizeof line, "the model's up (%.2f %.2f %.2f) is +%s", up.x(), up.y(), up.z(),
                up_axis == 'y' ? "Y" : "Z");
  check(up.dot(expected_up) > 0.999, line);
  const Stance s = stance(*model, up, naming.bone(Role::ThighL), naming.bone(Role::ShinL), naming.bone(Role::FootL),
                          naming.bone(Role::ThighR), naming.bone(Role::UpperArmL), naming.bone(Role::HandL));
  const Stance r = stance(*reference, Eigen::Vector3d::UnitY(), "upperleg01.L", "lowerleg01.L", "foot.L",
                          "upperleg01.R", "upperarm01.L", "wrist.L");
  const double metres_per_unit = r.leg / s.leg;  // the reference is in metres
  std::snprintf(line, sizeof line,
                "the leg is %.4f world units (%.4f m in the reference): %.4g m per world unit, %.2f armature units "
                "under the scale nodes (%.4g): metres",
                s.leg, r.leg, metres_per_unit, s.leg / above, above);
  // The world is read in metres either way (the FBX's unit scale applied,
  // as Blender's importer does); the armature's own units stay centimetres
  // under a scale node, and are metres once a centimetre world is scaled.
  const double armature_unit = scale_node_expected ? 0.01 : 1.0;  // metres
  check(std::abs(metres_per_unit - 1.0) < 0.01 && std::abs(s.leg / above * armature_unit / r.leg - 1.0) < 0.01, line);
  // Facing: the Y-up files turned 90 degrees from the glTF's +Z to +X; the Z-up one faces +Y (Unreal's meshes).
  const Eigen::Vector3d expected_forward = up_axis == 'y' ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  std::snprintf(line, sizeof line, "faces (%.2f %.2f %.2f), expected (%.0f %.0f %.0f); the glTF faced (%.2f %.2f %.2f)",
                s.forward.x(), s.forward.y(), s.forward.z(), expected_forward.x(), expected_forward.y(),
                expected_forward.z(), r.forward.x(), r.forward.y(), r.forward.z());
  check(s.forward.dot(expected_forward) > 0.999, line);
  // Pose.
  std::snprintf(line, sizeof line, "%c-pose: the left shoulder-to-wrist line %.1f deg above the horizontal (glTF %.1f)",
                pose == 't' ? 'T' : 'A', s.arm_elevation_deg, r.arm_elevation_deg);
  check(pose == 't' ? std::abs(s.arm_elevation_deg) < 2.0 : std::abs(s.arm_elevation_deg - r.arm_elevation_deg) < 1.0,
        line);

  // The output: what the library makes from the same input, the model's joints, the capture's length.
  const std::string written = test::read_text(out_path);
  check(written == result->glb, out_path + " is byte for byte what retarget_model_file makes");
  if (written != result->glb) (void)write_file_atomically(out_path + ".library.glb", result->glb);
  auto out = read_rigged_model(out_path);
  check(out.has_value(), "reads " + out_path + (out ? "" : ": " + out.error().to_string()));
  if (!out) return 1;
  check(out->joint_names() == model->joint_names(), "the output's joints are the model's, by name and order");
  check(out->mesh.vertex_count() == model->mesh.vertex_count(),
        "the output's mesh has the model's " + std::to_string(model->mesh.vertex_count()) + " vertices");
  auto animation = find_animation(*out, clip);
  check(animation.has_value() && out->animations.size() == 1, "one animation, named " + clip);
  if (!animation) return 1;
  const double duration = (motion->frame_count() - 1) / motion->fps;
  check(std::abs((*animation)->duration_seconds - duration) < 1e-3,
        "it lasts " + std::to_string((*animation)->duration_seconds) + " s, the capture " + std::to_string(duration));

  // The issue's figures.
  const test::Measured m = test::measure(*result, *skeleton, *motion, *out, **animation);
  const double median = test::percentile(m.angles_deg, 0.5), p95 = test::percentile(m.angles_deg, 0.95);
  std::snprintf(line, sizeof line, "segments: median %.2f deg (<= 4), p95 %.2f deg (<= 10), max %.2f", median, p95,
                test::percentile(m.angles_deg, 1.0));
  check(median <= 4.0 && p95 <= 10.0, line);
  std::snprintf(line, sizeof line,
                "planted feet: %d contacts, worst slide %.2f %% of the leg (capture's own %.2f %%; bound: + 2 %%)",
                m.contacts, 100 * m.worst_slide_share, 100 * m.worst_capture_share);
  check(m.contacts > 0 && m.worst_extra_slide <= 0.0, line);
  std::snprintf(line, sizeof line, "lowest foot vertex %+.2f cm above the floor (>= -1 cm; %d foot vertices)",
                100 * m.lowest_foot_vertex * metres_per_unit, m.foot_vertices);
  check(m.foot_vertices > 0 && m.lowest_foot_vertex * metres_per_unit >= -0.01, line);
  return g_failures == 0 ? 0 : 1;
}

int write_makehuman(const std::string& path) {
  auto glb = test::makehuman_glb();
  if (!glb) {
    std::fprintf(stderr, "game_rig_check: %s\n", glb.error().to_string().c_str());
    return 2;
  }
  if (auto w = write_file_atomically(path, *glb); !w) {
    std::fprintf(stderr, "game_rig_check: %s\n", w.error().to_string().c_str());
    return 2;
  }
  return 0;
}

}  // namespace
}  // namespace mocap

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each check's line as it is made, beside the shell's
  const std::vector<std::string> a(argv + 1, argv + argc);
  if (a.size() == 2 && a[0] == "makehuman") return mocap::write_makehuman(a[1]);
  if (a.size() == 10 && a[0] == "check" && (a[3] == "mixamo" || a[3] == "unreal") && (a[4] == "t" || a[4] == "a") &&
      (a[5] == "node" || a[5] == "world") && (a[6] == "y" || a[6] == "z")) {
    return mocap::check_model(a[1], a[2], a[3] == "mixamo" ? mocap::mixamo() : mocap::unreal(), a[4][0], a[5] == "node",
                              a[6][0], a[7], a[8], a[9]);
  }
  std::fprintf(stderr,
               "usage: retarget_game_rig_check makehuman OUT.glb\n"
               "       retarget_game_rig_check check MODEL.fbx REFERENCE.glb mixamo|unreal t|a node|world y|z ASF AMC "
               "OUT.glb\n");
  return 2;
}
