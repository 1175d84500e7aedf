#include <mocap/core/error.h>

namespace mocap {

std::string Error::to_string() const {
  std::string s;
  if (!file.empty()) {
    s += file;
    if (line > 0) {
      s += ':';
      s += std::to_string(line);
    }
    s += ": ";
  }
  s += message;
  return s;
}

}  // namespace mocap
