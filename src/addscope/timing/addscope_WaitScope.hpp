// addscope — names a region of your own code for the waits report. While a
// WaitScope lives, every call that waits (a deep_copy, a fence, a mirror, a
// runtime call) is reported "in region <name>", and the report sums the
// waits of each region ("waits by region"). Scopes nest ("outer > inner").
//
//   {
//     addscope::WaitScope scope("assemble");
//     ...  // kernels, deep_copy, fences
//   }      // the region ends with the scope
//
// With the waits tool loaded (libaddscope_waits.so), the name reaches it as
// a Kokkos profiling region, so any other Kokkos tool sees it too (a
// space-time stack, an NVTX connector). Without it, the library's own
// tracker (the one behind measure_read_after_launch) hears it directly; no
// other work is done. Use it on the thread that does the work, between
// Kokkos::initialize and Kokkos::finalize.
#ifndef ADDSCOPE_TIMING_WAITSCOPE_HPP
#define ADDSCOPE_TIMING_WAITSCOPE_HPP

#include <Kokkos_Core.hpp>
#include <string>
#include <utility>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/waits/addscope_SyncTracker.hpp"

namespace addscope {

class WaitScope {
 public:
  /// Opens the region `name` (not empty).
  explicit WaitScope(std::string name) : name_(std::move(name)) {
    ADDSCOPE_THROW_IF(name_.empty(),
                      "name = '' is invalid; allowed: a non-empty region name");
    Kokkos::Profiling::pushRegion(name_);
    // A tool that feeds the tracker hears the region from Kokkos already.
    SyncTracker& t = SyncTracker::global();
    direct_ = !t.fed_by_kokkos_tools();
    if (direct_) t.region_push(name_);
  }
  ~WaitScope() {
    if (direct_) SyncTracker::global().region_pop();
    Kokkos::Profiling::popRegion();
  }
  WaitScope(const WaitScope&) = delete;
  WaitScope& operator=(const WaitScope&) = delete;
  WaitScope(WaitScope&&) = delete;
  WaitScope& operator=(WaitScope&&) = delete;

  const std::string& name() const { return name_; }

 private:
  std::string name_;
  bool direct_ = false;
};

}  // namespace addscope

#endif
