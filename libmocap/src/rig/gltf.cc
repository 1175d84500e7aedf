#include <mocap/io/atomic_write.h>
#include <mocap/io/bvh.h>
#include <mocap/rig/gltf.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>

namespace mocap {

namespace {

// Keeps each quaternion in the hemisphere of the previous one, so that
// viewers that blend components (Blender's f-curves) turn the short way.
void make_continuous(std::vector<Eigen::Quaternionf>& rotations) {
  for (std::size_t i = 1; i < rotations.size(); ++i) {
    if (rotations[i].coeffs().dot(rotations[i - 1].coeffs()) < 0.0f) rotations[i].coeffs() *= -1.0f;
  }
}

// The local transform of a rigid child frame in its parent's frame.
void rigid_local(const Eigen::Affine3d& parent, const Eigen::Affine3d& child, Eigen::Vector3f& translation,
                 Eigen::Quaternionf& rotation) {
  const Eigen::Affine3d local = parent.inverse(Eigen::Isometry) * child;
  translation = local.translation().cast<float>();
  rotation = Eigen::Quaternionf(Eigen::Quaterniond(local.linear()).normalized().cast<float>());
}

}  // namespace

GltfDocument gltf_from_clip(const Skeleton& skeleton, const Motion& motion, const Pose& bind_pose,
                            const SkeletonBind& bind, const Mesh& mesh, std::span<const VertexWeights> weights,
                            std::span<const int> frames, const std::string& animation_name) {
  const std::size_t bones = skeleton.bones.size();
  GltfDocument document;
  document.mesh = &mesh;
  document.weights = weights;
  std::vector<Eigen::Vector3d> positions(bones);
  std::vector<Eigen::Quaterniond> rotations(bones);
  std::vector<Eigen::Affine3d> world(bones);
  bone_frames(skeleton, bind_pose, bind.placement, positions, rotations, world, bind.bone_scale);
  document.nodes.resize(bones);
  for (std::size_t b = 0; b < bones; ++b) {
    GltfNode& node = document.nodes[b];
    node.name = skeleton.bones[b].name;
    node.parent = skeleton.bones[b].parent;
    rigid_local(node.parent < 0 ? Eigen::Affine3d::Identity() : world[node.parent], world[b], node.translation,
                node.rotation);
    document.joints.push_back(static_cast<int>(b));
    document.inverse_bind.push_back(bind.inverse_bind[b].matrix().cast<float>());
  }
  // Bones are in file order, which need not put parents first: GltfNode only
  // asks that of parents' indices being valid, and glTF itself does not care.

  GltfAnimation animation;
  animation.name = animation_name;
  animation.tracks.resize(bones);
  for (std::size_t b = 0; b < bones; ++b) {
    animation.tracks[b].node = static_cast<int>(b);
    animation.tracks[b].translations.reserve(frames.size());
    animation.tracks[b].rotations.reserve(frames.size());
  }
  Pose pose = make_pose(skeleton);
  for (const int f : frames) {
    animation.times.push_back(static_cast<float>((f - frames.front()) / motion.fps));
    pose_from_channels(skeleton, motion.frame(f), pose);
    pose_for_bind(skeleton, bind, pose);
    bone_frames(skeleton, pose, bind.placement, positions, rotations, world, bind.bone_scale);
    for (std::size_t b = 0; b < bones; ++b) {
      const int parent = skeleton.bones[b].parent;
      Eigen::Vector3f t;
      Eigen::Quaternionf r;
      rigid_local(parent < 0 ? Eigen::Affine3d::Identity() : world[parent], world[b], t, r);
      animation.tracks[b].translations.push_back(t);
      animation.tracks[b].rotations.push_back(r);
    }
  }
  for (GltfTrack& track : animation.tracks) make_continuous(track.rotations);
  document.animations.push_back(std::move(animation));
  return document;
}

Result<GltfDocument> gltf_from_motion(const Skeleton& skeleton, const Motion& motion,
                                      const std::string& animation_name) {
  if (motion.frame_count() == 0) return fail("", 0, "cannot write glTF: the motion has no frames");
  // BVH joints are glTF nodes as they are: a node's local transform is the
  // joint's pose offset and rotation (fk.h, offsets_in_parent_frame).
  auto bvh = to_bvh(skeleton, motion);
  if (!bvh) return fail("", 0, "cannot write glTF: " + bvh.error().message);
  const Skeleton& joints = bvh->skeleton;
  const std::size_t bones = joints.bones.size();
  GltfDocument document;
  const Pose rest = rest_pose(joints);
  document.nodes.resize(bones);
  for (std::size_t b = 0; b < bones; ++b) {
    document.nodes[b] = GltfNode{joints.bones[b].name, joints.bones[b].parent, rest.offset[b].cast<float>(),
                                 rest.rotation[b].cast<float>(), Eigen::Vector3f::Ones()};
  }
  GltfAnimation animation;
  animation.name = animation_name;
  std::vector<int> track_of(bones, -1);
  for (std::size_t b = 0; b < bones; ++b) {
    const auto& dofs = joints.bones[b].dofs;
    const bool moves = std::any_of(dofs.begin(), dofs.end(), [](Channel c) { return !is_rotation(c); });
    const bool turns = std::any_of(dofs.begin(), dofs.end(), [](Channel c) { return is_rotation(c); });
    if (!moves && !turns) continue;
    track_of[b] = static_cast<int>(animation.tracks.size());
    GltfTrack& track = animation.tracks.emplace_back();
    track.node = static_cast<int>(b);
    if (moves) track.translations.reserve(static_cast<std::size_t>(motion.frame_count()));
    if (turns) track.rotations.reserve(static_cast<std::size_t>(motion.frame_count()));
  }
  Pose pose = make_pose(joints);
  for (int f = 0; f < bvh->motion.frame_count(); ++f) {
    animation.times.push_back(static_cast<float>(f / motion.fps));
    pose_from_channels(joints, bvh->motion.frame(f), pose);
    for (std::size_t b = 0; b < bones; ++b) {
      if (track_of[b] < 0) continue;
      GltfTrack& track = animation.tracks[static_cast<std::size_t>(track_of[b])];
      if (track.translations.capacity() > 0) track.translations.push_back(pose.offset[b].cast<float>());
      if (track.rotations.capacity() > 0) track.rotations.push_back(pose.rotation[b].cast<float>());
    }
  }
  for (GltfTrack& track : animation.tracks) make_continuous(track.rotations);
  document.animations.push_back(std::move(animation));
  return document;
}

GltfDocument gltf_from_model(const RiggedModel& model, const ModelAnimation& animation, std::span<const float> times) {
  GltfDocument document;
  document.mesh = &model.mesh;
  document.weights = model.weights;
  for (const ModelNode& node : model.nodes) {
    document.nodes.push_back(GltfNode{node.name, node.parent, node.translation.cast<float>(),
                                      node.rotation.cast<float>(), node.scale.cast<float>()});
  }
  for (const ModelJoint& joint : model.joints) {
    document.joints.push_back(joint.node);
    document.inverse_bind.push_back(joint.inverse_bind.cast<float>());
  }
  GltfAnimation out;
  out.name = animation.name.empty() ? "animation" : animation.name;
  out.times.assign(times.begin(), times.end());
  out.tracks.resize(animation.tracks.size());
  ModelPose pose = rest_pose(model);
  for (const float t : times) {
    sample_animation(model, animation, t, pose);
    for (std::size_t i = 0; i < animation.tracks.size(); ++i) {
      const NodeTrack& track = animation.tracks[i];
      GltfTrack& keys = out.tracks[i];
      keys.node = track.node;
      if (!track.translations.empty()) keys.translations.push_back(pose.translation[track.node].cast<float>());
      if (!track.rotations.empty()) keys.rotations.push_back(pose.rotation[track.node].cast<float>());
      if (!track.scales.empty()) keys.scales.push_back(pose.scale[track.node].cast<float>());
    }
  }
  for (GltfTrack& track : out.tracks) make_continuous(track.rotations);
  document.animations.push_back(std::move(out));
  return document;
}

namespace {

using nlohmann::json;

constexpr int kFloat = 5126;
constexpr int kUnsignedShort = 5123;
constexpr int kUnsignedInt = 5125;
constexpr int kArrayBuffer = 34962;
constexpr int kElementArrayBuffer = 34963;

// The BIN chunk and the buffer views and accessors that point into it.
struct BinaryBuilder {
  std::string bin;
  json views = json::array();
  json accessors = json::array();

