// run_setup.hpp — what a `lifestreams run --generations` run starts from and what it prints, shared
// by the one-process run (cli_run.cpp) and the distributed run (cli_run_distributed.cpp), so both
// validate the same way and print the same lines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "control/device_args.hpp"
#include "core/engine.hpp"
#include "core/pattern.hpp"

namespace ls {

/// The options of a --generations run, converted and range-checked.
struct RunOptions {
  std::string pattern;
  std::optional<double> density;
  std::optional<std::uint64_t> seed;
  std::optional<long long> width;
  std::optional<long long> height;
  long long generations = -1;
  std::optional<std::string> rule;
  std::string backend = "auto";
  std::string variant = "bitpacked";
  bool variant_given = false;  // --variant on the command line (the CPU engine then says it has none)
  int generations_per_launch = 16;
  long long every = 0;
  std::string output;
  DeviceList devices;          // --devices LIST, or --device N (default 0)
  bool devices_given = false;  // either was given (a distributed run's default is every GPU)
};

/// A run's start, validated: the size, rule, variant and k in `spec`; `spec.init` is the random
/// fill, or, when `pattern` is set, still to be made by placing it centred (a whole lattice:
/// centred_lattice; a band of one: src/dist).
struct RunStart {
  InstanceSpec spec;
  std::string rule_text;
  std::optional<Pattern> pattern;
};

/// Reads the pattern file, if any, and checks every option (InputError naming the option or file),
/// without allocating the lattice.
RunStart resolve_start(const RunOptions& o);

/// The pattern placed centred on a lattice of the start's size.
Lattice centred_lattice(const RunStart& start);

/// Refuses a path that `option` (--output, --screenshot, --report) will write, before any work or
/// output: InputError "OPTION PATH: why" when it is a directory, an existing file that is not
/// writable, or a new file whose directory does not exist or is not writable. Creates nothing.
void check_output_writable(const std::string& path, std::string_view option = "--output");

/// "# backend=B variant=V device=D rule=R size=WxH" and `suffix` (a distributed run's " ranks=R").
void print_run_header(const std::string& backend, std::string_view variant, const std::string& device,
                      const RunStart& start, std::string_view suffix = {});

/// "generation=N population=P hash=0x..." (flushed).
void print_summary(const StateSummary& s);

/// --output: the final lattice as RLE, with the generation in a comment.
void write_output(const std::string& path, const Lattice& lattice, const std::string& rule_text,
                  long long generation);

/// The --variant note a CPU run prints on stderr when a variant was asked for.
void note_cpu_variant(const RunOptions& o);

}  // namespace ls
