// libFuzzer target: rigged models (skin/rigged_model.h) as `mocap skin
// --model` reads them: Assimp's glTF (binary and text), COLLADA and FBX
// readers with the post-processing read_rigged_model asks for, then our own
// conversion of the scene. The first byte picks the file's extension (Assimp
// picks its reader by it), the rest is the file, at most 64 KB (fuzz.sh's
// -max_len; larger inputs are cut there too). Any bytes give a model or an
// error naming the file, never a crash; a model keeps the header's promises:
// parents before children, joints naming nodes, weights naming joints and
// summing to one, triangles naming vertices, finite numbers; and every
// animation samples and skins without a NaN.
#include <mocap/rig/rigged_model.h>
#include <mocap/skin/skin_job.h>

#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_rigged_model: %s\n", what.c_str());
  std::abort();
}

std::string directory;

bool finite(const Eigen::Affine3d& t) {
  return t.matrix().allFinite();
}

void check(const mocap::RiggedModel& model) {
  const int nodes = static_cast<int>(model.nodes.size());
  if (nodes == 0) fail("a model without its scene root");
  for (int i = 0; i < nodes; ++i) {
    const auto& n = model.nodes[i];
    if (i == 0 ? n.parent != -1 : (n.parent < 0 || n.parent >= i)) fail("a parent after its child: " + n.name);
    if (!n.translation.allFinite() || !n.rotation.coeffs().allFinite() || !n.scale.allFinite()) {
      fail("a node transform that is not finite: " + n.name);
    }
  }
  for (const auto& j : model.joints) {
    if (j.node < 0 || j.node >= nodes) fail("a joint naming no node");
    if (!j.inverse_bind.allFinite()) fail("an inverse bind matrix that is not finite");
  }
  const std::size_t vertices = model.mesh.positions.size();
  if (model.weights.size() != vertices) fail("not one weight record per vertex");
  for (const auto& p : model.mesh.positions) {
    if (!p.allFinite()) fail("a vertex that is not finite");
  }
  for (const auto& w : model.weights) {
    double sum = 0.0;
    for (std::size_t k = 0; k < w.bone.size(); ++k) {
      if (!(w.weight[k] >= 0.0f)) fail("a negative or NaN weight");
      if (w.weight[k] > 0.0f && w.bone[k] >= model.joint_count()) fail("a weight naming no joint");
      sum += w.weight[k];
    }
    if (std::abs(sum - 1.0) > 1e-3) fail("weights that do not sum to one");
  }
  for (const auto& t : model.mesh.triangles) {
    for (const int v : t.vertex) {
      if (v < 0 || static_cast<std::size_t>(v) >= vertices) fail("a triangle naming no vertex");
    }
  }
  std::vector<Eigen::Affine3d> world(model.nodes.size());
  std::vector<mocap::SkinMatrix> matrices(model.joints.size());
  auto pose = mocap::bind_pose(model);
  mocap::node_world_transforms(model, pose, world);
  for (const auto& t : world) {
    if (!finite(t)) fail("a bind pose that is not finite");
  }
  for (const auto& animation : model.animations) {
    if (!(animation.duration_seconds >= 0.0)) fail("a negative or NaN duration: " + animation.name);
    for (const auto& track : animation.tracks) {
      if (track.node < 0 || track.node >= nodes) fail("a track naming no node");
      if (track.translation_times.size() != track.translations.size() ||
          track.rotation_times.size() != track.rotations.size() || track.scale_times.size() != track.scales.size()) {
        fail("a track with times and values of different lengths");
      }
    }
    for (const double at : {0.0, 0.5 * animation.duration_seconds, animation.duration_seconds}) {
      mocap::sample_animation(model, animation, at, pose);
      mocap::model_skinning_matrices(model, pose, world, matrices);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char dir[] = "/tmp/fuzz_rigged_model.XXXXXX";
  if (!mkdtemp(dir)) fail("mkdtemp");
  directory = dir;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static constexpr std::array<const char*, 4> kExtensions = {".glb", ".gltf", ".dae", ".fbx"};
  const std::string path = directory + "/model" + kExtensions[data[0] % kExtensions.size()];
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  const auto model = mocap::read_rigged_model(path);
  if (!model) {
    if (model.error().to_string().find(path) == std::string::npos) {
      fail("an error that does not name the file: " + model.error().to_string());
    }
    return 0;
  }
  check(*model);
  return 0;
}
