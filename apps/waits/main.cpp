// addscope-waits: runs a program with the waits tool loaded, as
// `nsys profile` does — any Kokkos program (through Kokkos Tools) and any
// CUDA program (through CUPTI's injection entry point) — and passes the
// program's exit status through:
//   addscope-waits [options] -- program [args...]
// It sets the variables that load libaddscope_waits.so (the one beside
// it, or --tool), the tool's settings from its flags, and a private
// ADDSCOPE_WAITS_STARTED file through which the tool says it started; when
// no process of the program started it, the last line says so. Kokkos-free:
// it links only CLI11 (headers) and the tool's option parser.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "addscope/addscope_Version.hpp"
#include "addscope/waits/addscope_WaitsSettings.hpp"
#include "waits_child.hpp"
#include "waits_flags.hpp"
#include "waits_started.hpp"
#include "waits_tool_path.hpp"

namespace {

using namespace addscope::apps;

const char* kProgram = "addscope-waits";
constexpr int kUsage = 2;

int usage_error(const std::string& message) {
  std::cerr << kProgram << ": " << message << "\n(run '" << kProgram
            << " --help' for the flags)\n";
  return kUsage;
}

class Formatter : public CLI::Formatter {
 public:
  std::string make_usage(const CLI::App*, std::string name) const override {
    return "Usage: " + name + " [options] -- program [args...]\n";
  }
};

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app(
      "Runs a program with the waits tool (libaddscope_waits.so) loaded and "
      "prints, when it ends, which calls waited for which kernels, the "
      "launches too small for the device, and the kernels. Any Kokkos "
      "program (Kokkos Tools: only the variable its Kokkos reads, "
      "KOKKOS_TOOLS_LIBS from Kokkos 3.7, KOKKOS_PROFILE_LIBRARY before; "
      "both where the program shows no Kokkos) and any CUDA program (CUPTI's injection: "
      "CUDA_INJECTION64_PATH): C++, CuPy, numba, PyTorch.",
      kProgram);
  app.formatter(std::make_shared<Formatter>());
  app.set_version_flag("--version",
                       std::string(kProgram) + " " + ADDSCOPE_VERSION_STRING,
                       "print the version and exit");
  std::vector<std::string> values(waits_flags().size());
  for (std::size_t i = 0; i < waits_flags().size(); ++i) {
    const WaitsFlag& f = waits_flags()[i];
    std::string names = f.flag;
    if (std::string(f.flag) == "--output") names = "-o,--output";
    app.add_option(names, values[i], f.help + " (" + f.variable + ")")
        ->type_name(f.value_name);
  }
  std::string tool_flag, load_flag;
  bool verbose = false;
  app.add_option("--tool", tool_flag,
                 "the libaddscope_waits.so to load (default: the one "
                 "installed beside this program, <prefix>/lib)")
      ->type_name("LIB");
  app.add_option("--load", load_flag,
                 "which ways to load it: kokkos (KOKKOS_PROFILE_LIBRARY, "
                 "KOKKOS_TOOLS_LIBS), cuda (CUDA_INJECTION64_PATH), or both "
                 "(default: kokkos,cuda; a Kokkos program started both ways "
                 "runs the tool once)")
      ->type_name("WAYS");
  app.add_flag("-v,--verbose", verbose,
               "say what is set, and where the tool started "
               "(ADDSCOPE_WAITS_VERBOSE=1: the tool says how it came in)");
  bool variables = false;
  app.add_flag("--variables", variables,
               "print every variable the tool reads (a Markdown table: "
               "variable, flag, default, meaning) and exit");
  const std::string docs = docs_folder(launcher_folder(argv[0]));
  app.footer(
      "The program and its arguments follow '--' (or the first argument "
      "that is not an option). Paths may hold %p (the process id) and %r "
      "(the MPI rank). Each flag sets its variable for the program; a "
      "variable already set is kept when its flag is not given (every "
      "variable: --variables).\n"
      "Documentation: " +
      (docs.empty() ? std::string("docs/ of addscope's sources")
                    : docs + "/waits-report.md (the report and its JSON), " +
                          docs + "/waits-tool.md (how it works)") +
      "\n"
      "Exit status: the program's; 128+N when a signal N ended it; 127 when "
      "the program is not found, 126 when it cannot be run; 2 for bad flags "
      "or no tool found (nothing run).\n"
      "SIGINT, SIGTERM and SIGHUP sent to addscope-waits are passed on to the "
      "program (a terminal's ^C reaches both).\n"
      "When no process of the program started the tool, the last line says "
      "so: the program loaded no Kokkos Tools library and made no CUDA "
      "call.\n"
      "Examples:\n"
      "  addscope-waits -- python3 train.py\n"
      "  addscope-waits --json waits.json --trace trace.json -- ./app "
      "--n 1000");

