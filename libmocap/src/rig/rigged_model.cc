#include <mocap/rig/rigged_model.h>

#include "rig/assimp_import.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <algorithm>
#include <assimp/Importer.hpp>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <numeric>
#include <unordered_map>
#include <utility>

namespace mocap {

int RiggedModel::find_node(std::string_view name) const {
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    if (nodes[n].name == name) return static_cast<int>(n);
  }
  return -1;
}

std::vector<std::string> RiggedModel::joint_names() const {
  std::vector<std::string> names;
  names.reserve(joints.size());
  for (const ModelJoint& joint : joints) names.push_back(nodes[joint.node].name);
  return names;
}

namespace {

Eigen::Matrix4d to_eigen(const aiMatrix4x4& m) {
  Eigen::Matrix4d out;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) out(r, c) = m[r][c];
  }
  return out;
}

Eigen::Quaterniond to_eigen(const aiQuaternion& q) {
  return Eigen::Quaterniond(q.w, q.x, q.y, q.z).normalized();
}

Eigen::Affine3d local_transform(const Eigen::Vector3d& t, const Eigen::Quaterniond& r, const Eigen::Vector3d& s) {
  Eigen::Affine3d m;
  m.linear() = r.toRotationMatrix() * s.asDiagonal();
  m.translation() = t;
  m.makeAffine();
  return m;
}

// Translation, rotation and scale of an affine matrix (scale along the
// rotated axes: the diagonal of the polar decomposition's stretch).
void decompose(const Eigen::Affine3d& m, Eigen::Vector3d& t, Eigen::Quaterniond& r, Eigen::Vector3d& s) {
  Eigen::Matrix3d rotation;
  Eigen::Matrix3d scaling;
  m.computeRotationScaling(&rotation, &scaling);
  t = m.translation();
  r = Eigen::Quaterniond(rotation).normalized();
  s = scaling.diagonal();
}

// Collects nodes parents first (depth first, children in file order).
void collect_nodes(const aiNode* node, int parent, std::vector<ModelNode>& nodes, std::vector<const aiNode*>& sources) {
  ModelNode out;
  out.name = node->mName.C_Str();
  out.parent = parent;
  Eigen::Affine3d local(to_eigen(node->mTransformation));
  decompose(local, out.translation, out.rotation, out.scale);
  const int index = static_cast<int>(nodes.size());
  nodes.push_back(std::move(out));
  sources.push_back(node);
  for (unsigned c = 0; c < node->mNumChildren; ++c) collect_nodes(node->mChildren[c], index, nodes, sources);
}

// Index of the joint of `node` with this inverse bind, added when new.
int joint_for(std::vector<ModelJoint>& joints, int node, const Eigen::Matrix4d& inverse_bind) {
  for (std::size_t j = 0; j < joints.size(); ++j) {
    if (joints[j].node == node && (joints[j].inverse_bind - inverse_bind).cwiseAbs().maxCoeff() <=
                                      1e-6 * std::max(1.0, inverse_bind.cwiseAbs().maxCoeff())) {
      return static_cast<int>(j);
    }
  }
  joints.push_back(ModelJoint{node, inverse_bind});
  return static_cast<int>(joints.size()) - 1;
}

template <class Key, class Value>
void read_keys(const Key* keys, unsigned count, double ticks_per_second, std::vector<double>& times,
               std::vector<Value>& values) {
  times.reserve(count);
  values.reserve(count);
  for (unsigned k = 0; k < count; ++k) {
    const double t = keys[k].mTime / ticks_per_second;
    // Keys out of order would break the binary search of sampling: drop them.
    if (!times.empty() && t < times.back()) continue;
    times.push_back(t);
    if constexpr (std::is_same_v<Value, Eigen::Quaterniond>) {
      values.push_back(to_eigen(keys[k].mValue));
    } else {
      values.emplace_back(keys[k].mValue.x, keys[k].mValue.y, keys[k].mValue.z);
    }
  }
}

