// addscope — records kept in the order of a time key. They arrive nearly
// in that order, so inserting is a push at the back or a short move.
#ifndef ADDSCOPE_WAITS_ANALYZE_TIMEQUEUE_HPP
#define ADDSCOPE_WAITS_ANALYZE_TIMEQUEUE_HPP

#include <algorithm>
#include <cstddef>
#include <deque>
#include <limits>
#include <utility>

namespace addscope {
namespace Impl {

/// A time after every other (the end of the run).
constexpr double kForever = std::numeric_limits<double>::infinity();

template <class T>
class TimeQueue {
 public:
  struct Item {
    double key;
    T value;
  };
  using iterator = typename std::deque<Item>::iterator;
  using const_iterator = typename std::deque<Item>::const_iterator;

  void insert(double key, T value) {
    if (q_.empty() || !(key < q_.back().key)) {
      q_.push_back({key, std::move(value)});
      return;
    }
    q_.insert(upper_bound(key), {key, std::move(value)});
  }
  bool empty() const { return q_.empty(); }
  std::size_t size() const { return q_.size(); }
  Item& front() { return q_.front(); }
  const Item& front() const { return q_.front(); }
  void pop_front() { q_.pop_front(); }
  void clear() { q_.clear(); }
  /// The first item whose key is greater than `key`.
  iterator upper_bound(double key) {
    return std::upper_bound(q_.begin(), q_.end(), key,
                            [](double k, const Item& i) { return k < i.key; });
  }
  iterator begin() { return q_.begin(); }
  iterator end() { return q_.end(); }
  const_iterator begin() const { return q_.begin(); }
  const_iterator end() const { return q_.end(); }

 private:
  std::deque<Item> q_;
};

}  // namespace Impl
}  // namespace addscope

#endif
