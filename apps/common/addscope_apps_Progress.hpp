// addscope apps — progress on stderr while a sweep runs: the share of the
// work done (estimated by bytes moved and runs, the one measure the line
// shows) and, once it means something, an ETA. On a terminal one line is
// rewritten in place; otherwise a line is printed per finished group (a size
// and type, a transfer size).
#ifndef ADDSCOPE_APPS_COMMON_PROGRESS_HPP
#define ADDSCOPE_APPS_COMMON_PROGRESS_HPP

#include <cstddef>
#include <cstdint>
#include <string>

namespace addscope {
namespace apps {

class Progress {
 public:
  /// `total_weight`: the sum of the weights of every step to come (a step's
  /// weight estimates its cost; only ratios matter).
  explicit Progress(double total_weight);
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
  /// The line: "[ 43%] what  elapsed 1.2 s  ETA 1.6 s" for `done` of
  /// `total` weight after `elapsed_s` (the ETA from 2 s and 5 % on).
  static std::string status(double done, double total, double elapsed_s,
                            const std::string& what);

 private:
  double total_, done_ = 0;
  double t0_;
  bool tty_;
  bool open_line_ = false;
};

}  // namespace apps
}  // namespace addscope

#endif
