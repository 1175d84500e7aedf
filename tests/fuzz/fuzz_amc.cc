// libFuzzer target: AMC text against a real CMU skeleton. Any bytes give a
// motion or an error, never a crash; a motion must survive write + read with
// bit-identical values.
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_skeleton.h"

using mocap::fuzz::skeleton;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto file = mocap::parse_amc_file(text, "fuzz.amc", skeleton());
  if (!file) {
    if (file.error().message.empty()) std::abort();
    return 0;
  }
  const mocap::Motion* motion = &file->motion;
  const auto again = mocap::parse_amc(mocap::format_amc(*motion, skeleton(), file->layout), "again.amc", skeleton());
  if (!again || again->values != motion->values || again->frame_numbers != motion->frame_numbers) std::abort();
  return 0;
}
