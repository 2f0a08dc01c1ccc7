// cli_devices.cpp — parsing and checking `--devices LIST` (cli_devices.hpp).
#include "control/device_args.hpp"

#include <algorithm>
#include <string>

#include "control/numbers.hpp"
#include "core/error.hpp"
#if defined(LIFESTREAMS_HAVE_CUDA)
#include "multi/split_engine.hpp"
#include "sim/cuda_engine.hpp"
#endif

namespace ls {

std::string gpus_present_line() {
#if defined(LIFESTREAMS_HAVE_CUDA)
  return multi::gpus_present();
#else
  return "no GPU present: this build has no CUDA engine";
#endif
}

DeviceList parse_device_list(std::string_view option, std::string_view text) {
  const std::string what = std::string(option) + " " + std::string(text);
  DeviceList out;
  if (text == "all") {
    out.all = true;
    return out;
  }
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item =
        text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    if (item.empty())
      throw InputError(what + ": expected `all` or device numbers separated by commas; " +
                       gpus_present_line());
    long long d = 0;
    try {
      d = parse_whole(std::string(option), std::string(item), 0, kMaxDeviceOrdinal);
    } catch (const InputError&) {
      throw InputError(what + ": '" + std::string(item) + "' is not a device number 0.." +
                       std::to_string(kMaxDeviceOrdinal) + "; " + gpus_present_line());
    }
    if (std::find(out.ordinals.begin(), out.ordinals.end(), d) != out.ordinals.end())
      throw InputError(what + ": device " + std::to_string(d) + " is listed twice; " + gpus_present_line());
    out.ordinals.push_back(static_cast<int>(d));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

DeviceList device_choice(const std::string* device, const std::string* devices) {
  if (device && devices)
    throw InputError("--device and --devices: give one of them (--device N means --devices N)");
  if (devices) return parse_device_list("--devices", *devices);
  DeviceList one;
  one.ordinals.push_back(device ? static_cast<int>(parse_whole("--device", *device, 0, kMaxDeviceOrdinal))
                                : 0);
  return one;
}

std::vector<int> resolve_devices(std::string_view option, const DeviceList& list) {
#if defined(LIFESTREAMS_HAVE_CUDA)
  const int count = cuda_device_count();
  if (count == 0 && list.all) throw InputError(std::string(option) + " all: " + gpus_present_line());
  std::vector<int> out;
  if (list.all) {
    for (int d = 0; d < count; ++d) out.push_back(d);
    return out;
  }
  for (const int d : list.ordinals)
    if (d >= count)
      throw InputError(std::string(option) + ": device " + std::to_string(d) + " does not exist; " +
                       gpus_present_line());
  return list.ordinals;
#else
  // No CUDA engine in this build: no device exists, and the message says so as a GPU build would.
  if (list.all || list.ordinals.empty())
    throw InputError(std::string(option) + " all: " + gpus_present_line());
  throw InputError(std::string(option) + ": device " + std::to_string(list.ordinals.front()) +
                   " does not exist; " + gpus_present_line());
#endif
}

}  // namespace ls