  int view(const void* data, std::size_t bytes, int target) {
    if (bytes > 0) bin.append(static_cast<const char*>(data), bytes);
    json v = {{"buffer", 0}, {"byteOffset", bin.size() - bytes}, {"byteLength", bytes}};
    if (target != 0) v["target"] = target;
    // Every view starts 4-byte aligned; all our components are 2 or 4 bytes wide.
    bin.append((4 - bin.size() % 4) % 4, '\0');
    views.push_back(std::move(v));
    return static_cast<int>(views.size()) - 1;
  }

  template <class T>
  int accessor(const std::vector<T>& values, int components, int component_type, const char* type, int target,
               bool min_max = false) {
    const std::size_t count = values.size();
    const int v = view(values.data(), count * sizeof(T), target);
    json a = {{"bufferView", v}, {"componentType", component_type}, {"count", count}, {"type", type}};
    if (min_max && count > 0) {
      const float* data = reinterpret_cast<const float*>(values.data());
      json lo = json::array();
      json hi = json::array();
      for (int c = 0; c < components; ++c) {
        float mn = std::numeric_limits<float>::infinity();
        float mx = -mn;
        for (std::size_t i = 0; i < count; ++i) {
          mn = std::min(mn, data[i * components + c]);
          mx = std::max(mx, data[i * components + c]);
        }
        lo.push_back(mn);
        hi.push_back(mx);
      }
      a["min"] = std::move(lo);
      a["max"] = std::move(hi);
    }
    accessors.push_back(std::move(a));
    return static_cast<int>(accessors.size()) - 1;
  }
};

json vec(const Eigen::Vector3f& v) {
  return json::array({v.x(), v.y(), v.z()});
}

void append_u32(std::string& out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xffu));
}

