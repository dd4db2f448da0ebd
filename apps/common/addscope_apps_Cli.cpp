#include "common/addscope_apps_Cli.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>

#include "addscope/addscope_Version.hpp"
#include "addscope/core/addscope_Error.hpp"
#include "addscope/core/addscope_Format.hpp"

namespace addscope {
namespace apps {

namespace {
constexpr std::int64_t kMaxSize = std::int64_t(1) << 40;

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

[[noreturn]] void bad_size(const std::string& flag, const std::string& text) {
  ADDSCOPE_THROW_IF(true, flag << " = '" << text
                               << "' is invalid; allowed: a size in 1..2^40 "
                                  "as 1048576, 2^20 or 1e6");
}

// Names the flags take: canonical first.
const std::vector<std::vector<std::string>>& aliases() {
  static const std::vector<std::vector<std::string>> a = {
      {"--sizes", "--n"}, {"--types", "--type"}, {"--configs", "--config"}};
  return a;
}
}  // namespace

std::int64_t parse_size(const std::string& flag, const std::string& text) {
  if (all_digits(text)) {
    if (text.size() > 13) bad_size(flag, text);
    const long long v = std::stoll(text);
    if (v < 1 || v > kMaxSize) bad_size(flag, text);
    return v;
  }
  const auto caret = text.find('^');
  if (caret != std::string::npos) {
    const std::string base = text.substr(0, caret),
                      exp = text.substr(caret + 1);
    if (base != "2" || !all_digits(exp) || exp.size() > 2 ||
        std::stoi(exp) > 40)
      bad_size(flag, text);
    return std::int64_t(1) << std::stoi(exp);
  }
  // 1e6, 2.5e6: digits[.digits](e|E)digits, a whole number.
  const auto e = text.find_first_of("eE");
  if (e == std::string::npos || e == 0) bad_size(flag, text);
  const std::string mant = text.substr(0, e), exp = text.substr(e + 1);
  const auto dot = mant.find('.');
  const std::string whole = mant.substr(0, dot);
  const std::string frac = dot == std::string::npos ? "" : mant.substr(dot + 1);
  if (!all_digits(whole) || (!frac.empty() && !all_digits(frac)) ||
      !all_digits(exp) || exp.size() > 2)
    bad_size(flag, text);
  const int k = std::stoi(exp);
  if (int(frac.size()) > k || k > 13) bad_size(flag, text);
  std::string digits = whole + frac + std::string(k - frac.size(), '0');
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  if (digits.empty() || digits.size() > 13) bad_size(flag, text);
  const long long v = std::stoll(digits);
  if (v < 1 || v > kMaxSize) bad_size(flag, text);
  return v;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (c == ',' || c == ';' || std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

long long parse_int(const std::string& flag, const std::string& text,
                    long long lo, long long hi) {
  const bool neg = !text.empty() && text[0] == '-';
  const std::string digits = neg ? text.substr(1) : text;
  ADDSCOPE_THROW_IF(!all_digits(digits) || digits.size() > 18,
                    flag << " = '" << text << "' is invalid; allowed: an "
                         << "integer in " << lo << ".." << hi);
  const long long v = neg ? -std::stoll(digits) : std::stoll(digits);
  ADDSCOPE_THROW_IF(v < lo || v > hi, flag << " = " << v
                                           << " is invalid; allowed: " << lo
                                           << ".." << hi);
  return v;
}

std::string version_line(const std::string& program) {
  return program + " " + ADDSCOPE_VERSION_STRING + " (Kokkos " +
         version_text(KOKKOS_VERSION) + ", default execution space " +
         Kokkos::DefaultExecutionSpace::name() + ")";
}

void print_error(const std::string& program, const std::exception& e) {
  std::string where;
  if (const auto* ia = dynamic_cast<const InvalidArgument*>(&e))
    where = ia->where();
  else if (const auto* re = dynamic_cast<const RuntimeError*>(&e))
    where = re->where();
  bool show = false;
#ifndef NDEBUG
  show = true;
#endif
  const char* env = std::getenv("ADDSCOPE_ERROR_LOCATION");
  if (env && *env && std::strcmp(env, "0") != 0) show = true;
  std::cerr << program << ": " << e.what() << "\n";
  if (show && !where.empty()) std::cerr << "  [addscope: " << where << "]\n";
}

CommandLine::CommandLine(std::string program, std::string description,
                         CliDefaults defaults)
    : program_(std::move(program)),
      app_(std::move(description), program_),
      defaults_(std::move(defaults)) {
  app_.set_version_flag("--version", version_line(program_),
                        "print the version (addscope, Kokkos) and exit");
  app_.add_option("--sizes,--n", sizes_,
                  std::string(defaults_.one_size
                                  ? "number of elements, one size: 1048576, "
                                    "2^20 or 1e6"
                                  : "number of elements: 1048576, 2^20 or 1e6; "
                                    "a list separated by commas or spaces") +
                      " (default: " + defaults_.sizes_help + ")")
      ->type_name("SIZE...");
  app_.add_option("--types,--type", types_,
                  std::string("value types: ") + value_type_names() +
                      " (default: " + defaults_.types + ")")
      ->type_name("TYPE...");
  app_.add_option("--configs,--config", configs_,
                  "launch configurations, separated by commas, spaces or "
                  "';' (default: " +
                      defaults_.configs_help +
                      "). Forms: " + launch_config_forms())
      ->type_name("CONFIG...");
  app_.add_option("--repeat", repeat_,
                  "timed runs per measurement; statistics over these "
                  "(default: " +
                      std::to_string(defaults_.repeat) + ")")
      ->type_name("N");
  app_.add_option("--warmup", warmup_,
                  "untimed runs first (default: " +
                      std::to_string(defaults_.warmup) + ")")
      ->type_name("N");
  app_.add_option("--seed", seed_,
                  "seed of the random input data (default: " +
                      std::to_string(defaults_.seed) + ")")
      ->type_name("N");
  if (defaults_.json)
    app_.add_option("--json", opt_.json,
                    "also write the results as one JSON document to FILE "
                    "(its fields: docs/json.md)")
        ->type_name("FILE");
  app_.footer(
      "Arguments starting with --kokkos- go to Kokkos::initialize (Kokkos "
      "3.4: --kokkos-threads=N, --kokkos-tools-library=LIB; Kokkos 4.x: "
      "--kokkos-num-threads=N, --kokkos-tools-libs=LIB).\n"
      "Exit status: 0 success; 1 runtime failure or a wrong result; 2 bad "
      "flags or values (nothing measured).\n"
      "ADDSCOPE_ERROR_LOCATION=1 adds to error messages where in addscope's "
      "sources the check failed.");
}

namespace {
std::vector<std::string> names_of(const std::string& flag) {
  for (const auto& group : aliases())
    if (group.front() == flag) return group;
  return {flag};
}
}  // namespace

bool CommandLine::given(const std::string& flag) const {
  for (const auto& a : args_)
    for (const auto& n : names_of(flag))
      if (a == n || a.rfind(n + "=", 0) == 0) return true;
  return false;
}

std::string CommandLine::spelling(const std::string& flag) const {
  for (const auto& a : args_)
    for (const auto& n : names_of(flag))
      if (a == n || a.rfind(n + "=", 0) == 0) return n;
  return flag;
}

void CommandLine::read_common_options() {
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += x + " ";
    return s;
  };
  if (given("--sizes")) {
    const std::string flag = spelling("--sizes");
    for (const auto& s : split_list(join(sizes_)))
      opt_.sizes.push_back(parse_size(flag, s));
    ADDSCOPE_THROW_IF(opt_.sizes.empty(),
                      flag << " is empty; allowed: one or more sizes");
  }
  const std::string tflag = spelling("--types");
  const auto types =
      given("--types") ? split_list(join(types_)) : split_list(defaults_.types);
  for (const auto& t : types) {
    if (t == "all") {
      for (ValueType v : all_value_types()) opt_.types.push_back(v);
    } else {
      opt_.types.push_back(parse_value_type(tflag, t));
    }
  }
  ADDSCOPE_THROW_IF(opt_.types.empty(),
                    tflag << " is empty; allowed: " << value_type_names());
  std::vector<ValueType> unique;
  for (ValueType t : opt_.types)
    if (std::find(unique.begin(), unique.end(), t) == unique.end())
      unique.push_back(t);
  opt_.types = unique;
  if (given("--configs")) {
    const std::string flag = spelling("--configs");
    try {
      opt_.configs = parse_launch_config_list(join(configs_));
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(flag + ": " + e.what(), e.where());
    }
  }
  opt_.repeat = given("--repeat")
                    ? int(parse_int("--repeat", repeat_, 1, 1000000))
                    : defaults_.repeat;
  opt_.warmup = given("--warmup")
                    ? int(parse_int("--warmup", warmup_, 0, 1000000))
                    : defaults_.warmup;
  opt_.seed =
      given("--seed")
          ? std::uint64_t(parse_int("--seed", seed_, 0,
                                    std::numeric_limits<long long>::max()))
          : defaults_.seed;
}

int CommandLine::parse(int argc, char** argv) {
  std::vector<char*> mine{argv[0]};
  kokkos_.clear();
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--kokkos-", 9) == 0) {
      kokkos_.push_back(argv[i]);
    } else {
      mine.push_back(argv[i]);
      args_.push_back(argv[i]);
    }
  }
  kargv_.clear();
  kargv_.push_back(argv[0]);
  for (auto& a : kokkos_) kargv_.push_back(&a[0]);
  kargc_ = int(kargv_.size());
  kargv_.push_back(nullptr);

