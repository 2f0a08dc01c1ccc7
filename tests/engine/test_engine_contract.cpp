// test_engine_contract.cpp — the Engine contract (core/engine.hpp) as facts that every engine
// configuration must show, each checked against the CPU reference (cpu_run, Lattice::hash): a
// glider comes home, variant switches, adds and removes keep the state, step(0) and step(1) pause
// and single-step, snapshots restore, summaries hash as the host does, refused requests change
// nothing, and random soups under random rules evolve cell for cell as on the CPU.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/lattice.hpp"
#include "engine_contract.hpp"

namespace ls::conformance {
namespace {

/// "" when equal, else how many cells differ and the first.
std::string difference(const Lattice& got, const Lattice& want) {
  if (got.width() != want.width() || got.height() != want.height())
    return "size " + std::to_string(got.width()) + "x" + std::to_string(got.height()) + ", expected " +
           std::to_string(want.width()) + "x" + std::to_string(want.height());
  long long differing = 0;
  std::string first;
  for (int y = 0; y < want.height(); ++y)
    for (int x = 0; x < want.width(); ++x)
      if (got.get(x, y) != want.get(x, y) && differing++ == 0)
        first = "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
  return differing == 0 ? std::string() : std::to_string(differing) + " cells differ; first " + first;
}

/// A glider travelling towards +x, +y with its 3 x 3 box's top-left at (x, y), wrapping.
Lattice glider(int side, int x, int y) {
  Lattice l(side, side);
  const int cells[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  for (const auto& c : cells) l.set(x + c[0], y + c[1], true);
  return l;
}

/// A random Life-like rule that never gives birth on 0 neighbours (a soup would flash).
Rule random_rule(std::mt19937_64& rng) {
  Rule r;
  r.birth = static_cast<std::uint16_t>(rng() & 0x1feu);
  r.survive = static_cast<std::uint16_t>(rng() & 0x1ffu);
  return r;
}

InstanceSpec soup_spec(int width, int height, Variant variant, const Rule& rule, int k, double density,
                       std::uint64_t seed) {
  InstanceSpec spec;
  spec.width = width;
  spec.height = height;
  spec.rule = rule;
  spec.variant = variant;
  spec.generations_per_launch = k;
  spec.init = RandomInit{density, seed};
  return spec;
}

/// What the CPU reference holds for one instance: its cells and rule.
struct Reference {
  Lattice cells;
  Rule rule;
};

/// Adds a soup to `engine` and its reference to `refs`.
void add_soup(Engine& engine, std::vector<Reference>& refs, const InstanceSpec& spec) {
  engine.add(spec);
  const RandomInit& r = std::get<RandomInit>(spec.init);
  refs.push_back({Lattice::random(spec.width, spec.height, r.density, r.seed), spec.rule});
}

/// `generations` generations as frames of at most `frame` generations each, engine and references.
void step_in_frames(Engine& engine, std::vector<Reference>& refs, int generations, int frame) {
  for (int left = generations; left > 0; left -= frame) engine.step(std::min(frame, left));
  for (Reference& r : refs) cpu_run(r.cells, r.rule, generations);
}

/// Every instance's cells and hash equal its reference's.
void expect_equal_to_reference(Engine& engine, const std::vector<Reference>& refs, const std::string& when) {
  ASSERT_EQ(engine.size(), refs.size()) << when;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const InstanceStatus s = engine.status(i);
    EXPECT_EQ(difference(engine.read(i), refs[i].cells), "")
        << when << ", instance " << i << " (" << variant_name(s.variant) << ", " << s.rule.to_string() << ")";
    EXPECT_EQ(engine.summarize(i).hash, refs[i].cells.hash()) << when << ", instance " << i;
    EXPECT_EQ(s.rule, refs[i].rule) << when << ", instance " << i;
  }
}

/// What a caller sees of an instance that nothing but a step or an edit of it may change.
struct Seen {
  std::uint64_t generation = 0, hash = 0, population = 0, origin = 0;
  Rule rule;
  Variant variant = Variant::naive;
  int k = 0, width = 0, height = 0;
  bool operator==(const Seen&) const = default;
};

Seen seen(Engine& e, std::size_t i) {
  const InstanceStatus s = e.status(i);
  const Lattice cells = e.read(i);
  const StateSummary sum = e.summarize(i);
  EXPECT_EQ(sum.hash, cells.hash()) << "instance " << i;
  EXPECT_EQ(sum.generation, s.generation) << "instance " << i;
  return Seen{s.generation, sum.hash, sum.population, s.origin, s.rule, s.variant, s.generations_per_launch,
              s.width,      s.height};
}

std::vector<Seen> seen_all(Engine& e) {
  std::vector<Seen> out;
  for (std::size_t i = 0; i < e.size(); ++i) out.push_back(seen(e, i));
  return out;
}

std::ostream& operator<<(std::ostream& out, const Seen& s) {
  return out << "{generation " << s.generation << ", hash " << s.hash << ", population " << s.population
             << ", origin " << s.origin << ", " << s.rule.to_string() << ", " << variant_name(s.variant)
             << ", k " << s.k << ", " << s.width << "x" << s.height << "}";
}

// 64 x 64: home after 256 generations. Four bands need 128 rows, so they run 128 x 128 and 512.
TEST_P(EngineContract, AGliderIsHomeAfterFourGenerationsPerSideOfItsSquareTorus) {
  const int side = config().rows(64);
  const Lattice start = glider(side, side - 4, side - 3);  // crosses both edges in its first steps
  for (const Variant v : kAllVariants) {
    InstanceSpec spec;
    spec.variant = v;
    spec.generations_per_launch = std::min(16, config().max_k(side));
    spec.init = start;
    engine().add(spec);
  }
  std::vector<Reference> none;
  step_in_frames(engine(), none, 2 * side, 13);
  const Lattice halfway = glider(side, side - 4 + side / 2, side - 3 + side / 2);
  for (std::size_t i = 0; i < engine().size(); ++i)
    EXPECT_EQ(difference(engine().read(i), halfway), "") << variant_name(engine().status(i).variant);
  step_in_frames(engine(), none, 2 * side, 13);
  for (std::size_t i = 0; i < engine().size(); ++i) {
    SCOPED_TRACE(variant_name(engine().status(i).variant));
    EXPECT_EQ(engine().status(i).generation, static_cast<std::uint64_t>(4 * side));
    EXPECT_EQ(difference(engine().read(i), start), "");
    EXPECT_EQ(engine().summarize(i).hash, start.hash());
  }
}

// Each instance goes through every variant, stepping between the switches: the hash is the same
// right before and after each switch, and the evolution goes on as the CPU reference's.
TEST_P(EngineContract, AVariantSwitchKeepsTheStateAndTheEvolutionGoesOnAsOnTheCpu) {
  const int height = config().rows(64);
  const Rule highlife{(1u << 3) | (1u << 6), (1u << 2) | (1u << 3)};
  std::vector<Reference> refs;
  for (std::size_t i = 0; i < kAllVariants.size(); ++i)
    add_soup(engine(), refs,
             soup_spec(96, height, kAllVariants[i], i % 2 ? highlife : Rule::life(),
                       std::min(5, config().max_k(height)), 0.3, 100 + i));
  step_in_frames(engine(), refs, 7, 7);
  for (std::size_t round = 1; round <= kAllVariants.size(); ++round) {
    for (std::size_t i = 0; i < engine().size(); ++i) {
      const Variant to = kAllVariants[(i + round) % kAllVariants.size()];
      const Seen before = seen(engine(), i);
      engine().set_variant(i, to);
      const Seen after = seen(engine(), i);
      EXPECT_EQ(engine().status(i).variant, to);
      EXPECT_EQ(after.hash, before.hash) << "instance " << i << " to " << variant_name(to);
      EXPECT_EQ(after.generation, before.generation) << "instance " << i << " to " << variant_name(to);
      EXPECT_EQ(after.origin, before.origin) << "instance " << i << " to " << variant_name(to);
      EXPECT_EQ(after.rule, before.rule) << "instance " << i << " to " << variant_name(to);
    }
    expect_equal_to_reference(engine(), refs, "right after switch round " + std::to_string(round));
    step_in_frames(engine(), refs, 3 + static_cast<int>(round), 4);
    expect_equal_to_reference(engine(), refs, "after switch round " + std::to_string(round));
  }
}

// Adds (a soup, a copy) and removes (in the middle, at the end, the first) leave every other
// instance as it was: hash, generation, rule, variant, k, origin; later ones shift down by one.
TEST_P(EngineContract, AddingAndRemovingInstancesKeepsTheOthers) {
  std::mt19937_64 rng(31);
  std::vector<Reference> refs;
  const auto next_soup = [&](std::size_t i) {
    const int height = config().rows(64) + 32 * static_cast<int>(i % 2);
    const int k = 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(config().max_k(height)));
    add_soup(engine(), refs,
             soup_spec(64 + 32 * static_cast<int>(i % 3), height, kAllVariants[i % kAllVariants.size()],
                       random_rule(rng), k, 0.35, rng()));
  };
  for (std::size_t i = 0; i < 4; ++i) next_soup(i);
  step_in_frames(engine(), refs, 10, 4);
  std::vector<Seen> kept = seen_all(engine());