std::optional<std::string> check_nodes_and_animations(const GltfDocument& d);

std::optional<std::string> check(const GltfDocument& d) {
  if (d.mesh == nullptr) {
    if (!d.weights.empty() || !d.joints.empty() || !d.inverse_bind.empty())
      return "weights, joints or inverse binds without a mesh";
    if (d.nodes.empty()) return "no mesh and no nodes";
    return check_nodes_and_animations(d);
  }
  const std::size_t n = d.mesh->positions.size();
  if (n == 0 || d.mesh->triangles.empty()) return "the mesh has no triangles";
  if (n > std::numeric_limits<std::uint32_t>::max()) return "too many vertices";
  if (d.weights.size() != n)
    return "weights has " + std::to_string(d.weights.size()) + " entries, expected one per vertex (" +
           std::to_string(n) + ")";
  if (!d.mesh->normals.empty() && d.mesh->normals.size() != n) return "normals are not one per vertex";
  if (d.joints.empty() || d.joints.size() > 65535) return "expected 1 to 65535 joints";
  if (d.inverse_bind.size() != d.joints.size()) return "expected one inverse bind matrix per joint";
  const int nodes = static_cast<int>(d.nodes.size());
  for (const int j : d.joints) {
    if (j < 0 || j >= nodes) return "joint node " + std::to_string(j) + " is not a node";
  }
  for (std::size_t v = 0; v < n; ++v) {
    for (int k = 0; k < kMaxInfluences; ++k) {
      if (d.weights[v].bone[k] >= d.joints.size())
        return "vertex " + std::to_string(v) + " refers to joint " + std::to_string(d.weights[v].bone[k]);
    }
  }
  for (const MeshTriangle& t : d.mesh->triangles) {
    for (const int v : t.vertex) {
      if (v < 0 || static_cast<std::size_t>(v) >= n) return "a triangle refers to vertex " + std::to_string(v);
    }
  }
  return check_nodes_and_animations(d);
}

// Parents in range and animations consistent, mesh or not.
std::optional<std::string> check_nodes_and_animations(const GltfDocument& d) {
  const int nodes = static_cast<int>(d.nodes.size());
  for (int i = 0; i < nodes; ++i) {
    if (d.nodes[i].parent >= nodes || d.nodes[i].parent == i || d.nodes[i].parent < -1)
      return "node " + std::to_string(i) + " has parent " + std::to_string(d.nodes[i].parent);
  }
  for (const GltfAnimation& a : d.animations) {
    if (a.times.empty()) return "animation `" + a.name + "` has no keys";
    for (std::size_t i = 1; i < a.times.size(); ++i) {
      if (!(a.times[i] > a.times[i - 1])) return "animation `" + a.name + "`: times are not strictly increasing";
    }
    for (const GltfTrack& t : a.tracks) {
      if (t.node < 0 || t.node >= nodes) return "animation `" + a.name + "` keys node " + std::to_string(t.node);
      for (const std::size_t size : {t.translations.size(), t.rotations.size(), t.scales.size()}) {
        if (size != 0 && size != a.times.size())
          return "animation `" + a.name + "`, node " + std::to_string(t.node) + ": " + std::to_string(size) +
                 " values for " + std::to_string(a.times.size()) + " times";
      }
    }
  }
  return std::nullopt;
}

