// options.hpp — the desktop app's command line: the options CLI11 defines, their strict conversion,
// and the checks that turn them into what the app is set up with (before any window or engine).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "control/device_args.hpp"
#include "control/recovery.hpp"
#include "control/scene.hpp"
#include "core/engine.hpp"
#include "render/tiles.hpp"

namespace CLI {
class App;
}

namespace ls::app {

/// The app's options, converted (numbers parsed strictly) but not yet checked against each other.
struct Options {
  int instances = kDefaultInstances;
  std::optional<long long> width;
  std::optional<long long> height;
  std::string variant;
  std::string rule;
  std::string pattern;
  std::optional<double> density;
  std::optional<std::uint64_t> seed;
  int generations_per_frame = 1;
  int generations_per_launch = 16;
  std::string stream_mode = "per-instance";
  int timing_period = 1;
  std::string backend = "auto";
  /// --devices LIST, or --device N (the same as --devices N); device 0 when neither is given.
  DeviceList devices = DeviceList{false, {0}};
  /// The flag the devices came from, for messages: "--devices" or "--device".
  std::string devices_option = "--device";
  /// --display-device N: the GPU the display (GL context) runs on; default the first of the devices.
  std::optional<int> display_device;
  /// --split: every instance split into bands across all of the devices (at least two).
  bool split = false;
  std::string vsync = "on";
  bool headless = false;
  std::string size = "1600x900";
  std::optional<long long> frames;
  std::string script;
  std::string screenshot;
  std::string report;
  std::uint64_t snapshot_max_cells = kDefaultSnapshotMaxCells;
  std::string display_path = "interop";
  /// --counters on|off: sample the GPUs' hardware counters while the app runs.
  std::string counters = "on";
  /// --counters-csv FILE: every counter reading as `time_ms,gpu,counter,value`.
  std::string counters_csv;
  /// Test hooks, hidden from --help (docs/developer-options.md): --test-fault-at-frame N (-1: none)
  /// and --test-slots-per-gpu K (1: every device one slot).
  long long test_fault_at_frame = -1;
  int test_slots_per_gpu = 1;
  /// --test-counters-fake: the counters come from the fake source (counters/fake_source.hpp).
  bool test_counters_fake = false;
};

/// The app's numeric options as written (converted strictly by convert_numbers).
struct OptionText {
  std::optional<std::string> instances, width, height, density, seed, generations_per_frame,
      generations_per_launch, timing_period, device, devices, display_device, frames, snapshot_max_cells,
      test_fault_at_frame, test_slots_per_gpu;
};

/// Defines every option of the app on `cli`: text options go to `options`, numbers to `text`.
void define_options(CLI::App& cli, Options& options, OptionText& text);

/// After parsing: converts the numbers of `text` into `options` and refuses empty text where
/// empty would mean "not given". InputError naming the option.
void convert_numbers(const OptionText& text, const CLI::App& cli, Options& options);

/// What the options ask for, checked.
struct Setup {
  int width = 1600;  // window or offscreen size
  int height = 900;
  StreamMode stream_mode = StreamMode::per_instance;
  render::DisplayPath display_path = render::DisplayPath::interop;
  SceneSettings scene;
};

/// The most instances --instances may ask for on `devices`: kMaxInstancesPerDevice per listed GPU
/// (`all`: per device ordinal there could be; the app checks again against its engine).
int max_app_instances(const DeviceList& devices);

/// "--instances N: expected 1..M" unless 1 <= n <= most (the engine's max_instances()).
void check_instance_count(int n, std::size_t most);

/// Checks the options together (ranges, names, the rule) in the order the app always has; InputError
/// naming the first bad one.
Setup check_options(const Options& options);

/// Checks the files the options name, before any device or display is used (bad input is exit 2
/// with or without a display): --pattern is read and parsed by the pattern loader, and the paths
/// --screenshot and --report will write can be written (nothing is created). InputError naming
/// the option or file.
void check_files(const Options& options);

}  // namespace ls::app
