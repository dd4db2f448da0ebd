// addscope apps — one command-line vocabulary for both apps: the same flag
// names (each with its singular or short alias), the same list separators
// (commas, spaces or ';'), the same size syntax (1048576, 2^20, 1e6),
// --version, --help with defaults, --kokkos-* handed to Kokkos, and errors
// that name the flag as the user typed it.
#ifndef ADDSCOPE_APPS_COMMON_CLI_HPP
#define ADDSCOPE_APPS_COMMON_CLI_HPP

#include <CLI/CLI.hpp>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "addscope/launch/addscope_LaunchConfig.hpp"
#include "common/addscope_apps_Types.hpp"

namespace addscope {
namespace apps {

constexpr int exit_ok = 0;       ///< success
constexpr int exit_failure = 1;  ///< runtime failure or a wrong result
constexpr int exit_usage = 2;    ///< bad flags or values; nothing measured
constexpr int keep_going = -1;   ///< parse(): go on and run

/// Defaults, as --help shows them.
struct CliDefaults {
  std::string sizes_help;  ///< e.g. "10000000" or "powers of two ..."
  bool one_size = false;   ///< --sizes takes one size (the demo), not a list
  std::string types = "float";
  std::string configs_help;  ///< e.g. "range:ilp=1 range range:pack team:auto"
  int repeat = 10;
  int warmup = 2;
  std::uint64_t seed = 20240601;
  bool json = true;  ///< offer --json
};

/// The options both apps share, parsed and validated.
struct CommonOptions {
  std::vector<std::int64_t> sizes;    ///< --sizes/--n; empty: app default
  std::vector<ValueType> types;       ///< --types/--type
  std::vector<LaunchConfig> configs;  ///< --configs/--config; empty: default
  int repeat = 10;                    ///< --repeat
  int warmup = 2;                     ///< --warmup
  std::string json;                   ///< --json FILE ("" none)
  std::uint64_t seed = 20240601;      ///< --seed (random input data)
};

/// Parses one size: an integer (1048576), a power of two (2^20) or a
/// decimal exponent (1e6, 2.5e6) naming a whole number, in 1..2^40.
/// Throws InvalidArgument naming `flag`.
std::int64_t parse_size(const std::string& flag, const std::string& text);
/// Splits a list at commas, whitespace and ';' (empty items dropped).
std::vector<std::string> split_list(const std::string& text);
/// Parses an integer flag value in [lo, hi]; throws InvalidArgument naming
/// `flag`.
long long parse_int(const std::string& flag, const std::string& text,
                    long long lo, long long hi);

/// "addscope-demo 0.1.0 (Kokkos 3.4.1, default execution space OpenMP)".
std::string version_line(const std::string& program);

/// Prints "<program>: <message>" on stderr, and for developers the place
/// in addscope's sources that threw, when ADDSCOPE_ERROR_LOCATION is set
/// (non-empty, not 0) or in a build without NDEBUG.
void print_error(const std::string& program, const std::exception& e);

/// A command line: the shared options, app-specific ones added through
/// app(), --kokkos-* set aside for Kokkos::initialize.
class CommandLine {
 public:
  CommandLine(std::string program, std::string description,
              CliDefaults defaults);
  CLI::App& app() { return app_; }
  const std::string& program() const { return program_; }

  /// Parses and validates the shared options. Returns keep_going, or the
  /// exit status after --help or --version (0) or a usage error (2, message
  /// printed).
  int parse(int argc, char** argv);

  const CommonOptions& options() const { return opt_; }
  /// Was this flag (any of its spellings, e.g. "--sizes") given?
  bool given(const std::string& flag) const;
  /// The spelling the user typed for `flag` ("--n" for "--sizes"), or
  /// `flag` itself if not given.
  std::string spelling(const std::string& flag) const;

  /// argc/argv for Kokkos::initialize: the program name and every
  /// --kokkos-* argument.
  int& kokkos_argc() { return kargc_; }
  char** kokkos_argv() { return kargv_.data(); }
  /// After Kokkos::initialize: warns about --kokkos-* arguments Kokkos did
  /// not take (Kokkos 3.4 knows --kokkos-tools-library, not
  /// --kokkos-tools-libs).
  void warn_unused_kokkos_args() const;

 private:
  /// The shared options from what CLI11 read; throws InvalidArgument naming
  /// the flag as typed.
  void read_common_options();
  std::string program_;
  CLI::App app_;
  CliDefaults defaults_;
  CommonOptions opt_;
  std::vector<std::string> sizes_, types_, configs_;
  std::string repeat_, warmup_, seed_;
  std::vector<std::string> args_;  // what the user typed (not --kokkos-*)
  std::vector<std::string> kokkos_;
  std::vector<char*> kargv_;
  int kargc_ = 0;
};

}  // namespace apps
}  // namespace addscope

#endif
