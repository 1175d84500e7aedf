// MakeHuman's own rig of the humanoid (makehuman_reference.h) as a reference
// for our binding: first that the reader reads what the files hold, then how
// far today's binding (bind_mesh with automatic weights and the bundled
// A-pose) is from it. Needs ../shared/data/meshes/makehuman; skips without it.
#include "makehuman_reference.h"

#include <gtest/gtest.h>
#include <mocap/io/mesh.h>
#include <mocap/rig/mesh_bind.h>

#include <cstdio>
#include <map>
#include <set>

#include "test_data.h"

namespace mocap::test {
namespace {

std::filesystem::path makehuman_dir() {
  return shared_data_dir() / "meshes" / "makehuman";
}

// Read once for the whole program: it is the slow part (1.7 MB of OBJ and
// 1 MB of JSON).
const MakeHumanReference* reference() {
  static const auto ref = [] { return read_makehuman_reference(makehuman_dir()); }();
  if (!ref) {
    ADD_FAILURE() << ref.error().to_string();
    return nullptr;
  }
  return &*ref;
}

#define REQUIRE_MAKEHUMAN()                                                     \
  do {                                                                          \
    if (!std::filesystem::exists(makehuman_dir() / "default_weights.mhw"))      \
      GTEST_SKIP() << "no MakeHuman rig at " << makehuman_dir() << ": skipped"; \
  } while (0)

TEST(MakeHumanReferenceReader, MissingFilesFailNamingTheFile) {
  const auto ref = read_makehuman_reference("/nonexistent/makehuman");
  ASSERT_FALSE(ref);
  EXPECT_NE(ref.error().file.find("base.obj"), std::string::npos) << ref.error().to_string();
}

TEST(MakeHumanReferenceReader, TheBodyIsTheBundledHumanoid) {
  REQUIRE_MAKEHUMAN();
  const auto* ref = reference();
  ASSERT_TRUE(ref);
  const auto humanoid = read_obj((bundled_data_dir() / "humanoid.obj").string(), ObjReadOptions{0.1});
  ASSERT_TRUE(humanoid) << humanoid.error().to_string();
  ASSERT_EQ(ref->vertex_count(), 13380);
  ASSERT_EQ(ref->vertex_count(), humanoid->vertex_count());
  ASSERT_EQ(ref->positions.size(), humanoid->positions.size());
  // Same text, same unit: the same floats, vertex for vertex.
  for (int v = 0; v < ref->vertex_count(); ++v) ASSERT_EQ(ref->positions[v], humanoid->positions[v]) << v;
  // Metres: a person of 1.67 m, Y-up, feet at -0.82 m (the mesh's origin is at the hips).
  EXPECT_NEAR(ref->body_box.sizes().y(), 1.666, 0.005);
  EXPECT_LT(ref->body_box.sizes().z(), 0.5);
}

TEST(MakeHumanReferenceReader, BonesAndWeights) {
  REQUIRE_MAKEHUMAN();
  const auto* ref = reference();
  ASSERT_TRUE(ref);
  EXPECT_EQ(ref->bones.size(), 163u);
  EXPECT_EQ(ref->weight_bones.size(), 139u);
  // Every body vertex is weighted and its weights sum to about one (the file
  // is not normalised: 0.954 to 1.063 on the body).
  for (int v = 0; v < ref->vertex_count(); ++v) {
    double sum = 0.0;
    for (const auto& [b, w] : ref->weights[v]) {
      ASSERT_GE(w, 0.0f) << v;
      sum += w;
    }
    ASSERT_NEAR(sum, 1.0, 0.07) << "vertex " << v;
    ASSERT_GE(ref->dominant_cmu[v], 0) << v;
  }
}

TEST(MakeHumanReferenceReader, JointsLieInTheBodyAndMirror) {
  REQUIRE_MAKEHUMAN();
  const auto* ref = reference();
  ASSERT_TRUE(ref);
  const Eigen::AlignedBox3d box = ref->body_box;
  int mirrored = 0;
  for (const auto& [name, bone] : ref->bones) {
    EXPECT_TRUE(box.contains(bone.head)) << name << " head " << bone.head.transpose();
    EXPECT_TRUE(box.contains(bone.tail)) << name << " tail " << bone.tail.transpose();
    if (name.ends_with(".L")) {
      // MakeHuman's left is the character's left: +X, as CMU's l bones (a
      // side bone may start on the centre line: pelvis.L, the tongue's).
      EXPECT_GE(bone.head.x(), 0.0) << name;
      EXPECT_GT(bone.tail.x(), 0.0) << name;
      const auto right = ref->bones.find(name.substr(0, name.size() - 2) + ".R");
      ASSERT_NE(right, ref->bones.end()) << name;
      const Eigen::Vector3d m(-bone.head.x(), bone.head.y(), bone.head.z());
      EXPECT_LT((right->second.head - m).norm(), 1e-4) << name;  // 0.1 mm: the mesh is symmetric
      ++mirrored;
    }
  }
  EXPECT_GE(mirrored, 60);
  // The weights are symmetric too ("Symmetric weights for default makehuman
  // mesh"): as many vertices to each side's bone.
  std::array<int, kCmuBones.size()> count{};
  for (const int c : ref->dominant_cmu) ++count[c];
  for (std::size_t c = 0; c < kCmuBones.size(); ++c) {
    const std::string_view n = kCmuBones[c];
    if (n[0] != 'l' || n == "lowerback" || n == "lowerneck") continue;
    const int r = cmu_bone_index("r" + std::string(n.substr(1)));
    ASSERT_GE(r, 0) << n;
    EXPECT_EQ(count[c], count[r]) << n;
  }
}

TEST(MakeHumanReferenceTable, CoversBothSkeletons) {
  REQUIRE_MAKEHUMAN();
  const auto* ref = reference();
  ASSERT_TRUE(ref);
  const auto clip = load_bundled("09_06");
  // Every CMU bone is a bone of a real CMU skeleton, and takes some vertices
  // in the reference.
  std::array<int, kCmuBones.size()> count{};
  for (const int c : ref->dominant_cmu) ++count[c];
  for (std::size_t c = 0; c < kCmuBones.size(); ++c) {
    EXPECT_GE(clip.skeleton.find_bone(kCmuBones[c]), 0) << kCmuBones[c];
    std::printf("reference %-10s %5d vertices\n", std::string(kCmuBones[c]).c_str(), count[c]);
  }
  // Every CMU bone but the zero-length root is some weighted MakeHuman bone's.
  std::set<std::string_view> targets;
  for (const auto& name : ref->weight_bones) targets.insert(cmu_bone_for(name));
  for (const auto c : kCmuBones) EXPECT_TRUE(targets.contains(c)) << c;
  // Every MakeHuman bone below the head (face, eyes, tongue) is CMU's head.
  for (const auto& [name, bone] : ref->bones) {
    std::string p = bone.parent;
    while (!p.empty() && p != "head") p = ref->bones.at(p).parent;
    if (!p.empty()) {
      EXPECT_EQ(cmu_bone_for(name), "head") << name;
    }
    EXPECT_FALSE(cmu_bone_for(name).empty()) << name;
  }
  EXPECT_TRUE(cmu_bone_for("no_such_bone.L").empty());
  // The joint table names real bones on both sides.
  for (const auto& match : cmu_joint_matches()) {
    EXPECT_GE(clip.skeleton.find_bone(match.cmu_bone), 0) << match.cmu_bone;
    for (const auto& head : match.makehuman_heads) EXPECT_TRUE(ref->bones.contains(head)) << head;
    const Eigen::Vector3d j = reference_joint(*ref, match);
    if (match.cmu_bone[0] == 'l' && match.cmu_bone != "lowerneck") {
      EXPECT_GT(j.x(), 0.0) << match.cmu_bone;
    }
  }
}

TEST(MakeHumanReferenceMeasures, ExactOnTheReferenceItself) {
  REQUIRE_MAKEHUMAN();
  const auto* ref = reference();
  ASSERT_TRUE(ref);
  const auto clip = load_bundled("09_06");
  const Skeleton& skeleton = clip.skeleton;
  // Weights that are the reference's dominant bones agree everywhere; moved
  // one bone off on the left forearm, they miss there and only there.
  std::vector<VertexWeights> weights(ref->vertex_count());
  int forearm = 0;
  for (int v = 0; v < ref->vertex_count(); ++v) {
    weights[v].bone[0] = static_cast<std::uint16_t>(skeleton.find_bone(kCmuBones[ref->dominant_cmu[v]]));
    weights[v].weight[0] = 1.0f;
  }
  BoneAgreement a = dominant_bone_agreement(weights, skeleton, *ref);
  EXPECT_EQ(a.overall.agree, ref->vertex_count());
  EXPECT_TRUE(a.confusions.empty());
  const int lradius = skeleton.find_bone("lradius"), lhumerus = skeleton.find_bone("lhumerus");
  for (auto& w : weights)
    if (w.bone[0] == lradius) w.bone[0] = static_cast<std::uint16_t>(lhumerus), ++forearm;
  a = dominant_bone_agreement(weights, skeleton, *ref);
  EXPECT_GT(forearm, 100);
  EXPECT_EQ(a.overall.agree, ref->vertex_count() - forearm);
  EXPECT_EQ(a.regions[int(BodyRegion::kArms)].vertices - a.regions[int(BodyRegion::kArms)].agree, forearm);
  ASSERT_EQ(a.confusions.size(), 1u);
  EXPECT_EQ(a.confusions[0].reference_bone, "lradius");
  EXPECT_EQ(a.confusions[0].our_bone, "lhumerus");
  // Joints at the reference's places are 0 cm off; one moved 5 cm is the worst.
  std::vector<Eigen::Vector3d> starts(skeleton.bones.size(), Eigen::Vector3d::Zero());
  for (const auto& match : cmu_joint_matches())
    starts[skeleton.find_bone(match.cmu_bone)] = reference_joint(*ref, match);
  JointDistances d = joint_distances(skeleton, starts, *ref);
  EXPECT_EQ(d.joints.size(), cmu_joint_matches().size());
  EXPECT_LT(d.mean_cm, 1e-9);
  starts[skeleton.find_bone("rtibia")].z() += 0.05;
  d = joint_distances(skeleton, starts, *ref);
  ASSERT_GE(d.worst, 0);
  EXPECT_EQ(d.joints[d.worst].cmu_bone, "rtibia");
  EXPECT_NEAR(d.joints[d.worst].cm, 5.0, 1e-9);
}

struct Measured {
  BoneAgreement agreement;
  JointDistances joints;
};

// The humanoid bound to subject 09 in the bundled A-pose, as the README's
// command binds it, measured against the reference; the figures printed.
Measured measure_binding(const MakeHumanReference& ref, BindFit fit, WeightMethod weights, const char* label) {
  const auto clip = load_bundled("09_06");
  MeshBindOptions o;
  o.mesh_path = (bundled_data_dir() / "humanoid.obj").string();
  o.units = "dm";
  o.bind_pose_amc = (bundled_data_dir() / "makehuman_apose.amc").string();
  o.fit = fit;
  o.weight_method = weights;
  const auto bound = bind_mesh(clip.skeleton, o);
  Measured m;
  if (!bound) {
    ADD_FAILURE() << bound.error().to_string();
    return m;
  }
  EXPECT_TRUE(bound->automatic_weights);
  EXPECT_EQ(bound->mesh.vertex_count(), ref.vertex_count());
  m.agreement = dominant_bone_agreement(bound->weights, clip.skeleton, ref);
  std::vector<Eigen::Vector3d> starts;
  for (const auto& s : bound->bind.segments) starts.push_back(s.start.cast<double>());
  m.joints = joint_distances(clip.skeleton, starts, ref);
  std::printf("%s: dominant bone agreement with MakeHuman: %s\n", label, m.agreement.summary(10).c_str());
  std::printf("%s: bind-pose joints from MakeHuman's (cm): %s\n", label, m.joints.summary().c_str());
  for (const auto& j : m.joints.joints)
    std::printf("  %-10s ours %7.3f %7.3f %7.3f  MakeHuman %7.3f %7.3f %7.3f m  %5.1f cm\n", j.cmu_bone.c_str(),
                j.ours.x(), j.ours.y(), j.ours.z(), j.reference.x(), j.reference.y(), j.reference.z(), j.cm);
  return m;
}

void expect_joints_within(const JointDistances& d, double worst_cm, double mean_cm) {
  ASSERT_GE(d.worst, 0);
  EXPECT_LE(d.joints[d.worst].cm, worst_cm) << d.summary();
  EXPECT_LE(d.mean_cm, mean_cm) << d.summary();
}

void expect_at_least(const BoneAgreement& a, double overall, std::array<double, 4> regions) {
  EXPECT_GE(a.overall.fraction(), overall) << a.summary(10);
  for (std::size_t r = 0; r < regions.size(); ++r)
    EXPECT_GE(a.regions[r].fraction(), regions[r]) << kRegionNames[r] << ": " << a.summary(10);
}

// The default binding: the embedding with geodesic voxel weights
// (voxel_weights.h, issue 29). Measured on 2026-12-04 (default options: 192 cells, closing 1,
// falloff 0.5, 10 smoothing passes): overall 0.806, arms 0.894, hands
// 0.712, legs 0.860, spine/head 0.809 (most missed: lfingers->lhand 265,
// lowerback->root 247, rfingers->rhand 230, lowerneck->head 221), above
// bone heat in every region. Without the head's rigid part spine/head falls
// to 0.592; at 128 cells overall 0.783, at 256 0.793 (legs 0.780).
// Thresholds: those less 0.02. On 2026-12-06, the weights one field over
// the solid, diffused 20 passes and interpolated between cells (no mesh
// smoothing): overall 0.807, arms 0.876, hands 0.711, legs 0.871,
// spine/head 0.809 (most missed: lfingers->lhand 282, lowerback->root 245,
// rfingers->rhand 228, lowerneck->head 213; rradius->rhumerus 55 and
// lradius->lhumerus 54 now among them: arms lost 0.018). Legs and overall
// raised to those less 0.02; the others kept. On 2026-12-07, with the
// spine fitted to the neck (embed.h step 3b): overall 0.805, arms 0.874
// (1026/1174: two vertices fewer), hands 0.712, legs 0.870, spine/head
// 0.805; arms' threshold 0.872. Later that day, with the pelvis a girdle
// and the spine's bones thick (voxel_weights.h step 2): overall 0.827,
// arms 0.871 (1022/1174: four fewer), hands 0.712, legs 0.866, spine/head
// 0.859 (thorax->upperback 222, lowerback->root 105, was 245: the trunk's
// flanks now the spine's); overall and spine/head raised to those less
// 0.02, arms' threshold 0.868. Later, falloff 0.1 (voxel_weights.h step
// 4; 0.5 before): overall 0.828, arms 0.871, hands 0.716, legs 0.868,
// spine/head 0.859 (lfingers->lhand 253, was 282); hands and legs raised to
// those less 0.02. On 2026-12-07, the creases relaxed (voxel_weights.h step
// 7): overall 0.828, arms 0.868 (1019/1174: three fewer), hands 0.716, legs
// 0.868, spine/head 0.858; arms' threshold 0.866. Later, the thorax
// ending at the neck's base (embed.h step 3b; lowerneck did): overall 0.828
// (11079/13380: four more), arms 0.862 (1012/1174: seven fewer, at the
// clavicles' ends, which start 9 cm higher), hands 0.712, legs 0.870,
// spine/head 0.862 (thorax->head 7, was 51; lowerneck->head 186, was 213;
// thorax->clavicles 33, was 71; upperback->thorax 87, was 22); the joints'
// mean 2.4 cm, was 2.9 (lowerneck 0.6 cm, was 9.5; upperneck 2.1, was 6.2).
// Arms' threshold 0.860, spine/head's 0.842.
TEST(MakeHumanReferenceMeasures, DefaultBindingAgainstTheArtists) {
  REQUIRE_MAKEHUMAN();
  const auto* ref = reference();
  ASSERT_TRUE(ref);
  ASSERT_EQ(MeshBindOptions{}.weight_method, WeightMethod::kVoxel);
  const Measured m = measure_binding(*ref, MeshBindOptions{}.fit, MeshBindOptions{}.weight_method, "default (voxel)");
  ASSERT_EQ(m.agreement.overall.vertices, ref->vertex_count());
  expect_at_least(m.agreement, 0.807, {0.860, 0.696, 0.848, 0.842});
  // The joints are the embedding's, as with heat.
  expect_joints_within(m.joints, 12.3, 2.8);
  // The neck's base, where MakeHuman's chest ends and its neck starts, is
  // where ours does (it was 9.5 cm lower when lowerneck ended there).
  int neck_joints = 0;
  for (const JointDistance& j : m.joints.joints) {
    if (j.cmu_bone == "lowerneck" || j.cmu_bone == "upperneck") {
      ++neck_joints;
      EXPECT_LT(j.cm, 3.0) << j.cmu_bone;
    }
  }
  EXPECT_EQ(neck_joints, 2);
}

// The embedding with bone heat (issue 15; the default until issue 29). Thresholds: the
// figures measured on 2026-12-02 at commit e178e5a (its first version), less
// 0.02 of agreement and plus 0.5 cm, to catch a regression; raise them as the
// binding improves. Measured then: agreement overall 0.605, arms 0.743,
// hands 0.544, legs 0.620, spine/head 0.601 (most missed: head->upperneck
// 1031 vertices, toes->foot 457 a side, hand<->fingers ~300 a side);
// joints worst root 11.8 cm, mean 5.8 cm (wrists 8.8, hands 9.9: CMU's
// lwrist is the palm, see makehuman_reference.cc).
// Raised at b7af3c1 (a vertex that sees no bone heats from its nearest one):
// overall 0.640, arms 0.743, hands 0.630, legs 0.699, spine/head 0.590;
// joints unchanged. Raised on 2026-12-04 at 058b873 (after the embedding's
// hips, ankles, wrists and head commits): overall 0.748, arms 0.866, hands
// 0.648, legs 0.738, spine/head 0.787; joints worst root 11.8 cm, mean 2.8
// cm. Thresholds again those less 0.02 and plus 0.5 cm.
TEST(MakeHumanReferenceMeasures, HeatBindingAgainstTheArtists) {
  REQUIRE_MAKEHUMAN();
  const auto* ref = reference();
  ASSERT_TRUE(ref);
  const Measured m = measure_binding(*ref, BindFit::kEmbed, WeightMethod::kHeat, "heat");
  ASSERT_EQ(m.agreement.overall.vertices, ref->vertex_count());
  expect_at_least(m.agreement, 0.728, {0.846, 0.628, 0.718, 0.767});
  expect_joints_within(m.joints, 12.3, 3.3);
}

// The height fit and distance weights: the binding before issue 15 (the
// same figures at dd51e9c, its default then) and an option since. Measured
// on 2026-12-02: agreement overall 0.587, arms 0.848, hands 0.177 (every
// finger and hand vertex on the thumb), legs 0.871, spine/head 0.597; joints
// worst lfingers 16.2 cm, mean 8.4 cm. Thresholds as above.
TEST(MakeHumanReferenceMeasures, HeightFitDistanceWeightsAgainstTheArtists) {
  REQUIRE_MAKEHUMAN();
  const auto* ref = reference();
  ASSERT_TRUE(ref);
  const Measured m = measure_binding(*ref, BindFit::kHeight, WeightMethod::kDistance, "height+distance");
  ASSERT_EQ(m.agreement.overall.vertices, ref->vertex_count());
  expect_at_least(m.agreement, 0.567, {0.828, 0.157, 0.851, 0.577});
  expect_joints_within(m.joints, 16.7, 8.9);
}

}  // namespace
}  // namespace mocap::test
