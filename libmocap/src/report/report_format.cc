// Writing a report in the format its file name asks for.
#include <mocap/io/atomic_write.h>
#include <mocap/report/report_format.h>

#include <cctype>
#include <filesystem>

namespace mocap {
namespace {

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

}  // namespace

bool is_report_path(const std::string& path) {
  const std::string ext = lower_extension(path);
  return ext == ".csv" || ext == ".json" || ext == ".html" || ext == ".htm";
}

Result<void> write_report(const Report& report, const std::string& path) {
  const std::string ext = lower_extension(path);
  std::string content;
  if (ext == ".csv") {
    content = format_csv(report);
  } else if (ext == ".json") {
    content = format_json(report);
  } else if (ext == ".html" || ext == ".htm") {
    content = format_html(report);
  } else {
    return fail(path, 0, "unknown report format: expected a .html, .csv or .json file");
  }
  return write_file_atomically(path, content);
}

}  // namespace mocap
