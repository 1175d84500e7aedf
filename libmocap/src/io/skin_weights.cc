#include <mocap/io/atomic_write.h>
#include <mocap/io/skin_weights.h>

#include <locale.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_map>

namespace mocap {

std::optional<VertexWeights> make_vertex_weights(std::span<const std::pair<int, float>> influences) {
  // Not on a per-frame path: clarity over avoiding the small allocation.
  // Added up in double: a bone named twice near FLT_MAX stays finite.
  std::vector<std::pair<int, double>> merged;
  merged.reserve(influences.size());
  for (const auto& [bone, weight] : influences) {
    if (weight > 0.0f) merged.emplace_back(bone, weight);
  }
  std::sort(merged.begin(), merged.end());
  std::size_t count = 0;
  for (const auto& entry : merged) {
    if (count > 0 && merged[count - 1].first == entry.first) {
      merged[count - 1].second += entry.second;
    } else {
      merged[count++] = entry;
    }
  }
  if (count == 0) return std::nullopt;
  const std::size_t keep = std::min<std::size_t>(kMaxInfluences, count);
  // Ties are broken by bone index so that the result does not depend on input order.
  auto by_weight = [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  };
  std::partial_sort(merged.begin(), merged.begin() + keep, merged.begin() + count, by_weight);
  // The kept weights as floats, the form they are stored (and written) in,
  // ordered as floats: two weights that differ only in double are a tie here,
  // broken by bone index as they will be when read back.
  std::array<std::pair<int, float>, kMaxInfluences> kept{};
  // Insertion sort of the first n (std::sort on four entries trips GCC 12's -Warray-bounds).
  auto sort_kept = [&](std::size_t n) {
    for (std::size_t i = 1; i < n; ++i) {
      for (std::size_t j = i; j > 0 && by_weight(kept[j], kept[j - 1]); --j) std::swap(kept[j], kept[j - 1]);
    }
  };
  double sum = 0.0;
  double float_sum = 0.0;
  for (std::size_t i = 0; i < keep; ++i) {
    const double w = merged[i].second;
    sum += w;
    kept[i] = {merged[i].first, w <= std::numeric_limits<float>::max() ? static_cast<float>(w) : HUGE_VALF};
  }
  sort_kept(keep);
  for (std::size_t i = 0; i < keep; ++i) float_sum += kept[i].second;
  // Weights that sum to one within a few float steps (what dividing by their
  // sum leaves, hence what format_skin_weights writes) are kept as they are:
  // dividing again by a sum a step off one would change them, and a file
  // written and read again would not give back the same floats.
  const bool normalised = std::abs(float_sum - 1.0) <= 4.0 * std::numeric_limits<float>::epsilon();
  std::size_t slots = 0;
  for (std::size_t i = 0; i < keep; ++i) {
    const float weight = normalised ? kept[i].second : static_cast<float>(merged[i].second / sum);
    // Below the smallest normal float beside the others: nothing, and slow to
    // blend. The slot stays unused.
    if (weight >= std::numeric_limits<float>::min()) {
      kept[slots++] = {normalised ? kept[i].first : merged[i].first, weight};
    }
  }
  sort_kept(slots);
  VertexWeights out;
  for (std::size_t i = 0; i < slots; ++i) {
    out.bone[i] = static_cast<std::uint16_t>(kept[i].first);
    out.weight[i] = kept[i].second;
  }
  return out;
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Splits at blanks; views into `line`.
void split(std::string_view line, std::vector<std::string_view>& words) {
  words.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
}

template <class T>
bool parse_number(std::string_view s, T& out) {
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 170000
// std::from_chars for float, which libc++ has only from version 17 on (the
// fuzzing build uses clang with libc++ 16): strtof in the C locale instead,
// as text.cc does for double.
template <>
bool parse_number<float>(std::string_view s, float& out) {
  static const locale_t c_locale = ::newlocale(LC_ALL_MASK, "C", nullptr);
  char buf[128];
  if (s.empty() || s.size() >= sizeof buf) return false;
  std::memcpy(buf, s.data(), s.size());
  buf[s.size()] = '\0';
  char* stop = nullptr;
  out = ::strtof_l(buf, &stop, c_locale);
  return stop == buf + s.size();
}
#endif

}  // namespace

Result<std::vector<VertexWeights>> parse_skin_weights(std::string_view text, const std::string& name,
                                                      std::span<const std::string> bone_names, int vertex_count) {
  std::unordered_map<std::string_view, int> bone_index;
  for (std::size_t b = 0; b < bone_names.size(); ++b) bone_index.emplace(bone_names[b], static_cast<int>(b));
  std::vector<VertexWeights> weights;
  std::vector<int> seen_at;  // line where each vertex was given, 0 if not yet
  std::vector<std::string_view> words;
  std::vector<std::pair<int, float>> influences;
  int state = 0;  // 0: expect header, 1: expect vertex count, 2: vertex lines
  int line_number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    split(line, words);
    if (state == 0) {
      if (words.size() != 2 || words[0] != "mocap-skin-weights") {
        return fail(name, line_number, "expected the header `mocap-skin-weights 1`");
      }
      if (words[1] != "1")
        return fail(name, line_number, "unsupported version " + std::string(words[1]) + ", expected 1");
      state = 1;
      continue;
    }
    if (state == 1) {
      int count = 0;
      if (words.size() != 2 || words[0] != "vertices" || !parse_number(words[1], count) || count < 0) {
        return fail(name, line_number, "expected `vertices <count>`");
      }
      if (count != vertex_count) {
        return fail(name, line_number,
                    "weights for " + std::to_string(count) + " vertices, the mesh has " + std::to_string(vertex_count));
      }
      weights.assign(static_cast<std::size_t>(count), VertexWeights{});
      seen_at.assign(static_cast<std::size_t>(count), 0);
      state = 2;
      continue;
    }
    int vertex = 0;
    if (!parse_number(words[0], vertex)) {
      return fail(name, line_number, "expected a vertex index, found `" + std::string(words[0]) + "`");
    }
    if (vertex < 0 || vertex >= vertex_count) {
      return fail(
          name, line_number,
          "vertex " + std::to_string(vertex) + " is not in the mesh (0 to " + std::to_string(vertex_count - 1) + ")");
    }
    if (seen_at[vertex] != 0) {
      return fail(
          name, line_number,
          "vertex " + std::to_string(vertex) + " given again (first on line " + std::to_string(seen_at[vertex]) + ")");
    }
    if (words.size() < 3 || words.size() % 2 != 1) {
      return fail(name, line_number, "vertex " + std::to_string(vertex) + ": expected bone and weight pairs");
    }
    influences.clear();
    for (std::size_t i = 1; i + 1 < words.size(); i += 2) {
      const auto bone = bone_index.find(words[i]);
      if (bone == bone_index.end()) {
        return fail(name, line_number,
                    "vertex " + std::to_string(vertex) + ": the skeleton has no bone `" + std::string(words[i]) + "`");
      }
      float weight = 0.0f;
      if (!parse_number(words[i + 1], weight) || !std::isfinite(weight) || weight < 0.0f) {
        return fail(name, line_number,
                    "vertex " + std::to_string(vertex) + ", bone " + std::string(words[i]) +
                        ": expected a finite weight >= 0, found `" + std::string(words[i + 1]) + "`");
      }
      influences.emplace_back(bone->second, weight);
    }
    const auto vw = make_vertex_weights(influences);
    if (!vw) return fail(name, line_number, "vertex " + std::to_string(vertex) + ": all weights are zero");
    weights[vertex] = *vw;
    seen_at[vertex] = line_number;
  }
  if (state == 0) return fail(name, 0, "empty: expected the header `mocap-skin-weights 1`");
  if (state == 1) return fail(name, line_number, "expected `vertices <count>`");
  for (int v = 0; v < vertex_count; ++v) {
    if (seen_at[v] == 0) return fail(name, 0, "vertex " + std::to_string(v) + " has no weights");
  }
  return weights;
}

Result<std::vector<VertexWeights>> read_skin_weights(const std::string& path, std::span<const std::string> bone_names,
                                                     int vertex_count) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(path, 0, "cannot open");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parse_skin_weights(buffer.str(), path, bone_names, vertex_count);
}

std::string format_skin_weights(std::span<const VertexWeights> weights, std::span<const std::string> bone_names) {
  std::string out = "# mocap skin weights: vertex (0-based, OBJ v order), then bone and weight pairs\n";
  out += "mocap-skin-weights 1\nvertices " + std::to_string(weights.size()) + "\n";
  char buffer[32];
  for (std::size_t v = 0; v < weights.size(); ++v) {
    out += std::to_string(v);
    for (int k = 0; k < kMaxInfluences; ++k) {
      if (weights[v].weight[k] <= 0.0f) continue;
      out += ' ';
      out += bone_names[weights[v].bone[k]];
      out += ' ';
      const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, weights[v].weight[k]);
      out.append(buffer, end);
    }
    out += '\n';
  }
  return out;
}

Result<void> write_skin_weights(const std::string& path, std::span<const VertexWeights> weights,
                                std::span<const std::string> bone_names) {
  return write_file_atomically(path, format_skin_weights(weights, bone_names));
}

}  // namespace mocap