// The glTF JSON of a file (a .gltf, or a .glb's first chunk), or a
// discarded value when the file is neither; `parsed` false when it looks like
// glTF but its JSON does not parse (`byte` then says where).
struct GltfJson {
  nlohmann::json doc = nlohmann::json(nlohmann::json::value_t::discarded);
  bool parsed = true;
  std::size_t byte = 0;
};
GltfJson read_gltf_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string_view text;
  if (bytes.size() >= 20 && bytes.compare(0, 4, "glTF") == 0 && bytes.compare(16, 4, "JSON") == 0) {
    std::uint32_t length = 0;
    std::memcpy(&length, bytes.data() + 12, 4);  // little-endian, as glTF and x86 are
    text = std::string_view(bytes).substr(20, length);
  } else if (bytes.find_first_not_of(" \t\r\n") != std::string::npos &&
             bytes[bytes.find_first_not_of(" \t\r\n")] == '{') {
    text = bytes;
  } else {
    return {};
  }
  GltfJson out;
  try {
    out.doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    out.parsed = false;
    out.byte = e.byte;
  }
  return out;
}

// What Debian's Assimp 5.2 would crash on rather than refuse, found by
// fuzz_rigged_model: a glTF skin without "inverseBindMatrices" (glTF allows
// it: identity matrices) makes its glTF 2 reader read through a null
// pointer. The file's JSON is looked at before Assimp is given the file.
// JSON that does not parse is refused too: Assimp's own JSON reader takes
// some of it (bytes that are not UTF-8 in a key), and then reads a skin this
// check could not see (fuzz_rigged_model, a .glb whose "byteOffset" key had
// three 0xFF bytes in it). Empty when there is nothing to refuse.
std::string what_assimp_cannot_read(const GltfJson& gltf) {
  if (!gltf.parsed) {
    return "its glTF JSON does not parse (byte " + std::to_string(gltf.byte) + " of the JSON)" +
           ": expected UTF-8 JSON, as glTF requires";
  }
  const nlohmann::json& json = gltf.doc;
  if (!json.is_object() || !json.contains("skins") || !json["skins"].is_array()) return {};
  for (std::size_t i = 0; i < json["skins"].size(); ++i) {
    const auto& skin = json["skins"][i];
    if (skin.is_object() && !skin.contains("inverseBindMatrices")) {
      return "skin " + std::to_string(i) +
             " has no inverseBindMatrices: expected them (glTF allows identity matrices by leaving them out, but "
             "Assimp 5.2, which reads the file, cannot)";
    }
  }
  return {};
}

// Each model node's glTF node index, as Assimp's glTF 2 reader builds its
// tree: the default scene's one root node is the tree's root, several root
// nodes hang from a root of Assimp's own (-1), children in file order.
// Nodes are matched by their place in the tree, never by name: glTF lets
// names repeat. Empty when the two trees do not have the same shape.
std::vector<int> gltf_node_sources(const nlohmann::json& doc, const std::vector<const aiNode*>& sources) {
  std::vector<int> source(sources.size(), -1);
  try {
    const auto& nodes = doc.at("nodes");
    const auto& scenes = doc.at("scenes");
    const auto& roots = scenes.at(doc.value("scene", 0)).at("nodes");
    std::unordered_map<const aiNode*, std::size_t> index;
    for (std::size_t n = 0; n < sources.size(); ++n) index[sources[n]] = n;
    bool same = true;
    auto match = [&](auto&& self, const aiNode* node, int gltf) -> void {
      const auto& children = nodes.at(static_cast<std::size_t>(gltf)).value("children", nlohmann::json::array());
      source[index.at(node)] = gltf;
      if (children.size() != node->mNumChildren) {
        same = false;
        return;
      }
      for (unsigned c = 0; c < node->mNumChildren && same; ++c) self(self, node->mChildren[c], children[c].get<int>());
    };
    const aiNode* root = sources.front();
    if (roots.size() == 1) {
      match(match, root, roots[0].get<int>());
    } else if (roots.size() == root->mNumChildren) {
      for (unsigned c = 0; c < root->mNumChildren && same; ++c) match(match, root->mChildren[c], roots[c].get<int>());
    } else {
      same = false;
    }
    if (!same) return {};
  } catch (const std::exception&) {
    return {};  // a document Assimp read but this walk cannot follow: no node has a source
  }
  return source;
}

}  // namespace

