// error.hpp — the error types every layer throws: bad user input vs. device/GL failure.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

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

/// A byte of a person's text as a message shows it: 'x' when printable, else "byte 0xNN".
std::string byte_text(char c);

/// The one error path of the command-line entry points (`run`, `bench`, the app): returns what
/// `body` returns, or, when it throws, prints "`prefix`: message" as one line on stderr and returns
/// the documented exit status: InputError 2, host memory exhausted 2 (a size too large to
/// allocate), DeviceError 3.
int exit_status_of(std::string_view prefix, const std::function<int()>& body);

}  // namespace ls
