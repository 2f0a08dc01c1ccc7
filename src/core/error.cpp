// error.cpp — formatting of located input errors and of bytes in messages; the entry points' exit statuses.
#include "core/error.hpp"

#include <cstdio>
#include <iostream>
#include <new>

namespace ls {

InputError text_error(int line, int column, const std::string& what) {
  return InputError("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what);
}

std::string byte_text(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", u);
  return std::string("byte ") + buf;
}

int exit_status_of(std::string_view prefix, const std::function<int()>& body) {
  try {
    return body();
  } catch (const InputError& e) {
    std::cerr << prefix << ": " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << prefix << ": out of host memory\n";
    return 2;
  } catch (const DeviceError& e) {
    std::cerr << prefix << ": " << e.what() << "\n";
    return 3;
  }
}

}  // namespace ls
