#include "cli_util.h"

#include <mocap/core/floor_contact.h>
#include <mocap/io/atomic_write.h>
#include <mocap/io/bvh.h>
#include <mocap/io/output_format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace mocap::cli {

namespace {

// "09" of ".../09_06.amc" or ".../09.asf": the CMU subject a file's name
// gives, or "" when the name is not CMU's (digits, then `_digits` for a motion).
std::string cmu_subject(const std::string& path, bool motion) {
  const std::string stem = std::filesystem::path(path).stem().string();
  const std::size_t digits = stem.find_first_not_of("0123456789");
  if (digits == 0 || stem.empty()) return "";
  if (!motion) return digits == std::string::npos ? stem : "";
  if (digits == std::string::npos || stem[digits] != '_' || digits + 1 == stem.size() ||
      stem.find_first_not_of("0123456789", digits + 1) != std::string::npos) {
    return "";
  }
  return stem.substr(0, digits);
}

}  // namespace

Outcome<Capture> load_asf_amc(const std::string& asf_path, const std::string& amc_path, double fps) {
  auto clip = read_capture(asf_path, amc_path, fps);
  if (!clip) {
    std::cerr << "mocap: " << clip.error().to_string() << "\n";
    return std::unexpected(kBadInput);
  }
  warn_if_implausible(clip->skeleton, clip->motion, asf_path, amc_path);
  return std::move(*clip);
}

void warn_if_implausible(const Skeleton& skeleton, const Motion& motion, const std::string& asf_path,
                         const std::string& motion_path) {
  // A motion of another CMU subject parses (the bones are the same) and is
  // silently wrong: the bone lengths are not the ones it was captured with.
  const std::string skeleton_subject = cmu_subject(asf_path, false), motion_subject = cmu_subject(motion_path, true);
  if (!skeleton_subject.empty() && !motion_subject.empty() && skeleton_subject != motion_subject) {
    std::cerr << "mocap: warning: " << motion_path << " is named as a motion of CMU subject " << motion_subject
              << ", the skeleton " << asf_path << " as subject " << skeleton_subject << "\n";
  }
  // Nor need it be this skeleton's, or in its units, when the names agree.
  const std::string why = implausible_floor_contact(skeleton, floor_contact(skeleton, motion));
  if (!why.empty()) std::cerr << "mocap: warning: " << motion_path << ": " << why << "\n";
}

void add_error_flags(CLI::App& command, ErrorSettings& settings) {
  command.add_option("--lambda", settings.lambda, "Weight of the velocity error in the combined error")
      ->default_val(1.0)
      ->check(kNonNegative);
  command.add_option("--shell-cm", settings.shell_radius_cm, "Distance from each joint of the shell points, in cm")
      ->default_val(3.0)
      ->check(kNonNegative);
}

void add_interp_option(CLI::App& command, std::string& interp) {
  command
      .add_option("--interp", interp, "Rebuild between keys by slerp (default) or cubic (a C1 spline through the keys)")
      ->default_val("slerp")
      ->check(CLI::IsMember({"slerp", "cubic"}));
}

Interpolation interpolation_option(const std::string& interp) {
  return interp == "cubic" ? Interpolation::kCubic : Interpolation::kSlerp;
}

std::optional<std::string> motion_text(std::string_view verb, const Skeleton& skeleton, const Motion& motion,
                                       const std::string& path, const std::string& bvh_units, const AmcLayout* layout) {
  auto text = format_capture_motion(skeleton, motion, is_bvh_path(path), *parse_length_unit(bvh_units), layout);
  if (!text) {
    std::cerr << "mocap " << verb << ": " << path << ": " << text.error().message << "\n";
    return std::nullopt;
  }
  return std::move(*text);
}

void add_bvh_units_option(CLI::App& command, std::string& bvh_units) {
  command
      .add_option("--bvh-units", bvh_units,
                  "Length unit of BVH files read or written: m, cm, mm, in, ft, or metres per unit (CMU's cgspeed "
                  "BVH: 0.0564444, its ASF's unit)")
      ->default_val("cm")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            return parse_length_unit(value)
                       ? ""
                       : "expected m, cm, mm, in, ft or a positive number of metres, found '" + value + "'";
          },
          "UNIT"));
}

