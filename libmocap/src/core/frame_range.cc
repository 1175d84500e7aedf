#include <mocap/core/frame_range.h>

#include <charconv>
#include <string>

namespace mocap {
namespace {

// An integer filling `s` exactly; empty leaves `out` as it is.
bool parse_part(std::string_view s, int& out) {
  if (s.empty()) return true;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace

Result<FrameRange> parse_frame_range(std::string_view text) {
  FrameRange range;
  if (text.empty()) return range;
  auto bad = [&](const char* why) {
    return fail(
        "", 0,
        std::string(text) + ": " + why + ": expected a:b[:step] in frame numbers, e.g. 1:100, 1:100:10, 50: or :50");
  };
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return bad("no ':'");
  const std::string_view rest = text.substr(colon + 1);
  const std::size_t second = rest.find(':');
  const std::string_view last = rest.substr(0, second);
  if (!parse_part(text.substr(0, colon), range.first) || !parse_part(last, range.last))
    return bad("not a frame number");
  if (second != std::string_view::npos) {
    const std::string_view step = rest.substr(second + 1);
    if (step.empty() || !parse_part(step, range.step) || range.step < 1)
      return bad("the step is not a whole number >= 1");
  }
  if (range.first > range.last) return bad("the first frame comes after the last");
  return range;
}

std::vector<int> select_frames(const FrameRange& range, std::span<const int> numbers) {
  std::vector<int> frames;
  int selected = 0;
  for (int i = 0; i < static_cast<int>(numbers.size()); ++i) {
    if (range.contains(numbers[i]) && selected++ % range.step == 0) frames.push_back(i);
  }
  return frames;
}

}  // namespace mocap
