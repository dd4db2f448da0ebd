#include "addscope/timing/addscope_ReadAfterLaunch.hpp"

#include <algorithm>
#include <cstdio>

#include "addscope/core/addscope_Format.hpp"

namespace addscope {

namespace {

std::string t(double s) { return format_seconds(s); }

/// The read's verdict and, from the tracker, where the wait landed.
void judge(const ReadAfterLaunch& r, ReadAfterLaunchExplanation& e) {
  e.verdict = !r.async_backend ? ReadVerdict::Synchronous
              : r.waited()     ? ReadVerdict::Waited
                               : ReadVerdict::NoWait;
  e.read_over_launch = r.naive_read_s() / std::max(r.naive_launch_s, 1e-9);
  e.looks_slow = e.verdict == ReadVerdict::Waited && e.read_over_launch >= 10;
  if (r.attribution.empty()) return;
  e.waited_in = r.attribution.front().what;
  if (e.waited_in == "create_mirror_view(" + r.element + ")") {
    e.waited_step = WaitedStep::CreateMirror;
    e.waited_step_alone_s = r.fenced_mirror.median_s;
  } else if (e.waited_in == "deep_copy(" + r.element + ")") {
    e.waited_step = WaitedStep::DeepCopy;
    e.waited_step_alone_s = r.fenced_copy.median_s;
  } else {
    e.waited_step = WaitedStep::Other;
  }
}

/// Item 1: the naive sequence, as the seed's user saw it.
void say_naive(const ReadAfterLaunch& r, ReadAfterLaunchExplanation& e) {
  e.lines.push_back("1. The naive sequence: " + r.label + " returned after " +
                    t(r.naive_launch_s) + "; reading " + r.element +
                    " then took " + t(r.naive_read_s()) + ".");
  if (e.looks_slow) {
    char ratio[64];
    std::snprintf(ratio, sizeof ratio, "%.0f", e.read_over_launch);
    e.lines.push_back(std::string("   Taken at face value, the read looks ") +
                      ratio +
                      " times slower than the launch: \"the transfer is "
                      "slow\".");
  } else if (e.verdict == ReadVerdict::NoWait) {
    e.lines.push_back(
        "   The read did not wait: the kernel was done before it was read.");
  } else if (e.verdict == ReadVerdict::Synchronous) {
    e.lines.push_back("   On " + r.exec_space +
                      " the launch returns only when the kernel is done: "
                      "nothing was left for the read to absorb.");
  }
}

/// Item 2: the fenced sequence, the wait, and who waited for whom.
void say_fenced(const ReadAfterLaunch& r, ReadAfterLaunchExplanation& e) {
  e.lines.push_back(
      "2. With a fence after the launch, the kernel itself took " +
      t(r.completion_s) + "; reading " + r.element + " took " +
      t(r.fenced_read_s()) + " (median of " +
      std::to_string(r.fenced_read.count) + " reads, " +
      t(r.fenced_read.min_s) + ".." + t(r.fenced_read.max_s) +
      ": create_mirror_view " + t(r.fenced_mirror.median_s) + " + deep_copy " +
      t(r.fenced_copy.median_s) + ").");
  const char* verdict =
      e.verdict == ReadVerdict::Synchronous
          ? "not a wait (the kernel was done before the read began)"
      : e.verdict == ReadVerdict::Waited ? "it waited for the kernel"
                                         : "no wait, within noise";
  e.lines.push_back("   The naive read took " + t(r.wait_s()) +
                    " more than the fenced one: " + verdict +
                    " (a wait counts from " + t(r.wait_threshold_s()) +
                    ", the larger of 10 us and the spread of the fenced "
                    "reads).");
  const std::string who = "   Who waited for whom (sync tracker): ";
  if (r.attribution.empty()) {
    e.lines.push_back(who + "no call waited for earlier device work.");
    return;
  }
  e.lines.push_back(who + r.attribution_line);
  // Which call absorbs the wait differs between Kokkos versions (3.4:
  // create_mirror_view; 4.x: deep_copy's fence): say what was measured.
  const std::string array = r.element.substr(0, r.element.find('['));
  std::string line = "   The wait landed in " + e.waited_in;
  if (e.waited_step == WaitedStep::CreateMirror)
    line += ", which copies none of " + array + "'s values";
  line += ": the first call that had to wait for the kernel";
  if (e.waited_step != WaitedStep::Other)
    line += " (alone it takes " + t(e.waited_step_alone_s) + ")";
  e.lines.push_back(line + ".");
}

std::string conclude(const ReadAfterLaunch& r, const std::string& kernel,
                     ReadVerdict v) {
  if (v == ReadVerdict::Waited)
    return "the " + t(r.naive_read_s()) + " you would have blamed on reading " +
           r.element + " was the " + kernel + " kernel (" + t(r.wait_s()) +
           " of it was waiting); the read itself takes " + t(r.fenced_read_s());
  if (v == ReadVerdict::NoWait)
    return "nothing was hidden here: the " + kernel + " kernel took " +
           t(r.completion_s) + " and was done before " + r.element +
           " was read; the read itself takes " + t(r.fenced_read_s());
  return "on " + r.exec_space +
         " launches are synchronous: the launch call returns only when the "
         "work is done, so the gap cannot appear. The " +
         kernel + " launch took " + t(r.fenced_launch_s) + " and reading " +
         r.element + " took " + t(r.fenced_read_s());
}

}  // namespace

ReadAfterLaunchExplanation explain(const ReadAfterLaunch& r,
                                   const std::string& kernel) {
  ReadAfterLaunchExplanation e;
  judge(r, e);
  say_naive(r, e);
  say_fenced(r, e);
  e.conclusion = conclude(r, kernel.empty() ? r.label : kernel, e.verdict);
  return e;
}

}  // namespace addscope
