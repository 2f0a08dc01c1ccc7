// engine_factory.hpp — picks the engine for --backend auto|cpu|cuda and --device N.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "control/device_args.hpp"
#include "core/engine.hpp"

namespace ls {

class CpuEngine;
namespace sim {
class CudaEngine;
}
namespace multi {
class MultiEngine;
}

/// "auto": CUDA when this build has it and a device is usable, else the CPU engine.
/// "cuda": the CUDA engine on `device`; DeviceError when there is none (never a silent fall-back).
/// "cpu": the CPU reference engine. Any other name, or a device number out of range: InputError.
std::unique_ptr<Engine> make_engine(std::string_view backend, int device);

/// --devices LIST: one device is make_engine(backend, device) (the one-GPU path, unchanged); several
/// give an engine whose every instance is one lattice split across them (src/multi). Several
/// devices with --backend cpu, or on a build or machine without CUDA, are refused.
std::unique_ptr<Engine> make_engine(std::string_view backend, const DeviceList& devices);

/// make_engine's engine together with its concrete type, for the parts that fit one kind of
/// engine (the display's tile filler, app/engine_factory_gui.hpp): exactly one of `cpu`, `cuda`
/// and `multi` points to *engine, so no caller needs a downcast.
struct EngineChoice {
  std::unique_ptr<Engine> engine;
  CpuEngine* cpu = nullptr;
  sim::CudaEngine* cuda = nullptr;      // never set in a build without CUDA
  multi::MultiEngine* multi = nullptr;  // the app on several GPUs (choose_app_engine)
  /// With `multi`: each slot's CUDA engine, in slot order (the display draws from them).
  std::vector<sim::CudaEngine*> slot_cuda;
};
EngineChoice choose_engine(std::string_view backend, int device);

/// The desktop app's engine for --devices (or --device N, which means --devices N; `option` names
/// the flag given, for messages). One device: choose_engine(backend, device), the one-GPU app as it
/// always was. Several: a multi::MultiEngine with one CudaEngine per device, new instances
/// round-robin over them, each device made current (cudaSetDevice) before every call into its
/// engine. Where CUDA has devices and the backend is not cpu, a device that does not exist is an
/// InputError listing the GPUs present; several devices with --backend cpu, or without CUDA, are
/// refused as make_engine refuses them.
///
/// `slots_per_gpu` (a test hook, the app's hidden --test-slots-per-gpu; 1 for users): from 2 on,
/// with CUDA devices present, every listed device stands in that many slots of one MultiEngine
/// (multi::RepeatedDevicesForTests), even for one device, so that the several-GPU display (remote
/// tiles, their copies and events) runs on a one-GPU machine.
EngineChoice choose_app_engine(std::string_view backend, const DeviceList& devices, std::string_view option,
                               int slots_per_gpu);

/// Whether this build contains the CUDA engine.
bool build_has_cuda();

}  // namespace ls
