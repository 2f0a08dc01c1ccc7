// options.cpp — implements options.hpp: the app's CLI11 definitions and the checks of their values.
#include "app/options.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>

#include "control/numbers.hpp"
#include "control/run_setup.hpp"
#include "core/command.hpp"
#include "core/error.hpp"
#include "core/lattice.hpp"
#include "core/pattern.hpp"
#include "core/rule.hpp"

namespace ls::app {
namespace {

void parse_size(const std::string& text, int& w, int& h) {
  int a = 0, b = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &a, &x, &b, &extra) != 3 || (x != 'x' && x != 'X'))
    throw InputError("--size " + text + ": expected WxH, e.g. 1600x900");
  if (a < 64 || b < 64 || a > 16384 || b > 16384)
    throw InputError("--size " + text + ": width and height must be 64..16384");
  w = a;
  h = b;
}

}  // namespace

void define_options(CLI::App& cli, Options& o, OptionText& a) {
  cli.add_option("--instances", a.instances, "number of instances, 1..64 per GPU of --devices (default 4)")
      ->type_name("N");
  cli.add_option("--width", a.width, "lattice width, a multiple of 32 (default 1024)")->type_name("W");
  cli.add_option("--height", a.height, "lattice height, a multiple of 32 (default 1024)")->type_name("H");
  cli.add_option(
         "--variant", o.variant,
         "naive, global, shared, iterate or bitpacked for every instance (default: instance i gets the "
         "i-th of global, shared, iterate, bitpacked)")
      ->type_name("V");
  cli.add_option("--rule", o.rule, "B/S or S/B rule (default B3/S23)")->type_name("R");
  cli.add_option("--pattern", o.pattern, "RLE or .cells file loaded into every instance")->type_name("FILE");
  cli.add_option("--density", a.density, "random soup density 0..1 (default 0.25)")->type_name("P");
  cli.add_option("--seed", a.seed, "random soup seed, 0..2^64-1 (default 1)")->type_name("S");
  cli.add_option("--generations-per-frame", a.generations_per_frame, "1..1024 (default 1)")->type_name("N");
  cli.add_option("--generations-per-launch", a.generations_per_launch,
                 "k for iterate and bitpacked, 1..64 (default 16)")
      ->type_name("K");
  cli.add_option("--stream-mode", o.stream_mode, "per-instance, shared or graph (default per-instance)")
      ->type_name("MODE");
  cli.add_option("--timing-period", a.timing_period,
                 "time one frame in N with events, 1..1000 (default 1: every frame)")
      ->type_name("N");
  cli.add_option("--backend", o.backend, "auto, cuda or cpu (default auto)")->type_name("NAME");
  cli.add_option("--device", a.device, "CUDA device number (default 0); the same as --devices N")
      ->type_name("N");
  cli.add_option("--devices", a.devices,
                 "CUDA devices the instances run on, comma-separated, or all (default: --device's); "
                 "new instances go round-robin over them")
      ->type_name("LIST");
  cli.add_option("--display-device", a.display_device,
                 "CUDA device the display runs on, one of --devices (default: the first of them)")
      ->type_name("N");
  cli.add_option("--vsync", o.vsync, "on or off (default on in a window)")->type_name("on|off");
  cli.add_flag("--split", o.split,
               "split every instance's lattice into bands across all of --devices (two or more GPUs), so "
               "that a lattice too large for one GPU opens");
  cli.add_flag("--headless", o.headless, "render offscreen through EGL, no window");
  cli.add_option("--size", o.size, "window or offscreen size WxH (default 1600x900)")->type_name("WxH");
  cli.add_option("--frames", a.frames, "stop after N frames (headless default 120)")->type_name("N");
  cli.add_option("--script", o.script, "run the commands in FILE")->type_name("FILE");
  cli.add_option("--screenshot", o.screenshot, "save the last frame as PNG")->type_name("FILE.png");
  cli.add_option("--report", o.report, "write frame-rate and instance figures as JSON")
      ->type_name("FILE.json");
  cli.add_option("--snapshot-max-cells", a.snapshot_max_cells,
                 "host snapshots (kept every 10 s, saved as RLE after a fatal device error) skip lattices of "
                 "more cells; 0: none (default 268435456 = 2^28)")
      ->type_name("N");
  cli.add_option("--display-path", o.display_path,
                 "interop (default) or textbook: how CUDA lattices reach the screen (textbook copies "
                 "each to the host and uploads it with glTexSubImage2D, for comparison)")
      ->type_name("PATH");
  cli.add_option("--counters", o.counters,
                 "on (default) or off: sample each GPU's counters (CUPTI PM sampling: SM activity, DRAM, "
                 "NVLink, PCIe; NVML: SM clock, power) while the app runs, for the panel and the --report")
      ->type_name("on|off");
  cli.add_option("--counters-csv", o.counters_csv,
                 "write every counter reading to FILE (time_ms,gpu,counter,value)")
      ->type_name("FILE.csv");
  // Test hooks for tests that drive the app as a process; hidden from --help (group "").
  cli.add_option(kFaultAtFrameOption, a.test_fault_at_frame,
                 "throw a device error once N frames are done, as a failing device would")
      ->type_name("N")
      ->group("");
  cli.add_option("--test-slots-per-gpu", a.test_slots_per_gpu,
                 "every device of --devices stands in K (2..8) slots of one several-GPU engine")
      ->type_name("K")
      ->group("");
  cli.add_flag("--test-counters-fake", o.test_counters_fake,
               "counters from the fake source, on every GPU in use")
      ->group("");
}

