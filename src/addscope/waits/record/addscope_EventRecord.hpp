// addscope — one event as a program thread records it: a fixed-size,
// trivially copyable record, stamped and appended to the thread's own log
// (record/addscope_ThreadLog.hpp) and interpreted later by the analyzer
// (analyze/). Names are not text here but slots of the thread's name cache:
// a slot's text is defined by a NameDef record earlier in the same log.
//
// Field use by kind (unused fields are zero):
//   NameDef          name = slot, u64 = text length; the text follows in the
//                    next ceil(length / sizeof(EventRecord)) records, raw
//   KernelBegin      id, name, exec_*                         (Kokkos kernel)
//   CallBegin        id, sub = CallKind, name = what, site (0: what), exec_*
//   DeepCopyBegin    id, name = dst label, site = src label, device = dst
//                    space, stream = src space (name slots), u64 = bytes
//   CallEnd          id
//   CallEndInnermost sub = CallKind
//   RegionPush       name;  RegionPop
//   Instant          sub = CallKind (Alloc, Dealloc), name = label, site =
//                    space (name slot), u64 = bytes
//   DeviceSeen       exec_kind
//   Launch           correlation, device, stream, flags kStreamKnown;
//                    name = the kernel's symbol at its first launch on the
//                    thread (its Stack record before it; else 0)
//   LaunchFailed     correlation
//   SlowLaunch       t = its end, u64 = its begin (bits of a double), id (its
//                    own call), correlation (the launch's)
//   BlockingBegin    sub = SyncApi, device, stream, u64 = bytes, copy_kind,
//                    flags kAllStreams
//   BlockingEnd
//   DeviceMode       flags: kDeviceTimes, kCallbacksOnly, kTieExternal (how
//                    device work is observed from this moment on)
//   ThreadExit       the last record of a log
//   Stack            u64 = n return addresses, innermost first, raw in the
//                    next ceil(n / 8) records: where in the program the next
//                    timed record of the log happened (untimed, like NameDef)
//   PySite           name = file, site = function, correlation = the
//                    package function that line called (name slots; 0:
//                    none), u64 = line: the program's own Python line at
//                    that record (after its Stack record, if any; untimed)
#ifndef ADDSCOPE_WAITS_RECORD_EVENTRECORD_HPP
#define ADDSCOPE_WAITS_RECORD_EVENTRECORD_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace addscope {
namespace Impl {

enum class EventKind : std::uint8_t {
  None = 0,
  NameDef,
  KernelBegin,
  CallBegin,
  DeepCopyBegin,
  CallEnd,
  CallEndInnermost,
  RegionPush,
  RegionPop,
  Instant,
  DeviceSeen,
  Launch,
  LaunchFailed,
  SlowLaunch,
  BlockingBegin,
  BlockingEnd,
  DeviceMode,
  ThreadExit,
  Stack,
  PySite,
};

struct EventRecord {
  static constexpr std::uint8_t kAllStreams = 1;
  static constexpr std::uint8_t kStreamKnown = 2;
  static constexpr std::uint8_t kDeviceTimes = 4;
  static constexpr std::uint8_t kCallbacksOnly = 8;
  static constexpr std::uint8_t kTieExternal = 16;

  double t;           ///< seconds on the tracker's clock
  std::uint64_t id;   ///< the call's tracker id (begin and end records)
  std::uint64_t u64;  ///< bytes, or a second time (see the kinds above)
  std::uint32_t name, site;
  std::uint32_t correlation, device, stream;
  std::uint32_t exec_device, exec_instance;
  EventKind kind;
  std::uint8_t sub;  ///< CallKind or SyncApi
  std::uint8_t exec_kind;
  std::uint8_t flags;
  std::uint8_t copy_kind;
  std::uint8_t pad[7];

  double u64_as_time() const {
    double d;
    std::memcpy(&d, &u64, sizeof d);
    return d;
  }
  void set_u64_time(double d) { std::memcpy(&u64, &d, sizeof d); }
};
static_assert(sizeof(EventRecord) == 64, "one record is one cache line");
static_assert(std::is_trivially_copyable<EventRecord>::value,
              "records are copied as bytes");

}  // namespace Impl
}  // namespace addscope

#endif
