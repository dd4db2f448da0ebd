#include "addscope/waits/attribution/addscope_MedianSample.hpp"

#include <algorithm>

namespace addscope {

namespace {
// splitmix64: a small, good generator; the state is the sample's own.
std::uint64_t next(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
}  // namespace

void MedianSample::add(double v) {
  ++count_;
  if (sample_.size() < kCapacity) {
    sample_.push_back(v);
    return;
  }
  // Keep the new value with probability kCapacity / count_, in place of a
  // uniformly chosen one.
  const std::uint64_t j = next(rng_) % count_;
  if (j < kCapacity) sample_[std::size_t(j)] = v;
}

double MedianSample::median() const {
  if (sample_.empty()) return 0;
  std::vector<double> v(sample_);
  const std::size_t n = v.size(), mid = n / 2;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
  const double hi = v[mid];
  if (n % 2 == 1) return hi;
  const double lo =
      *std::max_element(v.begin(), v.begin() + std::ptrdiff_t(mid));
  return 0.5 * (lo + hi);
}

}  // namespace addscope
