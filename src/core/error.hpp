// error.hpp — the error types every layer throws: bad user input vs. device/GL failure.
#pragma once

#include <stdexcept>
#include <string>

namespace ls {

/// Bad input from a person: a file, rule text, size, script line or command-line value.
/// The message is one line saying what is wrong (and where, for text: "line L, column C: ...").
/// The CLI maps it to exit status 2; the app shows it in the panel and keeps its state.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A failure of the device, the driver, GL or the display. The CLI maps it to exit status 3.
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Input error located in a text: formats "line L, column C: what" (line/column from 1).
InputError text_error(int line, int column, const std::string& what);

}  // namespace ls
