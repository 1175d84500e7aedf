// Errors that libmocap returns instead of throwing: where the problem is
// (file and 1-based line, 0 when no line applies) and what was expected.
#pragma once

#include <expected>
#include <string>

namespace mocap {

struct Error {
  std::string file;     // path or name of the input; empty when none applies
  int line = 0;         // 1-based line number; 0 when the error is not tied to a line
  std::string message;  // what was found and what was expected

  // "file:line: message", "file: message" or "message".
  std::string to_string() const;
};

template <class T>
using Result = std::expected<T, Error>;

// Shorthand for returning an error from a function that returns Result<T>.
inline std::unexpected<Error> fail(std::string file, int line, std::string message) {
  return std::unexpected(Error{std::move(file), line, std::move(message)});
}

}  // namespace mocap