Outcome<Capture> load_capture(std::string_view verb, const std::string& first, const std::string& second, double fps,
                              const std::string& bvh_units) {
  if (!is_bvh_path(first)) {
    if (second.empty()) {
      std::cerr << "mocap " << verb << ": amc: expected an AMC motion after the ASF skeleton " << first
                << " (or a .bvh file alone)\n";
      return std::unexpected(kUsage);
    }
    return load_asf_amc(first, second, fps);
  }
  if (!second.empty()) {
    std::cerr << "mocap " << verb << ": " << first
              << " is a whole clip (skeleton and motion): expected it alone, found " << second << " too\n";
    return std::unexpected(kUsage);
  }
  const auto units = parse_length_unit(bvh_units);
  if (!units) {
    std::cerr << "mocap " << verb << ": --bvh-units " << bvh_units
              << ": expected m, cm, mm, in, ft or a positive number of metres\n";
    return std::unexpected(kUsage);
  }
  auto bvh = read_bvh_capture(first, *units);
  if (!bvh) {
    std::cerr << "mocap: " << bvh.error().to_string() << "\n";
    return std::unexpected(kBadInput);
  }
  warn_if_implausible(bvh->skeleton, bvh->motion, first, first);
  return std::move(*bvh);
}

int failed(std::string_view prefix, const Error& error, ExitCode code) {
  std::cerr << prefix << error.to_string() << "\n";
  return code;
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
  if (auto written = write_file_atomically(path, content); !written)
    return failed("mocap: ", written.error(), kOutputError);
  return kOk;
}

int emit_all(std::vector<OutputFile> outputs) {
  std::string to_stdout;
  std::vector<OutputFile> files;
  for (OutputFile& output : outputs) {
    if (output.path.empty() || output.path == "-") {
      to_stdout += output.content;
    } else {
      files.push_back(std::move(output));
    }
  }
  if (auto written = write_files_atomically(files); !written) return failed("mocap: ", written.error(), kOutputError);
  return to_stdout.empty() ? kOk : emit("", to_stdout);
}

int check_outputs(std::string_view verb, std::initializer_list<std::string_view> paths) {
  for (std::string_view path : paths) {
    if (path.empty() || path == "-") continue;
    if (auto ok = check_output_path(std::string(path)); !ok) {
      std::cerr << "mocap " << verb << ": " << ok.error().to_string() << "\n";
      return kOutputError;
    }
  }
  return kOk;
}

std::optional<FrameRange> frames_option(std::string_view verb, const std::string& text) {
  auto range = parse_frame_range(text);
  if (!range) {
    std::cerr << "mocap " << verb << ": --frames " << range.error().message << "\n";
    return std::nullopt;
  }
  return *range;
}

std::optional<std::string> format_option(std::string_view verb, const std::string& path, const std::string& format,
                                         std::initializer_list<std::string_view> accepted,
                                         std::string_view stdout_format) {
  auto picked = pick_output_format(path, format, accepted, stdout_format);
  if (!picked) {
    std::cerr << "mocap " << verb << ": " << picked.error().message << "\n";
    return std::nullopt;
  }
  return *picked;
}

namespace {

// A validator that parses the value as a double and asks `ok` of it.
CLI::Validator number_check(std::string description, bool (*ok)(double)) {
  const std::string expected = "expected a number " + description;
  return CLI::Validator(
      [expected, ok](std::string& value) -> std::string {
        double number = 0;
        std::size_t used = 0;
        try {
          number = std::stod(value, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != value.size() || !std::isfinite(number) || !ok(number))
          return expected + ", found '" + value + "'";
        return "";
      },
      "NUMBER " + description);
}

}  // namespace

const CLI::Validator kPositive = number_check("> 0", [](double x) { return x > 0; });
const CLI::Validator kNonNegative = number_check(">= 0", [](double x) { return x >= 0; });

void add_fps_option(CLI::App& command, double& fps) {
  command.add_option("--fps", fps, "Frame rate of the motion, frames per second (AMC files store none)")
      ->default_val(120.0)
      ->check(kPositive);
}

void add_frames_option(CLI::App& command, std::string& frames) {
  command.add_option("--frames", frames,
                     "Frames by the file's frame numbers, inclusive: a:b[:step], a: or :b (default: all)");
}

}  // namespace mocap::cli
