// libFuzzer target: any bytes given to the ASF reader must come back as a
// skeleton or an error, never a crash; a skeleton must survive write + read.
#include <mocap/io/asf.h>

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto skeleton = mocap::parse_asf(text, "fuzz.asf");
  if (!skeleton) {
    if (skeleton.error().message.empty()) std::abort();
    return 0;
  }
  const std::string written = mocap::format_asf(*skeleton);
  const auto again = mocap::parse_asf(written, "again.asf");
  if (!again || mocap::format_asf(*again) != written) std::abort();
  return 0;
}
