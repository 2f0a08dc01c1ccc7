// seen.hpp — what a caller sees of an instance that must not change without a step or an edit, for
// the MultiEngine tests (CPU and GPU slots) that check moves keep it; the names of the ways of
// enqueueing, for their parameterised suites.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/engine.hpp"
#include "core/rule.hpp"
#include "multi/multi_engine.hpp"

namespace ls::multi {

/// A test name for each way of enqueueing (parameterised suites).
inline const char* enqueue_name(SlotEnqueue enqueue) {
  switch (enqueue) {
    case SlotEnqueue::per_slot_threads:
      return "PerSlotThreads";
    case SlotEnqueue::calling_thread:
      return "CallingThread";
    case SlotEnqueue::measured:
      return "Measured";
  }
  return "";
}

struct Seen {
  std::uint64_t generation, hash, population, origin;
  Rule rule;
  Variant variant;
  int k, width, height;
  bool operator==(const Seen&) const = default;
};

inline Seen seen(Engine& e, std::size_t i) {
  const InstanceStatus s = e.status(i);
  const StateSummary sum = e.summarize(i);
  EXPECT_EQ(sum.generation, s.generation);
  return Seen{s.generation, sum.hash, sum.population, s.origin, s.rule, s.variant, s.generations_per_launch,
              s.width,      s.height};
}

inline std::vector<Seen> seen_all(Engine& e) {
  std::vector<Seen> out;
  for (std::size_t i = 0; i < e.size(); ++i) out.push_back(seen(e, i));
  return out;
}

}  // namespace ls::multi
