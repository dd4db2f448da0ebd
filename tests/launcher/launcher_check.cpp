// The launcher's tests on real processes: runs addscope-waits on the test
// programs and checks what it set, what it passed through and what it said.
//
// Usage: addscope-launcher-check CASE OUTDIR LAUNCHER CHILD ANNOUNCE TOOL
//                                [KOKKOS_PROGRAM [HOOK]]
//   CASE     help | env | status | never_started | started | forward |
//            exec_failure | lookup | kokkos_tool
//   CHILD    addscope-test-launcher-child (never starts the tool)
//   ANNOUNCE addscope-test-launcher-announce (starts it in two processes)
//   TOOL     the build's libaddscope_waits.so
//   KOKKOS_PROGRAM  a Kokkos program of tests/tools (kokkos_tool)
//   HOOK     "announces" when the tool's entry points call
//            announce_tool_start(), else "silent" (kokkos_tool then does not
//            check the started line, and says so)
// Prints one line per failed check and a summary; exits 0 if every check
// passed, 1 if one failed, 2 on a usage error.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

int failures = 0;
void check(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::cout << "  FAIL: " << what << "\n";
  }
}

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}
std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos;
       p = text.find(what, p + what.size()))
    ++n;
  return n;
}
bool exists(const std::string& p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0;
}
std::string real(const std::string& p) {
  char buf[4096];
  return ::realpath(p.c_str(), buf) ? buf : p;
}
std::string last_line(const std::string& s) {
  std::string t = s;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  const auto nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}
// "NAME=value" from the child's env output; "(unset)" when it said so.
std::string var_of(const std::string& out, const std::string& name) {
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line == name + " unset") return "(unset)";
    if (line.rfind(name + "=", 0) == 0) return line.substr(name.size() + 1);
  }
  return "(not printed)";
}
void copy_file(const std::string& from, const std::string& to) {
  std::ifstream i(from, std::ios::binary);
  std::ofstream o(to, std::ios::binary);
  o << i.rdbuf();
  o.close();
  ::chmod(to.c_str(), 0755);
}

const std::string kNeverStarted =
    "addscope-waits: the program loaded no Kokkos Tools library and made no "
    "CUDA call: nothing to report";

struct Run {
  bool exited = false;
  int code = -1, sig = 0;
  std::string out, err;
  int status() const { return exited ? code : 128 + sig; }
};

std::string g_dir;
int g_runs = 0;

// Runs argv with `set` added to (and `unset` removed from) the environment,
// stdout and stderr to files; `during(pid, out_file)` runs meanwhile.
Run run(const std::vector<std::string>& argv,
        const std::vector<std::pair<std::string, std::string>>& set = {},
        const std::vector<std::string>& unset = {},
        const std::function<void(pid_t, const std::string&)>& during = {}) {
  const std::string base = g_dir + "/run" + std::to_string(++g_runs);
  const std::string out = base + ".out", err = base + ".err";
  std::cout << "  $";
  for (const auto& s : set) std::cout << " " << s.first << "=" << s.second;
  for (const auto& a : argv) std::cout << " '" << a << "'";
  std::cout << "\n";
  std::fflush(stdout);
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (const auto& u : unset) ::unsetenv(u.c_str());
    for (const auto& s : set) ::setenv(s.first.c_str(), s.second.c_str(), 1);
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(o, 1);
    ::dup2(e, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    std::perror("execv");
    ::_exit(126);
  }
  if (during) during(pid, out);
  int st = 0;
  ::waitpid(pid, &st, 0);
  Run r;
  r.exited = WIFEXITED(st);
  r.code = r.exited ? WEXITSTATUS(st) : -1;
  r.sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
  r.out = read(out);
  r.err = read(err);
  return r;
}

void show(const Run& r) {
  std::cout << "    -> exit " << r.status() << "\n";
  std::istringstream o(r.out), e(r.err);
  std::string line;
  while (std::getline(o, line)) std::cout << "    out| " << line << "\n";
  while (std::getline(e, line)) std::cout << "    err| " << line << "\n";
}

