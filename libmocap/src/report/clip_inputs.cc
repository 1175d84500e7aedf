// Finding clips: CMU pairing of AMC and ASF, folder walks, shards.
#include <mocap/report/clip_inputs.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <set>
#include <string_view>

namespace mocap {
namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
bool has_extension(const fs::path& path, std::string_view ext) {
  return lower(path.extension().string()) == ext;
}

// The .asf files directly in `dir`, by file name.
std::vector<fs::path> asf_files_in(const fs::path& dir) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir.empty() ? fs::path(".") : dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code file_ec;
    if (it->is_regular_file(file_ec) && has_extension(it->path(), ".asf")) found.push_back(it->path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

// The file of `candidates` whose stem is `stem`, or empty.
fs::path with_stem(const std::vector<fs::path>& candidates, const std::string& stem) {
  for (const fs::path& p : candidates) {
    if (p.stem().string() == stem) return p;
  }
  return {};
}

}  // namespace

Result<std::string> pair_asf(const std::string& amc, const std::string& fallback_asf) {
  const fs::path path(amc);
  const fs::path dir = path.parent_path();
  const std::string stem = path.stem().string();
  const std::vector<fs::path> asfs = asf_files_in(dir);
  auto relative_to_input = [&](const fs::path& found) {
    return dir.empty() ? found.filename().string() : (dir / found.filename()).string();
  };
  const std::size_t underscore = stem.find('_');
  if (underscore != std::string::npos && underscore > 0) {
    if (fs::path p = with_stem(asfs, stem.substr(0, underscore)); !p.empty()) return relative_to_input(p);
  }
  if (fs::path p = with_stem(asfs, stem); !p.empty()) return relative_to_input(p);
  if (asfs.size() == 1) return relative_to_input(asfs.front());
  if (!fallback_asf.empty()) return fallback_asf;
  std::string tried = underscore != std::string::npos && underscore > 0 ? stem.substr(0, underscore) + ".asf, " : "";
  return fail(amc, 0,
              "no skeleton for this motion: looked for " + tried + stem + ".asf and a single .asf in its folder (" +
                  std::to_string(asfs.size()) + " found); pass --asf");
}

std::vector<ClipInput> find_clips(std::span<const std::string> inputs, const std::string& fallback_asf) {
  std::vector<ClipInput> clips;
  std::set<std::string> seen;  // canonical paths
  auto add = [&](const fs::path& path, std::string error) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(path, ec);
    if (!seen.insert(ec ? path.string() : canonical.string()).second) return;
    ClipInput clip;
    clip.path = path.string();
    clip.name = path.stem().string();
    clip.bytes = error.empty() ? fs::file_size(path, ec) : 0;
    if (ec) clip.bytes = 0;
    if (error.empty() && !has_extension(path, ".bvh")) {
      if (auto asf = pair_asf(clip.path, fallback_asf)) {
        clip.asf = std::move(*asf);
      } else {
        error = asf.error().to_string();
      }
    }
    clip.error = std::move(error);
    clips.push_back(std::move(clip));
  };
  for (const std::string& input : inputs) {
    const fs::path path(input);
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (fs::is_directory(status)) {
      std::vector<fs::path> amcs;
      const auto options = fs::directory_options::skip_permission_denied;
      for (fs::recursive_directory_iterator it(path, options, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code file_ec;
        if (it->is_regular_file(file_ec) && (has_extension(it->path(), ".amc") || has_extension(it->path(), ".bvh")))
          amcs.push_back(it->path());
      }
      if (ec) add(path, input + ": cannot list the folder: " + ec.message());
      for (const fs::path& amc : amcs) add(amc, "");
    } else if (fs::is_regular_file(status)) {
      if (has_extension(path, ".asf")) continue;
      add(path, has_extension(path, ".amc") || has_extension(path, ".bvh")
                    ? ""
                    : input + ": not an AMC or BVH motion (expected a .amc or .bvh file)");
    } else {
      add(path, input + ": no such file or folder");
    }
  }
  std::sort(clips.begin(), clips.end(), [](const ClipInput& a, const ClipInput& b) { return a.path < b.path; });
  return clips;
}

std::vector<ClipInput> shard_clips(std::span<const ClipInput> clips, int index, int count) {
  std::vector<ClipInput> shard;
  if (count <= 0 || index < 0 || index >= count) return shard;
  for (std::size_t i = static_cast<std::size_t>(index); i < clips.size(); i += static_cast<std::size_t>(count)) {
    shard.push_back(clips[i]);
  }
  return shard;
}

Result<Shard> parse_shard(std::string_view text) {
  auto whole = [](std::string_view s, int& out) {
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && ptr == s.data() + s.size();
  };
  Shard shard;
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos || !whole(text.substr(0, slash), shard.index) ||
      !whole(text.substr(slash + 1), shard.count) || shard.count <= 0 || shard.index < 0 ||
      shard.index >= shard.count) {
    return fail(std::string(text), 0, "expected k/n with 0 <= k < n, e.g. 0/4");
  }
  return shard;
}

}  // namespace mocap