Result<RiggedModel> read_rigged_model(const std::string& path, const ModelReadOptions& options) {
  Assimp::Importer importer;
  detail::set_import_properties(importer);
  unsigned flags =
      aiProcess_Triangulate | aiProcess_SortByPType | aiProcess_ValidateDataStructure | detail::kImportInMetres;
  if (options.join_identical_vertices) flags |= aiProcess_JoinIdenticalVertices;
  // A damaged file can make Assimp's readers ask for gigabytes
  // (fuzz_rigged_model: a COLLADA index list, 2.3 GB): an allocation that
  // fails is this file's error, not the program's end.
  const GltfJson gltf = read_gltf_json(path);
  if (const std::string refused = what_assimp_cannot_read(gltf); !refused.empty()) return fail(path, 0, refused);
  const aiScene* scene = nullptr;
  try {
    scene = importer.ReadFile(path, flags);
  } catch (const std::bad_alloc&) {
    return fail(path, 0, "Assimp ran out of memory reading it: expected counts that fit the file");
  }
  if (scene == nullptr || scene->mRootNode == nullptr) {
    return fail(path, 0, std::string("Assimp cannot read it: ") + importer.GetErrorString());
  }
  RiggedModel model;
  model.path = path;
  std::vector<const aiNode*> sources;
  collect_nodes(scene->mRootNode, -1, model.nodes, sources);
  const bool is_gltf = gltf.doc.is_object();
  std::unordered_map<int, int> node_of_source;  // glTF node index -> model node
  if (is_gltf) {
    const std::vector<int> source = gltf_node_sources(gltf.doc, sources);
    for (std::size_t n = 0; n < source.size(); ++n) {
      model.nodes[n].source = source[n];
      if (source[n] >= 0) node_of_source[source[n]] = static_cast<int>(n);
    }
  }
  std::vector<Eigen::Affine3d> world(model.nodes.size());
  for (std::size_t n = 0; n < model.nodes.size(); ++n) {
    const Eigen::Affine3d local(to_eigen(sources[n]->mTransformation));
    world[n] = model.nodes[n].parent < 0 ? local : world[model.nodes[n].parent] * local;
  }

  Mesh& mesh = model.mesh;
  std::vector<std::vector<std::pair<int, float>>> influences;
  std::vector<bool> needs_normals;
  for (std::size_t n = 0; n < model.nodes.size(); ++n) {
    const aiNode* node = sources[n];
    for (unsigned i = 0; i < node->mNumMeshes; ++i) {
      const aiMesh* part = scene->mMeshes[node->mMeshes[i]];
      if ((part->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) == 0 || part->mNumVertices == 0) continue;
      const int base = mesh.vertex_count();
      const int uv_base = static_cast<int>(mesh.uvs.size());
      std::string group = part->mName.length > 0 ? part->mName.C_Str() : "mesh" + std::to_string(node->mMeshes[i]);
      int group_index = mesh.find_group(group);
      if (group_index < 0) {
        group_index = static_cast<int>(mesh.group_names.size());
        mesh.group_names.push_back(group);
      }
      // glTF places a skinned mesh's vertices in the skin's space, which its
      // inverse bind matrices take to each joint's; no viewer places the
      // mesh by its own node. Its bone b is the skin's joint b (Assimp gives
      // every joint, in order). Exporters write the inverse binds against
      // the scene's world, so the skin's space is the world (an exporter's
      // rotated, 0.01-scaled node above the skeleton or the mesh changes
      // nothing) -- unless every joint's rest transform times its inverse
      // bind is one same transform X: then the file's nodes rest in the bind
      // pose moved by X (a node added above the skeleton), every viewer shows
      // the character so, and X places the skin's space.
      std::vector<int> bone_nodes(part->mNumBones, -1);
      const nlohmann::json* skin_joints = nullptr;
      if (is_gltf && part->mNumBones > 0 && model.nodes[n].source >= 0) {
        const auto& gltf_node = gltf.doc["nodes"][static_cast<std::size_t>(model.nodes[n].source)];
        if (gltf_node.contains("skin") && gltf_node["skin"].is_number_integer()) {
          const auto skin = gltf_node["skin"].get<std::size_t>();
          if (gltf.doc.contains("skins") && skin < gltf.doc["skins"].size() &&
              gltf.doc["skins"][skin].contains("joints") && gltf.doc["skins"][skin]["joints"].is_array() &&
              gltf.doc["skins"][skin]["joints"].size() == part->mNumBones) {
            skin_joints = &gltf.doc["skins"][skin]["joints"];
          }
        }
      }
      for (unsigned b = 0; b < part->mNumBones; ++b) {
        const aiBone* bone = part->mBones[b];
        if (skin_joints != nullptr && (*skin_joints)[b].is_number_integer()) {
          const auto found = node_of_source.find((*skin_joints)[b].get<int>());
          if (found != node_of_source.end()) bone_nodes[b] = found->second;
        }
        if (bone_nodes[b] < 0) bone_nodes[b] = model.find_node(bone->mName.C_Str());
        if (bone_nodes[b] < 0) {
          return fail(path, 0,
                      "bone `" + std::string(bone->mName.C_Str()) + "` of mesh `" + group +
                          "` has no node of that name: expected every bone to name a node of the hierarchy");
        }
      }
      Eigen::Affine3d g = world[n];
      if (is_gltf && part->mNumBones > 0) {
        const Eigen::Matrix4d x = world[bone_nodes[0]].matrix() * to_eigen(part->mBones[0]->mOffsetMatrix);
        const double size = std::max(1e-12, x.topLeftCorner<3, 3>().cwiseAbs().maxCoeff());
        bool one = x.allFinite();
        std::vector<double> scales;  // of each joint's rest times inverse bind
        for (unsigned b = 0; b < part->mNumBones; ++b) {
          const Eigen::Matrix4d xb = world[bone_nodes[b]].matrix() * to_eigen(part->mBones[b]->mOffsetMatrix);
          one = one && (xb - x).topLeftCorner<3, 3>().cwiseAbs().maxCoeff() <= 1e-4 * size &&
                (xb - x).col(3).head<3>().norm() <= 1e-4 * std::max(1.0, x.col(3).head<3>().norm());
          scales.push_back(std::cbrt(std::abs(xb.topLeftCorner<3, 3>().determinant())));
        }
        g = one ? Eigen::Affine3d(x) : Eigen::Affine3d::Identity();
        // Nodes resting in an animation's frame (Blender exports of a
        // character with its actions) agree on no X; their frame moves and
        // turns joints but scales none, so a scale they share (an armature
        // node scaled 0.85 that the inverse binds leave out) is the skin's
        // space's, as viewers show the character.
        if (!one) {
          std::nth_element(scales.begin(), scales.begin() + static_cast<std::ptrdiff_t>(scales.size() / 2),
                           scales.end());
          const double scale = scales[scales.size() / 2];
          if (std::isfinite(scale) && scale > 0.0 && std::abs(scale - 1.0) > 1e-5) g = Eigen::Scaling(scale);
        }
      }
      const Eigen::Matrix3d normal_matrix = g.linear().inverse().transpose();
      for (unsigned v = 0; v < part->mNumVertices; ++v) {
        const aiVector3D& p = part->mVertices[v];
        mesh.positions.push_back((g * Eigen::Vector3d(p.x, p.y, p.z)).cast<float>());
        if (part->HasNormals()) {
          const aiVector3D& q = part->mNormals[v];
          Eigen::Vector3d normal = normal_matrix * Eigen::Vector3d(q.x, q.y, q.z);
          mesh.normals.push_back(normal.norm() > 0.0 ? Eigen::Vector3f(normal.normalized().cast<float>())
                                                     : Eigen::Vector3f::UnitY());
        } else {
          mesh.normals.push_back(Eigen::Vector3f::UnitY());
        }
        needs_normals.push_back(!part->HasNormals());
        if (part->HasTextureCoords(0)) {
          mesh.uvs.emplace_back(part->mTextureCoords[0][v].x, part->mTextureCoords[0][v].y);
        }
      }
      for (unsigned f = 0; f < part->mNumFaces; ++f) {
        const aiFace& face = part->mFaces[f];
        if (face.mNumIndices != 3) continue;
        MeshTriangle triangle;
        for (int k = 0; k < 3; ++k) {
          triangle.vertex[k] = base + static_cast<int>(face.mIndices[k]);
          if (part->HasTextureCoords(0)) triangle.uv[k] = uv_base + static_cast<int>(face.mIndices[k]);
        }
        triangle.group = group_index;
        mesh.triangles.push_back(triangle);
      }
      influences.resize(mesh.positions.size());
      const Eigen::Matrix4d to_mesh = g.inverse().matrix();
      for (unsigned b = 0; b < part->mNumBones; ++b) {
        const aiBone* bone = part->mBones[b];
        const int bone_node = bone_nodes[b];
        const int joint = joint_for(model.joints, bone_node, to_eigen(bone->mOffsetMatrix) * to_mesh);
        for (unsigned w = 0; w < bone->mNumWeights; ++w) {
          const aiVertexWeight& weight = bone->mWeights[w];
          if (weight.mVertexId >= part->mNumVertices) {
            return fail(path, 0,
                        "bone `" + std::string(bone->mName.C_Str()) + "` weights vertex " +
                            std::to_string(weight.mVertexId) + " of mesh `" + group + "`, which has " +
                            std::to_string(part->mNumVertices));
          }
          influences[static_cast<std::size_t>(base) + weight.mVertexId].emplace_back(joint, weight.mWeight);
        }
      }
      // Vertices no bone weights follow their mesh's node rigidly.
      for (int v = base; v < mesh.vertex_count(); ++v) {
        const bool weighted =
            std::any_of(influences[v].begin(), influences[v].end(),
                        [](const std::pair<int, float>& influence) { return influence.second > 0.0f; });
        if (!weighted)
          influences[v] = {{joint_for(model.joints, static_cast<int>(n), world[n].inverse().matrix()), 1.0f}};
      }
    }
  }
  if (mesh.triangles.empty()) {
    return fail(path, 0, "no triangle mesh: expected a rigged model with at least one mesh of triangles");
  }
  if (model.joints.size() > 65535) return fail(path, 0, "more than 65535 joints");
  // A singular, projective or non-finite bind (a zero scale, a damaged
  // matrix) would pose every vertex it weights at NaN: refused here, naming
  // the joint. glTF asks for affine inverse binds (last row 0 0 0 1).
  for (const ModelJoint& joint : model.joints) {
    const Eigen::Matrix4d& m = joint.inverse_bind;
    const double size = m.topLeftCorner<3, 3>().cwiseAbs().maxCoeff();
    const double det = m.topLeftCorner<3, 3>().determinant();
    const bool affine = (m.row(3) - Eigen::RowVector4d(0, 0, 0, 1)).cwiseAbs().maxCoeff() <= 1e-6;
    if (!m.allFinite() || !affine || !(std::abs(det) > 1e-12 * size * size * size)) {
      return fail(path, 0,
                  "joint `" + model.nodes[joint.node].name +
                      "`: its inverse bind matrix is singular, projective or not finite: expected an "
                      "invertible affine transform");
    }
  }
  for (const ModelNode& node : model.nodes) {
    if (!node.translation.allFinite() || !node.rotation.coeffs().allFinite() || !node.scale.allFinite()) {
      return fail(path, 0, "node `" + node.name + "`: its transform is not finite: expected finite numbers");
    }
  }
  for (const Eigen::Vector3f& p : mesh.positions) {
    if (!p.allFinite()) {
      return fail(path, 0, "a vertex is not finite once placed by its node (a zero scale?): expected finite positions");
    }
  }
  // Texture coordinates are all or nothing in a Mesh: drop partial ones.
  if (mesh.uvs.size() != mesh.positions.size()) {
    mesh.uvs.clear();
    for (MeshTriangle& t : mesh.triangles) t.uv = {-1, -1, -1};
  }
  if (std::find(needs_normals.begin(), needs_normals.end(), true) != needs_normals.end()) {
    Mesh computed = mesh;
    compute_normals(computed);
    for (std::size_t v = 0; v < needs_normals.size(); ++v) {
      if (needs_normals[v]) mesh.normals[v] = computed.normals[v];
    }
  }
  model.weights.resize(mesh.positions.size());
  for (std::size_t v = 0; v < influences.size(); ++v) {
    const auto weights = make_vertex_weights(influences[v]);
    // make_vertex_weights fails only without positive weight, which the rigid fallback above rules out.
    if (weights) model.weights[v] = *weights;
  }

  for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
    const aiAnimation* source = scene->mAnimations[a];
    // Assimp: 0 ticks per second means "not given"; its own viewer assumes 25.
    const double ticks_per_second = source->mTicksPerSecond > 0.0 ? source->mTicksPerSecond : 25.0;
    ModelAnimation animation;
    animation.name = source->mName.C_Str();
    animation.duration_seconds = source->mDuration / ticks_per_second;
    for (unsigned c = 0; c < source->mNumChannels; ++c) {
      const aiNodeAnim* channel = source->mChannels[c];
      NodeTrack track;
      track.node = model.find_node(channel->mNodeName.C_Str());
      if (track.node < 0) continue;  // a channel for a node the scene lacks moves nothing
      read_keys(channel->mPositionKeys, channel->mNumPositionKeys, ticks_per_second, track.translation_times,
                track.translations);
      read_keys(channel->mRotationKeys, channel->mNumRotationKeys, ticks_per_second, track.rotation_times,
                track.rotations);
      read_keys(channel->mScalingKeys, channel->mNumScalingKeys, ticks_per_second, track.scale_times, track.scales);
      for (const auto* times : {&track.translation_times, &track.rotation_times, &track.scale_times}) {
        if (!times->empty()) animation.duration_seconds = std::max(animation.duration_seconds, times->back());
      }
      animation.tracks.push_back(std::move(track));
    }
    model.animations.push_back(std::move(animation));
  }
  return model;
}

