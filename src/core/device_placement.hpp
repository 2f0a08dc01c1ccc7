// device_placement.hpp — the part of the Engine contract that places instances on devices
// (core/engine.hpp states the contract): which CUDA device holds the state, which GPUs each
// instance runs on, and moving an instance between them. The defaults are an engine on one device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/instance_spec.hpp"

namespace ls {

class DevicePlacement {
 public:
  virtual ~DevicePlacement() = default;

  /// The CUDA device (ordinal) that holds the instances' state, or -1 when it is in host memory.
  virtual int cuda_device() const = 0;
  /// The CUDA devices instance `index` runs on: one, or several when its lattice is split across
  /// GPUs (one per band, in band order); none when its state is in host memory. The default,
  /// for an engine whose instances all live on cuda_device(): that device, or none.
  virtual std::vector<int> instance_devices(std::size_t index) const {
    (void)index;
    const int d = cuda_device();
    return d < 0 ? std::vector<int>{} : std::vector<int>{d};
  }

  /// How many instances this engine takes at most: kMaxInstancesPerDevice per device it runs on.
  virtual std::size_t max_instances() const { return kMaxInstancesPerDevice; }
  /// Moves instance `index` to run on `devices` (CUDA ordinals, as instance_devices() names them),
  /// keeping its index, state, generation, settings and origin; the other instances are undisturbed.
  /// Devices equal to instance_devices(index) change nothing. Throws InputError, changing nothing,
  /// when the move cannot be done; the default (an engine on one device) refuses every other set.
  virtual void set_instance_devices(std::size_t index, const std::vector<int>& devices);
  /// Appends an instance holding exactly spec.init's lattice (a Lattice is required) at
  /// `generation`, with cross-check origin `origin`: an instance moved here from another engine
  /// (set_instance_devices) goes on as if it had never moved.
  virtual void add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) = 0;
};

}  // namespace ls
