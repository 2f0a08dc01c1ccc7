// multi_engine_instance.cpp — one instance's edits, reads and display brackets, forwarded to
// the engine that runs it (multi_engine.hpp).
#include "multi/multi_engine.hpp"

namespace ls::multi {

void MultiEngine::set_variant(std::size_t index, Variant variant) {
  const Place& p = place(index);
  on_device(where(p), [&] { engine_of(p).set_variant(p.local, variant); });
}

void MultiEngine::set_rule(std::size_t index, const Rule& rule) {
  const Place& p = place(index);
  engine_of(p).set_rule(p.local, rule);
}

void MultiEngine::set_generations_per_launch(std::size_t index, int k) {
  const Place& p = place(index);
  on_device(where(p), [&] { engine_of(p).set_generations_per_launch(p.local, k); });
}

void MultiEngine::set_cell(std::size_t index, int x, int y, bool alive) {
  const Place& p = place(index);
  engine_of(p).set_cell(p.local, x, y, alive);
}

InstanceStatus MultiEngine::status(std::size_t index) const {
  const Place& p = place(index);
  return engine_of(p).status(p.local);
}

void MultiEngine::step_history(std::size_t index, std::vector<float>& out) const {
  const Place& p = place(index);
  engine_of(p).step_history(p.local, out);
}

bool MultiEngine::begin_display(std::size_t index) {
  const Place& p = place(index);
  return engine_of(p).begin_display(p.local);
}

void MultiEngine::end_display(std::size_t index) {
  const Place& p = place(index);
  engine_of(p).end_display(p.local);
}

Lattice MultiEngine::read(std::size_t index) {
  const Place& p = place(index);
  return engine_of(p).read(p.local);
}

StateSummary MultiEngine::summarize(std::size_t index) {
  const Place& p = place(index);
  return engine_of(p).summarize(p.local);
}

}  // namespace ls::multi
