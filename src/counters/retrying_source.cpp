// retrying_source.cpp — implements retrying_source.hpp.
#include "counters/retrying_source.hpp"

#include <utility>

namespace ls::counters {

namespace {

std::string retry_note(double retry_ms) {
  return " (tried again every " + std::to_string(static_cast<long long>(retry_ms / 1000)) + " s)";
}

}  // namespace

RetryingSource::RetryingSource(std::string name, Opener open, double retry_ms, double period_ms)
    : name_(std::move(name)), open_(std::move(open)), retry_ms_(retry_ms), period_ms_(period_ms) {
  try_open(0);
}

void RetryingSource::try_open(double t_ms) {
  last_try_ms_ = t_ms;
  std::string why;
  source_ = open_(why);
  why_ = source_ ? std::string() : why + retry_note(retry_ms_);
}

std::vector<Counter> RetryingSource::counters() const {
  return source_ ? source_->counters() : std::vector<Counter>{};
}

bool RetryingSource::read(double t_ms, std::vector<Sample>& out) {
  if (!source_ && t_ms - last_try_ms_ >= retry_ms_) try_open(t_ms);
  if (!source_) return false;
  if (source_->read(t_ms, out)) {
    why_ = source_->why();  // a part of it (one GPU) may read nothing
    return true;
  }
  // It stopped reading (its counter unit taken): closed, and reopened like a first open.
  why_ = source_->why() + retry_note(retry_ms_);
  source_.reset();
  last_try_ms_ = t_ms;
  return false;
}

}  // namespace ls::counters
