// addscope — the launch configuration: a value the caller chooses, prints and
// parses back. Every configuration addscope prints — as given, resolved, or
// advised — parses back to the same value. It knows nothing of kernels.
#ifndef ADDSCOPE_LAUNCH_LAUNCHCONFIG_HPP
#define ADDSCOPE_LAUNCH_LAUNCHCONFIG_HPP

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace addscope {

/// How `add` maps the N elements onto Kokkos parallelism.
enum class LaunchKind {
  Range,           ///< RangePolicy; Kokkos chooses the block size
  Team,            ///< TeamPolicy(league, team) with a grid-stride loop
  TeamPerElement,  ///< TeamPolicy(ceil(N/T), T): one thread per element
  TeamAuto,        ///< team_size_recommended and a full-device league
  Blas             ///< KokkosBlas::update, the reference path
};

/// A launch configuration. Textual forms (see parse_launch_config):
///   range               RangePolicy, Kokkos chooses the block size; addscope
///                       chooses the work per index: on GPUs one 16-byte
///                       pack (range:pack,ilp=1) for contiguous aligned
///                       Views, else 4 elements; on CPUs 1 element (see
///                       README: why Kokkos 3.4's plain RangePolicy add is
///                       slow on Hopper)
///   range:ilp=K         RangePolicy over ceil(N/K) indices, each adding K
///                       elements: spaced ceil(N/K) apart on GPUs
///                       (coalesced), consecutive on CPUs;
///                       K in {1, 2, 4, 8, 16}; range:ilp=1 is the plain
///                       one-element-per-index RangePolicy
///   range:chunk=C       RangePolicy with chunk size C (C >= 1)
///   range:pack          each index adds 16-byte packs (float4, double2...)
///                       instead of single elements: needs contiguous,
///                       16-byte aligned Views
///                       Options combine in any order: range:pack,chunk=C,ilp=K
///   team:LxT            TeamPolicy, league L, team size T (L, T >= 1)
///   LxT                 shorthand for team:LxT (e.g. 1x1, the seed's launch)
///   team:ceil(N/T)xT    TeamPolicy with one thread per element: league
///                       ceil(N/T) for the N of the call, team size T
///   team:auto           team_size_recommended, league filling the device
///   blas                KokkosBlas::update(1, x, 1, y, 0, out)
struct LaunchConfig {
  LaunchKind kind = LaunchKind::Range;
  bool pack = false;        ///< range: 16-byte packs instead of elements
  std::int64_t chunk = 0;   ///< range: 0 = Kokkos' default chunk
  int ilp = 0;              ///< range: items per index, 0 = auto
  std::int64_t league = 0;  ///< team: league size
  int team = 0;             ///< team, team per element: team size

  static LaunchConfig range(std::int64_t chunk = 0, int ilp = 0);
  static LaunchConfig range_pack(std::int64_t chunk = 0, int ilp = 0);
  static LaunchConfig team_policy(std::int64_t league, int team_size);
  static LaunchConfig team_per_element(int team_size);
  static LaunchConfig team_auto();
  static LaunchConfig blas();

  /// Canonical text, parseable by parse_launch_config: "team:1024x256".
  std::string to_string() const;
  /// Kernel label: "addscope::add[team:1024x256]". For a configuration
  /// resolved from an automatic one, pass the resolved one as `ran`:
  /// "addscope::add[team:auto(8448x64)]", "addscope::add[range(ilp=4)]",
  /// "addscope::add[range(pack,ilp=1)]".
  std::string kernel_label() const;
  std::string kernel_label(const LaunchConfig& ran) const;
  /// Does this configuration leave a choice to resolve_launch_config?
  bool is_auto() const;
  /// Structural checks that need no execution space (throws InvalidArgument).
  void validate() const;

  friend bool operator==(const LaunchConfig& a, const LaunchConfig& b) {
    return a.kind == b.kind && a.pack == b.pack && a.chunk == b.chunk &&
           a.ilp == b.ilp && a.league == b.league && a.team == b.team;
  }
  friend bool operator!=(const LaunchConfig& a, const LaunchConfig& b) {
    return !(a == b);
  }
};

std::ostream& operator<<(std::ostream& os, const LaunchConfig& c);

/// Maximum elements per work item accepted by `range:ilp=K`.
constexpr int max_ilp = 16;

/// The accepted textual forms, for error messages and --help.
const char* launch_config_forms();

/// Parses one configuration; throws InvalidArgument naming the bad token and
/// the accepted forms.
LaunchConfig parse_launch_config(const std::string& text);

/// Parses a list of configurations separated by commas, whitespace or ';'
/// ("range, team:1x1, blas"). Within "range:..." a comma followed by a
/// range option (chunk=, ilp=, pack) continues the configuration:
/// "range:chunk=64,ilp=4,blas" is two. Empty list → InvalidArgument.
std::vector<LaunchConfig> parse_launch_config_list(const std::string& text);

}  // namespace addscope

#endif