// Texture coordinates per vertex when every corner of a vertex has the same
// ones (glTF has no face-varying attributes); empty otherwise.
std::vector<Eigen::Vector2f> vertex_uvs(const Mesh& mesh) {
  if (mesh.uvs.empty()) return {};
  std::vector<int> uv_of(mesh.positions.size(), -1);
  for (const MeshTriangle& t : mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      const int uv = t.uv[k];
      if (uv < 0) return {};
      int& seen = uv_of[t.vertex[k]];
      if (seen >= 0 && seen != uv && mesh.uvs[seen] != mesh.uvs[uv]) return {};
      seen = uv;
    }
  }
  std::vector<Eigen::Vector2f> out(mesh.positions.size(), Eigen::Vector2f::Zero());
  for (std::size_t v = 0; v < out.size(); ++v) {
    // glTF puts v = 0 at the top of the image, OBJ and Assimp at the bottom.
    if (uv_of[v] >= 0) out[v] = Eigen::Vector2f(mesh.uvs[uv_of[v]].x(), 1.0f - mesh.uvs[uv_of[v]].y());
  }
  return out;
}

// Weights whose sum is 1 as closely as float32 allows, as glTF asks ("as
// close as floating point precision permits"; the Khronos validator refuses
// sums 2.4e-7 off, which weights summed in float reach): scaled to sum 1 in
// double, and the first (the largest) weight made 1 less the others, so
// the sum is off by at most half a float step at 1 (6e-8).
std::array<float, 4> normalised_for_gltf(const std::array<float, 4>& w) {
  double sum = 0;
  for (const float x : w) sum += x;
  if (!(sum > 0)) return w;
  std::array<float, 4> out{};
  double rest = 0;
  for (std::size_t k = 1; k < w.size(); ++k) {
    out[k] = static_cast<float>(w[k] / sum);
    rest += out[k];
  }
  out[0] = static_cast<float>(1.0 - rest);
  return out;
}

// The mesh, its skin and the node holding them (a scene root).
void add_skinned_mesh(const GltfDocument& document, BinaryBuilder& b, json& gltf, json& nodes, json& roots) {
  const Mesh& mesh = *document.mesh;
  const std::size_t n = mesh.positions.size();
  json attributes;
  attributes["POSITION"] = b.accessor(mesh.positions, 3, kFloat, "VEC3", kArrayBuffer, true);
  if (!mesh.normals.empty()) attributes["NORMAL"] = b.accessor(mesh.normals, 3, kFloat, "VEC3", kArrayBuffer);
  if (const auto uvs = vertex_uvs(mesh); !uvs.empty()) {
    attributes["TEXCOORD_0"] = b.accessor(uvs, 2, kFloat, "VEC2", kArrayBuffer);
  }
  std::vector<std::array<std::uint16_t, 4>> joints(n);
  std::vector<std::array<float, 4>> weights(n);
  for (std::size_t v = 0; v < n; ++v) {
    joints[v] = document.weights[v].bone;
    weights[v] = normalised_for_gltf(document.weights[v].weight);
  }
  attributes["JOINTS_0"] = b.accessor(joints, 4, kUnsignedShort, "VEC4", kArrayBuffer);
  attributes["WEIGHTS_0"] = b.accessor(weights, 4, kFloat, "VEC4", kArrayBuffer);
  std::vector<std::uint32_t> indices;
  indices.reserve(mesh.triangles.size() * 3);
  for (const MeshTriangle& t : mesh.triangles) {
    for (const int v : t.vertex) indices.push_back(static_cast<std::uint32_t>(v));
  }
  const int index_accessor = b.accessor(indices, 1, kUnsignedInt, "SCALAR", kElementArrayBuffer);
  // glTF matrices are column-major, as Eigen's storage.
  std::vector<Eigen::Matrix4f> inverse_bind(document.inverse_bind.begin(), document.inverse_bind.end());
  const int inverse_bind_accessor = b.accessor(inverse_bind, 16, kFloat, "MAT4", 0);
  roots.push_back(nodes.size());
  nodes.push_back({{"name", "mesh"}, {"mesh", 0}, {"skin", 0}});
  json primitive = {{"attributes", std::move(attributes)}, {"indices", index_accessor}, {"mode", 4}};
  gltf["meshes"] = json::array({{{"name", "mesh"}, {"primitives", json::array({std::move(primitive)})}}});
  gltf["skins"] =
      json::array({{{"name", "skin"}, {"joints", document.joints}, {"inverseBindMatrices", inverse_bind_accessor}}});
}

}  // namespace

