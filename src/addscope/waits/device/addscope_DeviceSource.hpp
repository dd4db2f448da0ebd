// addscope — where the waits tracker learns what the device did. A device
// source watches the device runtime (CUPTI on CUDA) and reports, to a
// DeviceSink (the tracker):
//   * on the launching thread: each kernel launch's correlation id;
//   * on the blocking thread: each runtime call that can block the host
//     until device work finished (begin, end, which streams it waits for);
//   * to the analyzer, when it drains the source: each kernel's device
//     start and end, stream and launch shape, mapped onto the tracker's
//     clock (and, when kernels are tied to the tracker's calls, which call
//     each runtime call was made in).
// It never adds work to the program's streams. Without one (host backends,
// no CUPTI, CUPTI refused) the tracker falls back on what Kokkos reports.
#ifndef ADDSCOPE_WAITS_DEVICE_DEVICESOURCE_HPP
#define ADDSCOPE_WAITS_DEVICE_DEVICESOURCE_HPP

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "addscope/waits/model/addscope_WaitRecords.hpp"

namespace addscope {
namespace Impl {

/// A kernel as the device reported it (times on the tracker's clock).
struct DeviceKernelRecord {
  std::uint32_t correlation = 0;
  std::uint32_t device = 0, stream = 0;
  double start_s = 0, end_s = 0;
  LaunchShape shape;
  /// The device's (mangled) entry-point name; valid during the
  /// on_device_kernels() call that delivers the record (CUPTI owns it).
  const char* name = "";
};

/// A copy or memset as the device ran it (times on the tracker's clock).
struct DeviceCopyRecord {
  std::uint32_t correlation = 0;
  std::uint32_t device = 0, stream = 0;
  double start_s = 0, end_s = 0;
  std::uint64_t bytes = 0;
  bool memset = false;
  int copy_kind = 0;  ///< 1 H2H, 2 H2D, 3 D2H, 4 D2D, 0 other
};

/// A kernel launch as it begins, on the launching thread.
struct LaunchBegin {
  std::uint32_t correlation = 0;
  /// The kernel's name as the API names it (CUPTI's symbolName; valid
  /// during the call only; null when not known): its first launch on a
  /// thread takes the program's line.
  const char* symbol = nullptr;
  /// Its grid and block folded into one number (launch_shape_key; 0: not
  /// read): its first launch in each shape on a thread takes the line too.
  std::uint64_t shape_key = 0;
  /// The stream it goes to, when the source reads it (callbacks-only mode:
  /// no kernel record will say).
  bool stream_known = false;
  std::uint32_t device = 0, stream = 0;
};

/// A launch's grid and block as LaunchBegin::shape_key: never 0.
inline std::uint64_t launch_shape_key(const std::uint32_t grid[3],
                                      const std::uint32_t block[3]) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over the six numbers
  for (const std::uint32_t* v : {grid, block})
    for (int i = 0; i < 3; ++i) h = (h ^ v[i]) * 0x100000001b3ull;
  return h | 1;
}

/// A blocking runtime call as it begins.
struct BlockingBegin {
  SyncApi api = SyncApi::Other;
  bool all_streams = true;
  std::uint32_t device = 0, stream = 0;
  std::uint64_t bytes = 0;
  int copy_kind = 0;  ///< 1 H2H, 2 H2D, 3 D2H, 4 D2D, 0 other
  /// The runtime's correlation id of the call (copies: their device record
  /// carries it).
  std::uint32_t correlation = 0;
  /// The call's own name when the report should use it rather than the
  /// API's ("cuMemcpyDtoHAsync" for a driver call); static storage.
  const char* name = nullptr;
};

/// Where a device source reports what happens on the program's threads
/// (the tracker, which records it in the thread's log). Called on the
/// program's threads from inside the device runtime: records and returns.
class DeviceSink {
 public:
  virtual ~DeviceSink() = default;
  /// On the launching thread, as a kernel launch begins.
  virtual void on_launch(const LaunchBegin& l) = 0;
  /// The launch failed: no kernel will come for it.
  virtual void on_launch_failed(std::uint32_t correlation) = 0;
  /// On the launching thread: the launch call took from begin_s to end_s
  /// (reported when long: a launch can block, e.g. behind the legacy
  /// stream).
  /// `correlation`: the launch's own (its kernel is not what it waited
  /// for); 0 if not known.
  virtual void on_slow_launch(double begin_s, double end_s,
                              std::uint32_t correlation) = 0;
  void on_slow_launch(double begin_s, double end_s) {
    on_slow_launch(begin_s, end_s, 0);
  }
  /// On the calling thread, around a runtime call that can block.
  virtual void on_blocking_begin(const BlockingBegin& b) = 0;
  virtual void on_blocking_end() = 0;
  /// A steady-clock time (ns) on the sink's clock, in seconds.
  virtual double seconds_from_steady_ns(std::int64_t ns) const = 0;
  /// On the program's thread, once, at the first call the source reports:
  /// CUDA is initialized (the driver may be asked questions now; not from
  /// CUPTI's InitializeInjection, which runs inside the program's cuInit).
  virtual void on_cuda_in_use() {}
};

/// Where a device source delivers the device's records (the analyzer),
/// on the analyzer's thread, from DeviceSource::drain().
class DeviceRecordSink {
 public:
  virtual ~DeviceRecordSink() = default;
  /// Kernels the device finished (names valid during the call).
  virtual void on_device_kernels(std::vector<DeviceKernelRecord>& k) = 0;
  /// Copies and memsets the device finished.
  virtual void on_device_copies(std::vector<DeviceCopyRecord>& c) { (void)c; }
  /// Runtime call `correlation` was made inside the call whose id the
  /// tracker pushed (DeviceSource::push_call).
  virtual void on_external_correlation(std::uint32_t correlation,
                                       std::uint64_t call_id) = 0;
};

class DeviceSource {
 public:
  virtual ~DeviceSource() = default;
  /// Starts reporting to `sink`; false if it cannot (see description()).
  virtual bool start(DeviceSink& sink) = 0;
  /// Stops reporting (delivers what is pending first).
  virtual void stop() = 0;
  /// Delivers every finished kernel's record now.
  virtual void flush() = 0;
  /// Which mode measured, in words ("CUPTI 11.8 (libcupti.so.11.8)", or why
  /// not: "CUPTI not loaded: ...").
  virtual std::string description() const = 0;
  /// Whether kernel records (device start and end) come; false: launches
  /// and blocking calls only, waits are bounds.
  virtual bool kernel_records() const { return true; }
  /// Kernel records lost so far (the device's buffers were full, or the
  /// source's cap on buffers in flight was reached).
  virtual std::uint64_t records_dropped() const { return 0; }
  /// On the analyzer's thread: decodes what the device handed over since
  /// the last call and delivers it to `out` (then recycles its buffers).
  virtual void drain(DeviceRecordSink& out) { (void)out; }
  /// Whether kernels are tied to the tracker's calls by push_call() (no
  /// launch callbacks) rather than by on_launch().
  virtual bool ties_by_call() const { return false; }
  /// Around a tracker call that may launch device work, on its thread.
  virtual void push_call(std::uint64_t id) { (void)id; }
  virtual void pop_call() {}
};

/// What the CUPTI source watches.
enum class CuptiMode {
  Full,  ///< kernel records + callbacks (launches, blocking calls)
  /// kernel records tied to the tracker's calls by external correlation
  /// (push_call), callbacks on blocking calls only; Full where this CUPTI
  /// cannot push ids
  FullByCall,
  Callbacks,  ///< callbacks only: no kernel records (cheaper; waits bounded)
};

/// The source for CUDA programs: CUPTI, opened at run time (libcupti from
/// ADDSCOPE_CUPTI_LIB, else where addscope_CuptiLibrary.hpp looks: beside
/// the program's libcudart, pip's and conda's folders, CUDA toolkits, the
/// loader's path). Null where addscope was built without CUPTI headers.
/// `any_program`: the program may call the driver API itself (loaded
/// through CUDA_INJECTION64_PATH into any CUDA program): its launches and
/// blocking calls are followed too.
std::unique_ptr<DeviceSource> make_cupti_source(
    CuptiMode mode = CuptiMode::Full, bool any_program = false);
/// Whether this build has the CUPTI source.
bool cupti_source_built();
/// Called once, on the thread of the first CUDA call the CUPTI source sees
/// (the CUDA runtime is up: its exit hooks are registered by then). The
/// tool registers its exit hook again there, so that at exit() it runs
/// before CUDA tears itself down (tool/addscope_ToolLifecycle.cpp).
void set_cuda_started_hook(void (*hook)());

}  // namespace Impl
}  // namespace addscope

#endif
