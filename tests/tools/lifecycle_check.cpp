// Checks what the waits tool leaves behind however a program ends and
// wherever it is told to write (tool/addscope_ToolLifecycle.hpp,
// tool/addscope_ToolOutputs.hpp): runs tests/tools/faults.cpp with the tool
// loaded, in a fresh folder of its own, and asserts on the files there.
// Usage: addscope-lifecycle-check CASE TOOL OUTDIR FAULTS_PROGRAM
//   signal_term, signal_int, signal_hup   killed by the signal: exit status
//       the signal's; report (naming the signal), JSON and trace parse
//   abort         abort(): exit status SIGABRT's; report, JSON and a trace
//       that parses; no temporary file left
//   kill9         SIGKILL mid-run: the trace on disk parses (without its "]")
//   fork          3 children, outputs named with %p: one JSON per process,
//       each with its own kernels only; the parent's after the children's
//   fork_no_pid   the same without %p: only the parent writes its JSON (the
//       children say why, their reports go to stderr)
//   bad_nodes     JSON a FIFO, trace and report symbolic links: each refused
//       in one line, the FIFO and the links' targets untouched, the report
//       on stderr
//   planted_tmp   a link planted at "<json>.tmp": its target untouched
//   same_path     JSON and trace named the same file: the trace refused
//   chdir         relative paths, the program changes folder: the outputs
//       where the paths pointed when the tool loaded
//   verbose       ADDSCOPE_WAITS_VERBOSE=1: one line when the tool loads
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

int failures = 0;
void check(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::cout << "  FAIL: " << what << "\n";
  }
}

std::string read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
bool exists(const std::string& p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0;
}
std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      const std::string n = e->d_name;
      if (n != "." && n != "..") out.push_back(n);
    }
    ::closedir(d);
  }
  return out;
}

struct Run {
  int status = 0;  // as waitpid gives it
  std::string out, err;
  bool exited(int code) const {
    return WIFEXITED(status) && WEXITSTATUS(status) == code;
  }
  bool signalled(int sig) const {
    return WIFSIGNALED(status) && WTERMSIG(status) == sig;
  }
  std::string how() const {
    if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
      return std::string("signal ") + strsignal(WTERMSIG(status));
    return "?";
  }
};

// Runs argv in `cwd` with `env` added, the tool loaded, the signals it
// tests at their default action; kills it with SIGKILL after `kill_after_s`
// if that is > 0, else waits (at most 120 s).
Run run(const std::vector<std::string>& argv, const std::string& cwd,
        const std::map<std::string, std::string>& env, double kill_after_s,
        const std::string& logs) {
  Run r;
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGABRT}) ::signal(sig, SIG_DFL);
    if (::chdir(cwd.c_str()) != 0) _exit(120);
    for (const auto& kv : env) ::setenv(kv.first.c_str(), kv.second.c_str(), 1);
    const int o =
        ::open((logs + ".out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e =
        ::open((logs + ".err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(o, 1);
    ::dup2(e, 2);
    std::vector<char*> a;
    for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    ::execv(a[0], a.data());
    _exit(127);
  }
  const double limit = kill_after_s > 0 ? kill_after_s : 120;
  double waited = 0;
  int st = 0;
  while (::waitpid(pid, &st, WNOHANG) == 0) {
    if (waited >= limit) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &st, 0);
      break;
    }
    ::usleep(20000);
    waited += 0.02;
  }
  r.status = st;
  r.out = read(logs + ".out");
  r.err = read(logs + ".err");
  return r;
}

json parse_json(const std::string& path, const std::string& what) {
  try {
    return json::parse(read(path));
  } catch (const std::exception& e) {
    check(false, what + " " + path + " is not JSON: " + e.what());
    return json();
  }
}

