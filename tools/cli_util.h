// What the mocap commands share: exit codes, loading, output.
#pragma once

#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace mocap::cli {

// The CLI contract (README): distinct codes so scripts can tell what failed.
enum ExitCode : int {
  kOk = 0,
  kUsage = 1,        // bad flags or arguments
  kBadInput = 2,     // an input file is missing or malformed
  kQualityGate = 3,  // a measured error broke a bound the user set
  kOutputError = 4,  // an output file or device could not be written
};

struct Clip {
  Skeleton skeleton;
  Motion motion;
};

// Reads a skeleton; prints the error on stderr and returns nullopt on failure.
std::optional<Skeleton> load_skeleton(const std::string& asf_path);
// Reads a skeleton and a motion of it, as load_skeleton.
std::optional<Clip> load_clip(const std::string& asf_path, const std::string& amc_path, double fps);

// Writes `content` to `path` atomically, or to stdout when `path` is empty or
// "-". Returns kOk or kOutputError (with the reason on stderr).
int emit(const std::string& path, const std::string& content);

// An inclusive range of AMC frame numbers, "a:b", "a:" or ":b".
struct FrameRange {
  int first = std::numeric_limits<int>::min();
  int last = std::numeric_limits<int>::max();
  bool contains(int frame) const { return frame >= first && frame <= last; }
};
std::optional<FrameRange> parse_frame_range(const std::string& text);

// The --fps option every command that reads AMC takes.
void add_fps_option(CLI::App& command, double& fps);

// Each command adds itself to the app and sets `exit_code` when it runs.
void add_info_command(CLI::App& app, int& exit_code);
void add_fk_command(CLI::App& app, int& exit_code);
void add_skin_command(CLI::App& app, int& exit_code);
void add_eyes_command(CLI::App& app, int& exit_code);
void add_compress_commands(CLI::App& app, int& exit_code);
void add_report_command(CLI::App& app, int& exit_code);

}  // namespace mocap::cli
