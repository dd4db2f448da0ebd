#include "addscope/waits/record/addscope_StackCapture.hpp"

#ifdef ADDSCOPE_HAVE_LIBUNWIND
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#else
#include <execinfo.h>
#endif

namespace addscope {
namespace Impl {

std::uint32_t capture_stack(std::uint64_t* pcs, std::uint32_t max) {
  if (max == 0) return 0;
  void* buf[kMaxStackFrames + 1];
  const int want = int(max < kMaxStackFrames ? max : kMaxStackFrames) + 1;
#ifdef ADDSCOPE_HAVE_LIBUNWIND
  const int n = unw_backtrace(buf, want);
#else
  const int n = backtrace(buf, want);
#endif
  // buf[0] is this function itself.
  std::uint32_t k = 0;
  for (int i = 1; i < n; ++i)
    pcs[k++] = reinterpret_cast<std::uint64_t>(buf[i]);
  return k;
}

void prepare_stack_capture() {
#ifdef ADDSCOPE_HAVE_LIBUNWIND
  // Each thread its own cache of unwinding rules: no lock on a capture.
  unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
#endif
  std::uint64_t pcs[4];
  capture_stack(pcs, 4);
}

}  // namespace Impl
}  // namespace addscope
