// addscope-waits — runs the program as a child (fork + execvpe, PATH
// searched), with the variables that load the tool, and waits for it.
// SIGINT, SIGTERM and SIGHUP sent to the launcher alone (kill, a batch
// system, a CI timeout) are passed on to the program; those a terminal
// sends reach the whole process group, the program included, and are not
// sent twice. A signal the launcher was started with ignored stays ignored
// for the program.
#ifndef ADDSCOPE_APPS_WAITS_CHILD_HPP
#define ADDSCOPE_APPS_WAITS_CHILD_HPP

#include <string>
#include <utility>
#include <vector>

namespace addscope {
namespace apps {

/// How the program ended.
struct ChildEnd {
  bool started = false;  ///< false: it could not be run (exec_errno says)
  int exec_errno = 0;
  bool exited = false;  ///< it returned or called exit: `code`
  int code = 0;
  int signal = 0;  ///< it was killed by this signal
  /// The launcher's exit status: the program's code, 128 + the signal, or
  /// 127 (not found) / 126 (found, cannot be run), as a shell says.
  int status() const;
};

/// The environment of the launcher with `set` put in (replacing variables
/// of the same names) and `unset` taken out, as NAME=value strings.
std::vector<std::string> child_environment(
    const std::vector<std::pair<std::string, std::string>>& set,
    const std::vector<std::string>& unset = {});

/// Runs argv[0] (looked up in PATH when it has no '/') with `env`, waits
/// for it, forwarding signals meanwhile.
ChildEnd run_child(const std::vector<std::string>& argv,
                   const std::vector<std::string>& env);

/// "SIGKILL", "SIGSEGV", ...; "signal N" when unnamed.
std::string signal_name(int sig);

}  // namespace apps
}  // namespace addscope

#endif