Result<const ModelAnimation*> find_animation(const RiggedModel& model, std::string_view name) {
  if (model.animations.empty()) return fail(model.path, 0, "no animation: expected a model with at least one");
  if (name.empty()) return &model.animations.front();
  std::string names;
  for (const ModelAnimation& animation : model.animations) {
    if (animation.name == name) return &animation;
    names += (names.empty() ? "`" : ", `") + animation.name + "`";
  }
  return fail(model.path, 0, "no animation `" + std::string(name) + "`: expected one of " + names);
}

ModelPose rest_pose(const RiggedModel& model) {
  ModelPose pose;
  for (const ModelNode& node : model.nodes) {
    pose.translation.push_back(node.translation);
    pose.rotation.push_back(node.rotation);
    pose.scale.push_back(node.scale);
  }
  return pose;
}

namespace {

// Per node, the first joint that moves it, or -1.
std::vector<int> joint_of_nodes(const RiggedModel& model) {
  std::vector<int> joint_of(model.nodes.size(), -1);
  for (std::size_t j = 0; j < model.joints.size(); ++j) {
    if (joint_of[model.joints[j].node] < 0) joint_of[model.joints[j].node] = static_cast<int>(j);
  }
  return joint_of;
}

}  // namespace

ModelPose bind_pose(const RiggedModel& model) {
  ModelPose pose = rest_pose(model);
  const std::size_t count = model.nodes.size();
  const std::vector<int> joint_of = joint_of_nodes(model);
  std::vector<Eigen::Affine3d> world(count);
  for (std::size_t n = 0; n < count; ++n) {
    const int parent = model.nodes[n].parent;
    const Eigen::Affine3d parent_world = parent < 0 ? Eigen::Affine3d::Identity() : world[parent];
    if (joint_of[n] < 0) {
      world[n] = parent_world * local_transform(pose.translation[n], pose.rotation[n], pose.scale[n]);
      continue;
    }
    const Eigen::Affine3d wanted(model.joints[joint_of[n]].inverse_bind.inverse());
    decompose(parent_world.inverse() * wanted, pose.translation[n], pose.rotation[n], pose.scale[n]);
    world[n] = parent_world * local_transform(pose.translation[n], pose.rotation[n], pose.scale[n]);
  }
  return pose;
}

