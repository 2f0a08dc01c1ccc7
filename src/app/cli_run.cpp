// cli_run.cpp — `lifestreams run`: loads or makes a lattice, advances it on the chosen backend and
// prints `generation=N population=P hash=0x...` lines (the contract scripts compare across backends).
#include "app/cli_run.hpp"

#include <CLI/CLI.hpp>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "app/engine_factory.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "core/pattern.hpp"

namespace ls {

namespace {

struct RunOptions {
  std::string pattern;
  std::optional<double> density;
  std::optional<std::uint64_t> seed;
  std::optional<long long> width;
  std::optional<long long> height;
  long long generations = -1;
  std::string rule;
  std::string backend = "auto";
  std::string variant = "bitpacked";
  int generations_per_launch = 16;
  long long every = 0;
  std::string output;
  int device = 0;
};

long long round_up_32(long long v) { return (v + 31) / 32 * 32; }

void print_summary(const StateSummary& s) {
  std::printf("generation=%" PRIu64 " population=%" PRIu64 " hash=0x%016" PRIx64 "\n", s.generation,
              s.population, s.hash);
  std::fflush(stdout);
}

// Builds the starting spec from the options (all validation happens here, before any output).
InstanceSpec make_spec(const RunOptions& o, std::string& rule_text) {
  InstanceSpec spec;
  std::optional<Pattern> pattern;
  std::optional<RuleSpec> rule_spec;
  if (!o.pattern.empty()) {
    if (o.density || o.seed) throw InputError("--pattern cannot be combined with --density or --seed");
    pattern = load_pattern_file(o.pattern);
    if (!pattern->rule_text.empty()) {
      try {
        rule_spec = parse_rule_spec(pattern->rule_text);
      } catch (const InputError& e) {
        if (o.rule.empty()) throw InputError(o.pattern + ": rule '" + pattern->rule_text + "': " + e.what());
      }
    }
  }
  if (!o.rule.empty()) {
    try {
      rule_spec = parse_rule_spec(o.rule);
    } catch (const InputError& e) {
      throw InputError("--rule " + o.rule + ": " + e.what());
    }
  }
  spec.rule = rule_spec ? rule_spec->rule : Rule::life();
  rule_text = spec.rule.to_string();

  long long w = 1024, h = 1024;
  if (pattern) {
    w = round_up_32(pattern->width + 64);
    h = round_up_32(pattern->height + 64);
  }
  if (rule_spec && rule_spec->torus_width) {
    w = *rule_spec->torus_width;
    h = *rule_spec->torus_height;
  }
  if (o.width) w = *o.width;
  if (o.height) h = *o.height;
  check_lattice_size(w, h);
  spec.width = static_cast<int>(w);
  spec.height = static_cast<int>(h);

  const auto variant = parse_variant(o.variant);
  if (!variant)
    throw InputError("--variant " + o.variant + ": expected naive, global, shared, iterate or bitpacked");
  spec.variant = *variant;
  if (o.generations_per_launch < 1 || o.generations_per_launch > kMaxGenerationsPerLaunch) {
    throw InputError("--generations-per-launch " + std::to_string(o.generations_per_launch) +
                     ": expected 1..64");
  }
  spec.generations_per_launch = o.generations_per_launch;

  if (pattern) {
    Lattice l(spec.width, spec.height);
    l.place_centred(*pattern);
    spec.init = std::move(l);
  } else {
    RandomInit r;
    if (o.density) r.density = *o.density;
    if (o.seed) r.seed = *o.seed;
    if (!(r.density >= 0.0 && r.density <= 1.0)) {
      throw InputError("--density " + std::to_string(r.density) + ": expected a value from 0 to 1");
    }
    spec.init = r;
  }
  return spec;
}

int run(const RunOptions& o) {
  if (o.generations < 0) throw InputError("--generations is required (0 or more)");
  if (o.every < 0) throw InputError("--every " + std::to_string(o.every) + ": expected 1 or more");
  std::string rule_text;
  InstanceSpec spec = make_spec(o, rule_text);
  auto engine = make_engine(o.backend, o.device);
  engine->add(spec);  // InputError here (too large) still comes before any output

  const bool cpu = engine->backend() == "cpu";
  std::printf("# backend=%s variant=%s device=%s rule=%s size=%dx%d\n", engine->backend().c_str(),
              cpu ? "cpu" : std::string(variant_name(spec.variant)).c_str(), engine->device_name().c_str(),
              rule_text.c_str(), spec.width, spec.height);
  print_summary(engine->summarize(0));
  long long done = 0;
  long long last_printed = 0;
  // Chunks bound how much work is queued at once; --every sets where the lines fall.
  const long long chunk = o.every > 0 ? o.every : 4096;
  while (done < o.generations) {
    const long long n = std::min(chunk, o.generations - done);
    engine->step(static_cast<int>(n));
    done += n;
    if (o.every > 0 && done % o.every == 0) {
      print_summary(engine->summarize(0));
      last_printed = done;
    }
  }
  if (last_printed != done) print_summary(engine->summarize(0));

  if (!o.output.empty()) {
    Pattern p = engine->read(0).to_pattern();
    std::ofstream f(o.output, std::ios::binary | std::ios::trunc);
    if (!f) throw InputError("--output " + o.output + ": cannot open for writing");
    p.name = "lifestreams output";
    p.comments.push_back("generation " + std::to_string(done));
    f << write_rle(p, rule_text);
    if (!f.flush()) throw InputError("--output " + o.output + ": write failed");
  }
  return 0;
}

}  // namespace

int run_main(int argc, char** argv) {
  RunOptions o;
  CLI::App app{"lifestreams run: advance one Life lattice and print its population and hash",
               "lifestreams run"};
  app.add_option("--pattern", o.pattern, "RLE or .cells file, placed centred");
  app.add_option("--density", o.density, "random fill density 0..1 (default 0.25)");
  app.add_option("--seed", o.seed, "random fill seed (default 1)");
  app.add_option("--width", o.width, "lattice width, a multiple of 32");
  app.add_option("--height", o.height, "lattice height, a multiple of 32");
  app.add_option("--generations", o.generations, "generations to run")->required();
  app.add_option("--rule", o.rule, "B/S or S/B rule, overrides the file's (default B3/S23)");
  app.add_option("--backend", o.backend, "auto, cpu or cuda (default auto)");
  app.add_option("--variant", o.variant, "cuda kernel: naive, global, shared, iterate, bitpacked");
  app.add_option("--generations-per-launch", o.generations_per_launch, "k for iterate and bitpacked (1..64)");
  app.add_option("--device", o.device, "CUDA device number (default 0)");
  app.add_option("--every", o.every, "print a line every K generations");
  app.add_option("--output", o.output, "write the final lattice as RLE");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    std::cerr << "lifestreams run: " << what << "\n";
    return 2;
  }
  return exit_status_of("lifestreams run", [&] { return run(o); });
}

}  // namespace ls
