// Skin weights: which bones move each mesh vertex, and how much.
//
// Runtime form: at most four influences per vertex, largest first, weights
// summing to one; unused slots have weight 0 (and bone 0, so that a kernel
// can blend four slots without a branch). 24 bytes per vertex.
//
// Text form (read_skin_weights / format_skin_weights), one vertex per line:
//
//   # comments and blank lines anywhere
//   mocap-skin-weights 1
//   vertices 19158
//   0 lfemur 0.75 ltibia 0.25
//   1 root 1
//   ...
//
// The first two non-comment lines are the header and the vertex count (which
// must equal the mesh's). Each following line is a 0-based vertex index (the
// order of the OBJ's `v` lines) then one or more pairs of a bone name (as the
// skeleton names it) and a weight (finite, not negative). Every vertex appears
// exactly once, in any order. Weights need not sum to one and a line may give
// more than four bones: the four largest are kept and renormalised.
#pragma once

#include <mocap/core/error.h>
#include <mocap/io/mesh.h>

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mocap {

inline constexpr int kMaxInfluences = 4;

struct VertexWeights {
  std::array<std::uint16_t, kMaxInfluences> bone{};  // bone indices, by decreasing weight
  std::array<float, kMaxInfluences> weight{};        // sum to 1; 0 in unused slots
};

// The four largest of `influences` (bone index, weight), renormalised to sum
// to one; a bone named twice has its weights added. Weights that already sum
// to one within 4 float epsilons are kept as given, so that weights made here
// come back bit-identical through format + parse; one that would be below the
// smallest normal float once divided is dropped. Returns nullopt when no
// weight is positive.
std::optional<VertexWeights> make_vertex_weights(std::span<const std::pair<int, float>> influences);

// Reads the text form above. `bone_names` are the skeleton's bones (index =
// bone index); `vertex_count` is the mesh's. Errors name the file, the line
// and the bad vertex or bone.
Result<std::vector<VertexWeights>> read_skin_weights(const std::string& path, std::span<const std::string> bone_names,
                                                     int vertex_count);
// The same from text in memory; `name` stands for the file in errors.
Result<std::vector<VertexWeights>> parse_skin_weights(std::string_view text, const std::string& name,
                                                      std::span<const std::string> bone_names, int vertex_count);

// The text form; weights are written shortest-exact, so reading gives back
// the same floats.
std::string format_skin_weights(std::span<const VertexWeights> weights, std::span<const std::string> bone_names);
Result<void> write_skin_weights(const std::string& path, std::span<const VertexWeights> weights,
                                std::span<const std::string> bone_names);

}  // namespace mocap
