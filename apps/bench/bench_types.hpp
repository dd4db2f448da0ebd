// addscope-bench — the plain data the bench passes around: options, the
// device it ran on, and every measured row. No Kokkos here.
#ifndef ADDSCOPE_APPS_BENCH_BENCH_TYPES_HPP_
#define ADDSCOPE_APPS_BENCH_BENCH_TYPES_HPP_

#include <cstdint>
#include <string>
#include <vector>

#include "addscope/launch/addscope_LaunchConfig.hpp"
#include "addscope/timing/addscope_Results.hpp"

namespace addscope {
namespace bench {

/// What the command line asked for (before defaults that need the device).
struct Options {
  std::vector<std::int64_t> sizes;  ///< --sizes; empty: powers of two
  int min_log2 = 10;                ///< --min-log2
  int max_log2 = -1;                ///< --max-log2; -1: sized to the device
  bool min_log2_set = false;
  bool max_log2_set = false;
  std::string configs;                      ///< --configs; "": default list
  std::vector<std::string> types{"float"};  ///< --types
  int repeat = 10;                          ///< --repeat
  int warmup = 2;                           ///< --warmup
  std::string json, csv, plot;              ///< output paths ("" = none)
  bool quick = false;                       ///< --quick
  std::uint64_t seed = 20240601;            ///< --seed (input data)
  bool skip_transfers = false;              ///< --no-transfers
  bool skip_latency = false;                ///< --no-latency
};

/// The machine the default execution space runs on.
struct DeviceInfo {
  std::string exec_space;          ///< "Cuda", "OpenMP", ...
  bool is_gpu = false;             ///< memory not host-accessible
  std::string name;                ///< GPU or CPU model
  int units = 1;                   ///< SMs (GPU) or threads (host concurrency)
  std::string units_name;          ///< "SMs" | "threads"
  int concurrency = 1;             ///< exec.concurrency()
  std::uint64_t memory_total = 0;  ///< bytes (device or host RAM)
  std::uint64_t memory_available = 0;  ///< bytes free/available at start
  std::uint64_t l2_bytes = 0;          ///< L2 size (0 unknown)
  std::uint64_t llc_bytes = 0;         ///< last-level cache (0 unknown)
  std::string compute_capability;      ///< CUDA only
  std::string kokkos_version;          ///< "3.4.1"
  int kokkos_version_number = 0;       ///< KOKKOS_VERSION
  bool has_cuda_runtime = false;       ///< raw cudaMemcpy references exist
  bool has_pinned = false;             ///< addscope::has_pinned_host_space
};

/// One configuration of the sweep. Most are fixed; the team grid's
/// `team:ceil(N/T)xT` gets its league from the size.
struct SweepConfig {
  std::string spec;     ///< as listed: "range:ilp=4", "team:ceil(N/256)x256"
  LaunchConfig config;  ///< the configuration (league unset if per-n)
  bool league_per_n = false;    ///< league = ceil(n / team)
  bool grid = false;            ///< generated team-grid point
  int league_mult = 0;          ///< grid: league = mult x units (0: per-n)
  std::int64_t max_league = 0;  ///< per-n: skip sizes needing more (0: int)

  /// The configuration to launch at size n.
  LaunchConfig at(std::int64_t n) const;
  /// Can it run at size n (league fits an int)?
  bool valid_at(std::int64_t n) const;
};

/// One measured add.
struct AddRow {
  std::string type;  ///< "float" | "double" | "int32" | "int64"
  std::int64_t n = 0;
  std::string spec;  ///< the configuration as listed
  LaunchConfig ran;  ///< what ran (team:auto resolved)
  bool grid = false;
  int league_mult = 0;
  bool league_per_n = false;
  PhaseResult result;  ///< measure_phases (completion = launch + fence)
  double ceiling_gbps = 0;
  std::string ceiling_source;  ///< "Kokkos D2D copy" | "cudaMemcpy D2D"
  double pct_of_ceiling = 0;
  bool fits_l2 = false;         ///< 3 N sizeof(T) <= L2
  bool reduced_repeat = false;  ///< slower than the point budget: fewer runs
  bool verified = false;
  std::int64_t checked = 0;  ///< elements compared with x + y
  std::string check_error;   ///< first mismatch ("" if none)
};

/// The copy ceiling for one (size, type).
struct Ceiling {
  std::string type;
  std::int64_t n = 0;
  TransferResult kokkos;  ///< deep_copy between two device Views
  bool has_raw = false;
  TransferResult raw;  ///< cudaMemcpy D2D (CUDA only)
  double gbps = 0;     ///< the larger of the two
  std::string source;
};

/// The best configuration at one (size, type).
struct Advice {
  std::string type;
  std::int64_t n = 0;
  std::string spec;
  std::string ran;
  double gbps = 0, pct_of_ceiling = 0;
  std::string ceiling_source;
  double range_gbps = 0, range_pct = 0;  ///< plain `range`, if measured
  bool fits_l2 = false;
  std::string line;
};

/// A configuration's standing over all out-of-L2 points.
struct Recommendation {
  std::string spec;
  int points = 0;
  double mean_of_best = 0;   ///< geometric mean of gbps / best gbps
  double worst_of_best = 0;  ///< smallest gbps / best gbps
};

/// A host<->device copy, through Kokkos or the raw runtime.
struct TransferRow {
  std::string api;  ///< "Kokkos::deep_copy" | "cudaMemcpy"
  TransferResult r;
};

/// Launch cost of an empty kernel.
struct LatencyRow {
  std::string kernel;
  int launches = 0;
  double call_s = 0;      ///< host time of the launch call, per launch
  double unfenced_s = 0;  ///< K launches then one fence, divided by K
  Stats fenced;           ///< launch + fence, each
};

struct Report {
  DeviceInfo device;
  Options options;
  std::vector<std::int64_t> sizes;
  std::vector<std::string> specs;  ///< configurations as listed (first type)
  int repeat = 0, warmup = 0;
  std::vector<AddRow> rows;
  std::vector<Ceiling> ceilings;
  std::vector<Advice> advice;
  std::vector<Recommendation> recommendation;
  std::vector<TransferRow> transfers;
  std::vector<TransferRow> element_reads;
  std::vector<LatencyRow> latency;
  std::vector<std::string> notes;     ///< how the sweep was chosen
  std::vector<std::string> warnings;  ///< what makes the numbers doubtful
  int verify_failures = 0;
  double elapsed_s = 0;
};

/// "2^24" for powers of two, else the number.
std::string size_name(std::int64_t n);
/// log2(n) if n is a power of two, else -1.
int exact_log2(std::int64_t n);

}  // namespace bench
}  // namespace addscope

#endif  // ADDSCOPE_APPS_BENCH_BENCH_TYPES_HPP_