  // The program starts after the first '--'; without one, at the first
  // argument that is not an option.
  int split = argc;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--") {
      split = i;
      break;
    }
  std::vector<std::string> program;
  try {
    if (split < argc) {
      app.parse(split, argv);
      for (int i = split + 1; i < argc; ++i) program.push_back(argv[i]);
    } else {
      app.prefix_command();
      app.parse(argc, argv);
      program = app.remaining();
      if (!program.empty() && !program.front().empty() &&
          program.front()[0] == '-')
        return usage_error("unknown option '" + program.front() +
                           "' (the program and its arguments go after --)");
    }
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }

  if (variables) {
    std::cout << addscope::waits_settings_markdown();
    return 0;
  }

  std::vector<std::pair<std::string, std::string>> set;
  LoadWays ways;
  try {
    for (std::size_t i = 0; i < waits_flags().size(); ++i) {
      const WaitsFlag& f = waits_flags()[i];
      if (app.count(f.flag) == 0) continue;
      check_flag_value(f, values[i]);
      set.emplace_back(f.variable, values[i]);
    }
    if (app.count("--load")) ways = parse_load(load_flag);
  } catch (const FlagError& e) {
    return usage_error(e.what());
  }
  if (program.empty())
    return usage_error("no program given: " + std::string(kProgram) +
                       " [options] -- program [args...]");

  std::string tool;
  if (app.count("--tool")) {
    const std::string why =
        tool_flag.empty() ? "empty" : tool_problem(tool_flag);
    if (!why.empty())
      return usage_error("--tool = '" + tool_flag + "' is invalid (" + why +
                         "); allowed: the path of libaddscope_waits.so");
    tool = absolute_path(tool_flag);
  } else {
    const auto candidates = tool_candidates(launcher_folder(argv[0]));
    tool = find_tool(candidates);
    if (tool.empty()) {
      std::cerr << kProgram
                << ": libaddscope_waits.so not found beside this program "
                   "(looked for "
                << join(candidates) << "); give it with --tool LIB\n";
      return kUsage;
    }
  }

  // The variables that load the tool replace any other tool's: only one
  // library loads through each.
  const auto loading = loading_variables(
      tool, ways,
      ways.kokkos ? kokkos_tools_variable(program.front())
                  : KokkosToolsVariable::Unknown);
  for (const auto& v : loading.set) {
    const char* old = std::getenv(v.first.c_str());
    if (old && *old && v.second != old && absolute_path(old) != v.second)
      std::cerr << kProgram << ": " << v.first << " was '" << old
                << "'; replaced by the waits tool (one library loads "
                   "through it)\n";
  }
  for (const auto& u : loading.unset) {
    const char* old = std::getenv(u.c_str());
    if (old && *old)
      std::cerr << kProgram << ": " << u << " was '" << old
                << "'; unset (this program's Kokkos reads the other variable)\n";
  }
  set.insert(set.begin(), loading.set.begin(), loading.set.end());
  if (verbose) set.emplace_back("ADDSCOPE_WAITS_VERBOSE", "1");
  // The report's hints then name this launcher's flags.
  set.emplace_back("ADDSCOPE_WAITS_LAUNCHER", "1");

  // Did the tool start? Its own file, passed on to an outer launcher's.
  const char* outer = std::getenv("ADDSCOPE_WAITS_STARTED");
  const std::string outer_file = outer ? outer : "";
  StartedFile started;
  if (started.path().empty())
    std::cerr << kProgram << ": " << started.why()
              << "; whether the tool started will not be known\n";
  else
    set.emplace_back("ADDSCOPE_WAITS_STARTED", started.path());

  if (verbose) {
    std::cerr << kProgram << ": running '" << join(program) << "' with";
    for (const auto& v : set)
      if (v.first != "ADDSCOPE_WAITS_STARTED")
        std::cerr << " " << v.first << "=" << v.second;
    std::cerr << "\n";
  }

  const ChildEnd end = run_child(program, child_environment(set, loading.unset));
  if (!end.started) {
    std::cerr << kProgram << ": cannot run '" << program.front()
              << "': " << std::strerror(end.exec_errno) << "\n";
    return end.status();
  }
  if (!end.exited)
    std::cerr << kProgram << ": '" << program.front()
              << "' was ended by signal " << end.signal << " ("
              << signal_name(end.signal) << "); exit status " << end.status()
              << "\n";
  if (!started.path().empty()) {
    const auto starts = started.read();
    append_to_existing(outer_file, started.text());
    if (starts.empty()) {
      std::cerr << kProgram
                << ": the program loaded no Kokkos Tools library and made no "
                   "CUDA call: nothing to report\n";
    } else if (verbose) {
      std::cerr << kProgram << ": the tool started in " << starts.size()
                << (starts.size() == 1 ? " process:" : " processes:");
      for (const auto& s : starts)
        std::cerr << " " << s.pid << " (" << s.front_door << ")";
      std::cerr << "\n";
    }
  }
  return end.status();
}
