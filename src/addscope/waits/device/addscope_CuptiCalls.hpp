// addscope — what a CUDA API call is to the waits tool, from CUPTI's
// callback id and the call's parameters: a kernel launch (its stream and
// shape when the parameters have them), a call that can block the host
// (which streams it waits for, bytes and direction of a copy), an event
// record (which stream an event was recorded on), or nothing. For both
// callback domains: the runtime API (CuPy, PyTorch, nvcc's <<<...>>>,
// Kokkos) and the driver API (numba, CuPy's RawKernel launches, cuda-python,
// and what the runtime calls underneath). Pure functions: no CUPTI, no
// device, no allocation; the CUPTI source turns stream and event handles
// into CUPTI's ids.
//
// Only the calls listed by cupti_enabled_callbacks() decode to something;
// the source subscribes to exactly those (CUPTI's cost grows with every
// callback enabled; docs/waits-tool.md has what it cost).
//
// One call inside another: the runtime calls the driver (cudaMemcpy ->
// cuMemcpyDtoH_v2, cudaLaunchKernel -> cuLaunchKernel, cudaStreamSynchronize
// -> cuStreamSynchronize). The outermost decoded call on a thread is what
// the program called; ApiCallNesting tells the source which one that is,
// and the source reports only it (see there).
#ifndef ADDSCOPE_WAITS_DEVICE_CUPTICALLS_HPP
#define ADDSCOPE_WAITS_DEVICE_CUPTICALLS_HPP

#include <cstdint>
#include <vector>

#include "addscope/waits/model/addscope_CallKind.hpp"
#include "addscope/waits/device/addscope_CuptiAbi.hpp"

namespace addscope {
namespace Impl {

/// What a decoded call is.
enum class ApiCallKind : std::uint8_t {
  None,         ///< not a call the tool follows (or an unknown id)
  Launch,       ///< launches a kernel (or a graph of them)
  Blocking,     ///< may block the host until earlier device work is done
  EventRecord,  ///< records an event on a stream (no wait)
};

/// Which stream a call names, as the program passed it.
enum class StreamRef : std::uint8_t {
  None,              ///< the call names no stream (a device- or
                     ///< context-wide call, or a launch configured before)
  Legacy,            ///< the legacy default stream (null handle, or
                     ///< CU_STREAM_LEGACY): synchronizes with every
                     ///< blocking stream of the device
  PerThreadDefault,  ///< the per-thread default stream (null handle in a
                     ///< _ptsz/_ptds call, or CU_STREAM_PER_THREAD)
  Handle,            ///< `stream` holds the program's handle
};

/// A CUDA API call, decoded.
struct ApiCall {
  ApiCallKind kind = ApiCallKind::None;
  int domain = 0;  ///< cupti::kDomainRuntimeApi or kDomainDriverApi
  /// The function without version or stream suffixes ("cuMemcpyDtoHAsync",
  /// "cudaLaunchKernel"): what a report names the call by. Static storage.
  const char* name = "";

  StreamRef stream_ref = StreamRef::None;
  cupti::Stream stream = nullptr;  ///< with StreamRef::Handle
  cupti::Event event = nullptr;    ///< EventSynchronize, EventRecord

  // Launch
  bool shape_known = false;  ///< grid and block read from the parameters
  std::uint32_t grid[3] = {0, 0, 0};
  std::uint32_t block[3] = {0, 0, 0};
  std::uint32_t shared_dynamic = 0;  ///< bytes per block
  bool graph = false;  ///< a graph launch: its kernels share its correlation
  bool cooperative = false;
  bool multi_device = false;  ///< cu/cudaLaunchCooperativeKernelMultiDevice

  // Blocking: what BlockingBegin takes (DeviceSource.hpp).
  SyncApi api = SyncApi::Other;
  std::uint64_t bytes = 0;  ///< copies: bytes moved (0 when unknown)
  int copy_kind = 0;        ///< copies: 1 H2H, 2 H2D, 3 D2H, 4 D2D, 0 other
  /// An "Async" copy: it blocks only when the host side is pageable (or
  /// behind earlier work); whether it did, its duration says.
  bool async = false;

  /// The call waits for every stream of the device (or context): no
  /// stream of its own, or the legacy default stream.
  bool all_streams() const {
    return stream_ref == StreamRef::None || stream_ref == StreamRef::Legacy;
  }
};

/// Decodes one callback: `domain` and `cbid` as CUPTI passes them,
/// `params` = CUpti_CallbackData::functionParams (may be null: the call
/// is still decoded, without what the parameters say). Unknown domains and
/// ids give ApiCallKind::None.
ApiCall decode_cupti_call(int domain, cupti::CallbackId cbid,
                          const void* params);

/// The callback ids to enable for `domain` (runtime or driver; empty for
/// any other): every id that decode_cupti_call() decodes to something, and
/// only those. Ids newer than the loaded CUPTI are refused by
/// cuptiEnableCallback; the source ignores that.
const std::vector<cupti::CallbackId>& cupti_enabled_callbacks(int domain);

/// A runtime cudaMemcpyKind (0 H2H .. 3 D2D, 4 default) as BlockingBegin's
/// copy_kind (1 H2H .. 4 D2D, 0 other).
int copy_kind_from_runtime(int cuda_memcpy_kind);
/// Two CUmemorytypes (host 1, device 2, array 3, unified 4) as copy_kind:
/// arrays count as device memory; unified memory is "other".
int copy_kind_from_memory_types(int src, int dst);

/// Which decoded call on a thread the source reports: the outermost. One
/// per thread (thread_local in the source); each enter() is followed, on
/// the same thread, by one exit() when CUPTI calls back at the API's exit.
///
///   on enter:  if (nesting.enter()) report the call (on_launch,
///              on_blocking_begin, event record)  — else it is nested in a
///              call being reported: skip it
///   on exit:   if (nesting.exit()) report its end (on_blocking_end, the
///              launch's failure or slowness) — else skip
///
/// The runtime call wins over the driver call it makes: it is what the
/// program wrote (cudaMemcpy with its cudaMemcpyKind, not cuMemcpyDtoH_v2),
/// and it spans the whole wait (the runtime's own work on both sides of the
/// driver call). CUPTI gives the driver call made inside a runtime call the
/// runtime call's correlation id, which its kernel records carry (the GPU
/// check seed_cuda confirms it: a launch whose kernel never matched would
/// show in kernels_without_device_record). A program that calls the driver
/// itself (numba, CuPy's RawKernel) has no runtime call around it: there
/// the driver call is outermost. The tracker's own rule (a blocking call
/// nested in another on the same thread is ignored) would drop a nested
/// blocking call too, but not a nested launch (a second on_launch for one
/// kernel) nor a nested event record: hence this.
class ApiCallNesting {
 public:
  /// An enabled call was entered: true if it is the outermost open one on
  /// this thread.
  bool enter() { return depth_++ == 0; }
  /// An enabled call exited: true if it was the outermost. An exit with
  /// nothing open (a call entered before the source subscribed) is ignored
  /// and gives false.
  bool exit() {
    if (depth_ == 0) return false;
    return --depth_ == 0;
  }
  int depth() const { return depth_; }
  /// The source stopped (unsubscribed): forget what is open.
  void reset() { depth_ = 0; }

 private:
  int depth_ = 0;
};

}  // namespace Impl
}  // namespace addscope

#endif
