#include "common/addscope_apps_Progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "addscope/core/addscope_Format.hpp"
#include "addscope/timing/addscope_Timer.hpp"

namespace addscope {
namespace apps {

Progress::Progress(double total_weight)
    : total_(std::max(total_weight, 1e-30)),
      t0_(host_seconds()),
      tty_(::isatty(::fileno(stderr)) == 1) {}

Progress::~Progress() { finish(); }

double Progress::weight(std::uint64_t bytes, int runs) {
  // A launch and a fence cost about as much as moving 256 KiB.
  return double(runs) * (double(bytes) + 256.0 * 1024.0);
}

std::string Progress::status(double done, double total, double elapsed,
                             const std::string& what) {
  const double frac = std::min(1.0, done / std::max(total, 1e-30));
  // The weights are estimates: an ETA from the first second or the first
  // few percent says more about the estimate than about the run.
  std::string eta;
  if (elapsed >= 2.0 && frac >= 0.05 && frac < 1)
    eta = "  ETA " + format_seconds(elapsed * (1 - frac) / frac);
  return fmt::format("[{:3.0f}%] {}  elapsed {}{}", 100 * frac, what,
                     format_seconds(elapsed), eta);
}

void Progress::step(double weight, const std::string& what, bool group_done) {
  done_ += weight;
  const std::string line = status(done_, total_, host_seconds() - t0_, what);
  if (tty_) {
    std::fprintf(stderr, "\r%s\x1b[K", line.c_str());
    open_line_ = true;
  } else if (group_done) {
    std::fprintf(stderr, "%s\n", line.c_str());
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

}  // namespace apps
}  // namespace addscope
