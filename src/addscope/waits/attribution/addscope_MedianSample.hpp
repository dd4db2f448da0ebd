// addscope — the median of a stream of durations in bounded memory: every
// value while at most kCapacity have come (the median is exact), then a
// uniform random sample of kCapacity of them (reservoir sampling, Vitter's
// Algorithm R, with a fixed seed so that runs are reproducible): 2 KiB per
// stream however long the run. Kokkos-free.
#ifndef ADDSCOPE_WAITS_ATTRIBUTION_MEDIANSAMPLE_HPP
#define ADDSCOPE_WAITS_ATTRIBUTION_MEDIANSAMPLE_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

namespace addscope {

class MedianSample {
 public:
  static constexpr std::size_t kCapacity = 256;

  void add(double v);
  /// Values added.
  std::uint64_t count() const { return count_; }
  /// The median of what was added (the mean of the two middle values for
  /// an even count); of the sample once more than kCapacity came. 0 when
  /// empty.
  double median() const;
  /// Is median() the median of every value added?
  bool exact() const { return count_ <= kCapacity; }

 private:
  std::vector<double> sample_;
  std::uint64_t count_ = 0;
  std::uint64_t rng_ = 0x9e3779b97f4a7c15ull;
};

}  // namespace addscope

#endif