// A trace as Perfetto reads it: the array form, whose closing "]" may be
// missing (a program killed before the tool could close it).
// `torn`: set when only the last line (one event: the tool writes each
// on its own line) did not parse — a write that SIGKILL cut short (Linux
// stops a write to a regular file at a fatal signal); null: no such cut
// is allowed.
json parse_trace(const std::string& path, bool* closed, bool* torn = nullptr) {
  std::string t = read(path);
  auto trim = [](std::string& s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
      s.pop_back();
  };
  trim(t);
  *closed = !t.empty() && t.back() == ']';
  if (torn) *torn = false;
  try {
    std::string open_t =
        t;  // without its "]": may end in the ",\n" between two
    if (!*closed && !open_t.empty() && open_t.back() == ',') open_t.pop_back();
    json j = json::parse(*closed ? t : open_t + "]");
    check(j.is_array(), "trace " + path + " is not an array");
    return j;
  } catch (const std::exception& e) {
    const std::size_t nl = t.rfind('\n');
    if (torn && !*closed && nl != std::string::npos) {
      std::string head = t.substr(0, nl);
      trim(head);
      if (!head.empty() && head.back() == ',') head.pop_back();
      try {
        json j = json::parse(head + "]");
        *torn = true;
        check(j.is_array(), "trace " + path + " is not an array");
        return j;
      } catch (const std::exception&) {
      }
    }
    check(false, "trace " + path + " does not parse: " + e.what());
    return json::array();
  }
}

int host_slices(const json& trace, const std::string& name_prefix) {
  int n = 0;
  for (const auto& e : trace)
    if (e.value("ph", "") == "X" && e.value("pid", 0) == 1 &&
        e.value("name", "").rfind(name_prefix, 0) == 0)
      ++n;
  return n;
}

bool has_kernel(const json& j, const std::string& name) {
  if (!j.is_object() || !j.contains("kernels")) return false;
  for (const auto& k : j["kernels"])
    if (k.value("name", "") == name) return true;
  return false;
}

