// addscope — what the waits tracker keeps once events are attributed:
// per-kernel-name, per-call-site, per-stream and per-thread aggregates, the
// longest waits (top K) and the most recent ones (a ring). Its memory does
// not grow with the length of the run, only with the number of distinct
// names. Kokkos-free; not thread-safe (the tracker locks).
#ifndef ADDSCOPE_WAITS_ATTRIBUTION_LEDGER_HPP
#define ADDSCOPE_WAITS_ATTRIBUTION_LEDGER_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "addscope/waits/attribution/addscope_MedianSample.hpp"
#include "addscope/waits/model/addscope_WaitRecords.hpp"

namespace addscope {

/// One launch shape of a kernel name on one device, over the run.
struct ShapeStats {
  LaunchShape shape;
  std::uint32_t device = 0;
  std::uint64_t launches = 0;
  double device_s = 0;
  /// Where its launches were made (each launch's own stack where its place
  /// is known: record/addscope_LaunchPlaces.hpp; else the stacks taken at
  /// some: its first, a new shape, after long host code), up to kPlaces;
  /// the launches at none of them (or at none known) in `unplaced`.
  struct Place {
    std::uint32_t stack = 0;
    std::uint64_t launches = 0;
    double device_s = 0;
  };
  static constexpr std::size_t kPlaces = 4;
  std::array<Place, kPlaces> places{};
  std::uint32_t nplaces = 0;
  std::uint64_t unplaced = 0;
  /// Its line (0: none known), resolved into `launched_at`: while every
  /// launch's place is known, the place where they took the most device
  /// time; else its first place.
  std::uint32_t launch_stack = 0;
  CodeSite launched_at;
};

/// One kernel name over the run.
struct KernelStats {
  std::string name;            ///< readable
  std::string raw_name;        ///< as Kokkos or the device named it
  std::uint64_t calls = 0;     ///< Kokkos launches (or host kernel calls)
  std::uint64_t launches = 0;  ///< device kernels (or host kernel calls)
  double device_s = 0;         ///< total time on the device (host: in the call)
  double device_max_s = 0;
  double waited_hidden_s = 0;    ///< host time waiting for it, hidden
  double waited_explicit_s = 0;  ///< ... in the program's own fences
  double overlap_s = 0;          ///< host work done while it ran
  LaunchShape shape;             ///< the last launch's (device records only)
  std::uint32_t stream = 0;      ///< the last launch's stream
  /// Where it ran (Unknown: a host kernel Kokkos 3.x did not place, see
  /// SyncTracker::snapshot()).
  DeviceKind device_kind = DeviceKind::Unknown;
  /// Per launch: device time (host backends: host time in the call).
  MedianSample times;
  /// Distinct launch shapes (device records only), in the order first seen;
  /// at most kMaxShapes, later ones are summed in other_shapes.
  static constexpr std::size_t kMaxShapes = 8;
  std::vector<ShapeStats> shapes;
  ShapeStats other_shapes;  ///< its shape is unknown()
  /// Where in the program's code it was first launched (stack id, see
  /// CallRecord::stack), resolved into `launched_at`; each shape's, in
  /// `shapes`.
  std::uint32_t launch_stack = 0;
  CodeSite launched_at;
  /// A Python kernel's `def` line (numba's `def add(`), found in the file it
  /// was launched from; unknown otherwise.
  CodeSite defined_at;
};

/// How many of a kernel's (or shape's) launches its line stands for.
enum class LaunchedHow {
  Only,   ///< every one ("launched at")
  First,  ///< its first known one, the others' places unknown ("first ...")
  Most,   ///< the place of the most device time of several ("mostly ...")
};

/// Where `k` was launched in shape `s` (one of k.shapes), and how many of
/// those launches that line stands for: the shape's busiest place (each
/// launch placed), else its first launch where it took a stack, else the
/// kernel's first launch.
inline const CodeSite& launched_in(const KernelStats& k, const ShapeStats& s,
                                   LaunchedHow* how) {
  if (s.launched_at.known()) {
    std::uint64_t there = 0;
    for (std::uint32_t i = 0; i < s.nplaces; ++i)
      if (s.places[i].stack == s.launch_stack) there = s.places[i].launches;
    *how = there == s.launches                ? LaunchedHow::Only
           : s.unplaced == 0 && s.nplaces > 1 ? LaunchedHow::Most
                                              : LaunchedHow::First;
    return s.launched_at;
  }
  *how = std::max(k.calls, k.launches) > 1 ? LaunchedHow::First
                                           : LaunchedHow::Only;
  return k.launched_at;
}

/// "launched at ", "first launched at ", "mostly launched at ".
inline const char* launched_words(LaunchedHow how) {
  switch (how) {
    case LaunchedHow::First:
      return "first launched at ";
    case LaunchedHow::Most:
      return "mostly launched at ";
    default:
      return "launched at ";
  }
}

/// One call site: a kind, a name without sizes, the regions around it.
struct SiteStats {
  CallKind kind = CallKind::Step;
  std::string site;
  std::string regions;
  std::uint64_t calls = 0;
  double duration_s = 0;
  double wait_hidden_s = 0, wait_explicit_s = 0;
  std::uint64_t hidden_calls = 0, explicit_calls = 0;  ///< calls that waited
  double max_wait_s = 0;
  /// Where in the program's code it is (stack id, see CallRecord::stack;
  /// 0: not known), resolved into `code`.
  std::uint32_t stack = 0;
  CodeSite code;
};

/// One device stream.
struct StreamStats {
  std::uint32_t device = 0, stream = 0;
  ExecId exec;  ///< the Kokkos instance its kernels were launched on
  std::uint64_t kernels = 0;
  double busy_s = 0;  ///< sum of its kernels' device times
};

/// One host thread.
struct ThreadStats {
  std::uint32_t thread = 0;
  std::uint64_t calls = 0;
  double wait_hidden_s = 0, wait_explicit_s = 0;
};

struct WaitTotals {
  std::uint64_t launches = 0;        ///< Kokkos kernels launched asynchronously
  std::uint64_t device_kernels = 0;  ///< kernels the device reported
  std::uint64_t host_kernels = 0;
  std::uint64_t calls = 0;  ///< host calls finished
  std::uint64_t hidden_calls = 0, explicit_calls = 0;
  double hidden_s = 0, explicit_s = 0;
  double overlap_s = 0;      ///< host work during kernels (kernel-seconds)
  double device_busy_s = 0;  ///< sum of device kernel times
};

/// What the ledger keeps with details (everything else is aggregated), and
/// how many aggregates: past a cap, new kernel names (call sites, streams,
/// threads) are merged into one "(other ...)" entry and counted.
struct LedgerLimits {
  std::size_t top_waits = 1000;    ///< longest waits
  std::size_t recent_waits = 256;  ///< most recent waits
  std::size_t kernels = 4096;      ///< distinct kernel names
  std::size_t sites = 4096;        ///< distinct call sites (with regions)
  std::size_t streams = 1024;      ///< distinct device streams
  std::size_t threads = 1024;      ///< distinct host threads
};

/// Events merged into an "(other ...)" entry past a LedgerLimits cap.
struct LedgerDropped {
  std::uint64_t kernels = 0, sites = 0, streams = 0, threads = 0;
};

class Ledger {
 public:
  using Limits = LedgerLimits;
  explicit Ledger(Limits limits = Limits());

