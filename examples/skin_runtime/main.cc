// skin_runtime: the skinning runtime alone (mocap::skin, no rigging, no
// Assimp). A two-bone strip, its second half rigid on bone 1 and the joint
// blended, skinned with bone 1 turned 90 degrees about Z at x = 1 m; prints
// each vertex before and after, metres.
#include <mocap/io/mesh.h>
#include <mocap/io/skin_weights.h>
#include <mocap/skin/skinner.h>

#include <Eigen/Geometry>
#include <cstdio>
#include <numbers>
#include <utility>
#include <vector>

int main() {
  mocap::Mesh mesh;
  std::vector<mocap::VertexWeights> weights;
  for (int i = 0; i <= 4; ++i) {
    const float x = 0.5f * static_cast<float>(i);  // 0 .. 2 m
    mesh.positions.emplace_back(x, 0.0f, 0.0f);
    const float on_1 = x < 0.75f ? 0.0f : x > 1.25f ? 1.0f : 0.5f;
    std::vector<std::pair<int, float>> influences;
    if (on_1 < 1.0f) influences.emplace_back(0, 1.0f - on_1);
    if (on_1 > 0.0f) influences.emplace_back(1, on_1);
    weights.push_back(*mocap::make_vertex_weights(influences));
  }
  auto skinner = mocap::Skinner::create(mesh, weights, 2, mocap::SkinMethod::kLinear, 1);
  if (!skinner) {
    std::fprintf(stderr, "skin_runtime: %s\n", skinner.error().message.c_str());
    return 1;
  }
  // K_0 = identity; K_1 = a turn of 90 degrees about Z through (1, 0, 0).
  Eigen::Affine3f turn = Eigen::Translation3f(1.0f, 0.0f, 0.0f) *
                         Eigen::AngleAxisf(std::numbers::pi_v<float> / 2.0f, Eigen::Vector3f::UnitZ()) *
                         Eigen::Translation3f(-1.0f, 0.0f, 0.0f);
  skinner->matrices()[0] = Eigen::Affine3f::Identity().matrix().topRows<3>();
  skinner->matrices()[1] = turn.matrix().topRows<3>();
  skinner->run();
  for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
    const Eigen::Vector3f& p = mesh.positions[v];
    const Eigen::Vector3f& q = skinner->positions()[v];
    std::printf("%.2f %.2f %.2f -> %.3f %.3f %.3f\n", p.x(), p.y(), p.z(), q.x(), q.y(), q.z());
  }
  return 0;
}
