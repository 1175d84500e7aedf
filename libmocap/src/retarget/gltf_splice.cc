// The GLB container parsed by hand (12-byte header, JSON and BIN chunks) so
// that the binary chunk is appended to, never rewritten.
#include <mocap/retarget/gltf_splice.h>

#include "rig/assimp_import.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <nlohmann/json.hpp>

#include <Eigen/Geometry>

#include <unistd.h>
#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace mocap {
namespace {

constexpr std::uint32_t kMagic = 0x46546C67;  // "glTF"
constexpr std::uint32_t kJson = 0x4E4F534A;   // "JSON"
constexpr std::uint32_t kBin = 0x004E4942;    // "BIN\0"

std::uint32_t read_u32(std::string_view bytes, std::size_t at) {
  std::uint32_t v = 0;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}
void append_u32(std::string& out, std::uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);
  out.append(b, 4);
}

struct Glb {
  std::string json;
  std::string bin;
  bool has_bin = false;
};

Result<Glb> parse_glb(std::string_view bytes, const std::string& path) {
  const char* expected = "expected a glTF 2.0 binary (.glb): header \"glTF\", version 2, a JSON chunk";
  if (bytes.size() < 20 || read_u32(bytes, 0) != kMagic || read_u32(bytes, 4) != 2) return fail(path, 0, expected);
  const std::size_t length = std::min<std::size_t>(read_u32(bytes, 8), bytes.size());
  Glb glb;
  std::size_t at = 12;
  bool first = true;
  while (at + 8 <= length) {
    const std::uint32_t size = read_u32(bytes, at), type = read_u32(bytes, at + 4);
    if (at + 8 + size > length) return fail(path, 0, std::string(expected) + " (a chunk runs past the end)");
    const std::string_view data = bytes.substr(at + 8, size);
    if (first && type != kJson) return fail(path, 0, expected);
    if (type == kJson) glb.json = std::string(data);
    if (type == kBin && !glb.has_bin) {
      glb.bin = std::string(data);
      glb.has_bin = true;
    }
    first = false;
    at += 8 + size;
  }
  if (first) return fail(path, 0, expected);
  return glb;
}

void align4(std::string& bin) {
  while (bin.size() % 4 != 0) bin.push_back('\0');
}

// A .glb of `doc` and `bin` (4-byte aligned), BIN chunk only when there are bytes.
std::string format_glb(const nlohmann::json& doc, const std::string& bin) {
  std::string json = doc.dump();
  while (json.size() % 4 != 0) json.push_back(' ');
  std::string out;
  append_u32(out, kMagic);
  append_u32(out, 2);
  append_u32(out, static_cast<std::uint32_t>(12 + 8 + json.size() + (bin.empty() ? 0 : 8 + bin.size())));
  append_u32(out, static_cast<std::uint32_t>(json.size()));
  append_u32(out, kJson);
  out += json;
  if (!bin.empty()) {
    append_u32(out, static_cast<std::uint32_t>(bin.size()));
    append_u32(out, kBin);
    out += bin;
  }
  return out;
}

// Appends floats as one bufferView and accessor; returns the accessor index.
int add_accessor(nlohmann::json& doc, std::string& bin, const std::vector<float>& values, const char* type,
                 int components, bool min_max) {
  align4(bin);
  const std::size_t offset = bin.size();
  bin.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  nlohmann::json view = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", values.size() * sizeof(float)}};
  doc["bufferViews"].push_back(view);
  nlohmann::json accessor = {{"bufferView", doc["bufferViews"].size() - 1},
                             {"componentType", 5126},
                             {"count", values.size() / static_cast<std::size_t>(components)},
                             {"type", type}};
  if (min_max) {
    float lo = values.front(), hi = values.front();
    for (float v : values) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    accessor["min"] = {lo};
    accessor["max"] = {hi};
  }
  doc["accessors"].push_back(accessor);
  return static_cast<int>(doc["accessors"].size()) - 1;
}