namespace {

// The value of keys (times, values) at t, held at the ends; false without keys.
template <class Value, class Blend>
bool interpolate(const std::vector<double>& times, const std::vector<Value>& values, double t, Blend blend,
                 Value& out) {
  if (times.empty()) return false;
  const auto after = std::upper_bound(times.begin(), times.end(), t);
  if (after == times.begin()) {
    out = values.front();
  } else if (after == times.end()) {
    out = values.back();
  } else {
    const std::size_t i = static_cast<std::size_t>(after - times.begin());
    const double span = times[i] - times[i - 1];
    const double a = span > 0.0 ? (t - times[i - 1]) / span : 1.0;
    out = blend(values[i - 1], values[i], a);
  }
  return true;
}

}  // namespace

void sample_animation(const RiggedModel& model, const ModelAnimation& animation, double seconds, ModelPose& pose) {
  for (std::size_t n = 0; n < model.nodes.size(); ++n) {
    pose.translation[n] = model.nodes[n].translation;
    pose.rotation[n] = model.nodes[n].rotation;
    pose.scale[n] = model.nodes[n].scale;
  }
  const auto lerp = [](const Eigen::Vector3d& a, const Eigen::Vector3d& b, double s) -> Eigen::Vector3d {
    return a + s * (b - a);
  };
  const auto slerp = [](const Eigen::Quaterniond& a, const Eigen::Quaterniond& b, double s) {
    return a.slerp(s, b).normalized();
  };
  for (const NodeTrack& track : animation.tracks) {
    const std::size_t n = static_cast<std::size_t>(track.node);
    interpolate(track.translation_times, track.translations, seconds, lerp, pose.translation[n]);
    interpolate(track.rotation_times, track.rotations, seconds, slerp, pose.rotation[n]);
    interpolate(track.scale_times, track.scales, seconds, lerp, pose.scale[n]);
  }
}

