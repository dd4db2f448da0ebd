// addscope — the device's records until nothing can change them: kernel
// records as they arrive (their launch may not have been read yet), the
// kernels tied to their launches (by end time, with when each began running
// after its launch returned: the earliest bounds the blocking calls kept
// for overlap), and copies and memsets until the thread that made them is
// known. A part of the replay (analyze/addscope_Replay.hpp): the analyzer's
// thread alone, no lock.
#ifndef ADDSCOPE_WAITS_ANALYZE_DEVICERECORDS_HPP
#define ADDSCOPE_WAITS_ANALYZE_DEVICERECORDS_HPP

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "addscope/waits/analyze/addscope_Launches.hpp"
#include "addscope/waits/analyze/addscope_NameTable.hpp"
#include "addscope/waits/analyze/addscope_TimeQueue.hpp"
#include "addscope/waits/attribution/addscope_Attribution.hpp"  // kClockTolerance_s
#include "addscope/waits/attribution/addscope_IdleBlame.hpp"    // kUnknownThread
#include "addscope/waits/device/addscope_DeviceSource.hpp"
#include "addscope/waits/model/addscope_WaitRecords.hpp"

namespace addscope {
namespace Impl {

class DeviceRecords {
 public:
  /// A kernel the device ran: held until tie() finds its launch.
  void add_kernel(const DeviceKernelRecord& r);
  /// A copy or memset the device ran: held until take_copies().
  void add_copy(const DeviceCopyRecord& r);

  /// Ties each kernel record whose launch is known to that launch — or, if
  /// it never will be (the record began before `known_s`, or `final`), to
  /// none — and keeps it by end time; `tied(kernel, launch_known)` hears of
  /// each. Returns the earliest start of the records still waiting for
  /// their launch (kForever: none).
  template <class F>
  double tie(Launches& launches, NameTable& names, double known_s, bool final,
             F tied) {
    double untied_from = kForever;
    std::size_t keep = 0;
    for (std::size_t i = 0; i < arrived_.size(); ++i) {
      DeviceKernel k;
      bool launch_known = false;
      if (resolve(launches, k, arrived_[i], known_s, final, &launch_known)) {
        if (k.name == 0) k.name = names.intern(arrived_names_[i]);
        from_.insert(running_from(k));
        tied_.insert(k.end_s, k);
        tied(k, launch_known);
      } else {
        untied_from = std::min(untied_from, arrived_[i].start_s);
        arrived_[keep] = arrived_[i];
        arrived_names_[keep] = std::move(arrived_names_[i]);
        ++keep;
      }
    }
    arrived_.resize(keep);
    arrived_names_.resize(keep);
    return untied_from;
  }

  /// Hands each copy whose thread is known — or never will be (it began
  /// before `known_s`, or `final`: kUnknownThread) — to `f(record, thread)`;
  /// keeps the others.
  template <class F>
  void take_copies(Launches& launches, double known_s, bool final, F f) {
    std::size_t keep = 0;
    for (std::size_t i = 0; i < copies_.size(); ++i) {
      const DeviceCopyRecord& r = copies_[i];
      const std::uint32_t thread = copy_thread(launches, r);
      if (thread == kUnknownThread && !final &&
          !(r.start_s + kClockTolerance_s < known_s)) {
        copies_[keep++] = r;  // its call may still be read
        continue;
      }
      f(r, thread);
    }
    copies_.resize(keep);
  }

  // The kernels tied, by end time.
  bool empty() const { return tied_.empty(); }
  double front_end() const { return tied_.front().key; }
  /// Takes the kernel that ended first.
  DeviceKernel pop_front();
  /// Each kernel tied that ended in (from, to]: f(DeviceKernel&).
  template <class F>
  void each_ending_in(double from, double to, F f) {
    for (auto it = tied_.upper_bound(from); it != tied_.end() && it->key <= to;
         ++it)
      f(it->value);
  }
  /// When the earliest kernel tied began running after its launch returned
  /// (kForever: none).
  double earliest_from() const {
    return from_.empty() ? kForever : *from_.begin();
  }
  /// The earliest start of a copy held (kForever: none).
  double earliest_copy() const;
  /// Kernel records still waiting for their launch.
  std::size_t untied() const { return arrived_.size(); }
  /// When `k` began running after its launch returned.
  static double running_from(const DeviceKernel& k) {
    return std::max(k.start_s, k.launch_end_s);
  }
  /// Everything held.
  std::size_t size() const {
    return tied_.size() + arrived_.size() + copies_.size();
  }

 private:
  static bool resolve(Launches& launches, DeviceKernel& k,
                      const DeviceKernelRecord& r, double known_s, bool final,
                      bool* launch_known);
  static std::uint32_t copy_thread(Launches& launches,
                                   const DeviceCopyRecord& r);

  std::vector<DeviceKernelRecord> arrived_;  // kernels not yet tied
  std::vector<std::string> arrived_names_;   // ... their device names
  TimeQueue<DeviceKernel> tied_;             // kernels tied, by end
  std::multiset<double> from_;               // ... running_from() of each
  std::vector<DeviceCopyRecord> copies_;     // copies, thread not yet known
};

}  // namespace Impl
}  // namespace addscope

#endif
