#include <mocap/io/output_format.h>

#include <algorithm>
#include <cctype>

namespace mocap {

Result<std::string> pick_output_format(std::string_view path, std::string_view format,
                                       std::initializer_list<std::string_view> accepted,
                                       std::string_view stdout_format) {
  auto known = [&](std::string_view name) { return std::ranges::find(accepted, name) != accepted.end(); };
  auto list = [&](const char* prefix, const char* separator) {
    std::string out;
    for (const std::string_view name : accepted) out += (out.empty() ? "" : separator) + (prefix + std::string(name));
    return out;
  };
  if (!format.empty()) {
    if (known(format)) return std::string(format);
    return fail("", 0, "--format " + std::string(format) + ": expected " + list("", ", "));
  }
  if (path.empty() || path == "-") return std::string(stdout_format);
  const std::size_t slash = path.find_last_of("/\\");
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t dot = name.rfind('.');
  std::string extension = dot == std::string_view::npos || dot == 0 ? "" : std::string(name.substr(dot + 1));
  std::ranges::transform(extension, extension.begin(), [](unsigned char c) { return std::tolower(c); });
  if (known(extension)) return extension;
  return fail("", 0,
              "-o " + std::string(path) + ": " +
                  (extension.empty() ? "no extension" : "unknown extension ." + extension) + ": expected " +
                  list(".", ", ") + ", or --format " + list("", "|"));
}

}  // namespace mocap
