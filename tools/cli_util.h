// What the mocap commands share: exit codes, loading, the options every verb
// spells the same way (--fps, --frames, -o/--format), output.
#pragma once

#include <mocap/compress/compress_report.h>
#include <mocap/compress/interpolation.h>
#include <mocap/core/frame_range.h>
#include <mocap/core/motion.h>
#include <mocap/core/skeleton.h>
#include <mocap/io/atomic_write.h>
#include <mocap/io/capture.h>

#include <CLI/CLI.hpp>
#include <expected>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mocap::cli {

// The CLI contract (README): distinct codes so scripts can tell what failed.
enum ExitCode : int {
  kOk = 0,
  kUsage = 1,        // bad flags or arguments
  kBadInput = 2,     // an input file is missing or malformed
  kQualityGate = 3,  // a measured error broke a bound the user set
  kOutputError = 4,  // an output file or device could not be written
};

// A value, or the exit code of a failure whose reason is already on stderr.
template <class T>
using Outcome = std::expected<T, ExitCode>;

// read_capture (io/capture.h); kBadInput after printing its error on stderr.
Outcome<Capture> load_asf_amc(const std::string& asf_path, const std::string& amc_path, double fps);

// Warnings on stderr for a motion that parses but is likely not
// `skeleton`'s: a CMU file name of another subject, or a figure that never
// meets the floor or is implausibly tall (core/floor_contact.h). load_asf_amc
// and load_capture call it; results never change.
void warn_if_implausible(const Skeleton& skeleton, const Motion& motion, const std::string& asf_path,
                         const std::string& motion_path);

// Says `error` on stderr after `prefix` (e.g. "mocap: ", "mocap skin: -o ")
// and returns `code`: the last step of a verb whose library call failed.
int failed(std::string_view prefix, const Error& error, ExitCode code);

// Writes `content` to `path` atomically, or to stdout when `path` is empty or
// "-". Returns kOk or kOutputError (with the reason on stderr).
int emit(const std::string& path, const std::string& content);
// Every output of a command or none (io/atomic_write.h): the files first,
// then what goes to standard output (path empty or "-"). kOk or kOutputError.
int emit_all(std::vector<OutputFile> outputs);
// Before computing: every path in `paths` (empty and "-" skipped) can be
// written (io/atomic_write.h check_output_path). kOk, or kOutputError after
// saying on stderr which folder is missing or why.
int check_outputs(std::string_view verb, std::initializer_list<std::string_view> paths);

// A compressed clip by its name (.mkc), as compress, decompress and info tell it from AMC text.
inline bool is_clip_file_name(const std::string& path) {
  return path.size() > 4 && path.ends_with(".mkc");
}

// --frames of `verb` (core/frame_range.h); nullopt after saying on stderr
// what is wrong (a usage error).
std::optional<FrameRange> frames_option(std::string_view verb, const std::string& text);
// The format of -o `path` or --format `format` (io/output_format.h), as
// frames_option.
std::optional<std::string> format_option(std::string_view verb, const std::string& path, const std::string& format,
                                         std::initializer_list<std::string_view> accepted,
                                         std::string_view stdout_format);

// The --fps option every command that reads AMC takes: the motion's rate.
void add_fps_option(CLI::App& command, double& fps);

// Number checks for options whose messages say what was expected ("--fps:
// expected a number > 0, found -1"); CLI11 2.1's PositiveNumber and
// NonNegativeNumber print the whole range up to DBL_MAX instead.
extern const CLI::Validator kPositive;
extern const CLI::Validator kNonNegative;
// The --frames option, with one help text everywhere.
void add_frames_option(CLI::App& command, std::string& frames);

// Each command adds itself to the app and sets `exit_code` when it runs.
void add_info_command(CLI::App& app, int& exit_code);
void add_fk_command(CLI::App& app, int& exit_code);
void add_skin_command(CLI::App& app, int& exit_code);
void add_eyes_command(CLI::App& app, int& exit_code);
void add_compress_command(CLI::App& app, int& exit_code);
void add_decompress_command(CLI::App& app, int& exit_code);
void add_eval_command(CLI::App& app, int& exit_code);
void add_report_command(CLI::App& app, int& exit_code);
void add_convert_command(CLI::App& app, int& exit_code);
void add_retarget_command(CLI::App& app, int& exit_code);
void add_contacts_command(CLI::App& app, int& exit_code);

// --lambda and --shell-cm: the error measure's settings (compress, eval).
void add_error_flags(CLI::App& command, ErrorSettings& settings);
// --interp: how a rebuild goes from key to key (compress, decompress).
void add_interp_option(CLI::App& command, std::string& interp);
Interpolation interpolation_option(const std::string& interp);  // of a value --interp accepted

// `motion` as text for the output `path` (format_capture_motion: BVH for a BVH
// skeleton or a .bvh path, else AMC, in `layout` when given) with lengths in
// --bvh-units `bvh_units` (already checked). Nullopt after saying on stderr
// why.
std::optional<std::string> motion_text(std::string_view verb, const Skeleton& skeleton, const Motion& motion,
                                       const std::string& path, const std::string& bvh_units,
                                       const AmcLayout* layout = nullptr);

// BVH input for every verb that reads a clip (cmd_convert.cc): --bvh-units,
// and the clip of `first` `second`: a .bvh alone (lengths in `bvh_units`, its
// own rate) or ASF + AMC (load_asf_amc). The capture, or kUsage (a .bvh
// with a second file, an ASF without one, a bad unit) or kBadInput, the
// reason on stderr.
void add_bvh_units_option(CLI::App& command, std::string& bvh_units);
Outcome<Capture> load_capture(std::string_view verb, const std::string& first, const std::string& second, double fps,
                              const std::string& bvh_units);

}  // namespace mocap::cli
