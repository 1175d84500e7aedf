// libFuzzer target: report shards (report/report_format.h parse_report_json),
// what `mocap report --merge` reads from other machines. Any bytes give a
// report or an error naming what is wrong, never a crash. A report that
// parses formats back to JSON that parses to the same JSON again, merges as
// a single part, and summarises and renders to HTML and CSV.
#include <mocap/report/report.h>
#include <mocap/report/report_format.h>
#include <mocap/report/report_summary.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_report: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto report = mocap::parse_report_json(text, "fuzz.json");
  if (!report) {
    if (report.error().message.empty()) fail("an error without a message");
    return 0;
  }
  const std::string json = mocap::format_json(*report);
  const auto again = mocap::parse_report_json(json, "again.json");
  if (!again) fail(("format_json's text does not read back: " + again.error().to_string()).c_str());
  if (mocap::format_json(*again) != json) fail("read back, it formats to other JSON");
  const mocap::Report parts[] = {*report};
  (void)mocap::merge_reports(parts);
  (void)mocap::summarise(*report);
  (void)mocap::format_csv(*report);
  (void)mocap::format_html(*report);
  return 0;
}