void node_world_transforms(const RiggedModel& model, const ModelPose& pose, std::span<Eigen::Affine3d> world) {
  for (std::size_t n = 0; n < model.nodes.size(); ++n) {
    const Eigen::Affine3d local = local_transform(pose.translation[n], pose.rotation[n], pose.scale[n]);
    const int parent = model.nodes[n].parent;
    world[n] = parent < 0 ? local : world[parent] * local;
  }
}

void model_skinning_matrices(const RiggedModel& model, const ModelPose& pose, std::span<Eigen::Affine3d> world,
                             std::span<SkinMatrix> matrices) {
  node_world_transforms(model, pose, world);
  for (std::size_t j = 0; j < model.joints.size(); ++j) {
    const Eigen::Matrix4d k = world[model.joints[j].node].matrix() * model.joints[j].inverse_bind;
    matrices[j] = k.topRows<3>().cast<float>();
  }
}

BoneTree joint_tree(const RiggedModel& model) {
  const std::vector<int> joint_of = joint_of_nodes(model);
  BoneTree tree;
  tree.parent.assign(model.joints.size(), -1);
  tree.order.resize(model.joints.size());
  std::iota(tree.order.begin(), tree.order.end(), 0);
  std::ranges::stable_sort(tree.order, {}, [&](int j) { return model.joints[j].node; });
  for (std::size_t j = 0; j < model.joints.size(); ++j) {
    int node = model.nodes[model.joints[j].node].parent;
    while (node >= 0 && joint_of[node] < 0) node = model.nodes[node].parent;
    if (node >= 0) tree.parent[j] = joint_of[node];
  }
  // Roots after the first hang from it: one hemisphere for the whole skin,
  // so that a vertex blending two hierarchies (a prop beside the body) is
  // signed too.
  const int first_root = tree.order.empty() ? -1 : tree.order.front();
  for (const int j : tree.order)
    if (j != first_root && tree.parent[j] < 0) tree.parent[j] = first_root;
  return tree;
}

PoseFrame pose_from_animation(const RiggedModel& model, const ModelAnimation& animation, double fps) {
  struct Scratch {
    ModelPose pose;
    std::vector<Eigen::Affine3d> world;
    BoneTree tree;
  };
  auto scratch = std::make_shared<Scratch>(
      Scratch{rest_pose(model), std::vector<Eigen::Affine3d>(model.nodes.size()), joint_tree(model)});
  return [&model, &animation, fps, scratch](int k, Skinner& skinner) {
    sample_animation(model, animation, k / fps, scratch->pose);
    model_skinning_matrices(model, scratch->pose, scratch->world, skinner.matrices());
    skinner.run(scratch->tree);
  };
}

int animation_frame_count(const ModelAnimation& animation, double fps) {
  return static_cast<int>(std::floor(animation.duration_seconds * fps + 1e-6)) + 1;
}

}  // namespace mocap
