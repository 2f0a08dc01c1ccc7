// cross_check.cpp — grouping instances by start origin and comparing their device hashes.
#include "ui/cross_check.hpp"

#include <cstdio>

namespace ls::ui {

void cross_check(const std::vector<InstanceStatus>& statuses, std::vector<CrossCheck>& out) {
  const std::size_t n = statuses.size();
  out.assign(n, CrossCheck{});
  int groups = 0;
  // n is at most 64, so the quadratic scans cost less than any map would.
  for (std::size_t i = 0; i < n; ++i) {
    if (out[i].group >= 0) continue;
    bool shared = false;
    for (std::size_t j = i + 1; j < n; ++j) {
      if (statuses[j].origin == statuses[i].origin) {
        out[j].group = groups;
        shared = true;
      }
    }
    if (shared) out[i].group = groups++;
  }
  for (std::size_t i = 0; i < n; ++i) {
    CrossCheck& c = out[i];
    if (c.group < 0) continue;
    const InstanceStatus& me = statuses[i];
    bool meets = false;  // some peer has been enqueued to my generation: a comparison will come
    bool differs = false;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i || out[j].group != c.group) continue;
      const InstanceStatus& other = statuses[j];
      if (other.generation == me.generation) meets = true;
      if (me.summary && other.summary && other.summary->generation == me.summary->generation) {
        ++c.peers;
        if (other.summary->hash != me.summary->hash) differs = true;
      }
    }
    if (c.peers > 0) {
      c.state = differs ? CrossCheck::State::diverged : CrossCheck::State::agree;
    } else {
      c.state = meets ? CrossCheck::State::pending : CrossCheck::State::none;
    }
  }
}

BadgeSummary summarise_badge(std::size_t index, const std::vector<InstanceStatus>& statuses,
                             const std::vector<CrossCheck>& checks) {
  BadgeSummary b;
  const int group = checks[index].group;
  if (group < 0) return b;
  const std::optional<StateSummary>& me = statuses[index].summary;
  b.has_summary = me.has_value();
  if (me) b.generation = me->generation;
  std::vector<std::size_t> pending;
  for (std::size_t j = 0; j < statuses.size(); ++j) {
    if (checks[j].group != group) continue;
    const std::optional<StateSummary>& other = statuses[j].summary;
    if (!me || !other || other->generation != me->generation) {
      ++b.pending;
      pending.push_back(j);
    } else if (other->hash == me->hash) {
      ++b.agree;
    } else {
      ++b.differ;
      b.differing.push_back(j);
    }
  }
  b.differing.insert(b.differing.end(), pending.begin(), pending.end());
  return b;
}

const char* group_label(int group, char* out, std::size_t size) {
  if (group < 0) {
    std::snprintf(out, size, "-");
  } else if (group < 26) {
    std::snprintf(out, size, "%c", 'A' + group);
  } else {
    std::snprintf(out, size, "%c%c", 'A' + (group / 26 - 1) % 26, 'A' + group % 26);
  }
  return out;
}

}  // namespace ls::ui
