// addscope — the host clock the waits tracker stamps events with: seconds
// since the tracker's epoch on the steady clock (CLOCK_MONOTONIC on Linux),
// or a clock a test sets by hand. Device sources map their timestamps onto
// it through from_steady_ns().
#ifndef ADDSCOPE_WAITS_WAITSCLOCK_HPP
#define ADDSCOPE_WAITS_WAITSCLOCK_HPP

#include <chrono>
#include <cstdint>

namespace addscope {

class WaitsClock {
 public:
  virtual ~WaitsClock() = default;
  /// Seconds since the epoch.
  virtual double now() const = 0;
  /// A steady-clock time (nanoseconds since the steady clock's own epoch) on
  /// this clock.
  virtual double from_steady_ns(std::int64_t ns) const = 0;
};

/// The real clock: the steady clock, from the moment the first one was made.
class SteadyWaitsClock final : public WaitsClock {
 public:
  SteadyWaitsClock();
  double now() const override;
  double from_steady_ns(std::int64_t ns) const override;
  /// The epoch, in steady-clock nanoseconds.
  std::int64_t epoch_ns() const { return epoch_ns_; }

 private:
  std::int64_t epoch_ns_;
};

/// A clock that moves only when told (tests).
class ManualWaitsClock final : public WaitsClock {
 public:
  double now() const override { return t_; }
  double from_steady_ns(std::int64_t ns) const override { return ns * 1e-9; }
  void set(double t) { t_ = t; }

 private:
  double t_ = 0;
};

}  // namespace addscope

#endif
