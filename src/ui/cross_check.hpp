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

/// "A".."Z", then "AA"... for group numbers; writes into `out` and returns it.
const char* group_label(int group, char* out, std::size_t size);

}  // namespace ls::ui