// Zeroes the bytes of a .glb's BIN chunk that no bufferView of buffer 0
// covers, in place. Assimp's glb2 exporter leaves such gaps holding
// uninitialised memory (an FBX's JOINTS_0 is followed by as many bytes of
// it): zeroed, the output no longer carries the process's heap and is the
// same on every run. Leaves bytes it cannot parse as they are.
void zero_unreferenced_bytes(std::string& bytes) {
  if (bytes.size() < 28 || read_u32(bytes, 12 + 4) != kJson) return;
  const std::size_t json_size = read_u32(bytes, 12), bin_header = 20 + json_size;
  if (bin_header + 8 > bytes.size() || read_u32(bytes, bin_header + 4) != kBin) return;
  const std::size_t bin_at = bin_header + 8,
                    bin_size = std::min<std::size_t>(read_u32(bytes, bin_header), bytes.size() - bin_at);
  const nlohmann::json doc = nlohmann::json::parse(bytes.substr(20, json_size), nullptr, false);
  if (doc.is_discarded() || !doc.contains("bufferViews") || !doc["bufferViews"].is_array()) return;
  std::vector<bool> covered(bin_size, false);
  try {
    for (const auto& view : doc["bufferViews"]) {
      if (!view.is_object() || view.value("buffer", -1) != 0) continue;
      const auto offset = view.value("byteOffset", std::size_t{0}), length = view.value("byteLength", std::size_t{0});
      for (std::size_t i = offset; i < std::min(bin_size, offset + length); ++i) covered[i] = true;
    }
  } catch (const nlohmann::json::exception&) {
    return;  // a view the exporter did not write as numbers: left as it is
  }
  for (std::size_t i = 0; i < bin_size; ++i) {
    if (!covered[i]) bytes[bin_at + i] = '\0';
  }
}

// Assimp's bones map a mesh's own space to the bone's (an FBX or COLLADA
// mesh node may be moved, turned or scaled: a pivot, an armature turned -90
// degrees about X and scaled 100), while glTF's inverse bind matrices map
// the skin's space, the scene's world, and no viewer places a skinned mesh by
// its node. So each skinned mesh is moved into the world here (vertices by
// its node's world transform G, normals and tangents by G's normal matrix,
// every bone's offset times G^-1): the exported file poses the same vertices
// as before in every viewer, and its bind pose is the file's own.
void bake_mesh_nodes(aiScene* scene) {
  std::vector<bool> baked(scene->mNumMeshes, false);
  auto visit = [&](auto&& self, const aiNode* node, const aiMatrix4x4& parent) -> void {
    const aiMatrix4x4 world = parent * node->mTransformation;
    for (unsigned i = 0; i < node->mNumMeshes; ++i) {
      const unsigned m = node->mMeshes[i];
      if (m >= scene->mNumMeshes || baked[m]) continue;
      aiMesh* mesh = scene->mMeshes[m];
      if (mesh->mNumBones == 0 || world.IsIdentity()) continue;
      baked[m] = true;
      aiMatrix4x4 inverse = world;
      inverse.Inverse();
      aiMatrix3x3 normal_matrix(inverse);
      normal_matrix.Transpose();
      for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
        mesh->mVertices[v] = world * mesh->mVertices[v];
        if (mesh->HasNormals()) mesh->mNormals[v] = (normal_matrix * mesh->mNormals[v]).NormalizeSafe();
        if (mesh->HasTangentsAndBitangents()) {
          const aiMatrix3x3 linear(world);
          mesh->mTangents[v] = (linear * mesh->mTangents[v]).NormalizeSafe();
          mesh->mBitangents[v] = (linear * mesh->mBitangents[v]).NormalizeSafe();
        }
      }
      for (unsigned b = 0; b < mesh->mNumBones; ++b)
        mesh->mBones[b]->mOffsetMatrix = mesh->mBones[b]->mOffsetMatrix * inverse;
    }
    for (unsigned c = 0; c < node->mNumChildren; ++c) self(self, node->mChildren[c], world);
  };
  if (scene->mRootNode != nullptr) visit(visit, scene->mRootNode, aiMatrix4x4());
}

