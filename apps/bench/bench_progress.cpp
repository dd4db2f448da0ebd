#include "bench_progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "addscope/timing/addscope_Timer.hpp"
#include "addscope/core/addscope_Format.hpp"

namespace addscope {
namespace bench {


Progress::Progress(double total_weight, std::size_t total_steps)
    : total_(std::max(total_weight, 1e-30)),
      steps_(total_steps),
      t0_(host_seconds()),
      tty_(::isatty(::fileno(stderr)) == 1) {}

Progress::~Progress() { finish(); }

double Progress::weight(std::uint64_t bytes, int runs) {
  // A launch and a fence cost about as much as moving 256 KiB.
  return double(runs) * (double(bytes) + 256.0 * 1024.0);
}

std::string Progress::status(const std::string& what) const {
  const double elapsed = host_seconds() - t0_;
  const double frac = std::min(1.0, done_ / total_);
  // The weights are estimates: an ETA from the first second or the first
  // few percent says more about the estimate than about the run.
  std::string eta;
  if (elapsed >= 2.0 && frac >= 0.05 && frac < 1)
    eta = "  ETA " + format_seconds(elapsed * (1 - frac) / frac);
  return fmt::format("[{:>{}}/{} {:3.0f}%] {}  elapsed {}{}", done_steps_,
                     std::to_string(steps_).size(), steps_, 100 * frac, what,
                     format_seconds(elapsed), eta);
}

void Progress::step(double weight, const std::string& what, bool group_done) {
  done_ += weight;
  ++done_steps_;
  if (tty_) {
    std::fprintf(stderr, "\r%s\x1b[K", status(what).c_str());
    open_line_ = true;
  } else if (group_done) {
    std::fprintf(stderr, "%s\n", status(what).c_str());
  }
  std::fflush(stderr);
}

void Progress::message(const std::string& msg) {
  finish();
  std::fprintf(stderr, "%s\n", msg.c_str());
  std::fflush(stderr);
}

void Progress::finish() {
  if (open_line_) {
    std::fprintf(stderr, "\r\x1b[K");
    std::fflush(stderr);
    open_line_ = false;
  }
}

}  // namespace bench
}  // namespace addscope
