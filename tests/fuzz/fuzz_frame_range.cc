// libFuzzer target: frame ranges (core/frame_range.h), the `a:b[:step]` every
// front end reads from its user. Any text gives a range or an error that
// quotes it, never a crash. A range keeps its promises (first <= last, step
// >= 1), reads back from the text it is written as, and selects increasing
// frames that it contains, every step-th of those in it.
#include <mocap/core/frame_range.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_frame_range: %s\n", what);
  std::abort();
}

// The text a user would write for `r`.
std::string text_of(const mocap::FrameRange& r) {
  std::string t;
  if (r.first != std::numeric_limits<int>::min()) t += std::to_string(r.first);
  t += ':';
  if (r.last != std::numeric_limits<int>::max()) t += std::to_string(r.last);
  if (r.step != 1) t += ':' + std::to_string(r.step);
  return t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto range = mocap::parse_frame_range(text);
  if (!range) {
    if (range.error().message.find(std::string(text)) == std::string::npos) fail("the error does not quote the text");
    return 0;
  }
  if (range->first > range->last || range->step < 1) fail("a range that breaks its promises");
  const auto again = mocap::parse_frame_range(text_of(*range));
  if (!again || again->first != range->first || again->last != range->last || again->step != range->step) {
    fail("the range does not read back from its own text");
  }
  // Frame numbers around the range's ends (and a clip's usual 1..n).
  std::vector<int> numbers;
  const long long centre = range->first == std::numeric_limits<int>::min() ? 1 : range->first;
  for (long long n = std::max<long long>(centre - 5, std::numeric_limits<int>::min());
       n <= centre + 200 && n <= std::numeric_limits<int>::max(); ++n) {
    numbers.push_back(static_cast<int>(n));
  }
  const auto frames = mocap::select_frames(*range, numbers);
  long long in_range = 0;
  for (const int n : numbers) in_range += range->contains(n) ? 1 : 0;
  if (static_cast<long long>(frames.size()) != (in_range + range->step - 1) / range->step) {
    fail("select_frames does not keep every step-th frame of the range");
  }
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frames[i] < 0 || frames[i] >= static_cast<int>(numbers.size())) fail("an index outside the clip");
    if (!range->contains(numbers[frames[i]])) fail("a selected frame outside the range");
    if (i > 0 && frames[i] <= frames[i - 1]) fail("selected frames not increasing");
  }
  return 0;
}