// Makes every float WEIGHTS_0 element of a .glb sum to one (and its
// accessor's min and max say so). Assimp's glb2 exporter can write a vertex
// whose weights sum to 1.0065 (an FBX vertex weighted twice by one bone):
// glTF asks for a sum of one, and its validator refuses the file. True
// when it changed something; a document it cannot follow is left as it is.
bool normalise_weights(nlohmann::json& document, std::string& buffer) {
  if (!document.contains("meshes") || !document.contains("accessors") || !document.contains("bufferViews")) {
    return false;
  }
  nlohmann::json doc = document;
  std::string bin = buffer;
  bool changed = false;
  try {
    for (const auto& mesh : doc["meshes"]) {
      for (const auto& primitive : mesh.value("primitives", nlohmann::json::array())) {
        const auto& attributes = primitive.value("attributes", nlohmann::json::object());
        if (!attributes.contains("WEIGHTS_0")) continue;
        auto& accessor = doc["accessors"].at(attributes["WEIGHTS_0"].get<std::size_t>());
        if (accessor.value("componentType", 0) != 5126 || accessor.value("type", "") != "VEC4" ||
            !accessor.contains("bufferView") || accessor.contains("sparse")) {
          continue;  // normalised integers or sparse: as the exporter wrote them
        }
        const auto& view = doc["bufferViews"].at(accessor["bufferView"].get<std::size_t>());
        if (view.value("buffer", -1) != 0) continue;
        const std::size_t stride = view.value("byteStride", std::size_t{16}),
                          count = accessor.value("count", std::size_t{0});
        const std::size_t first =
            view.value("byteOffset", std::size_t{0}) + accessor.value("byteOffset", std::size_t{0});
        if (count == 0 || stride == 0 || first > bin.size() || bin.size() - first < 16 ||
            count - 1 > (bin.size() - first - 16) / stride) {
          continue;
        }
        std::array<float, 4> lo{}, hi{};
        lo.fill(std::numeric_limits<float>::max());
        hi.fill(std::numeric_limits<float>::lowest());
        for (std::size_t e = 0; e < count; ++e) {
          char* at = bin.data() + first + e * stride;
          std::array<float, 4> w;
          std::memcpy(w.data(), at, sizeof w);
          const float sum = w[0] + w[1] + w[2] + w[3];
          if (sum > 0.0f && std::abs(sum - 1.0f) > 2e-7f) {
            for (float& v : w) v /= sum;
            // What float rounding leaves goes to the largest weight.
            *std::max_element(w.begin(), w.end()) += 1.0f - (w[0] + w[1] + w[2] + w[3]);
            std::memcpy(at, w.data(), sizeof w);
            changed = true;
          }
          for (std::size_t c = 0; c < 4; ++c) {
            lo[c] = std::min(lo[c], w[c]);
            hi[c] = std::max(hi[c], w[c]);
          }
        }
        if (accessor.contains("min")) accessor["min"] = lo;
        if (accessor.contains("max")) accessor["max"] = hi;
      }
    }
  } catch (const nlohmann::json::exception&) {
    return false;  // an accessor the exporter did not write as glTF says: left as it is
  }
  if (changed) {
    document = std::move(doc);
    buffer = std::move(bin);
  }
  return changed;
}

// `text` with its %XX escapes decoded (a URI's); malformed escapes stay.
std::string percent_decoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

// The image type glTF (and its extensions) names for these bytes, or null.
const char* image_type(std::string_view bytes) {
  if (bytes.size() >= 4 && bytes.substr(0, 4) == "\x89PNG") return "image/png";
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0xFF && static_cast<unsigned char>(bytes[1]) == 0xD8)
    return "image/jpeg";
  if (bytes.size() >= 12 && bytes.substr(0, 4) == "RIFF" && bytes.substr(8, 4) == "WEBP") return "image/webp";
  if (bytes.size() >= 12 && bytes.substr(0, 12) == std::string_view("\xABKTX 20\xBB\r\n\x1A\n", 12))
    return "image/ktx2";
  return nullptr;
}

