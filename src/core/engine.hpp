// engine.hpp — the abstract simulation engine: N Life instances advanced together. It is three
// interfaces of one concern each: Simulation (core/simulation.hpp: what simulates), EngineReports
// (core/engine_reports.hpp: statuses, summaries, timings, the timeline, display brackets) and
// DevicePlacement (core/device_placement.hpp: the devices instances run on). A caller holds the one
// it uses; an engine implements what it is (an engine on one device keeps the placement defaults).
//
// Contract (shared by CpuEngine in core and CudaEngine in sim; the app, the script runner and the
// CLI drive either through this interface only):
//  * Instances are numbered 0..size()-1; add() appends, remove() shifts later ones down.
//  * step(n) advances every instance by exactly n generations, so all instances that stood at
//    the same generation still do. On CUDA it only enqueues work on the instances' streams and
//    never blocks (host_syncs_in_last_step() says how many blocking calls it made: 0 expected).
//    host_enqueue_ms() is the host time each step() took, so that a front end can say whether the
//    host (enqueueing) or the device (the frame's span) binds the frame; on the CPU the host does
//    the work itself, so it is the whole step.
//  * Stream modes: per-instance (each instance on its own stream), shared (all on one stream),
//    graph (the whole frame of all instances as one CUDA graph, launched once per frame, each
//    instance its own branch; rebuilt only when the frame's shape changes, frame_graph_stats()).
//    Results, timings and the timeline are the same in all three; the CPU engine keeps the mode
//    as a setting and times each instance on its own row outside shared mode.
//  * Every mutating call has the strong guarantee: on any error (InputError for bad input,
//    including sizes that do not fit in memory, with how much was asked and how much is free;
//    DeviceError for device failures) the engine is exactly as it was.
//  * set_variant() keeps the state exactly (same hash before and after).
//  * read()/summarize()/finish() block; they are for saving, tests and the CLI, not the frame loop.
//    request_summaries() + status().summary give the same figures without blocking.
//  * A frame is one step() of at least one generation. Its timings (span, busy time, timeline bars)
//    cover that frame's work only: its steps and the first display bracket of each instance after
//    it; redraws without a step (a paused app) are not timed, so a pause never shows as a span.
//  * request_snapshots() + snapshots() keep a host copy of every instance for recovery after a
//    fatal device error: snapshots() reads host memory only and still answers after one.
//  * cuda_device() names the CUDA device the state lives on (-1: host memory), so that a front
//    end can put its drawing on the same device without knowing the concrete engine;
//    instance_devices(i) names the GPU(s) instance i runs on (several: its lattice is split).
//  * Building beside the frame loop: prepare() makes what an add or a replace would install from
//    a spec, reading nothing of the engine's instances, so another thread may run it while the
//    frame loop steps and draws them; install() then puts a batch of prepared instances in place
//    all or nothing. Engines whose add() is quick (the GPU ones fill on the device) keep the
//    default: prepare() holds the spec and install() does the add or replace.
//  * Timings cover frames of one shape: an instance's rolling step statistics (and its cups)
//    restart when the generations of a timed step, its variant, its generations per launch or
//    its size change, and every instance's (and the frame's span) when the stream mode changes.
//  * Placement (engines over several GPUs, multi::MultiEngine): max_instances() is how many
//    instances the engine takes (kMaxInstancesPerDevice per GPU); set_instance_devices() moves an
//    instance to other GPUs keeping its state exactly (same hash, generation, rule, variant, k and
//    cross-check origin) and leaving the others undisturbed; add_moved() is how the moved state
//    enters the target engine. An engine on one device refuses both (InputError), changing nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "core/device_placement.hpp"
#include "core/engine_reports.hpp"
#include "core/non_copyable.hpp"
#include "core/simulation.hpp"

namespace ls {

class Engine : public Simulation, public EngineReports, public DevicePlacement, NonCopyable {
 public:
  ~Engine() override = default;
  /// Simulation::size and EngineReports::size are one count; an engine overrides both at once.
  using Simulation::size;

  /// The default install: each entry's add or replace in turn, the replaced instances kept so that
  /// a failure part-way puts every instance back (Simulation::install's all or nothing).
  void install(std::vector<Installation> batch) override;
  /// The default refuses (InputError): an engine on one device takes no moved instance.
  void add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) override;
};

/// The CUDA devices `engine` uses, ascending: its state's (cuda_device) and every instance's.
/// Empty for an engine in host memory.
std::vector<int> devices_in_use(const Engine& engine);

}  // namespace ls
