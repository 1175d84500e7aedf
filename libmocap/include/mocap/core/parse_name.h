// A value named by one of a few words (a flag's argument, a Python keyword):
// the value, or an error that lists every word accepted, as
//   expected 'lbs' or 'dqs', found 'x'
// so that the CLI and the Python module say the same thing.
#pragma once

#include <mocap/core/error.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace mocap {

template <class T>
Result<T> parse_name(std::string_view name, std::initializer_list<std::pair<std::string_view, T>> words) {
  std::string expected;
  std::size_t i = 0;
  for (const auto& [word, value] : words) {
    if (word == name) return value;
    expected += (i == 0 ? "'" : i + 1 == words.size() ? " or '" : ", '") + std::string(word) + "'";
    ++i;
  }
  return fail("", 0, "expected " + expected + ", found '" + std::string(name) + "'");
}

}  // namespace mocap