int max_app_instances(const DeviceList& devices) {
  const std::size_t listed = devices.all ? static_cast<std::size_t>(kMaxDeviceOrdinal) + 1
                                         : std::max<std::size_t>(devices.ordinals.size(), 1);
  return kMaxInstancesPerDevice * static_cast<int>(listed);
}

void check_instance_count(int n, std::size_t most) {
  if (n < 1 || static_cast<std::size_t>(n) > most)
    throw InputError("--instances " + std::to_string(n) + ": expected 1.." + std::to_string(most) +
                     (most > static_cast<std::size_t>(kMaxInstancesPerDevice)
                          ? " (" + std::to_string(kMaxInstancesPerDevice) + " per GPU of --devices)"
                          : std::string()));
}

void convert_numbers(const OptionText& a, const CLI::App& cli, Options& o) {
  // The devices first: the instance limit is per listed GPU.
  o.devices = device_choice(a.device ? &*a.device : nullptr, a.devices ? &*a.devices : nullptr);
  o.devices_option = a.devices ? "--devices" : "--device";
  if (o.split && !o.devices.all && o.devices.ordinals.size() < 2)
    throw InputError("--split: a lattice splits across two or more GPUs; " + o.devices_option + " gives " +
                     device_list_text(o.devices.ordinals) + " (give --devices 0,1 or --devices all)");
  if (a.display_device)
    o.display_device =
        static_cast<int>(parse_whole("--display-device", *a.display_device, 0, kMaxDeviceOrdinal));
  if (a.instances)
    o.instances = static_cast<int>(parse_whole(
        "--instances", *a.instances, 1, o.split ? kMaxInstancesPerDevice : max_app_instances(o.devices)));
  if (a.width) o.width = parse_whole("--width", *a.width, 32, kMaxLatticeSide);
  if (a.height) o.height = parse_whole("--height", *a.height, 32, kMaxLatticeSide);
  if (a.density) o.density = parse_real("--density", *a.density, 0.0, 1.0);
  if (a.seed) o.seed = parse_unsigned64("--seed", *a.seed);
  if (a.generations_per_frame)
    o.generations_per_frame = static_cast<int>(
        parse_whole("--generations-per-frame", *a.generations_per_frame, 1, kMaxGenerationsPerFrame));
  if (a.generations_per_launch)
    o.generations_per_launch = static_cast<int>(
        parse_whole("--generations-per-launch", *a.generations_per_launch, 1, kMaxGenerationsPerLaunch));
  if (a.timing_period)
    o.timing_period = static_cast<int>(parse_whole("--timing-period", *a.timing_period, 1, kMaxTimingPeriod));
  if (a.frames) o.frames = parse_whole("--frames", *a.frames, 1, std::numeric_limits<long long>::max());
  if (a.snapshot_max_cells)
    o.snapshot_max_cells = parse_unsigned64("--snapshot-max-cells", *a.snapshot_max_cells);
  if (a.test_fault_at_frame)
    o.test_fault_at_frame =
        parse_whole(kFaultAtFrameOption, *a.test_fault_at_frame, 0, std::numeric_limits<long long>::max());
  if (a.test_slots_per_gpu)
    o.test_slots_per_gpu = static_cast<int>(parse_whole("--test-slots-per-gpu", *a.test_slots_per_gpu, 2, 8));
  for (const char* name : {"--rule", "--variant", "--pattern", "--script", "--screenshot", "--report"}) {
    const CLI::Option* opt = cli.get_option(name);
    if (opt->count() > 0 && opt->results().front().empty())
      throw InputError(std::string(name) + " '': expected a value (leave the option out for the default)");
  }
}

