// non_copyable.hpp — NonCopyable: the base of interfaces and owners that must never be copied (an
// interface copied slices its object; an owner copied would release its resource twice).
#pragma once

namespace ls {

class NonCopyable {
 public:
  NonCopyable(const NonCopyable&) = delete;
  NonCopyable& operator=(const NonCopyable&) = delete;

 protected:
  NonCopyable() = default;
  ~NonCopyable() = default;
};

}  // namespace ls
