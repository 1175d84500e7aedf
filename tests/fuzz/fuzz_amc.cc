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
  const auto motion = mocap::parse_amc(text, "fuzz.amc", skeleton());
  if (!motion) {
    if (motion.error().message.empty()) std::abort();
    return 0;
  }
  const auto again = mocap::parse_amc(mocap::format_amc(*motion, skeleton()), "again.amc", skeleton());
  if (!again || again->values != motion->values || again->frame_numbers != motion->frame_numbers) std::abort();
  return 0;
}