// Images that name a file are carried into the output's BIN chunk, so
// that the .glb stands alone: the file as named (relative to the model), or
// by its name beside the model, where Blender also looks (an FBX names its
// texture as its author's machine had it: `C:\Files\...\rogue_texture.png`).
// An image found nowhere is left out, and the textures and material slots
// that used it (the material keeps its factors), each named in `warnings`:
// a path from another machine would not load, and glTF asks for relative
// URIs.
void resolve_images(nlohmann::json& doc, std::string& bin, const std::filesystem::path& dir,
                    std::vector<std::string>* warnings) {
  if (!doc.contains("images") || !doc["images"].is_array()) return;
  auto& images = doc["images"];
  std::vector<int> new_index(images.size(), -1);
  nlohmann::json kept = nlohmann::json::array();
  for (std::size_t i = 0; i < images.size(); ++i) {
    nlohmann::json image = images[i];
    if (image.is_object() && image.contains("uri") && image["uri"].is_string() &&
        !image["uri"].get<std::string>().starts_with("data:")) {
      const std::string uri = image["uri"].get<std::string>();
      const std::string file = percent_decoded(uri);  // a URI: `tex%20a.png` names `tex a.png`
      const std::string name = file.substr(file.find_last_of("/\\") + 1);
      std::string bytes;
      for (const std::filesystem::path& candidate : {dir / file, dir / name}) {
        std::error_code error;
        if (!std::filesystem::is_regular_file(candidate, error)) continue;
        std::ifstream in(candidate, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        if (!bytes.empty()) break;
      }
      const char* mime = image_type(bytes);
      if (mime == nullptr) {
        if (warnings != nullptr) {
          warnings->push_back(
              "image " + std::to_string(i) + " (`" + uri +
              "`) is not beside the model as a PNG, JPEG, WebP or KTX2 file: left out, with the texture "
              "slots using it");
        }
        continue;
      }
      align4(bin);
      doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", bin.size()}, {"byteLength", bytes.size()}});
      bin += bytes;
      image.erase("uri");
      image["bufferView"] = doc["bufferViews"].size() - 1;
      image["mimeType"] = mime;
    }
    new_index[i] = static_cast<int>(kept.size());
    kept.push_back(image);
  }
  if (kept.size() == images.size()) {
    images = kept;
    return;
  }
  images = kept;
  // Textures whose image is gone go too; the others are renumbered.
  std::vector<int> new_texture;
  if (doc.contains("textures") && doc["textures"].is_array()) {
    nlohmann::json textures = nlohmann::json::array();
    // An image index renumbered, or -1 for one left out.
    auto renumbered = [&](const nlohmann::json& index) {
      if (!index.is_number_integer()) return -1;
      const auto i = index.get<std::int64_t>();
      return i >= 0 && static_cast<std::size_t>(i) < new_index.size() ? new_index[static_cast<std::size_t>(i)] : -1;
    };
    for (auto& texture : doc["textures"]) {
      if (texture.contains("source")) {
        const int to = renumbered(texture["source"]);
        if (to < 0) {
          new_texture.push_back(-1);
          continue;
        }
        texture["source"] = to;
      }
      // Sources given by extensions (EXT_texture_webp, KHR_texture_basisu).
      if (texture.contains("extensions") && texture["extensions"].is_object()) {
        auto& extensions = texture["extensions"];
        for (auto it = extensions.begin(); it != extensions.end();) {
          if (!it.value().is_object() || !it.value().contains("source")) {
            ++it;
            continue;
          }
          const int to = renumbered(it.value()["source"]);
          if (to < 0) {
            it = extensions.erase(it);
            continue;
          }
          it.value()["source"] = to;
          ++it;
        }
        if (extensions.empty()) texture.erase("extensions");
      }
      if (!texture.contains("source") && !texture.contains("extensions")) {
        new_texture.push_back(-1);
        continue;
      }
      new_texture.push_back(static_cast<int>(textures.size()));
      textures.push_back(texture);
    }
    doc["textures"] = textures;
  }
  // Every texture slot of the materials ({"index": n, ...} under a key ending in "Texture").
  auto remap = [&](auto&& self, nlohmann::json& node) -> void {
    if (!node.is_object()) return;
    for (auto it = node.begin(); it != node.end();) {
      if (it.key() == "extras") {  // the application's own: not glTF's texture slots
        ++it;
        continue;
      }
      if (it.value().is_object() && it.key().ends_with("Texture") && it.value().contains("index") &&
          it.value()["index"].is_number_integer()) {
        const int index = it.value()["index"].get<int>();
        const int to = index >= 0 && static_cast<std::size_t>(index) < new_texture.size() ? new_texture[index] : -1;
        if (to < 0) {
          it = node.erase(it);
          continue;
        }
        it.value()["index"] = to;
      }
      self(self, it.value());
      ++it;
    }
  };
  if (doc.contains("materials") && doc["materials"].is_array()) {
    for (auto& material : doc["materials"]) remap(remap, material);
  }
  for (const char* key : {"images", "textures"}) {
    if (doc.contains(key) && doc[key].empty()) doc.erase(key);  // glTF has no empty arrays
  }
}

// Makes every node below a skin's joints that carries no mesh a joint of
// that skin too. Assimp turns only the bones that weight vertices into a
// glTF skin's joints: an FBX's or COLLADA's end bones (`Head_end`), IK poles
// and prop slots would come out as plain nodes, and Blender and engines
// would no longer show them as bones of the character. Each new joint's
// inverse bind is its bind world transform's inverse (the skin's space is the
// world once bake_mesh_nodes has run): it weights nothing, so nothing moves.
// True when it changed something; a document it cannot follow is left as
// it is.
bool add_unweighted_bones(nlohmann::json& document, std::string& buffer) {
  if (!document.contains("skins") || !document.contains("nodes")) return false;
  nlohmann::json doc = document;
  std::string bin = buffer;
  bool changed = false;
  try {
    const auto& nodes = doc["nodes"];
    auto local = [&](const nlohmann::json& node) {
      Eigen::Affine3d m = Eigen::Affine3d::Identity();
      if (node.contains("matrix")) {
        for (int i = 0; i < 16; ++i)
          m.matrix()(i % 4, i / 4) = node.at("matrix").at(static_cast<std::size_t>(i)).get<double>();
        return m;
      }
      Eigen::Vector3d t = Eigen::Vector3d::Zero(), sc = Eigen::Vector3d::Ones();
      Eigen::Quaterniond r = Eigen::Quaterniond::Identity();
      for (int i = 0; i < 3; ++i) {
        if (node.contains("translation")) t[i] = node.at("translation").at(static_cast<std::size_t>(i)).get<double>();
        if (node.contains("scale")) sc[i] = node.at("scale").at(static_cast<std::size_t>(i)).get<double>();
      }
      if (node.contains("rotation")) {
        const auto& q = node.at("rotation");
        r = Eigen::Quaterniond(q.at(3).get<double>(), q.at(0).get<double>(), q.at(1).get<double>(),
                               q.at(2).get<double>());
      }
      m.linear() = r.normalized().toRotationMatrix() * sc.asDiagonal();
      m.translation() = t;
      return m;
    };
    for (auto& skin : doc["skins"]) {
      if (!skin.contains("inverseBindMatrices")) continue;
      const auto& accessor = doc["accessors"].at(skin["inverseBindMatrices"].get<std::size_t>());
      const auto& view = doc["bufferViews"].at(accessor.at("bufferView").get<std::size_t>());
      const std::size_t count = accessor.value("count", std::size_t{0});
      const std::size_t first = view.value("byteOffset", std::size_t{0}) + accessor.value("byteOffset", std::size_t{0});
      if (accessor.value("componentType", 0) != 5126 || count != skin.at("joints").size() || first > bin.size() ||
          count > (bin.size() - first) / 64) {
        continue;
      }
      std::vector<float> matrices(count * 16);
      std::memcpy(matrices.data(), bin.data() + first, count * 64);
      std::unordered_map<int, Eigen::Affine3d> bind;  // joint node -> bind world transform
      for (std::size_t j = 0; j < count; ++j) {
        Eigen::Matrix4d m;
        for (int i = 0; i < 16; ++i) m(i % 4, i / 4) = matrices[j * 16 + static_cast<std::size_t>(i)];
        bind[skin["joints"][j].get<int>()] = Eigen::Affine3d(m.inverse());
      }
      // Depth first below each joint: nodes without a mesh that no skin lists yet.
      std::vector<int> stack;
      for (const auto& [joint, world] : bind) stack.push_back(joint);
      std::vector<int> added;
      while (!stack.empty()) {
        const int n = stack.back();
        stack.pop_back();
        for (const auto& c : nodes.at(static_cast<std::size_t>(n)).value("children", nlohmann::json::array())) {
          const int child = c.get<int>();
          if (bind.contains(child) || nodes.at(static_cast<std::size_t>(child)).contains("mesh")) continue;
          bind[child] = bind[n] * local(nodes[static_cast<std::size_t>(child)]);
          added.push_back(child);
          stack.push_back(child);
        }
      }
      if (added.empty()) continue;
      std::sort(added.begin(), added.end());
      for (const int n : added) {
        skin["joints"].push_back(n);
        const Eigen::Matrix4d inverse = bind[n].matrix().inverse();
        for (int i = 0; i < 16; ++i) matrices.push_back(static_cast<float>(inverse(i % 4, i / 4)));
      }
      // The extended matrices as a new view and accessor (the old ones stay, unused).
      skin["inverseBindMatrices"] = add_accessor(doc, bin, matrices, "MAT4", 16, false);
      changed = true;
    }
  } catch (const nlohmann::json::exception&) {
    return false;  // a document the exporter did not write as glTF says: left as it is
  }
  if (changed) {
    document = std::move(doc);
    buffer = std::move(bin);
  }
  return changed;
}

// Assimp's glb2 export mended in one parse of it: weights summing to one,
// every bone a joint (above). Leaves bytes it cannot parse as they are.
void mend_export(std::string& bytes) {
  auto glb = parse_glb(bytes, "");
  if (!glb || !glb->has_bin) return;
  nlohmann::json doc = nlohmann::json::parse(glb->json, nullptr, false);
  if (doc.is_discarded()) return;
  const bool weights = normalise_weights(doc, glb->bin);
  const bool bones = add_unweighted_bones(doc, glb->bin);
  if (!weights && !bones) return;
  align4(glb->bin);
  doc["buffers"][0]["byteLength"] = glb->bin.size();
  bytes = format_glb(doc, glb->bin);
}

std::string temp_glb_path() {
  static std::atomic<int> counter{0};
  const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
  return (std::filesystem::temp_directory_path() / ("mocap-retarget-" + std::to_string(::getpid()) + "-" +
                                                    std::to_string(stamp) + "-" + std::to_string(counter++) + ".glb"))
      .string();
}

}  // namespace