  engine().add(spec_like(engine().status(2), CopyInit{2}));
  refs.push_back(refs[2]);
  std::vector<Seen> now = seen_all(engine());
  ASSERT_EQ(now.size(), 5u);
  EXPECT_EQ(now[4], kept[2]) << "a copy starts where its source stands";
  now.pop_back();
  EXPECT_EQ(now, kept) << "after adding a copy";

  step_in_frames(engine(), refs, 5, 5);
  kept = seen_all(engine());
  engine().remove(1);
  refs.erase(refs.begin() + 1);
  kept.erase(kept.begin() + 1);
  EXPECT_EQ(seen_all(engine()), kept) << "after removing instance 1 of 5";

  next_soup(5);
  now = seen_all(engine());
  now.pop_back();
  EXPECT_EQ(now, kept) << "after adding a soup";
  kept = seen_all(engine());

  engine().remove(engine().size() - 1);
  refs.pop_back();
  kept.pop_back();
  EXPECT_EQ(seen_all(engine()), kept) << "after removing the last instance";
  engine().remove(0);
  refs.erase(refs.begin());
  kept.erase(kept.begin());
  EXPECT_EQ(seen_all(engine()), kept) << "after removing the first instance";

  step_in_frames(engine(), refs, 9, 3);
  expect_equal_to_reference(engine(), refs, "after the adds and removes and 9 more generations");
}

// A paused app steps 0 generations: nothing changes. A single step is one generation, as the
// CPU reference's, in every variant (the iterating ones with 16 generations per launch).
TEST_P(EngineContract, StepZeroChangesNothingAndStepOneAdvancesExactlyOneGeneration) {
  const int height = config().rows(64);
  std::vector<Reference> refs;
  for (std::size_t i = 0; i < kAllVariants.size(); ++i)
    add_soup(engine(), refs,
             soup_spec(64, height, kAllVariants[i], Rule::life(), std::min(16, config().max_k(height)), 0.4,
                       7 + i));
  step_in_frames(engine(), refs, 6, 6);
  const std::vector<Seen> paused = seen_all(engine());
  engine().step(0);
  EXPECT_EQ(seen_all(engine()), paused) << "after step(0)";
  expect_equal_to_reference(engine(), refs, "after step(0)");

  step_in_frames(engine(), refs, 1, 1);
  for (std::size_t i = 0; i < engine().size(); ++i)
    EXPECT_EQ(engine().status(i).generation, paused[i].generation + 1) << "instance " << i;
  expect_equal_to_reference(engine(), refs, "after step(1)");
  const std::vector<Seen> stepped = seen_all(engine());
  engine().step(0);
  EXPECT_EQ(seen_all(engine()), stepped) << "after step(0) following step(1)";
}

// request_snapshots keeps a host copy of each instance of at most the asked cells: its generation,
// rule and cells are the instance's at the request; replacing an instance with its snapshot's
// lattice gives the same hash again after the instance has moved on.
TEST_P(EngineContract, ASnapshotRestoresTheSameHash) {
  const int small_rows = config().rows(64), big_rows = config().rows(64) + 64;
  std::vector<Reference> refs;
  add_soup(engine(), refs, soup_spec(64, small_rows, Variant::bitpacked, Rule::life(), 1, 0.3, 5));
  add_soup(engine(), refs, soup_spec(128, big_rows, Variant::naive, Rule::life(), 1, 0.3, 6));
  const Rule highlife{(1u << 3) | (1u << 6), (1u << 2) | (1u << 3)};
  add_soup(engine(), refs, soup_spec(96, big_rows, Variant::shared, highlife, 1, 0.5, 7));
  step_in_frames(engine(), refs, 9, 4);

  engine().request_snapshots(64ull * static_cast<std::uint64_t>(small_rows));
  engine().finish();
  std::vector<HostSnapshot> snaps = engine().snapshots();
  ASSERT_EQ(snaps.size(), 1u) << "only the instance of at most the asked cells";
  EXPECT_EQ(snaps[0].instance, 0u);

  engine().request_snapshots(std::numeric_limits<std::uint64_t>::max());
  engine().finish();
  snaps = engine().snapshots();
  ASSERT_EQ(snaps.size(), engine().size());
  std::vector<bool> has(engine().size(), false);
  for (const HostSnapshot& snap : snaps) {
    ASSERT_LT(snap.instance, engine().size());
    has[snap.instance] = true;
    const InstanceStatus s = engine().status(snap.instance);
    EXPECT_EQ(snap.generation, s.generation) << "instance " << snap.instance;
    EXPECT_EQ(snap.rule, s.rule) << "instance " << snap.instance;
    EXPECT_EQ(difference(snap.cells, refs[snap.instance].cells), "") << "instance " << snap.instance;
    EXPECT_EQ(snap.cells.hash(), engine().summarize(snap.instance).hash) << "instance " << snap.instance;
  }
  EXPECT_EQ(has, std::vector<bool>(engine().size(), true)) << "one snapshot per instance";

  step_in_frames(engine(), refs, 20, 8);
  for (const HostSnapshot& snap : snaps) {
    const std::size_t i = snap.instance;
    ASSERT_NE(engine().summarize(i).hash, snap.cells.hash()) << "instance " << i << " moved on";
    engine().replace(i, spec_like(engine().status(i), snap.cells));
    EXPECT_EQ(engine().summarize(i).hash, snap.cells.hash()) << "instance " << i << " restored";
    EXPECT_EQ(difference(engine().read(i), snap.cells), "") << "instance " << i << " restored";
    EXPECT_EQ(engine().status(i).generation, 0u) << "a replaced instance starts at generation 0";
    refs[i].cells = snap.cells;
  }
  step_in_frames(engine(), refs, 5, 5);
  expect_equal_to_reference(engine(), refs, "5 generations after the restore");
}

// The summary asked without blocking (request_summaries, read from status() after finish())
// counts the state as the host does: its generation is the instance's, its population and hash
// are those of the lattice read back, in every variant (each layout has its summary kernel).
TEST_P(EngineContract, TheSummaryHashEqualsTheHostHashOfTheLattice) {
  std::mt19937_64 rng(77);
  std::vector<Reference> refs;
  for (const int width : {64, 160})
    for (const Variant v : kAllVariants)
      add_soup(
          engine(), refs,
          soup_spec(width, config().rows(64) + (width == 64 ? 0 : 32), v, random_rule(rng), 3, 0.3, rng()));
  step_in_frames(engine(), refs, 11, 11);
  engine().request_summaries();
  engine().finish();
  for (std::size_t i = 0; i < engine().size(); ++i) {
    SCOPED_TRACE("instance " + std::to_string(i) + " (" +
                 std::string(variant_name(engine().status(i).variant)) + ")");
    const InstanceStatus s = engine().status(i);
    ASSERT_TRUE(s.summary.has_value());
    EXPECT_EQ(s.summary->generation, s.generation);
    const Lattice cells = engine().read(i);
    EXPECT_EQ(s.summary->hash, cells.hash());
    EXPECT_EQ(s.summary->population, cells.population());
    EXPECT_EQ(s.summary->hash, refs[i].cells.hash());
  }
}

/// A request the contract refuses with an InputError.
struct Refusal {
  std::string what;
  std::function<void(Engine&)> ask;
};

/// Refusals of a bad index (one past the last), a bad k, a bad size and a bad timing period.
std::vector<Refusal> refusals(const EngineConfig& config, std::size_t size) {
  const std::size_t bad = size;
  const InstanceSpec fine = soup_spec(64, config.rows(64), Variant::bitpacked, Rule::life(), 1, 0.2, 3);
  InstanceSpec k0 = fine, k65 = fine, odd = fine, too_tall = fine;
  k0.generations_per_launch = 0;
  k65.generations_per_launch = kMaxGenerationsPerLaunch + 1;
  odd.width = 33;
  too_tall.height = static_cast<int>(kMaxLatticeSide) * 2;
  return {
      {"set_variant of a bad index", [=](Engine& e) { e.set_variant(bad, Variant::naive); }},
      {"set_rule of a bad index",
       [=](Engine& e) {
         e.set_rule(bad, Rule{1u << 2, 0});
       }},
      {"set_generations_per_launch of a bad index", [=](Engine& e) { e.set_generations_per_launch(bad, 2); }},
      {"set_cell of a bad index", [=](Engine& e) { e.set_cell(bad, 1, 1, true); }},
      {"remove of a bad index", [=](Engine& e) { e.remove(bad); }},
      {"replace of a bad index", [=](Engine& e) { e.replace(bad, fine); }},
      {"read of a bad index", [=](Engine& e) { e.read(bad); }},
      {"summarize of a bad index", [=](Engine& e) { e.summarize(bad); }},
      {"status of a bad index", [=](Engine& e) { e.status(bad); }},
      {"a copy of a bad index", [=](Engine& e) { e.add(spec_like(e.status(0), CopyInit{bad})); }},
      {"k = 0", [](Engine& e) { e.set_generations_per_launch(0, 0); }},
      {"k = 65", [](Engine& e) { e.set_generations_per_launch(0, kMaxGenerationsPerLaunch + 1); }},
      {"adding with k = 0", [=](Engine& e) { e.add(k0); }},
      {"adding with k = 65", [=](Engine& e) { e.add(k65); }},
      {"adding a width that is no multiple of 32", [=](Engine& e) { e.add(odd); }},
      {"adding a height beyond the largest side", [=](Engine& e) { e.add(too_tall); }},
      {"replacing with a width that is no multiple of 32", [=](Engine& e) { e.replace(0, odd); }},
      {"timing period 0", [](Engine& e) { e.set_timing_period(0); }},
      {"timing period beyond the largest", [](Engine& e) { e.set_timing_period(kMaxTimingPeriod + 1); }},
  };
}

/// The largest lattice (2^20 x 2^20 one-int cells on a device, 256 GiB as two host bit lattices):
/// it cannot fit, so adding or replacing with it is refused. Empty where the host's memory is not
/// known to be smaller (an engine in host memory would start allocating it).
std::vector<Refusal> sizes_that_cannot_fit(const EngineConfig& config) {
  const int side = static_cast<int>(kMaxLatticeSide);
  const std::uint64_t host_bytes = 2 * (std::uint64_t{1} << 40) / 8;
  if (config.on_host) {
    const std::uint64_t free = host_memory_available();
    if (free == 0 || free >= host_bytes) return {};
  }
  const InstanceSpec huge = soup_spec(side, side, Variant::naive, Rule::life(), 1, 0.2, 3);
  return {{"adding a lattice that cannot fit", [=](Engine& e) { e.add(huge); }},
          {"replacing with a lattice that cannot fit", [=](Engine& e) { e.replace(0, huge); }}};
}

// Every refused request throws InputError and leaves the engine exactly as it was: the same
// instances with the same hashes, generations, rules, variants, k and origins, the same timing
// period; and the engine steps on as the CPU reference afterwards.
TEST_P(EngineContract, ARefusedRequestChangesNothing) {
  const int height = config().rows(64);
  std::vector<Reference> refs;
  add_soup(engine(), refs, soup_spec(64, height, Variant::bitpacked, Rule::life(), 4, 0.3, 21));
  add_soup(engine(), refs, soup_spec(96, height, Variant::naive, Rule{1u << 3, 1u << 2}, 1, 0.3, 22));
  step_in_frames(engine(), refs, 5, 5);
  const std::vector<Seen> before = seen_all(engine());
  const int period = engine().timing_period();
  std::vector<Refusal> asks = refusals(config(), engine().size());
  const std::vector<Refusal> huge = sizes_that_cannot_fit(config());
  asks.insert(asks.end(), huge.begin(), huge.end());
  if (huge.empty()) std::cout << "[ NOTE ] the host's free memory is unknown or large: no size too large\n";
  for (const Refusal& r : asks) {
    EXPECT_THROW(r.ask(engine()), InputError) << r.what;
    EXPECT_EQ(seen_all(engine()), before) << "after refusing " << r.what;
    EXPECT_EQ(engine().timing_period(), period) << "after refusing " << r.what;
  }
  step_in_frames(engine(), refs, 4, 2);
  expect_equal_to_reference(engine(), refs, "4 generations after the refusals");
}

// Soups of two sizes in every variant, each under a random Life-like rule (birth never on 0) with
// random generations per launch, stepped in frames of random lengths: cell for cell the CPU
// reference's after 50 and after 100 generations.
TEST_P(EngineContract, RandomSoupsUnderRandomRulesEqualTheCpuReference) {
  std::mt19937_64 rng(1201);
  std::vector<Reference> refs;
  const int sizes[2][2] = {{64, config().rows(64)}, {160, config().rows(64) + 32}};
  for (const auto& size : sizes)
    for (const Variant v : kAllVariants) {
      const int k = 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(config().max_k(size[1])));
      const double density = 0.1 + 0.05 * static_cast<double>(rng() % 10);
      add_soup(engine(), refs, soup_spec(size[0], size[1], v, random_rule(rng), k, density, rng()));
    }
  for (const int total : {50, 100}) {
    for (int done = 0; done < 50;) {
      const int g = std::min(50 - done, 1 + static_cast<int>(rng() % 9));
      step_in_frames(engine(), refs, g, g);
      done += g;
    }
    for (std::size_t i = 0; i < engine().size(); ++i)
      EXPECT_EQ(engine().status(i).generation, static_cast<std::uint64_t>(total)) << "instance " << i;
    expect_equal_to_reference(engine(), refs, "after " + std::to_string(total) + " generations");
  }
}

}  // namespace
}  // namespace ls::conformance
