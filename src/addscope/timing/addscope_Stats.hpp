// addscope — statistics over repeated timings and byte/bandwidth arithmetic.
#ifndef ADDSCOPE_TIMING_STATS_HPP
#define ADDSCOPE_TIMING_STATS_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

namespace addscope {

/// The spread of a set of durations in seconds: min, quartiles, median,
/// max, mean and the sample standard deviation; the samples in measured
/// order. An empty Stats (count 0) means "not measured".
struct Stats {
  std::size_t count = 0;
  double min_s = 0, q1_s = 0, median_s = 0, q3_s = 0, max_s = 0;
  double mean_s = 0;
  double stddev_s = 0;  ///< sample standard deviation (n - 1); 0 for n = 1
  std::vector<double> samples_s;
  /// Quartiles interpolate linearly between order statistics (as numpy's
  /// default). Throws InvalidArgument on an empty sample set or a
  /// negative/NaN sample.
  static Stats of(std::vector<double> samples_s);
};

/// When runs are too spread for their median to be trusted: the slowest took
/// more than `max_over_min` times the fastest, and longer than `floor_s`
/// (below that, timer resolution and launch jitter decide the ratio).
struct NoiseBound {
  double max_over_min = 2.0;
  double floor_s = 50e-6;
  /// One run, or none, is never beyond the bound.
  bool exceeded_by(const Stats& s) const {
    return s.count > 1 && s.max_s > max_over_min * s.min_s && s.max_s > floor_s;
  }
};
/// max / min of the runs: 1 for one run, none, or a fastest run of 0 s.
double spread_ratio(const Stats& s);

/// Bytes moved, counted explicitly (each read and each write once).
std::uint64_t add_bytes(std::int64_t n, std::size_t elem_size);       // 3 N s
std::uint64_t copy_bytes(std::int64_t n, std::size_t elem_size);      // 2 N s
std::uint64_t transfer_bytes(std::int64_t n, std::size_t elem_size);  // N s

/// GB/s with GB = 10^9 bytes; seconds must be > 0.
double gbps(std::uint64_t bytes, double seconds);

}  // namespace addscope

#endif