Result<std::string> format_glb(const GltfDocument& document) {
  if (const auto problem = check(document)) return fail("", 0, "cannot write glTF: " + *problem);
  BinaryBuilder b;
  json gltf;
  gltf["asset"] = {{"version", "2.0"}, {"generator", "mocap (libmocap gltf.cc)"}};
  json nodes = json::array();
  json roots = json::array();
  for (std::size_t i = 0; i < document.nodes.size(); ++i) {
    const GltfNode& node = document.nodes[i];
    json out = {{"name", node.name}};
    if (node.translation != Eigen::Vector3f::Zero()) out["translation"] = vec(node.translation);
    const Eigen::Quaternionf r = node.rotation.normalized();
    if (r.coeffs() != Eigen::Quaternionf::Identity().coeffs()) out["rotation"] = {r.x(), r.y(), r.z(), r.w()};
    if (node.scale != Eigen::Vector3f::Ones()) out["scale"] = vec(node.scale);
    nodes.push_back(std::move(out));
    if (node.parent < 0) roots.push_back(i);
  }
  for (std::size_t i = 0; i < document.nodes.size(); ++i) {
    const int parent = document.nodes[i].parent;
    if (parent >= 0) nodes[parent]["children"].push_back(i);
  }
  if (document.mesh != nullptr) add_skinned_mesh(document, b, gltf, nodes, roots);
  gltf["nodes"] = std::move(nodes);
  gltf["scene"] = 0;
  gltf["scenes"] = json::array({{{"name", "scene"}, {"nodes", std::move(roots)}}});

  json animations = json::array();
  for (const GltfAnimation& animation : document.animations) {
    const int input = b.accessor(animation.times, 1, kFloat, "SCALAR", 0, true);
    json samplers = json::array();
    json channels = json::array();
    auto add = [&](int node, const char* path, int output) {
      samplers.push_back({{"input", input}, {"output", output}, {"interpolation", "LINEAR"}});
      channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", node}, {"path", path}}}});
    };
    for (const GltfTrack& track : animation.tracks) {
      if (!track.translations.empty())
        add(track.node, "translation", b.accessor(track.translations, 3, kFloat, "VEC3", 0));
      if (!track.rotations.empty()) {
        std::vector<Eigen::Quaternionf> unit(track.rotations.begin(), track.rotations.end());
        for (Eigen::Quaternionf& q : unit) q.normalize();
        add(track.node, "rotation", b.accessor(unit, 4, kFloat, "VEC4", 0));
      }
      if (!track.scales.empty()) add(track.node, "scale", b.accessor(track.scales, 3, kFloat, "VEC3", 0));
    }
    if (channels.empty()) continue;
    animations.push_back(
        {{"name", animation.name}, {"samplers", std::move(samplers)}, {"channels", std::move(channels)}});
  }
  if (!animations.empty()) gltf["animations"] = std::move(animations);
  // A buffer has at least one byte (glTF 2.0): nodes alone have none.
  if (!b.bin.empty()) {
    gltf["bufferViews"] = std::move(b.views);
    gltf["accessors"] = std::move(b.accessors);
    gltf["buffers"] = json::array({{{"byteLength", b.bin.size()}}});
  }

  std::string text = gltf.dump();
  text.append((4 - text.size() % 4) % 4, ' ');
  std::string& bin = b.bin;
  bin.append((4 - bin.size() % 4) % 4, '\0');
  std::string glb;
  const std::size_t total = 12 + 8 + text.size() + (bin.empty() ? 0 : 8 + bin.size());
  if (total > std::numeric_limits<std::uint32_t>::max()) return fail("", 0, "cannot write glTF: more than 4 GB");
  glb.reserve(total);
  glb += "glTF";
  append_u32(glb, 2);
  append_u32(glb, static_cast<std::uint32_t>(total));
  append_u32(glb, static_cast<std::uint32_t>(text.size()));
  append_u32(glb, 0x4E4F534Au);  // "JSON"
  glb += text;
  if (bin.empty()) return glb;  // the BIN chunk is optional
  append_u32(glb, static_cast<std::uint32_t>(bin.size()));
  append_u32(glb, 0x004E4942u);  // "BIN\0"
  glb += bin;
  return glb;
}

Result<void> write_glb(const std::string& path, const GltfDocument& document) {
  auto glb = format_glb(document);
  if (!glb) return fail(path, 0, glb.error().message);
  return write_file_atomically(path, *glb);
}

}  // namespace mocap
