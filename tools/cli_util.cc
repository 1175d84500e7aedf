#include "cli_util.h"

#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/atomic_write.h>

#include <charconv>
#include <cstdio>
#include <iostream>

namespace mocap::cli {

std::optional<Skeleton> load_skeleton(const std::string& asf_path) {
  auto skeleton = read_asf(asf_path);
  if (!skeleton) {
    std::cerr << "mocap: " << skeleton.error().to_string() << "\n";
    return std::nullopt;
  }
  return std::move(*skeleton);
}

std::optional<Clip> load_clip(const std::string& asf_path, const std::string& amc_path, double fps) {
  auto skeleton = load_skeleton(asf_path);
  if (!skeleton) return std::nullopt;
  auto motion = read_amc(amc_path, *skeleton, fps);
  if (!motion) {
    std::cerr << "mocap: " << motion.error().to_string() << "\n";
    return std::nullopt;
  }
  return Clip{std::move(*skeleton), std::move(*motion)};
}

int emit(const std::string& path, const std::string& content) {
  if (path.empty() || path == "-") {
    std::fwrite(content.data(), 1, content.size(), stdout);
    if (std::fflush(stdout) != 0) {
      std::cerr << "mocap: cannot write to standard output\n";
      return kOutputError;
    }
    return kOk;
  }
  if (auto written = write_file_atomically(path, content); !written) {
    std::cerr << "mocap: " << written.error().to_string() << "\n";
    return kOutputError;
  }
  return kOk;
}

std::optional<FrameRange> parse_frame_range(const std::string& text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) return std::nullopt;
  FrameRange range;
  auto parse_end = [](std::string_view s, int& out) {
    if (s.empty()) return true;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size();
  };
  const std::string_view all(text);
  if (!parse_end(all.substr(0, colon), range.first) || !parse_end(all.substr(colon + 1), range.last)) {
    return std::nullopt;
  }
  if (range.first > range.last) return std::nullopt;
  return range;
}

void add_fps_option(CLI::App& command, double& fps) {
  command.add_option("--fps", fps, "Frame rate of the AMC (AMC files store none)")
      ->default_val(120.0)
      ->check(CLI::PositiveNumber);
}

}  // namespace mocap::cli
