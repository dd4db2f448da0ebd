// addscope — what kind of host call a record is, and what kind of wait it
// holds. Kokkos-free.
#ifndef ADDSCOPE_WAITS_MODEL_CALLKIND_HPP
#define ADDSCOPE_WAITS_MODEL_CALLKIND_HPP

#include <cstdint>
#include <string>
#include <string_view>

namespace addscope {

/// A host call the tracker sees (Kokkos Tools events, the library's own
/// steps, or a blocking runtime call outside all of them).
enum class CallKind : std::uint8_t {
  HostKernel,  ///< a kernel on a host backend: its launch is its work
  Launch,      ///< launching a kernel on an asynchronous device
  Fence,       ///< a Kokkos fence (Kokkos >= 3.5 reports them)
  DeepCopy,    ///< Kokkos::deep_copy
  Alloc,       ///< an allocation (an instant: context for what follows)
  Dealloc,     ///< a deallocation (an instant)
  Region,      ///< a profiling region: context, never the waiting call
  Step,        ///< a step named by the program (the library's front door)
  Runtime,     ///< a blocking device-runtime call outside any Kokkos call
  Mpi,         ///< an MPI call (libaddscope_waits_mpi.so's PMPI wrappers)
};
const char* call_kind_name(CallKind k);

/// How a call waited. Explicit: in a fence the program wrote (or a
/// synchronization call of its own). Hidden: anywhere else.
enum class WaitClass : std::uint8_t { None, Explicit, Hidden };
const char* wait_class_name(WaitClass c);

/// A device-runtime call that can block the host until earlier device work
/// has finished (seen through CUPTI's callback API).
enum class SyncApi : std::uint8_t {
  DeviceSynchronize,  ///< cudaDeviceSynchronize / cudaThreadSynchronize
  StreamSynchronize,  ///< cudaStreamSynchronize
  EventSynchronize,   ///< cudaEventSynchronize
  Memcpy,             ///< cudaMemcpy and its synchronous variants
  MemcpyAsync,        ///< cudaMemcpyAsync (blocks for pageable host memory)
  Free,               ///< cudaFree (synchronizes the device)
  FreeHost,           ///< cudaFreeHost
  Memset,             ///< cudaMemset(Async), cuMemsetD* (asynchronous but
                      ///< for host memory or behind the legacy stream)
  Launch,             ///< a kernel launch that took long (it can block)
  Other
};
const char* sync_api_name(SyncApi a);
/// " (stream 13)": what a call on one stream adds to its name.
std::string stream_suffix(std::uint32_t stream);
/// `what` without a stream_suffix at its end ("cudaStreamSynchronize
/// (stream 13)" -> "cudaStreamSynchronize"; anything else as it is).
std::string_view without_stream_suffix(std::string_view what);
/// A call whose only purpose is to wait (a synchronization the program
/// asked for); the others wait as a side effect.
bool is_synchronization(SyncApi a);

}  // namespace addscope

#endif
