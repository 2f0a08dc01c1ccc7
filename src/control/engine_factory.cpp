// engine_factory.cpp — engine selection; the only place app code names a concrete engine.
#include "control/engine_factory.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "multi/multi_engine.hpp"
#if defined(LIFESTREAMS_HAVE_CUDA)
#include "kernels/cuda_check.hpp"
#include "multi/split_engine.hpp"
#include "sim/cuda_engine.hpp"
#endif

namespace ls {
namespace {

EngineChoice cpu_choice() {
  auto cpu = std::make_unique<CpuEngine>();
  EngineChoice choice;
  choice.cpu = cpu.get();
  choice.engine = std::move(cpu);
  return choice;
}

}  // namespace

bool build_has_cuda() {
#if defined(LIFESTREAMS_HAVE_CUDA)
  return true;
#else
  return false;
#endif
}

std::unique_ptr<Engine> make_engine(std::string_view backend, int device) {
  return choose_engine(backend, device).engine;
}

std::unique_ptr<Engine> make_engine(std::string_view backend, const DeviceList& devices) {
  if (!devices.all && devices.ordinals.size() == 1) return make_engine(backend, devices.ordinals.front());
  if (backend != "auto" && backend != "cpu" && backend != "cuda") {
    throw InputError("--backend " + std::string(backend) + ": expected auto, cpu or cuda");
  }
  if (backend == "cpu")
    throw InputError(
        "--devices with --backend cpu: the CPU engine uses no GPU; give one device or --backend cuda");
  const std::vector<int> list = resolve_devices("--devices", devices);
  if (list.size() == 1) return make_engine("cuda", list.front());
#if defined(LIFESTREAMS_HAVE_CUDA)
  return std::make_unique<multi::SplitEngine>(list);
#else
  throw DeviceError("--devices: this build has no CUDA engine");
#endif
}

EngineChoice choose_engine(std::string_view backend, int device) {
  if (backend != "auto" && backend != "cpu" && backend != "cuda") {
    throw InputError("--backend " + std::string(backend) + ": expected auto, cpu or cuda");
  }
  if (device < 0) throw InputError("--device " + std::to_string(device) + ": must be 0 or more");
  if (backend == "cpu") return cpu_choice();
#if defined(LIFESTREAMS_HAVE_CUDA)
  std::string why;
  const int count = cuda_device_count(&why);
  if (count == 0) {
    if (backend == "cuda") throw DeviceError("--backend cuda: no usable CUDA device (" + why + ")");
    return cpu_choice();
  }
  if (device >= count) {
    throw InputError("--device " + std::to_string(device) + ": there " + (count == 1 ? "is " : "are ") +
                     std::to_string(count) + " CUDA device" + (count == 1 ? "" : "s") + " (numbered from 0)");
  }
  auto cuda = std::make_unique<sim::CudaEngine>(device);
  EngineChoice choice;
  choice.cuda = cuda.get();
  choice.engine = std::move(cuda);
  return choice;
#else
  if (backend == "cuda")
    throw DeviceError("--backend cuda: this build has no CUDA engine (no CUDA compiler was found)");
  return cpu_choice();
#endif
}

EngineChoice choose_app_engine(std::string_view backend, const DeviceList& devices, std::string_view option,
                               int slots_per_gpu) {
  if (backend != "auto" && backend != "cpu" && backend != "cuda")
    throw InputError("--backend " + std::string(backend) + ": expected auto, cpu or cuda");
  const bool one = !devices.all && devices.ordinals.size() == 1;
  if (backend == "cpu") {
    if (!one)
      throw InputError(std::string(option) +
                       " with --backend cpu: the CPU engine uses no GPU; give one device or --backend cuda");
    return choose_engine(backend, devices.ordinals.front());
  }
#if defined(LIFESTREAMS_HAVE_CUDA)
  const bool gpus = cuda_device_count() > 0;
#else
  const bool gpus = false;
#endif
  std::vector<int> list = devices.ordinals;
  if (gpus) {
    list = resolve_devices(option, devices);  // a device not present: the GPUs present, exit 2
  } else if (!one) {
    resolve_devices(option, devices);  // several without a GPU: refused, saying why
  }
  const int repeats = gpus ? std::max(slots_per_gpu, 1) : 1;
  if (list.size() == 1 && repeats == 1) return choose_engine(backend, list.front());
#if defined(LIFESTREAMS_HAVE_CUDA)
  std::vector<multi::DeviceSlot> slots;
  std::vector<sim::CudaEngine*> slot_cuda;
  for (const int d : list) {
    for (int r = 0; r < repeats; ++r) {
      // The CudaEngine makes its device current; every later call into it follows make_current.
      auto cuda = std::make_unique<sim::CudaEngine>(d);
      slot_cuda.push_back(cuda.get());
      slots.push_back(multi::DeviceSlot{d, std::move(cuda), [d] { CUDA_CHECK(cudaSetDevice(d)); }});
    }
  }
  std::vector<int> slot_devices;  // a split instance's bands, one per slot, in slot order
  for (const multi::DeviceSlot& slot : slots) slot_devices.push_back(slot.device);
  auto engine = repeats > 1
                    ? std::make_unique<multi::MultiEngine>(std::move(slots), multi::RepeatedDevicesForTests{})
                    : std::make_unique<multi::MultiEngine>(std::move(slots));
  engine->enable_splits([slot_devices] { return std::make_unique<multi::SplitEngine>(slot_devices); });
  EngineChoice choice;
  choice.multi = engine.get();
  choice.slot_cuda = std::move(slot_cuda);
  choice.engine = std::move(engine);
  return choice;
#else
  throw DeviceError(std::string(option) + ": this build has no CUDA engine");
#endif
}

}  // namespace ls
