#include "addscope/waits/model/addscope_CallKind.hpp"

namespace addscope {

const char* call_kind_name(CallKind k) {
  switch (k) {
    case CallKind::HostKernel:
      return "kernel";
    case CallKind::Launch:
      return "launch";
    case CallKind::Fence:
      return "fence";
    case CallKind::DeepCopy:
      return "deep_copy";
    case CallKind::Alloc:
      return "alloc";
    case CallKind::Dealloc:
      return "dealloc";
    case CallKind::Region:
      return "region";
    case CallKind::Step:
      return "step";
    case CallKind::Runtime:
      return "runtime";
    case CallKind::Mpi:
      return "mpi";
  }
  return "unknown";
}

const char* wait_class_name(WaitClass c) {
  switch (c) {
    case WaitClass::None:
      return "none";
    case WaitClass::Explicit:
      return "explicit";
    case WaitClass::Hidden:
      return "hidden";
  }
  return "unknown";
}

const char* sync_api_name(SyncApi a) {
  switch (a) {
    case SyncApi::DeviceSynchronize:
      return "cudaDeviceSynchronize";
    case SyncApi::StreamSynchronize:
      return "cudaStreamSynchronize";
    case SyncApi::EventSynchronize:
      return "cudaEventSynchronize";
    case SyncApi::Memcpy:
      return "cudaMemcpy";
    case SyncApi::MemcpyAsync:
      return "cudaMemcpyAsync";
    case SyncApi::Free:
      return "cudaFree";
    case SyncApi::FreeHost:
      return "cudaFreeHost";
    case SyncApi::Memset:
      return "cudaMemset";
    case SyncApi::Launch:
      return "cudaLaunchKernel";
    case SyncApi::Other:
      return "runtime call";
  }
  return "runtime call";
}

bool is_synchronization(SyncApi a) {
  return a == SyncApi::DeviceSynchronize || a == SyncApi::StreamSynchronize ||
         a == SyncApi::EventSynchronize;
}

std::string stream_suffix(std::uint32_t stream) {
  return " (stream " + std::to_string(stream) + ")";
}

std::string_view without_stream_suffix(std::string_view what) {
  constexpr std::string_view kOpen = " (stream ";
  const std::size_t at = what.rfind(kOpen);
  if (at == std::string_view::npos || what.back() != ')') return what;
  const std::string_view digits =
      what.substr(at + kOpen.size(), what.size() - 1 - at - kOpen.size());
  if (digits.empty()) return what;
  for (char c : digits)
    if (c < '0' || c > '9') return what;
  return what.substr(0, at);
}

}  // namespace addscope