Result<std::string> model_as_glb(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(path, 0, "cannot open the model: expected a readable .glb, .gltf, .dae or .fbx file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string bytes = buffer.str();
  if (bytes.size() >= 4 && read_u32(bytes, 0) == kMagic) {
    auto glb = parse_glb(bytes, path);
    if (!glb) return std::unexpected(glb.error());
    return bytes;
  }
  Assimp::Importer importer;
  detail::set_import_properties(importer);
  const aiScene* scene =
      importer.ReadFile(path, aiProcess_Triangulate | aiProcess_ValidateDataStructure | detail::kImportInMetres);
  if (scene == nullptr) {
    return fail(path, 0,
                std::string("Assimp cannot read the model (") + importer.GetErrorString() +
                    "): expected a .glb, .gltf, .dae or .fbx file");
  }
  // glTF asks for each vertex's weights to sum to one (COLLADA does not):
  // normalised here, on the importer's own copy, before the export. The
  // exporter keeps four influences, the largest, as read_rigged_model does.
  aiScene* editable = const_cast<aiScene*>(scene);  // owned by `importer`, discarded after the export
  for (unsigned m = 0; m < editable->mNumMeshes; ++m) {
    aiMesh* mesh = editable->mMeshes[m];
    std::vector<std::vector<std::pair<float, aiVertexWeight*>>> per_vertex(mesh->mNumVertices);
    for (unsigned b = 0; b < mesh->mNumBones; ++b) {
      aiBone* bone = mesh->mBones[b];
      for (unsigned w = 0; w < bone->mNumWeights; ++w) {
        aiVertexWeight& weight = bone->mWeights[w];
        if (weight.mVertexId < mesh->mNumVertices) per_vertex[weight.mVertexId].emplace_back(weight.mWeight, &weight);
      }
    }
    for (auto& influences : per_vertex) {
      std::sort(influences.begin(), influences.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
      float sum = 0.0f;
      for (std::size_t i = 0; i < influences.size(); ++i) {
        if (i >= 4)
          influences[i].second->mWeight = 0.0f;
        else
          sum += influences[i].first;
      }
      if (sum <= 0.0f) continue;
      for (std::size_t i = 0; i < std::min<std::size_t>(4, influences.size()); ++i)
        influences[i].second->mWeight /= sum;
    }
    // The dropped influences leave the bones (the exporter would keep the first four it meets).
    for (unsigned b = 0; b < mesh->mNumBones; ++b) {
      aiBone* bone = mesh->mBones[b];
      unsigned kept = 0;
      for (unsigned w = 0; w < bone->mNumWeights; ++w) {
        if (bone->mWeights[w].mWeight > 0.0f) bone->mWeights[kept++] = bone->mWeights[w];
      }
      bone->mNumWeights = kept;
    }
  }
  bake_mesh_nodes(editable);
  Assimp::Exporter exporter;
  const aiExportDataBlob* blob = exporter.ExportToBlob(scene, "glb2");
  if (blob == nullptr) {
    return fail(path, 0, std::string("Assimp cannot convert the model to glTF (") + exporter.GetErrorString() + ")");
  }
  std::string glb(static_cast<const char*>(blob->data), blob->size);
  zero_unreferenced_bytes(glb);
  mend_export(glb);
  return glb;
}

Result<RiggedModel> read_rigged_glb(const std::string& glb, const std::string& path) {
  auto parsed = parse_glb(glb, path);
  if (!parsed) return std::unexpected(parsed.error());
  nlohmann::json doc = nlohmann::json::parse(parsed->json, nullptr, false);
  // glTF lets node names repeat (an IK target called as its bone, two
  // skins); Assimp refuses a skin whose joints share a name. Its copy has
  // each repeated name made unique; the model gets the file's names back by
  // node index below.
  std::string bytes = glb;
  std::vector<std::string> names;
  if (!doc.is_discarded() && doc.contains("nodes") && doc["nodes"].is_array()) {
    std::unordered_map<std::string, int> count;
    for (const auto& node : doc["nodes"]) {
      names.push_back(node.is_object() && node.contains("name") && node["name"].is_string()
                          ? node["name"].get<std::string>()
                          : std::string());
      if (!names.back().empty()) ++count[names.back()];
    }
    bool renamed = false;
    for (std::size_t n = 0; n < names.size(); ++n) {
      if (names[n].empty() || count[names[n]] < 2) continue;
      doc["nodes"][n]["name"] = names[n] + " #" + std::to_string(n);
      renamed = true;
    }
    if (renamed) bytes = format_glb(doc, parsed->bin);
  }
  const std::string temp = temp_glb_path();
  {
    std::ofstream out(temp, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) return fail(temp, 0, "cannot write a temporary copy of the model: expected a writable temp folder");
  }
  auto model = read_rigged_model(temp);
  std::error_code ignored;
  std::filesystem::remove(temp, ignored);
  if (!model) {
    Error e = model.error();
    e.file = path;
    return std::unexpected(e);
  }
  model->path = path;
  for (ModelNode& node : model->nodes) {
    if (node.source >= 0 && static_cast<std::size_t>(node.source) < names.size() && !names[node.source].empty()) {
      node.name = names[static_cast<std::size_t>(node.source)];
    }
  }
  return model;
}

Result<std::string> splice_animation(std::string_view bytes, const std::string& path, const RiggedModel& model,
                                     const RetargetedClip& clip, bool keep_animations,
                                     std::vector<std::string>* warnings) {
  auto glb = parse_glb(bytes, path);
  if (!glb) return std::unexpected(glb.error());
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(glb->json);
  } catch (const nlohmann::json::exception& e) {
    return fail(path, 0, std::string("the JSON chunk is not JSON (") + e.what() + "): expected a glTF document");
  }
  if (!doc.contains("nodes") || !doc["nodes"].is_array()) return fail(path, 0, "no nodes: expected a glTF scene");
  if (doc.contains("buffers") && !doc["buffers"].empty() && doc["buffers"][0].contains("uri")) {
    return fail(path, 0, "buffer 0 is an external file: expected a .glb whose first buffer is its BIN chunk");
  }
  if (!doc.contains("buffers") || doc["buffers"].empty())
    doc["buffers"] = nlohmann::json::array({nlohmann::json::object()});
  std::string bin = glb->bin;
  try {
    resolve_images(doc, bin, std::filesystem::path(path).parent_path(), warnings);
  } catch (const nlohmann::json::exception& e) {
    return fail(path, 0,
                std::string("its images, textures or materials are not as glTF writes them (") + e.what() + ")");
  }
  // An embedded image whose mimeType is not glTF's (Assimp's exporter writes
  // its format hint, "image/fbm" for an FBX's embedded texture) gets the one
  // its bytes say; nothing else in the model changes.
  if (doc.contains("images") && doc["images"].is_array() && doc.contains("bufferViews")) {
    for (auto& image : doc["images"]) {
      const std::string mime = image.value("mimeType", "");
      if (!image.contains("bufferView") || mime == "image/png" || mime == "image/jpeg") continue;
      const auto view_index = image["bufferView"].get<std::size_t>();
      if (view_index >= doc["bufferViews"].size()) continue;
      const auto& view = doc["bufferViews"][view_index];
      const std::size_t offset = view.value("byteOffset", std::size_t{0});
      if (offset + 4 > bin.size()) continue;
      if (bin.compare(offset, 4, "\x89PNG") == 0) image["mimeType"] = "image/png";
      if (static_cast<unsigned char>(bin[offset]) == 0xFF && static_cast<unsigned char>(bin[offset + 1]) == 0xD8) {
        image["mimeType"] = "image/jpeg";
      }
    }
  }
  // Model node -> glTF node: the one it was read from (glTF names may repeat).
  auto& nodes = doc["nodes"];
  std::vector<int> target(clip.nodes.size(), -1);
  for (std::size_t k = 0; k < clip.nodes.size(); ++k) {
    const ModelNode& node = model.nodes[static_cast<std::size_t>(clip.nodes[k])];
    if (node.source < 0 || static_cast<std::size_t>(node.source) >= nodes.size()) {
      return fail(path, 0,
                  "node `" + node.name +
                      "` was not read from a glTF node of this file: expected the model read "
                      "from these bytes");
    }
    target[k] = node.source;
  }
  // Times and keys.
  const std::size_t frames = static_cast<std::size_t>(clip.frame_count), keyed = clip.nodes.size();
  std::vector<float> times(frames);
  for (std::size_t f = 0; f < frames; ++f) times[f] = static_cast<float>(static_cast<double>(f) / clip.fps);
  if (!doc.contains("bufferViews")) doc["bufferViews"] = nlohmann::json::array();
  if (!doc.contains("accessors")) doc["accessors"] = nlohmann::json::array();
  const int time_accessor = add_accessor(doc, bin, times, "SCALAR", 1, true);
  nlohmann::json animation = {
      {"name", clip.name}, {"samplers", nlohmann::json::array()}, {"channels", nlohmann::json::array()}};
  auto add_channel = [&](int node, const char* property, int accessor) {
    animation["samplers"].push_back({{"input", time_accessor}, {"output", accessor}, {"interpolation", "LINEAR"}});
    animation["channels"].push_back(
        {{"sampler", animation["samplers"].size() - 1}, {"target", {{"node", node}, {"path", property}}}});
  };
  for (std::size_t k = 0; k < keyed; ++k) {
    const ModelNode& source = model.nodes[static_cast<std::size_t>(clip.nodes[k])];
    nlohmann::json& node = nodes[static_cast<std::size_t>(target[k])];
    if (node.contains("matrix")) {
      node.erase("matrix");
      node["translation"] = {source.translation.x(), source.translation.y(), source.translation.z()};
      node["rotation"] = {source.rotation.x(), source.rotation.y(), source.rotation.z(), source.rotation.w()};
      node["scale"] = {source.scale.x(), source.scale.y(), source.scale.z()};
    }
    bool moves = false;
    const double tolerance = 1e-6 * std::max(1.0, source.translation.norm());
    std::vector<float> translation, rotation;
    translation.reserve(frames * 3);
    rotation.reserve(frames * 4);
    Eigen::Quaterniond previous = Eigen::Quaterniond::Identity();
    for (std::size_t f = 0; f < frames; ++f) {
      const Eigen::Vector3d& t = clip.translations[f * keyed + k];
      moves = moves || (t - source.translation).norm() > tolerance;
      translation.insert(translation.end(),
                         {static_cast<float>(t.x()), static_cast<float>(t.y()), static_cast<float>(t.z())});
      Eigen::Quaterniond q = clip.rotations[f * keyed + k];
      if (f > 0 && q.coeffs().dot(previous.coeffs()) < 0) q.coeffs() = -q.coeffs();  // the short way for LINEAR slerp
      previous = q;
      rotation.insert(rotation.end(), {static_cast<float>(q.x()), static_cast<float>(q.y()), static_cast<float>(q.z()),
                                       static_cast<float>(q.w())});
    }
    if (moves) add_channel(target[k], "translation", add_accessor(doc, bin, translation, "VEC3", 3, false));
    add_channel(target[k], "rotation", add_accessor(doc, bin, rotation, "VEC4", 4, false));
  }
  if (keep_animations && doc.contains("animations") && doc["animations"].is_array()) {
    doc["animations"].push_back(animation);
  } else {
    doc["animations"] = nlohmann::json::array({animation});
  }
  align4(bin);
  doc["buffers"][0]["byteLength"] = bin.size();
  return format_glb(doc, bin);
}

Result<RetargetFileResult> retarget_model_file(const Skeleton& skeleton, const Motion& motion,
                                               const std::string& capture_path, const std::string& model_path,
                                               const std::string& clip_name, const RetargetOptions& options,
                                               bool keep_animations) {
  auto bytes = model_as_glb(model_path);
  if (!bytes) return std::unexpected(bytes.error());
  // A model without a skin would come back from Assimp with each mesh bound rigidly to its node.
  {
    auto glb = parse_glb(*bytes, model_path);
    if (!glb) return std::unexpected(glb.error());
    const auto doc = nlohmann::json::parse(glb->json, nullptr, false);
    if (doc.is_discarded() || !doc.contains("skins") || !doc["skins"].is_array() || doc["skins"].empty()) {
      return fail(model_path, 0,
                  "the model has no skin: expected a rigged model (a skeleton of joints and skin weights)");
    }
  }
  RetargetFileResult result;
  auto model = read_rigged_glb(*bytes, model_path);
  if (!model) return std::unexpected(model.error());
  result.model = std::move(*model);
  auto rig = build_retarget_rig(skeleton, capture_path, result.model, options);
  if (!rig) return std::unexpected(rig.error());
  result.rig = std::move(*rig);
  auto clip = retarget_clip(result.rig, motion, clip_name, options);
  if (!clip) return std::unexpected(clip.error());
  result.clip = std::move(*clip);
  auto glb = splice_animation(*bytes, model_path, result.model, result.clip, keep_animations, &result.warnings);
  if (!glb) return std::unexpected(glb.error());
  result.glb = std::move(*glb);
  return result;
}

Result<std::string> describe_bone_map_file(const Skeleton& skeleton, const std::string& capture_path,
                                           const std::string& model_path, const RetargetOptions& options) {
  auto bytes = model_as_glb(model_path);
  if (!bytes) return std::unexpected(bytes.error());
  auto model = read_rigged_glb(*bytes, model_path);
  if (!model) return std::unexpected(model.error());
  return describe_bone_map(skeleton, capture_path, *model, options);
}

}  // namespace mocap