void no_temporaries(const std::string& dir) {
  for (const auto& n : entries(dir))
    check(n.find(".addscope-") == std::string::npos &&
              n.find(".tmp") == std::string::npos,
          "a temporary file was left: " + n);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: addscope-lifecycle-check CASE TOOL OUTDIR "
                 "FAULTS_PROGRAM\n";
    return 2;
  }
  const std::string name = argv[1], tool = argv[2], out = argv[3],
                    prog = argv[4];
  const std::string dir = out + "/" + name;
  std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
  const std::string logs = out + "/" + name + ".log";
  std::map<std::string, std::string> env = {{"KOKKOS_PROFILE_LIBRARY", tool},
                                            {"KOKKOS_TOOLS_LIBS", tool},
                                            {"OMP_PROC_BIND", "false"}};
  const std::string json_path = dir + "/w.json", trace_path = dir + "/t.json";
  std::cout << "== " << name << "\n";
  auto done = [&](const std::string& what) {
    std::cout << "SUMMARY " << name << " " << what << "  "
              << (failures ? "FAIL" : "PASS") << "\n";
    return failures ? 1 : 0;
  };

  if (name.rfind("signal_", 0) == 0) {
    const int sig = name == "signal_int"   ? SIGINT
                    : name == "signal_hup" ? SIGHUP
                                           : SIGTERM;
    env["ADDSCOPE_WAITS_JSON"] = json_path;
    env["ADDSCOPE_WAITS_TRACE"] = trace_path;
    const Run r = run({prog, "signal", std::to_string(sig)}, dir, env, 0, logs);
    check(r.signalled(sig), "ended by " + r.how() + ", not by the signal");
    check(r.err.find(std::string("the program got SIG") + sigabbrev_np(sig)) !=
              std::string::npos,
          "the report does not say the program got SIG" +
              std::string(sigabbrev_np(sig)));
    const json j = parse_json(json_path, "JSON");
    check(has_kernel(j, "faults::before_signal"),
          "the JSON lacks the kernels run before the signal");
    bool closed = false;
    const json t = parse_trace(trace_path, &closed);
    check(closed, "the trace was not closed");
    // tests/tools/faults.cpp "signal": 10 kernels before the signal, each
    // one slice (its run on a host backend, its launch on a device).
    const int before = host_slices(t, "launch of faults::before_signal") +
                       host_slices(t, "faults::before_signal");
    check(before == 10, "the trace holds " + std::to_string(before) +
                            " slices of the 10 kernels run before the signal");
    no_temporaries(dir);
    return done("killed by SIG" + std::string(sigabbrev_np(sig)) +
                ": report, JSON and trace written, status kept");
  }
  if (name == "abort") {
    env["ADDSCOPE_WAITS_JSON"] = json_path;
    env["ADDSCOPE_WAITS_TRACE"] = trace_path;
    const Run r = run({prog, "exit_abort"}, dir, env, 0, logs);
    check(r.signalled(SIGABRT), "ended by " + r.how() + ", not by SIGABRT");
    check(r.err.find("the program aborted") != std::string::npos,
          "no report saying the program aborted");
    const json j = parse_json(json_path, "JSON");
    check(has_kernel(j, "faults::before_exit"), "the JSON lacks the kernels");
    bool closed = false;
    const json t = parse_trace(trace_path, &closed);
    // "exit_abort": 10 kernels before abort(), each one slice.
    const int before = host_slices(t, "launch of faults::before_exit") +
                       host_slices(t, "faults::before_exit");
    check(before == 10, "the trace holds " + std::to_string(before) +
                            " slices of the 10 kernels run before abort()");
    no_temporaries(dir);
    return done("abort(): report, JSON and a trace that parses");
  }
  if (name == "kill9") {
    env["ADDSCOPE_WAITS_JSON"] = json_path;
    env["ADDSCOPE_WAITS_TRACE"] = trace_path;
    const Run r = run({prog, "names", "100000000"}, dir, env, 3.0, logs);
    check(r.signalled(SIGKILL), "ended by " + r.how() + ", not by SIGKILL");
    bool closed = true, torn = false;
    const json t = parse_trace(trace_path, &closed, &torn);
    check(!closed, "a closed trace after SIGKILL (the run ended early?)");
    // What reached the disk is the run up to a point: kernels 0 .. k - 1 of
    // "faults::kernel <i>", k >= 1, none missing in between.
    std::vector<long long> seen;
    for (const auto& e : t) {
      if (e.value("ph", "") != "X" || e.value("pid", 0) != 1) continue;
      std::string n = e.value("name", "");
      if (n.rfind("launch of ", 0) == 0) n = n.substr(10);
      if (n.rfind("faults::kernel ", 0) == 0)
        seen.push_back(std::atoll(n.c_str() + 15));
    }
    std::sort(seen.begin(), seen.end());
    bool prefix = !seen.empty();
    for (std::size_t i = 0; i < seen.size(); ++i)
      prefix = prefix && seen[i] == (long long)i;
    check(prefix, "the trace on disk holds " + std::to_string(seen.size()) +
                      " kernel slices, not kernels 0 .. k - 1 (first " +
                      (seen.empty() ? std::string("none")
                                    : std::to_string(seen.front())) +
                      ", last " +
                      (seen.empty() ? std::string("none")
                                    : std::to_string(seen.back())) +
                      ")");
    check(!exists(json_path), "a JSON report after SIGKILL");
    return done("SIGKILL: " + std::to_string(t.size()) +
                " trace events on disk, parsing without their ']'" +
                (torn ? " (the last one, cut by the kill, dropped)" : ""));
  }
  if (name == "fork" || name == "fork_no_pid") {
    const bool pid = name == "fork";
    env["ADDSCOPE_WAITS_JSON"] = dir + (pid ? "/w-%p.json" : "/w.json");
    env["ADDSCOPE_WAITS_TRACE"] = dir + (pid ? "/t-%p.json" : "/t.json");
    const Run r = run({prog, "fork", "3"}, dir, env, 0, logs);
    check(r.exited(0), "ended by " + r.how());
    int parents = 0, children = 0, files = 0;
    for (const auto& n : entries(dir)) {
      if (n.rfind("w", 0) != 0) continue;
      ++files;
      const json j = parse_json(dir + "/" + n, "JSON");
      const bool parent = has_kernel(j, "faults::parent");
      const bool child = has_kernel(j, "faults::child");
      check(parent != child, n + " holds the kernels of both processes");
      if (child)
        check(!has_kernel(j, "faults::before_fork"),
              n + ": a child's report holds its parent's kernels");
      parents += parent;
      children += child;
    }
    for (const auto& n : entries(dir))
      if (n.rfind("t", 0) == 0) {
        bool closed = false;
        parse_trace(dir + "/" + n, &closed);
        check(closed, "trace " + n + " not closed");
      }
    check(parents == 1, std::to_string(parents) + " parent reports");
    if (pid) {
      check(children == 3 && files == 4,
            std::to_string(children) + " child reports in " +
                std::to_string(files) + " files, not 3 in 4");
    } else {
      check(files == 1 && children == 0,
            std::to_string(files) + " JSON files without %p, not the parent's");
      check(r.err.find("has no %p") != std::string::npos,
            "the children do not say why they write no JSON");
    }
    no_temporaries(dir);
    return done(pid ? "fork: one JSON per process, each its own"
                    : "fork without %p: the parent's JSON alone");
  }
  if (name == "bad_nodes") {
    const std::string fifo = dir + "/fifo", victim = dir + "/victim",
                      link = dir + "/trace-link", rlink = dir + "/report-link";
    std::ofstream(victim) << "precious";
    check(::mkfifo(fifo.c_str(), 0666) == 0, "mkfifo");
    check(::symlink(victim.c_str(), link.c_str()) == 0, "symlink");
    check(::symlink(victim.c_str(), rlink.c_str()) == 0, "symlink");
    env["ADDSCOPE_WAITS_JSON"] = fifo;
    env["ADDSCOPE_WAITS_TRACE"] = link;
    env["ADDSCOPE_WAITS_OUTPUT"] = rlink;
    const Run r = run({prog, "plain"}, dir, env, 20, logs);
    check(r.exited(0), "ended by " + r.how());
    struct stat st;
    check(::lstat(fifo.c_str(), &st) == 0 && S_ISFIFO(st.st_mode),
          "the FIFO is no longer a FIFO");
    check(::lstat(link.c_str(), &st) == 0 && S_ISLNK(st.st_mode) &&
              ::lstat(rlink.c_str(), &st) == 0 && S_ISLNK(st.st_mode),
          "a symbolic link was replaced");
    check(read(victim) == "precious", "the links' target was written");
    check(r.err.find("is a FIFO") != std::string::npos &&
              r.err.find("(ADDSCOPE_WAITS_JSON)") == std::string::npos,
          "no single start-up line for the FIFO");
    check(r.err.find("'" + link + "' is a symbolic link") != std::string::npos,
          "no line for the trace's link");
    check(r.err.find("'" + rlink + "' is a symbolic link") != std::string::npos,
          "no line for the report's link");
    check(r.err.find("kernels by") != std::string::npos,
          "the report is not on stderr");
    no_temporaries(dir);
    return done("FIFO and symbolic links refused, untouched, one line each");
  }
  if (name == "planted_tmp") {
    const std::string victim = dir + "/victim";
    std::ofstream(victim) << "precious";
    check(::symlink(victim.c_str(), (json_path + ".tmp").c_str()) == 0,
          "symlink");
    env["ADDSCOPE_WAITS_JSON"] = json_path;
    const Run r = run({prog, "plain"}, dir, env, 20, logs);
    check(r.exited(0), "ended by " + r.how());
    check(read(victim) == "precious", "the planted link's target was written");
    const json j = parse_json(json_path, "JSON");
    check(has_kernel(j, "faults::plain"), "the JSON lacks the kernels");
    return done("a link planted at <json>.tmp: not followed");
  }
  if (name == "same_path") {
    env["ADDSCOPE_WAITS_JSON"] = json_path;
    env["ADDSCOPE_WAITS_TRACE"] = json_path;
    const Run r = run({prog, "plain"}, dir, env, 20, logs);
    check(r.exited(0), "ended by " + r.how());
    check(r.err.find("names the same file as ADDSCOPE_WAITS_JSON") !=
              std::string::npos,
          "no line about the trace naming the JSON's file");
    const json j = parse_json(json_path, "JSON");
    check(j.is_object() && j.contains("schema"), "the JSON report was lost");
    return done("two outputs, one file: the second refused");
  }
  if (name == "chdir") {
    env["ADDSCOPE_WAITS_JSON"] = "w.json";
    env["ADDSCOPE_WAITS_TRACE"] = "t.json";
    const Run r = run({prog, "chdir"}, dir, env, 20, logs);
    check(r.exited(0), "ended by " + r.how());
    const json j = parse_json(json_path, "JSON");
    check(has_kernel(j, "faults::after_chdir"), "the JSON lacks the kernels");
    bool closed = false;
    parse_trace(trace_path, &closed);
    check(closed, "the trace is not in the folder it was named in");
    check(!exists("/w.json") && !exists("/t.json"), "outputs moved to /");
    return done("relative paths resolved once, where the tool loaded");
  }
  if (name == "verbose") {
    env["ADDSCOPE_WAITS_VERBOSE"] = "1";
    const Run r = run({prog, "plain"}, dir, env, 20, logs);
    check(r.exited(0), "ended by " + r.how());
    std::size_t lines = 0, at = 0;
    while ((at = r.err.find("addscope waits: loaded into PID", at)) !=
           std::string::npos) {
      ++lines;
      ++at;
    }
    check(lines == 1, std::to_string(lines) + " 'loaded' lines, not 1");
    return done("ADDSCOPE_WAITS_VERBOSE=1: one line at load");
  }
  std::cerr << "CASE='" << name << "' is unknown\n";
  return 2;
}