  /// A call site: what the call was, inside which regions, and where in
  /// the program (one row per line of code: the same call made at two
  /// lines is two sites).
  struct SiteKey {
    CallKind kind;
    std::uint32_t site;       ///< name id of the site
    std::uint32_t regions;    ///< name id of the region path
    std::uint32_t stack = 0;  ///< where (a stack id; 0: not known)
    bool operator==(const SiteKey& o) const {
      return kind == o.kind && site == o.site && regions == o.regions &&
             stack == o.stack;
    }
  };
  struct SiteKeyHash {
    std::size_t operator()(const SiteKey& k) const {
      return std::hash<std::uint64_t>()(
          ((std::uint64_t(k.kind) << 56) ^ (std::uint64_t(k.site) << 28) ^
           k.regions) +
          std::uint64_t(k.stack) * 0x9e3779b97f4a7c15ull);
    }
  };
  /// A finished host call (names are copied only when first seen).
  void add_call(const SiteKey& key, const std::string& site,
                const std::string& regions, std::uint32_t thread,
                double duration_s, WaitClass cls, double wait_s);
  /// A finished call waited `wait_s`.
  void count_wait(WaitClass cls, double wait_s, std::uint32_t thread);
  /// Would a wait this long be kept with its details?
  bool wants_details(double wait_s) const;
  /// Keeps a waiting call's details among the longest waits (if it is one)
  /// and, with `recent`, among the most recent ones.
  void keep_details(CallRecord c, bool recent);
  /// A kernel (name id `kernel`) was waited for.
  void add_kernel_wait(std::uint32_t kernel, const std::string& name,
                       const std::string& raw, WaitClass cls, double wait_s);
  void add_device_kernel(std::uint32_t kernel, const std::string& name,
                         const std::string& raw, const DeviceKernel& k,
                         double overlap_s);
  void add_host_kernel(std::uint32_t kernel, const std::string& name,
                       const std::string& raw, double duration_s,
                       DeviceKind where = DeviceKind::Unknown);
  /// A Kokkos kernel launched on an asynchronous device (`where`).
  void add_launch(std::uint32_t kernel, const std::string& name,
                  const std::string& raw,
                  DeviceKind where = DeviceKind::Unknown);

