// cli_run.cpp — `lifestreams run`: loads or makes a lattice, advances it on the chosen backend and
// prints `generation=N population=P hash=0x...` lines (the contract scripts compare across backends);
// with --script, runs an app script through the same command executor with no screen and prints
// each instance's final `instance=I generation=N population=P hash=0x...`.
#include "cli/run.hpp"

#include <CLI/CLI.hpp>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "cli/progress_line.hpp"
#include "cli/run_distributed.hpp"
#include "control/device_args.hpp"
#include "control/engine_factory.hpp"
#include "control/numbers.hpp"
#include "control/run_setup.hpp"
#include "control/scene.hpp"
#include "control/script_runner.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "core/pattern.hpp"
#include "core/trace.hpp"

namespace ls {

namespace {

// The options as written on the command line (all text; converted strictly by to_options).
struct RunArgs {
  bool distributed = false;
  std::optional<std::string> pattern, density, seed, width, height, generations, rule, backend, variant,
      generations_per_launch, every, output, device, devices, script;
};

RunOptions to_options(const RunArgs& a) {
  RunOptions o;
  if (a.pattern) {
    if (a.pattern->empty()) throw InputError("--pattern '': expected a file name");
    o.pattern = *a.pattern;
  }
  if (a.density) o.density = parse_real("--density", *a.density, 0.0, 1.0);
  if (a.seed) o.seed = parse_unsigned64("--seed", *a.seed);
  if (a.width) o.width = parse_whole("--width", *a.width, 32, kMaxLatticeSide);
  if (a.height) o.height = parse_whole("--height", *a.height, 32, kMaxLatticeSide);
  if (!a.generations)
    throw InputError("--generations is required (0.." + std::to_string(kMaxRunGenerations) + ")");
  o.generations = parse_whole("--generations", *a.generations, 0, kMaxRunGenerations);
  if (a.rule) {
    if (a.rule->empty()) throw InputError("--rule '': expected a rule such as B3/S23");
    o.rule = *a.rule;
  }
  if (a.backend) o.backend = *a.backend;
  if (a.variant) {
    o.variant = *a.variant;
    o.variant_given = true;
  }
  if (a.generations_per_launch) {
    o.generations_per_launch = static_cast<int>(
        parse_whole("--generations-per-launch", *a.generations_per_launch, 1, kMaxGenerationsPerLaunch));
  }
  if (a.every) o.every = parse_whole("--every", *a.every, 1, kMaxRunGenerations);
  if (a.output) {
    if (a.output->empty()) throw InputError("--output '': expected a file name");
    o.output = *a.output;
  }
  o.devices = device_choice(a.device ? &*a.device : nullptr, a.devices ? &*a.devices : nullptr);
  o.devices_given = a.device || a.devices;
  return o;
}

int run(const RunOptions& o) {
  RunStart start = resolve_start(o);
  if (start.pattern) start.spec.init = centred_lattice(start);
  if (!o.output.empty()) check_output_writable(o.output);
  auto engine = make_engine(o.backend, o.devices);
  engine->add(start.spec);  // InputError here (too large) still comes before any output

  const bool cpu = engine->backend() == "cpu";
  if (cpu) note_cpu_variant(o);
  print_run_header(engine->backend(), cpu ? "cpu" : variant_name(start.spec.variant), engine->device_name(),
                   start);
  print_summary(engine->summarize(0));
  ProgressLine progress(o.generations, static_cast<double>(start.spec.width) * start.spec.height,
                        start.spec.generations_per_launch);
  step_in_chunks(
      o.generations, o.every,
      [&](int n) {
        progress.step_in_pieces(
            n,
            [&](int piece) {
              const trace::Scope range(trace::Phase::run_step);
              engine->step(piece);
            },
            [&] { engine->finish(); });
      },
      [&](long long) {
        progress.clear();
        print_summary(engine->summarize(0));
      });
  progress.clear();
  if (!o.output.empty()) write_output(o.output, engine->read(0), start.rule_text, o.generations);
  return 0;
}

void print_instance(std::size_t index, const StateSummary& s) {
  std::printf("instance=%zu generation=%" PRIu64 " population=%" PRIu64 " hash=0x%016" PRIx64 "\n", index,
              s.generation, s.population, s.hash);
}

// --script: the app's scene (kDefaultInstances instances, its defaults and the options of the same
// names), then the script's lines through the same executor, with no screen: commands that need
// one are refused before anything runs. Exit status as the app's: 1 expectation, 2 bad input.
int run_script(const RunArgs& a) {
  if (a.devices) throw InputError("--script runs on one device: --devices is for --generations runs");
  for (const auto* given : {&a.generations, &a.every, &a.output})
    if (*given)
      throw InputError(
          "--script cannot be combined with --generations, --every or --output: the script says "
          "what to run");
  if (a.script->empty()) throw InputError("--script '': expected a file name");
  app::ScriptRunner script = app::ScriptRunner::from_file(*a.script);
  script.refuse_screen_commands();

  app::SceneSettings settings;
  if (a.width || a.height) {
    const long long w = a.width ? parse_whole("--width", *a.width, 32, kMaxLatticeSide) : settings.width;
    const long long h = a.height ? parse_whole("--height", *a.height, 32, kMaxLatticeSide) : settings.height;
    check_lattice_size(w, h);
    settings.width = static_cast<int>(w);
    settings.height = static_cast<int>(h);
  }
  if (a.density) settings.density = parse_real("--density", *a.density, 0.0, 1.0);
  if (a.seed) settings.seed = parse_unsigned64("--seed", *a.seed);
  if (a.variant) {
    const auto v = parse_variant(*a.variant);
    if (!v)
      throw InputError("--variant " + *a.variant + ": expected naive, global, shared, iterate or bitpacked");
    settings.variant = *v;
  }
  if (a.rule) {
    if (a.rule->empty()) throw InputError("--rule '': expected a rule such as B3/S23");
    try {
      settings.rule = parse_rule(*a.rule);
    } catch (const InputError& e) {
      throw InputError("--rule " + *a.rule + ": " + e.what());
    }
  }
  if (a.generations_per_launch) {
    settings.generations_per_launch = static_cast<int>(
        parse_whole("--generations-per-launch", *a.generations_per_launch, 1, kMaxGenerationsPerLaunch));
  }
  if (a.pattern && a.pattern->empty()) throw InputError("--pattern '': expected a file name");
  const int device =
      a.device ? static_cast<int>(parse_whole("--device", *a.device, 0, kMaxDeviceOrdinal)) : 0;

  auto engine = make_engine(a.backend.value_or("auto"), device);
  app::Scene scene(*engine, settings);
  scene.populate(app::kDefaultInstances, a.pattern.value_or(""), /*keep_rule=*/a.rule.has_value());

  std::printf("# backend=%s device=%s script=%s\n", engine->backend().c_str(), engine->device_name().c_str(),
              a.script->c_str());
  std::fflush(stdout);
  script.advance(scene, [](const app::Effects&) {});
  for (std::size_t i = 0; i < engine->size(); ++i) print_instance(i, engine->summarize(i));
  std::fflush(stdout);
  return 0;
}

bool asks_distributed(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--distributed") return true;
  return false;
}

}  // namespace

int run_main(int argc, char** argv) {
  RunArgs a;
  CLI::App app{"lifestreams run: advance one Life lattice and print its population and hash",
               "lifestreams run"};
  const std::string max_generations = std::to_string(kMaxRunGenerations);
  app.add_option("--pattern", a.pattern, "RLE or .cells file, placed centred")->type_name("FILE");
  app.add_option("--density", a.density, "random fill density 0..1 (default 0.25)")->type_name("P");
  app.add_option("--seed", a.seed, "random fill seed, 0..2^64-1 (default 1)")->type_name("S");
  app.add_option("--width", a.width, "lattice width, a multiple of 32")->type_name("W");
  app.add_option("--height", a.height, "lattice height, a multiple of 32")->type_name("H");
  app.add_option("--generations", a.generations,
                 "generations to run, 0.." + max_generations + " (2^62); required without --script")
      ->type_name("N");
  app.add_option("--rule", a.rule, "B/S or S/B rule, overrides the file's (default B3/S23)")->type_name("R");
  app.add_option("--backend", a.backend, "auto, cpu or cuda (default auto)")->type_name("NAME");
  app.add_option("--variant", a.variant, "cuda kernel: naive, global, shared, iterate, bitpacked")
      ->type_name("V");
  app.add_option("--generations-per-launch", a.generations_per_launch, "k for iterate and bitpacked (1..64)")
      ->type_name("K");
  app.add_option("--device", a.device, "CUDA device number (default 0); the same as --devices N")
      ->type_name("N");
  app.add_option("--devices", a.devices,
                 "CUDA devices, comma-separated, or all: several split the lattice into bands, one per GPU")
      ->type_name("LIST");
  app.add_option("--every", a.every, "print a line every K generations, 1.." + max_generations)
      ->type_name("K");
  app.add_option("--output", a.output, "write the final lattice as RLE")->type_name("FILE.rle");
  app.add_flag("--distributed", a.distributed,
               "one lattice over the ranks of an MPI job (mpirun -np R lifestreams run --distributed ...)");
  app.add_option("--script", a.script, "run an app script without a screen instead of --generations (below)")
      ->type_name("FILE");
  app.footer(
      "With --script FILE: the scene starts as the app's does (4 instances; --pattern, --density, --seed,\n"
      "--width, --height, --rule, --variant and --generations-per-launch as the app's options), and the\n"
      "script's lines run through the app's command executor. Commands that need a screen (zoom, pan,\n"
      "fit, frames, screenshot, grid, panel, age, vsync) are refused before anything runs. Prints\n"
      "'# backend=NAME device=NAME script=FILE', then, when the script is done, one line per instance:\n"
      "'instance=I generation=N population=P hash=0x...'. Exit status as the app's: 0 done, 1 an\n"
      "expect-agree or expect-hash failed, 2 a bad line, 3 a device failure; a failing line is named\n"
      "on stderr as FILE:LINE:COLUMN: why.\n\n"
      "With --distributed (under mpirun or srun; alone it is one rank): the lattice is cut into one band\n"
      "per rank; rank 0 alone prints, the lines of a one-process run with ' ranks=R' ending the header,\n"
      "and writes --output. --backend cpu: every rank runs the CPU engine; cuda: one GPU per rank (its\n"
      "local rank modulo the GPUs --devices leaves), halos by NCCL. An MPI or NCCL failure: exit 3.");
  if (asks_distributed(argc, argv)) {
    return run_distributed([&](bool speak) -> std::optional<RunOptions> {
      if (!parse_command_line(app, argc, argv)) {
        if (speak) std::cout << app.help();
        return std::nullopt;
      }
      if (a.script) throw InputError("--distributed runs --generations runs: --script runs in one process");
      return to_options(a);
    });
  }
  return exit_status_of("lifestreams run", [&] {
    if (!parse_command_line(app, argc, argv)) {
      std::cout << app.help();
      return 0;
    }
    if (a.script) {
      try {
        return run_script(a);
      } catch (const app::ScriptFailure& f) {
        std::cerr << "lifestreams run: " << f.what() << "\n";
        return f.status();
      }
    }
    if (a.distributed) throw InputError("--distributed takes no value");
    return run(to_options(a));
  });
}

}  // namespace ls
