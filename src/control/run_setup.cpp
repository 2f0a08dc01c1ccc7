// run_setup.cpp — a --generations run's start, checks and output lines (run_setup.hpp).
#include "control/run_setup.hpp"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <unistd.h>

#include "core/error.hpp"

namespace ls {

namespace {
long long round_up_32(long long v) { return (v + 31) / 32 * 32; }
}  // namespace

RunStart resolve_start(const RunOptions& o) {
  RunStart start;
  InstanceSpec& spec = start.spec;
  std::optional<RuleSpec> rule_spec;
  if (!o.pattern.empty()) {
    if (o.density || o.seed) throw InputError("--pattern cannot be combined with --density or --seed");
    // With --rule given the file's own rule does not matter, not even a bad one.
    start.pattern = load_pattern_file(o.pattern, /*check_rule=*/!o.rule);
    if (!start.pattern->rule_text.empty()) {
      try {
        rule_spec = parse_rule_spec(start.pattern->rule_text);
      } catch (const InputError& e) {
        if (!o.rule) throw InputError(o.pattern + ": rule '" + start.pattern->rule_text + "': " + e.what());
      }
    }
  }
  if (o.rule) {
    // --rule wins over the file's rule; the file's torus size (":Tw,h") still sets the size unless
    // --rule has its own.
    RuleSpec given;
    try {
      given = parse_rule_spec(*o.rule);
    } catch (const InputError& e) {
      throw InputError("--rule " + *o.rule + ": " + e.what());
    }
    if (!given.torus_width && rule_spec) {
      given.torus_width = rule_spec->torus_width;
      given.torus_height = rule_spec->torus_height;
    }
    rule_spec = given;
  }
  spec.rule = rule_spec ? rule_spec->rule : Rule::life();
  start.rule_text = spec.rule.to_string();

  long long w = 1024, h = 1024;
  if (start.pattern) {
    w = round_up_32(start.pattern->width + 64);
    h = round_up_32(start.pattern->height + 64);
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
  spec.generations_per_launch = o.generations_per_launch;

  if (start.pattern) {
    // Lattice::place_centred's refusal, before any lattice is allocated.
    const Pattern& p = *start.pattern;
    if (p.width > spec.width || p.height > spec.height) {
      throw InputError("pattern box " + std::to_string(p.width) + "x" + std::to_string(p.height) +
                       " is larger than the lattice " + std::to_string(spec.width) + "x" +
                       std::to_string(spec.height));
    }
  } else {
    RandomInit r;
    if (o.density) r.density = *o.density;
    if (o.seed) r.seed = *o.seed;
    spec.init = r;
  }
  return start;
}

Lattice centred_lattice(const RunStart& start) {
  Lattice l(start.spec.width, start.spec.height);
  if (start.pattern) l.place_centred(*start.pattern);
  return l;
}

void check_output_writable(const std::string& path, std::string_view option) {
  namespace fs = std::filesystem;
  const std::string refused = std::string(option) + " " + path + ": cannot open for writing: ";
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) throw InputError(std::string(option) + " " + path + ": is a directory");
  // Asked of the file system, not tried: nothing is created, nothing left behind.
  if (fs::exists(status)) {
    if (::access(path.c_str(), W_OK) != 0) throw InputError(refused + "the file is not writable");
    return;
  }
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec)) throw InputError(refused + "no directory " + dir.string());
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw InputError(refused + "the directory " + dir.string() + " is not writable");
}

void print_run_header(const std::string& backend, std::string_view variant, const std::string& device,
                      const RunStart& start, std::string_view suffix) {
  std::printf("# backend=%s variant=%.*s device=%s rule=%s size=%dx%d%.*s\n", backend.c_str(),
              static_cast<int>(variant.size()), variant.data(), device.c_str(), start.rule_text.c_str(),
              start.spec.width, start.spec.height, static_cast<int>(suffix.size()), suffix.data());
}

void print_summary(const StateSummary& s) {
  std::printf("generation=%" PRIu64 " population=%" PRIu64 " hash=0x%016" PRIx64 "\n", s.generation,
              s.population, s.hash);
  std::fflush(stdout);
}

void write_output(const std::string& path, const Lattice& lattice, const std::string& rule_text,
                  long long generation) {
  Pattern p = lattice.to_pattern();
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw InputError("--output " + path + ": cannot open for writing");
  p.name = "lifestreams output";
  p.comments.push_back("generation " + std::to_string(generation));
  f << write_rle(p, rule_text);
  if (!f.flush()) throw InputError("--output " + path + ": write failed");
}

void note_cpu_variant(const RunOptions& o) {
  if (o.variant_given)
    std::cerr << "lifestreams run: note: --variant " << o.variant
              << " applies to the CUDA backend; the CPU engine runs its reference code\n";
}

}  // namespace ls