// The variables that could leak into a case from outside.
const std::vector<std::string> kClean = {"KOKKOS_PROFILE_LIBRARY",
                                         "KOKKOS_TOOLS_LIBS",
                                         "CUDA_INJECTION64_PATH",
                                         "ADDSCOPE_WAITS_OUTPUT",
                                         "ADDSCOPE_WAITS_JSON",
                                         "ADDSCOPE_WAITS_TRACE",
                                         "ADDSCOPE_WAITS_TOP",
                                         "ADDSCOPE_WAITS_THRESHOLD",
                                         "ADDSCOPE_WAITS_STARVED_THREADS",
                                         "ADDSCOPE_WAITS_STARVED_SHARE",
                                         "ADDSCOPE_WAITS_STARVED_MIN",
                                         "ADDSCOPE_WAITS_DEVICE",
                                         "ADDSCOPE_CUPTI_LIB",
                                         "ADDSCOPE_WAITS_STARTED",
                                         "ADDSCOPE_WAITS_VERBOSE"};

// Waits (at most 10 s) until the file says "ready".
void wait_ready(const std::string& out) {
  for (int i = 0; i < 1000 && !contains(read(out), "ready"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::cerr << "usage: addscope-launcher-check CASE OUTDIR LAUNCHER CHILD "
                 "ANNOUNCE TOOL [KOKKOS_PROGRAM [HOOK]]\n";
    return 2;
  }
  const std::string name = argv[1];
  g_dir = argv[2];
  const std::string launcher = argv[3], child = argv[4], announce = argv[5],
                    tool = real(argv[6]);
  const std::string kokkos_program = argc > 7 ? argv[7] : "";
  const bool hook = argc > 8 && std::string(argv[8]) == "announces";
  ::mkdir(g_dir.c_str(), 0755);
  g_dir += "/" + name;
  std::system(("rm -rf '" + g_dir + "'").c_str());
  ::mkdir(g_dir.c_str(), 0755);
  for (const auto& v : kClean) ::unsetenv(v.c_str());
  std::cout << "== launcher." << name << "\n";
  std::string note;

  if (name == "help") {
    Run r = run({launcher, "--help"});
    show(r);
    check(r.status() == 0, "--help exit status " + std::to_string(r.status()));
    check(contains(r.out,
                   "Usage: addscope-waits [options] -- program "
                   "[args...]"),
          "--help has no usage line");
    for (const char* f : {"--output",
                          "--json",
                          "--trace",
                          "--top",
                          "--threshold",
                          "--starved-threads",
                          "--starved-share",
                          "--starved-min",
                          "--device",
                          "--cupti-lib",
                          "--tool",
                          "--load",
                          "--verbose",
                          "--version",
                          "ADDSCOPE_WAITS_JSON",
                          "ADDSCOPE_WAITS_STARVED_MIN",
                          "ADDSCOPE_CUPTI_LIB",
                          "CUDA_INJECTION64_PATH",
                          "KOKKOS_TOOLS_LIBS",
                          "KOKKOS_PROFILE_LIBRARY",
                          "128+N",
                          "127",
                          "126",
                          "SIGTERM",
                          "nothing"})
      check(contains(r.out, f), std::string("--help does not mention ") + f);
    check(r.err.empty(), "--help wrote to stderr");
    r = run({launcher, "--version"});
    show(r);
    check(r.status() == 0 && r.out.rfind("addscope-waits ", 0) == 0,
          "--version: " + r.out);
  } else if (name == "empty_values") {
    // An empty value is no value: refused (the tool would take it as
    // unset), naming the flag and what is allowed; the program never runs.
    const std::pair<const char*, const char*> cases[] = {
        {"--top",
         "--top = '' is invalid; allowed: an integer from 1 to "
         "1000000"},
        {"--threshold", "--threshold = '' is invalid; allowed: a duration"},
        {"--starved-share",
         "--starved-share = '' is invalid; allowed: a "
         "fraction from 0 to 1"},
        {"--json", "--json = '' is invalid; allowed: a file path"},
        {"--output", "--output = '' is invalid; allowed: a file path"},
        {"--device",
         "--device = '' is invalid; allowed: cupti, callbacks, "
         "none"},
        {"--cupti-lib", "--cupti-lib = '' is invalid; allowed: a path"},
        {"--load", "--load = '' is invalid; allowed: kokkos, cuda"},
        {"--tool", "--tool = '' is invalid (empty)"}};
    for (const auto& c : cases) {
      Run r = run({launcher, c.first, "", "--", child, "env"});
      show(r);
      check(r.exited && r.code == 2,
            std::string(c.first) + " '': exit " + std::to_string(r.status()));
      check(contains(r.err, c.second), std::string(c.first) +
                                           " '': the message does not say '" +
                                           c.second + "'");
      check(!contains(r.out, "ARGV"),
            std::string(c.first) + " '': the program ran");
    }
  } else if (name == "env") {
    // Every flag becomes its variable; the tool is the build's, found
    // beside the launcher; the program's arguments pass unchanged.
    const std::string json = g_dir + "/w.json";
    const std::vector<std::string> vars = {"KOKKOS_PROFILE_LIBRARY",
                                           "KOKKOS_TOOLS_LIBS",
                                           "CUDA_INJECTION64_PATH",
                                           "ADDSCOPE_WAITS_OUTPUT",
                                           "ADDSCOPE_WAITS_JSON",
                                           "ADDSCOPE_WAITS_TRACE",
                                           "ADDSCOPE_WAITS_TOP",
                                           "ADDSCOPE_WAITS_THRESHOLD",
                                           "ADDSCOPE_WAITS_STARVED_THREADS",
                                           "ADDSCOPE_WAITS_STARVED_SHARE",
                                           "ADDSCOPE_WAITS_STARVED_MIN",
                                           "ADDSCOPE_WAITS_DEVICE",
                                           "ADDSCOPE_CUPTI_LIB",
                                           "ADDSCOPE_WAITS_VERBOSE",
                                           "ADDSCOPE_WAITS_STARTED"};
    std::vector<std::string> a = {launcher,
                                  "--output",
                                  g_dir + "/report-%p.txt",
                                  "--json=" + json,
                                  "--trace",
                                  g_dir + "/t.json",
                                  "--top",
                                  "7",
                                  "--threshold=1.5ms",
                                  "--starved-threads",
                                  "0.5",
                                  "--starved-share",
                                  "0.2",
                                  "--starved-min",
                                  "2ms",
                                  "--device",
                                  "callbacks",
                                  "--cupti-lib",
                                  "libcupti.so.13",
                                  "--",
                                  child,
                                  "env"};
    a.insert(a.end(), vars.begin(), vars.end());
    a.insert(a.end(), {"--top", "a b", ""});
    // A variable set outside and given as a flag: the flag wins.
    Run r = run(a, {{"ADDSCOPE_WAITS_TOP", "3"}});
    show(r);
    check(r.status() == 0, "exit status " + std::to_string(r.status()));
    for (const char* v : {"KOKKOS_PROFILE_LIBRARY", "KOKKOS_TOOLS_LIBS",
                          "CUDA_INJECTION64_PATH"})
      check(var_of(r.out, v) == tool,
            std::string(v) + " = " + var_of(r.out, v) + ", not " + tool);
    const std::pair<const char*, std::string> expected[] = {
        {"ADDSCOPE_WAITS_OUTPUT", g_dir + "/report-%p.txt"},
        {"ADDSCOPE_WAITS_JSON", json},
        {"ADDSCOPE_WAITS_TRACE", g_dir + "/t.json"},
        {"ADDSCOPE_WAITS_TOP", "7"},
        {"ADDSCOPE_WAITS_THRESHOLD", "1.5ms"},
        {"ADDSCOPE_WAITS_STARVED_THREADS", "0.5"},
        {"ADDSCOPE_WAITS_STARVED_SHARE", "0.2"},
        {"ADDSCOPE_WAITS_STARVED_MIN", "2ms"},
        {"ADDSCOPE_WAITS_DEVICE", "callbacks"},
        {"ADDSCOPE_CUPTI_LIB", "libcupti.so.13"},
        {"ADDSCOPE_WAITS_VERBOSE", "(unset)"}};
    for (const auto& e : expected)
      check(var_of(r.out, e.first) == e.second, std::string(e.first) + " = " +
                                                    var_of(r.out, e.first) +
                                                    ", not " + e.second);
    const std::string started = var_of(r.out, "ADDSCOPE_WAITS_STARTED");
    check(started.rfind('/', 0) == 0, "ADDSCOPE_WAITS_STARTED = " + started);
    check(contains(r.out, "STARTED_FILE regular empty mode 600"),
          "the started file is not a fresh private regular file");
    check(!exists(started), "the started file " + started + " is left behind");
    std::size_t args_at = r.out.find("ARGV 0 [" + child + "]");
    check(args_at != std::string::npos, "the program's argv[0] is not it");
    check(
        contains(r.out, "ARGV " + std::to_string(vars.size() + 2) +
                            " [--top]\nARGV " +
                            std::to_string(vars.size() + 3) + " [a b]\nARGV " +
                            std::to_string(vars.size() + 4) + " []\n"),
        "the program's own arguments were changed");
    check(last_line(r.err) == kNeverStarted,
          "the plain program started no tool, yet the last line is '" +
              last_line(r.err) + "'");

    // Without flags: what is set outside stays; -v sets the tool's verbose.
    r = run({launcher, "-v", "--", child, "env", "ADDSCOPE_WAITS_TOP",
             "ADDSCOPE_WAITS_JSON", "ADDSCOPE_WAITS_VERBOSE",
             "ADDSCOPE_WAITS_DEVICE"},
            {{"ADDSCOPE_WAITS_TOP", "3"}, {"ADDSCOPE_WAITS_JSON", json}});
    show(r);
    check(var_of(r.out, "ADDSCOPE_WAITS_TOP") == "3",
          "ADDSCOPE_WAITS_TOP set outside was not kept");
    check(var_of(r.out, "ADDSCOPE_WAITS_JSON") == json,
          "ADDSCOPE_WAITS_JSON set outside was not kept");
    check(var_of(r.out, "ADDSCOPE_WAITS_DEVICE") == "(unset)",
          "ADDSCOPE_WAITS_DEVICE set without its flag");
    check(var_of(r.out, "ADDSCOPE_WAITS_VERBOSE") == "1",
          "-v did not set ADDSCOPE_WAITS_VERBOSE=1");
    check(contains(r.err, "addscope-waits: running '" + child + " env"),
          "-v does not say what it runs");

    // --load: one way only; --tool: another library, given relative.
    r = run({launcher, "--load", "kokkos", "--", child, "env",
             "KOKKOS_PROFILE_LIBRARY", "KOKKOS_TOOLS_LIBS",
             "CUDA_INJECTION64_PATH"});
    show(r);
    check(var_of(r.out, "KOKKOS_TOOLS_LIBS") == tool &&
              var_of(r.out, "KOKKOS_PROFILE_LIBRARY") == tool,
          "--load kokkos did not set the Kokkos variables");
    check(var_of(r.out, "CUDA_INJECTION64_PATH") == "(unset)",
          "--load kokkos set CUDA_INJECTION64_PATH");
    const std::string copy = g_dir + "/libcopy_waits.so";
    copy_file(tool, copy);
    r = run({launcher, "--load=cuda", "--tool", copy, "--", child, "env",
             "KOKKOS_PROFILE_LIBRARY", "KOKKOS_TOOLS_LIBS",
             "CUDA_INJECTION64_PATH"});
    show(r);
    check(var_of(r.out, "CUDA_INJECTION64_PATH") == real(copy),
          "--tool: CUDA_INJECTION64_PATH = " +
              var_of(r.out, "CUDA_INJECTION64_PATH"));
    check(var_of(r.out, "KOKKOS_TOOLS_LIBS") == "(unset)",
          "--load cuda set KOKKOS_TOOLS_LIBS");
    // Another tool set outside: replaced, and said.
    r = run({launcher, "--", child, "env", "KOKKOS_TOOLS_LIBS"},
            {{"KOKKOS_TOOLS_LIBS", "/opt/other/libkp_kernel_timer.so"}});
    show(r);
    check(var_of(r.out, "KOKKOS_TOOLS_LIBS") == tool,
          "KOKKOS_TOOLS_LIBS set outside was not replaced");
    check(contains(r.err,
                   "KOKKOS_TOOLS_LIBS was "
                   "'/opt/other/libkp_kernel_timer.so'; replaced"),
          "replacing another tool is not said");
    // The same tool set outside: nothing to say.
    r = run({launcher, "--", child, "env", "KOKKOS_TOOLS_LIBS"},
            {{"KOKKOS_TOOLS_LIBS", tool}});
    check(!contains(r.err, "replaced"), "replaced the tool by itself");
  } else if (name == "status") {
    for (int code : {0, 3, 1, 255}) {
      Run r = run({launcher, "--", child, "exit", std::to_string(code)});
      show(r);
      check(r.exited && r.code == code, "exit " + std::to_string(code) +
                                            " came back as " +
                                            std::to_string(r.status()));
      check(last_line(r.err) == kNeverStarted, "no 'nothing to report' line");
    }
    for (int sig : {SIGKILL, SIGSEGV, SIGTERM}) {
      Run r = run({launcher, "--", child, "signal", std::to_string(sig)});
      show(r);
      check(r.exited && r.code == 128 + sig,
            "killed by signal " + std::to_string(sig) + ": exit status " +
                std::to_string(r.status()) + ", not " +
                std::to_string(128 + sig));
      check(contains(r.err,
                     "was ended by signal " + std::to_string(sig) + " (SIG"),
            "the signal is not named");
    }
  } else if (name == "never_started") {
    Run r = run({launcher, "--", child, "exit", "0"});
    show(r);
    check(r.status() == 0, "exit status " + std::to_string(r.status()));
    check(last_line(r.err) == kNeverStarted,
          "last line '" + last_line(r.err) + "'");
    check(count(r.err, "nothing to report") == 1, "said more than once");
    // Without '--': the first argument that is not an option.
    r = run({launcher, "--top", "3", child, "exit", "4"});
    show(r);
    check(r.status() == 4,
          "without --: exit status " + std::to_string(r.status()));
    check(last_line(r.err) == kNeverStarted, "without --: no last line");
  } else if (name == "started") {
    // The tool starts in two processes (the program and its child): no
    // 'nothing to report'; -v lists them; the tool's own verbose lines.
    Run r = run({launcher, "-v", "--", announce, "5"});
    show(r);
    check(r.status() == 5, "exit status " + std::to_string(r.status()));
    check(!contains(r.err, "nothing to report"),
          "says nothing to report though the tool started");
    check(contains(r.err, "addscope-waits: the tool started in 2 processes:"),
          "-v does not list the two processes");
    check(contains(r.err, "(cuda-injection)") && contains(r.err, "(kokkos)"),
          "the front doors are not named");
    check(count(r.err, "addscope waits: loaded into PID") == 2,
          "not one 'loaded into' line per process");
    // Without -v: silent.
    r = run({launcher, "--", announce});
    show(r);
    check(r.status() == 0 && r.err.empty(),
          "a program in which the tool started: the launcher said '" + r.err +
              "'");
    // A launcher under another one: the outer one hears of the start.
    r = run({launcher, "--", launcher, "--", announce});
    show(r);
    check(r.status() == 0 && !contains(r.err, "nothing to report"),
          "the outer launcher did not hear the inner one's start");
    r = run({launcher, "--", launcher, "--", child, "exit", "0"});
    show(r);
    check(count(r.err, "nothing to report") == 2,
          "nested launchers over a plain program: not two 'nothing to "
          "report' lines");
  } else if (name == "forward") {
    // Signals sent to the launcher reach the program.
    const std::pair<int, int> cases[] = {
        {SIGTERM, 42}, {SIGINT, 41}, {SIGHUP, 43}};
    for (const auto& c : cases) {
      Run r = run({launcher, "--", child, "wait"}, {}, {},
                  [&](pid_t pid, const std::string& out) {
                    wait_ready(out);
                    ::kill(pid, c.first);
                  });
      show(r);
      check(r.exited && r.code == c.second,
            "signal " + std::to_string(c.first) + " to the launcher: exit " +
                std::to_string(r.status()) + ", not the program's " +
                std::to_string(c.second));
      check(contains(r.out, "got the signal"), "the program did not get it");
    }
    // A program that does not handle it dies of it: 128 + 15.
    Run r = run({launcher, "--", child, "sleep"}, {}, {},
                [&](pid_t pid, const std::string& out) {
                  wait_ready(out);
                  ::kill(pid, SIGTERM);
                });
    show(r);
    check(
        r.exited && r.code == 128 + SIGTERM,
        "SIGTERM to an unhandling program: exit " + std::to_string(r.status()));
  } else if (name == "exec_failure") {
    Run r = run({launcher, "--", g_dir + "/no-such-program"});
    show(r);
    check(r.exited && r.code == 127,
          "missing program: exit " + std::to_string(r.status()));
    check(contains(r.err, "cannot run '" + g_dir +
                              "/no-such-program': No such file or directory"),
          "missing program not named");
    check(!contains(r.err, "nothing to report"),
          "'nothing to report' for a program that never ran");
    r = run({launcher, "--", "addscope-no-such-program-in-path"});
    check(r.exited && r.code == 127,
          "missing program in PATH: exit " + std::to_string(r.status()));
    const std::string plain = g_dir + "/not-executable";
    std::ofstream(plain) << "data\n";
    ::chmod(plain.c_str(), 0644);
    r = run({launcher, "--", plain});
    show(r);
    check(r.exited && r.code == 126,
          "not executable: exit " + std::to_string(r.status()));
  } else if (name == "lookup") {
    // Installed: <prefix>/bin/addscope-waits finds <prefix>/lib/.
    const std::string prefix = g_dir + "/prefix";
    ::mkdir(prefix.c_str(), 0755);
    ::mkdir((prefix + "/bin").c_str(), 0755);
    ::mkdir((prefix + "/lib").c_str(), 0755);
    copy_file(launcher, prefix + "/bin/addscope-waits");
    copy_file(tool, prefix + "/lib/libaddscope_waits.so");
    Run r = run({prefix + "/bin/addscope-waits", "--", child, "env",
                 "CUDA_INJECTION64_PATH"});
    show(r);
    check(var_of(r.out, "CUDA_INJECTION64_PATH") ==
              real(prefix + "/lib/libaddscope_waits.so"),
          "installed: the tool beside it was not found: " +
              var_of(r.out, "CUDA_INJECTION64_PATH"));
    // Alone: no tool anywhere beside it: exit 2, where it looked.
    const std::string alone = g_dir + "/alone";
    ::mkdir(alone.c_str(), 0755);
    copy_file(launcher, alone + "/addscope-waits");
    r = run({alone + "/addscope-waits", "--", child, "exit", "0"});
    show(r);
    check(r.exited && r.code == 2,
          "no tool: exit " + std::to_string(r.status()));
    check(contains(r.err,
                   "libaddscope_waits.so not found beside this "
                   "program (looked for " +
                       alone + "/../lib/libaddscope_waits.so"),
          "no tool: where it looked is not said");
    check(contains(r.err, "--tool"), "no tool: --tool not suggested");
    check(!contains(r.out, "ARGV"), "no tool, yet the program ran");
    // --tool rescues it.
    r = run(
        {alone + "/addscope-waits", "--tool", tool, "--", child, "exit", "6"});
    check(r.exited && r.code == 6,
          "--tool: exit " + std::to_string(r.status()));
  } else if (name == "kokkos_tool") {
    // A real Kokkos program (host backend here): the tool loads through
    // Kokkos Tools, the flags reach it, the report is where --output said.
    if (kokkos_program.empty()) {
      std::cerr << "kokkos_tool needs KOKKOS_PROGRAM\n";
      return 2;
    }
    const std::string json = g_dir + "/seed.json", report = g_dir + "/seed.txt";
    Run r = run({launcher, "--json", json, "--output", report, "--top", "3",
                 "-v", "--", kokkos_program},
                {{"OMP_PROC_BIND", "false"}});
    show(r);
    check(r.status() == 0, "exit status " + std::to_string(r.status()));
    const std::string text = read(report);
    check(contains(text, "addscope waits") && contains(text, "kernels by"),
          "no report in --output's file " + report);
    check(contains(r.err, "addscope waits: report in " + report),
          "the tool does not say where the report is");
    try {
      std::ifstream f(json);
      const nlohmann::json j = nlohmann::json::parse(f);
      check(j["schema"] == "addscope-waits/4", "JSON schema");
      check(j["options"]["top"] == 3,
            "--top 3 did not reach the tool: " + j["options"].dump());
      check(!j["kernels"].empty(), "no kernels in the JSON");
    } catch (const std::exception& e) {
      check(false, std::string("no JSON at --json's path: ") + e.what());
    }
    if (hook) {
      check(!contains(r.err, "nothing to report"),
            "the tool reported, yet the launcher says it never started");
      check(contains(r.err, "the tool started in 1 process:") &&
                contains(r.err, "(kokkos)"),
            "-v does not say the tool started through Kokkos Tools");
      check(count(r.err, "addscope waits: loaded into PID") == 1,
            "not one 'loaded into' line");
    } else {
      note =
          " (the tool's entry points do not call announce_tool_start() "
          "yet: the started line is not checked)";
      std::cout << "  NOTE:" << note << "\n";
    }
  } else if (name == "two_processes") {
    // Two programs of one run, one after the other (a script, a spawned
    // worker): the first to start the tool writes --json and --output;
    // the second, whose paths have no %p, writes neither (its report goes
    // to stderr, a line says why). With %p, each writes its own.
    if (kokkos_program.empty()) {
      std::cerr << "two_processes needs KOKKOS_PROGRAM\n";
      return 2;
    }
    const std::string json = g_dir + "/two.json", report = g_dir + "/two.txt";
    std::remove(json.c_str());
    std::remove(report.c_str());
    const std::string both = "'" + kokkos_program + "' && '" + kokkos_program +
                             "' && echo two_processes:done";
    Run r = run({launcher, "--json", json, "--output", report, "-v", "--", "sh",
                 "-c", both},
                {{"OMP_PROC_BIND", "false"}});
    show(r);
    check(r.status() == 0, "exit status " + std::to_string(r.status()));
    check(contains(r.out, "two_processes:done"),
          "the second program never ran");
    if (hook)
      check(contains(r.err, "the tool started in 2 processes"),
            "the launcher does not list 2 processes");
    check(count(r.err, "ADDSCOPE_WAITS_JSON='" + json +
                           "' has no %p: this process (a child, or not the "
                           "first of the run to start the tool) does not "
                           "write it") == 1,
          "not one line saying the second process leaves --json alone");
    check(count(read(report), "addscope waits") == 1,
          "--output's file does not hold one report");
    check(contains(r.err, "kernels by"),
          "the second process's report is not on stderr");
    try {
      std::ifstream f(json);
      const nlohmann::json j = nlohmann::json::parse(f);
      check(!j["kernels"].empty(), "no kernels in the JSON");
    } catch (const std::exception& e) {
      check(false, std::string("no JSON at --json's path: ") + e.what());
    }
    // Each its own file with %p.
    const std::string pjson = g_dir + "/two.%p.json";
    Run p = run({launcher, "--json", pjson, "-v", "--", "sh", "-c", both},
                {{"OMP_PROC_BIND", "false"}});
    show(p);
    std::vector<std::string> pids;
    for (std::size_t at = p.err.find("loaded into PID ");
         at != std::string::npos; at = p.err.find("loaded into PID ", at + 1)) {
      const std::size_t b = at + std::strlen("loaded into PID ");
      pids.push_back(p.err.substr(b, p.err.find(' ', b) - b));
    }
    check(pids.size() == 2, "not two 'loaded into PID' lines with %p");
    for (const std::string& pid : pids)
      check(exists(g_dir + "/two." + pid + ".json"),
            "no JSON of process " + pid + " with %p");
    check(!contains(p.err, "has no %p"), "a %p path was left alone");
  } else {
    std::cerr << "CASE = '" << name << "' is unknown\n";
    return 2;
  }
  std::cout << "SUMMARY launcher." << name << note << "  "
            << (failures ? "FAIL" : "PASS") << "\n";
  return failures ? 1 : 0;
}