  try {
    app_.parse(int(mine.size()), mine.data());
  } catch (const CLI::CallForHelp& e) {
    return app_.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app_.exit(e);
  } catch (const CLI::ParseError& e) {
    // CLI11 names an option by its first name: say the one the user typed.
    std::string msg = e.what();
    for (const auto& group : aliases()) {
      const std::string typed = spelling(group.front());
      const auto at = msg.find(group.front());
      if (typed != group.front() && at != std::string::npos)
        msg.replace(at, group.front().size(), typed);
    }
    std::cerr << program_ << ": " << msg << "\n(run '" << program_
              << " --help' for the flags)\n";
    return exit_usage;
  }
  try {
    read_common_options();
  } catch (const InvalidArgument& e) {
    print_error(program_, e);
    return exit_usage;
  }
  return keep_going;
}

void CommandLine::warn_unused_kokkos_args() const {
  for (int i = 1; i < kargc_; ++i) {
    const std::string a = kargv_[std::size_t(i)];
    if (a.rfind("--kokkos-", 0) != 0) continue;
    std::cerr << program_ << ": warning: Kokkos "
              << version_text(KOKKOS_VERSION) << " did not take '" << a
              << "' (ignored)";
    if (KOKKOS_VERSION < 40000 && a.rfind("--kokkos-tools-libs", 0) == 0)
      std::cerr << "; Kokkos 3.x loads a tool with --kokkos-tools-library=LIB "
                   "or KOKKOS_PROFILE_LIBRARY=LIB";
    if (KOKKOS_VERSION < 40000 && a.rfind("--kokkos-num-threads", 0) == 0)
      std::cerr << "; Kokkos 3.x takes --kokkos-threads=N";
    std::cerr << "\n";
  }
}

}  // namespace apps
}  // namespace addscope
