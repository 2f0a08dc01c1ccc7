// composite_source.cpp — implements composite_source.hpp.
#include "counters/composite_source.hpp"

#include <algorithm>
#include <utility>

namespace ls::counters {

CompositeSource::CompositeSource(std::vector<std::unique_ptr<CounterSource>> parts)
    : parts_(std::move(parts)) {}

std::string CompositeSource::name() const {
  std::string out;
  for (const auto& p : parts_) out += (out.empty() ? "" : " + ") + p->name();
  return out;
}

std::vector<Counter> CompositeSource::counters() const {
  std::vector<Counter> out;
  for (const auto& p : parts_)
    for (const Counter c : p->counters())
      if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  return out;
}

bool CompositeSource::read(double t_ms, std::vector<Sample>& out) {
  bool any = false;
  why_.clear();
  for (const auto& p : parts_) {
    const bool read = p->read(t_ms, out);
    any = any || read;
    // A part that read may still say why some of it did not (one GPU of several).
    if (!read || !p->why().empty()) why_ += (why_.empty() ? "" : "; ") + p->name() + ": " + p->why();
  }
  return any;
}

double CompositeSource::period_ms() const {
  double shortest = 1000;
  for (const auto& p : parts_) shortest = std::min(shortest, p->period_ms());
  return shortest;
}

}  // namespace ls::counters
