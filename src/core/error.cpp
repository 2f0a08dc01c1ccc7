// error.cpp — formatting of located input errors.
#include "core/error.hpp"

namespace ls {

InputError text_error(int line, int column, const std::string& what) {
  return InputError("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what);
}

}  // namespace ls
