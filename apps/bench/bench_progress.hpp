// addscope-bench — progress (and, once it means something, an ETA) on
// stderr while a sweep runs. On a
// terminal one line is rewritten in place; otherwise a line is printed per
// finished group (a size and type, a transfer size).
#ifndef ADDSCOPE_APPS_BENCH_BENCH_PROGRESS_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_PROGRESS_HPP_

#include <cstddef>
#include <cstdint>
#include <string>

namespace addscope {
namespace bench {

class Progress {
 public:
  /// `total_weight`: the sum of the weights of every step to come (a step's
  /// weight estimates its cost; only ratios matter). `total_steps`: how many.
  Progress(double total_weight, std::size_t total_steps);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// One step is done. `what` describes it; `group_done` marks the end of a
  /// group (printed even when stderr is not a terminal).
  void step(double weight, const std::string& what, bool group_done);
  /// Ends the in-place line (if any) and prints `msg` on its own line.
  void message(const std::string& msg);
  /// Clears the in-place line.
  void finish();

  /// Weight of one add (or copy) moving `bytes` per run, `runs` times.
  static double weight(std::uint64_t bytes, int runs);

 private:
  std::string status(const std::string& what) const;
  double total_, done_ = 0;
  std::size_t steps_, done_steps_ = 0;
  double t0_;
  bool tty_;
  bool open_line_ = false;
};

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_PROGRESS_HPP_
