#include "addscope/mpi/addscope_BlockDistribution.hpp"

#include <algorithm>
#include <sstream>

#include "addscope/core/addscope_Error.hpp"

namespace addscope {
namespace mpi {

BlockDistribution::BlockDistribution(std::int64_t global_n, int ranks)
    : n_(global_n), ranks_(ranks) {
  ADDSCOPE_THROW_IF(global_n < 0,
                    "global_n = " << global_n << " is invalid; allowed: >= 0");
  ADDSCOPE_THROW_IF(ranks < 1,
                    "ranks = " << ranks << " is invalid; allowed: >= 1");
}

void BlockDistribution::check_rank(const char* what, int r, int hi) const {
  ADDSCOPE_THROW_IF(r < 0 || r > hi, what << " = " << r
                                          << " is out of range; allowed: 0.."
                                          << hi);
}

std::int64_t BlockDistribution::count(int r) const {
  check_rank("rank", r, ranks_ - 1);
  return n_ / ranks_ + (r < n_ % ranks_ ? 1 : 0);
}

std::int64_t BlockDistribution::offset(int r) const {
  check_rank("rank", r, ranks_);
  const std::int64_t base = n_ / ranks_, extra = n_ % ranks_;
  return std::int64_t(r) * base + std::min<std::int64_t>(r, extra);
}

int BlockDistribution::owner(std::int64_t i) const {
  ADDSCOPE_THROW_IF(i < 0 || i >= n_,
                    "index = " << i
                               << " is out of range; allowed: "
                                  "0.."
                               << n_ - 1);
  const std::int64_t base = n_ / ranks_, extra = n_ % ranks_;
  // The first `extra` ranks own base + 1 elements each.
  const std::int64_t big = extra * (base + 1);
  if (i < big) return int(i / (base + 1));
  return int(extra + (i - big) / base);
}

std::string BlockDistribution::describe() const {
  std::ostringstream os;
  os << "N = " << n_ << " over " << ranks_
     << (ranks_ == 1 ? " rank:" : " ranks:");
  for (int r = 0; r < ranks_; ++r) os << " " << count(r);
  return os.str();
}

}  // namespace mpi
}  // namespace addscope