Setup check_options(const Options& o) {
  Setup s;
  parse_size(o.size, s.width, s.height);
  check_instance_count(o.instances, static_cast<std::size_t>(max_app_instances(o.devices)));
  // A display device outside an explicit list is refused before any device is touched; under
  // `all` the app checks it against the devices present.
  if (o.display_device && !o.devices.all &&
      std::find(o.devices.ordinals.begin(), o.devices.ordinals.end(), *o.display_device) ==
          o.devices.ordinals.end())
    throw InputError("--display-device " + std::to_string(*o.display_device) + ": not one of " +
                     o.devices_option + " (" + device_list_text(o.devices.ordinals) + ")");
  if (o.generations_per_frame < 1 || o.generations_per_frame > kMaxGenerationsPerFrame)
    throw InputError("--generations-per-frame " + std::to_string(o.generations_per_frame) + ": expected 1.." +
                     std::to_string(kMaxGenerationsPerFrame));
  if (o.generations_per_launch < 1 || o.generations_per_launch > kMaxGenerationsPerLaunch)
    throw InputError("--generations-per-launch " + std::to_string(o.generations_per_launch) +
                     ": expected 1..64");
  if (o.vsync != "on" && o.vsync != "off") throw InputError("--vsync " + o.vsync + ": expected on or off");
  if (o.counters != "on" && o.counters != "off")
    throw InputError("--counters " + o.counters + ": expected on or off");
  if (o.counters == "off" && !o.counters_csv.empty())
    throw InputError("--counters-csv " + o.counters_csv + ": the counters are off (--counters off)");
  if (o.frames && *o.frames < 1)
    throw InputError("--frames " + std::to_string(*o.frames) + ": expected 1 or more");
  const auto mode = parse_stream_mode(o.stream_mode);
  if (!mode) throw InputError("--stream-mode " + o.stream_mode + ": expected per-instance, shared or graph");
  s.stream_mode = *mode;
  const auto display_path = render::parse_display_path(o.display_path);
  if (!display_path) throw InputError("--display-path " + o.display_path + ": expected interop or textbook");
  s.display_path = *display_path;

  SceneSettings& settings = s.scene;
  if (o.width || o.height) {
    const long long w = o.width.value_or(1024), h = o.height.value_or(1024);
    check_lattice_size(w, h);
    settings.width = static_cast<int>(w);
    settings.height = static_cast<int>(h);
  }
  if (o.density) {
    if (!(*o.density >= 0 && *o.density <= 1))
      throw InputError("--density " + std::to_string(*o.density) + ": expected a value from 0 to 1");
    settings.density = *o.density;
  }
  if (o.seed) settings.seed = *o.seed;
  if (!o.variant.empty()) {
    const auto v = parse_variant(o.variant);
    if (!v)
      throw InputError("--variant " + o.variant + ": expected naive, global, shared, iterate or bitpacked");
    settings.variant = *v;
  }
  if (!o.rule.empty()) {
    try {
      settings.rule = parse_rule(o.rule);
    } catch (const InputError& e) {
      throw InputError("--rule " + o.rule + ": " + e.what());
    }
  }
  settings.generations_per_frame = o.generations_per_frame;
  settings.generations_per_launch = o.generations_per_launch;
  return s;
}

void check_files(const Options& o) {
  // The scene loads the file again into every instance; a file that reads and parses here does
  // there. With --rule the file's own rule does not matter (Scene::populate's keep_rule).
  if (!o.pattern.empty()) (void)load_pattern_file(o.pattern, /*check_rule=*/o.rule.empty());
  if (!o.screenshot.empty()) check_output_writable(o.screenshot, "--screenshot");
  if (!o.report.empty()) check_output_writable(o.report, "--report");
}

}  // namespace ls::app
