// libFuzzer target: any bytes given to the ASF reader must come back as a
// skeleton or an error, never a crash; a skeleton must survive write + read.
#include <mocap/io/asf.h>

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto skeleton = mocap::parse_asf_file(text, "fuzz.asf");
  if (!skeleton) {
    if (skeleton.error().message.empty()) std::abort();
    return 0;
  }
  // What the reader accepts the builder must accept too.
  if (!mocap::build_skeleton(*skeleton, "fuzz.asf")) std::abort();
  const std::string written = mocap::format_asf(*skeleton);
  const auto again = mocap::parse_asf_file(written, "again.asf");
  if (!again || mocap::format_asf(*again) != written) std::abort();
  return 0;
}