  const WaitTotals& totals() const { return totals_; }
  /// Longest wait first.
  std::vector<CallRecord> top_waits() const;
  /// Waits of calls with id >= `first_id`, longest first.
  std::vector<CallRecord> waits_since(std::uint64_t first_id) const;
  /// By device time, longest first.
  std::vector<KernelStats> kernels() const;
  /// By wait, then duration, longest first.
  std::vector<SiteStats> sites() const;
  /// Sorts `v` as sites() does.
  static void sort_sites(std::vector<SiteStats>& v);
  /// Adds site `from`'s calls to `into` (the same call at the same line,
  /// reached by two stacks); `into` keeps the stack of the longer wait.
  static void merge_site(SiteStats& into, const SiteStats& from);
  std::vector<StreamStats> streams() const;
  std::vector<ThreadStats> threads() const;
  const LedgerDropped& dropped() const { return dropped_; }

 private:
  KernelStats& kernel(std::uint32_t id, const std::string& name,
                      const std::string& raw);
  ThreadStats& thread(std::uint32_t thread);
  SiteStats& site_entry(const SiteKey& key, const std::string& site,
                        const std::string& regions);
  LedgerDropped dropped_;
  // The entries used last (programs repeat them): found without a hash.
  // Entries of an unordered_map do not move.
  SiteKey last_site_key_{CallKind::Step, ~0u, ~0u, ~0u};
  SiteStats* last_site_ = nullptr;
  std::uint32_t last_thread_id_ = 0;
  ThreadStats* last_thread_ = nullptr;
  std::uint32_t last_kernel_id_ = 0;
  KernelStats* last_kernel_ = nullptr;
  Limits limits_;
  WaitTotals totals_;
  std::vector<CallRecord> top_;  // min-heap on wait_s while filling
  std::deque<CallRecord> recent_;
  std::unordered_map<std::uint32_t, KernelStats> kernels_;
  std::unordered_map<SiteKey, SiteStats, SiteKeyHash> sites_;
  std::unordered_map<std::uint64_t, StreamStats> streams_;
  std::unordered_map<std::uint32_t, ThreadStats> threads_;
};

}  // namespace addscope

#endif
