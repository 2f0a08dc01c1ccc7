// cli_devices.hpp — `--devices LIST` (run, bench): comma-separated CUDA ordinals or `all`, and the
// one refusal line that lists the GPUs present.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/engine.hpp"

namespace ls {

struct DeviceList {
  bool all = false;           // `all`: every device present
  std::vector<int> ordinals;  // in the order given
};

/// Parses LIST without touching any device: `all`, or ordinals 0..kMaxDeviceOrdinal (1023) separated by
/// commas. An empty item, a non-number or a repeat is an InputError naming `option` and the LIST, followed by
/// gpus_present_line().
DeviceList parse_device_list(std::string_view option, std::string_view text);

/// The `--device N` / `--devices LIST` pair as run and bench take it: LIST, else N, else device 0.
/// Both given is an InputError.
DeviceList device_choice(const std::string* device, const std::string* devices);

/// "GPUs present: 0 NAME, 1 NAME" (or why there are none); one line, never throws.
std::string gpus_present_line();

/// The ordinals `list` names on this machine (`all`: 0..count-1). A device that does not exist is
/// an InputError listing the GPUs present (or saying why there are none).
std::vector<int> resolve_devices(std::string_view option, const DeviceList& list);

}  // namespace ls
