// cross_check.hpp — the cross-check badge: instances that started from one state under one rule
// (equal InstanceStatus::origin) must have equal hashes at equal generations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/engine.hpp"

namespace ls::ui {

struct CrossCheck {
  enum class State {
    none,      // no other instance shares this origin, or they can never meet at one generation
    pending,   // peers exist at the same enqueued generation; their summaries are not all in yet
    agree,     // every peer summarised at this generation has this hash
    diverged,  // some peer summarised at this generation has another hash
  };
  State state = State::none;
  int group = -1;  // 0, 1, ... for origins shared by two or more instances (shown as A, B, ...)
  int peers = 0;   // other instances compared with at this summary's generation
};

/// Computes one CrossCheck per status into `out` (resized; its capacity is reused).
/// Instances are grouped by origin; within a group an instance with a summary is compared with the
/// group members whose summaries are at the same generation.
void cross_check(const std::vector<InstanceStatus>& statuses, std::vector<CrossCheck>& out);

/// What the badge of instance `index` says of its group, measured against its newest summary: how
/// many members (itself included) have a summary of that generation with its hash (agree), with
/// another hash (differ), or none of that generation yet (pending); and the members that do not
/// agree, those that differ first, each in instance order. Empty for an instance in no group.
struct BadgeSummary {
  bool has_summary = false;      // `index` has a summary to compare against
  std::uint64_t generation = 0;  // its generation
  int agree = 0;
  int differ = 0;
  int pending = 0;
  std::vector<std::size_t> differing;  // members that differ, then those pending
};
BadgeSummary summarise_badge(std::size_t index, const std::vector<InstanceStatus>& statuses,
                             const std::vector<CrossCheck>& checks);

/// "A".."Z", then "AA"... for group numbers; writes into `out` and returns it.
const char* group_label(int group, char* out, std::size_t size);

}  // namespace ls::ui
