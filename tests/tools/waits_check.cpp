// Runs a Kokkos program with libaddscope_waits.so loaded and checks what its
// report, JSON and Chrome trace must say for that program (the tool's tests
// on real programs: ctest here, tests/tools/waits_h200.sh on a GPU).
//
// Usage: addscope-waits-check CASE EXPECT TOOL OUTDIR PROGRAM [ARGS...]
//   CASE    seed | overlap | two_instances | stream_fenced | region_wait |
//           two_threads | shape_starved | shape_healthy | shape_plain_add |
//           wait_scope | external[_NAME] | external_healthy  (the
//           attribution cases; external_NAME: a program nobody here wrote)
//           faults_regions | faults_throw | faults_names | faults_threads |
//           faults_unfenced | host_only | exit_return | exit_exit |
//           exit_quick | exit_abort | bad_paths   (tests/tools/faults.cpp)
//           soak                          (tests/tools/soak.cpp, see below)
//   EXPECT  host | device | kokkos-only | callbacks: how the tool must have
//           measured (kokkos-only: ADDSCOPE_WAITS_DEVICE=none; callbacks:
//           ADDSCOPE_WAITS_DEVICE=callbacks)
// Writes OUTDIR/CASE[.MODE].{json,trace.json,out,err}; prints one summary
// line; exits 0 if every check passed, 1 if one failed, 2 on a usage error.
//
// soak runs PROGRAM twice, without and with the tool, and checks that the
// tool's state does not grow with the run: peak memory at the end at most
// SOAK_GROWTH_KIB (default 4096) above the peak after the first tenth, and
// at most SOAK_ABOVE_KIB (default 65536) above the program's own peak; and
// that its cost per kernel does not grow: the fastest chunk of the last
// tenth at most SOAK_SLOWDOWN (default 1.5) x the fastest of the first
// (+ 0.3 us).
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
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
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos;
       p = text.find(what, p + what.size()))
    ++n;
  return n;
}

bool exists(const std::string& path) { return std::ifstream(path).good(); }

double env_or(const char* var, double dflt) {
  const char* v = std::getenv(var);
  return v && *v ? std::atof(v) : dflt;
}

// The figures of tests/tools/soak.cpp's "soak:" line.
struct SoakLine {
  bool ok = false;
  double first_ns = 0, first_min_ns = 0, last_ns = 0, last_min_ns = 0;
  long hwm_tenth = 0, hwm_end = 0, rss_end = 0;
};
SoakLine parse_soak(const std::string& out) {
  SoakLine s;
  const auto p = out.find("soak: ");
  if (p == std::string::npos) return s;
  long n = 0, every = 0, chunk = 0;
  s.ok =
      std::sscanf(out.c_str() + p,
                  "soak: %ld kernels, deep_copy every %ld, chunks of %ld: "
                  "first tenth %lf ns/kernel (fastest chunk %lf), last "
                  "tenth %lf ns/kernel (fastest chunk %lf); peak RSS after "
                  "the first tenth %ld KiB, at the end %ld KiB; RSS at the "
                  "end %ld KiB",
                  &n, &every, &chunk, &s.first_ns, &s.first_min_ns, &s.last_ns,
                  &s.last_min_ns, &s.hwm_tenth, &s.hwm_end, &s.rss_end) == 10;
  return s;
}

int soak(const std::string& expect, const std::string& tool,
         const std::string& base, int argc, char** argv) {
  std::string cmd;
  for (int i = 5; i < argc; ++i) cmd += (i > 5 ? " " : "") + quote(argv[i]);
  unsetenv("KOKKOS_PROFILE_LIBRARY");
  unsetenv("KOKKOS_TOOLS_LIBS");
  if (expect == "kokkos-only") setenv("ADDSCOPE_WAITS_DEVICE", "none", 1);
  if (expect == "callbacks") setenv("ADDSCOPE_WAITS_DEVICE", "callbacks", 1);
  auto run = [&](const std::string& suffix) {
    const int st = std::system((cmd + " >" + quote(base + suffix + ".out") +
                                " 2>" + quote(base + suffix + ".err"))
                                   .c_str());
    check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "soak" + suffix + ": exit status " + std::to_string(st));
    return read(base + suffix + ".out") + read(base + suffix + ".err");
  };
  const std::string plain = run(".plain");
  setenv("KOKKOS_PROFILE_LIBRARY", tool.c_str(), 1);
  setenv("KOKKOS_TOOLS_LIBS", tool.c_str(), 1);
  setenv("ADDSCOPE_WAITS_JSON", (base + ".json").c_str(), 1);
  const std::string with = run("");
  std::cout << "== soak (" << expect << ")\nwithout the tool: " << plain
            << "with the tool: " << with;
  const SoakLine p = parse_soak(plain), w = parse_soak(with);
  check(p.ok && w.ok, "no soak line from the program");
  check(with.find("addscope waits") != std::string::npos,
        "no report: was the tool loaded?");
  const double growth_kib = env_or("SOAK_GROWTH_KIB", 4096);
  const double above_kib = env_or("SOAK_ABOVE_KIB", 65536);
  const double slowdown = env_or("SOAK_SLOWDOWN", 1.5);
  const long growth = w.hwm_end - w.hwm_tenth;
  const long above = w.hwm_end - p.hwm_end;
  check(growth <= growth_kib, "with the tool, peak memory grew by " +
                                  std::to_string(growth) +
                                  " KiB after the first tenth (allowed " +
                                  std::to_string(long(growth_kib)) + ")");
  check(above <= above_kib, "the tool's peak memory is " +
                                std::to_string(above) +
                                " KiB above the program's own (allowed " +
                                std::to_string(long(above_kib)) + ")");
  check(w.last_min_ns <= slowdown * w.first_min_ns + 300,
        "with the tool, the fastest chunk of the last tenth took " +
            std::to_string(w.last_min_ns) + " ns/kernel, the first tenth's " +
            std::to_string(w.first_min_ns));
  json j;
  try {
    std::ifstream f(base + ".json");
    j = json::parse(f);
    check(!j["dropped"].is_null(), "no dropped counts in the JSON");
  } catch (const std::exception& e) {
    check(false, std::string("no JSON report: ") + e.what());
  }
  char line[400];
  std::snprintf(line, sizeof line,
                "soak %-11s peak RSS +%ld KiB after the first tenth, +%ld KiB "
                "above the program's own (%ld KiB); per kernel first/last "
                "tenth %.0f/%.0f ns (fastest chunks %.0f/%.0f), without the "
                "tool %.0f/%.0f ns  %s",
                expect.c_str(), growth, above, p.hwm_end, w.first_ns, w.last_ns,
                w.first_min_ns, w.last_min_ns, p.first_ns, p.last_ns,
                failures ? "FAIL" : "PASS");
  std::cout << "SUMMARY " << line << "\n";
  return failures ? 1 : 0;
}

const json* kernel(const json& j, const std::string& name) {
  for (const auto& k : j["kernels"])
    if (k["name"] == name) return &k;
  return nullptr;
}
double device_s(const json& j, const std::string& name) {
  const json* k = kernel(j, name);
  return k ? (*k)["device_s"].get<double>() : 0.0;
}
bool waited_for(const json& w, const std::string& name) {
  for (const auto& s : w["waited_for"])
    if (s["kernel"] == name) return true;
  return false;
}
bool starved(const json& j, const std::string& name) {
  for (const auto& s : j["starved"])
    if (s["kernel"] == name) return true;
  return false;
}
std::string starved_line(const json& j, const std::string& name) {
  for (const auto& s : j["starved"])
    if (s["kernel"] == name) return s["line"];
  return "";
}
std::string thousands(long long n) {
  std::string d = std::to_string(n), out;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i > 0 && (d.size() - i) % 3 == 0) out += ',';
    out += d[i];
  }
  return out;
}
bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// A wait line naming kernel `k`'s launch as `shape` ("1 x 1 (starved)"),
// with or without the place it was launched at: "for K, launched as 1 x 1
// (starved)" or "for K, launched at main.cpp:20 (main) as 1 x 1 (starved)".
bool names_launch(const std::string& line, const std::string& k,
                  const std::string& shape) {
  const std::size_t at = line.find("for " + k + ", launched ");
  return at != std::string::npos &&
         line.find("as " + shape, at) != std::string::npos;
}
// The waits of one class, longest first (the JSON lists them in time order).
std::vector<const json*> waits(const json& j, const std::string& cls) {
  std::vector<const json*> v;
  for (const auto& w : j["waits"])
    if (w["class"] == cls) v.push_back(&w);
  std::stable_sort(v.begin(), v.end(), [](const json* a, const json* b) {
    return (*a)["wait_s"].get<double>() > (*b)["wait_s"].get<double>();
  });
  return v;
}

struct Slice {
  int pid;
  long long tid;
  double ts, dur;
  std::string name;
  std::string code, launched_at;  // args: the program's lines
};

// Every flow's two ends must lie inside slices on their tracks; returns
// the slices for further checks.
std::vector<Slice> check_trace(const std::string& path, bool expect_device) {
  std::vector<Slice> slices;
  json t;
  try {
    std::ifstream f(path);
    t = json::parse(f);
  } catch (const std::exception& e) {
    check(false, "trace " + path + " is not JSON: " + e.what());
    return slices;
  }
  std::map<long long, std::vector<json>> flows;
  for (const auto& e : t) {
    const std::string ph = e["ph"];
    if (ph == "X") {
      const json a = e.value("args", json::object());
      // A line the tool could not name is null (an idle slice's) or absent.
      auto text = [&](const char* key) {
        return a.is_object() && a.contains(key) && a[key].is_string()
                   ? a[key].get<std::string>()
                   : std::string();
      };
      slices.push_back({e["pid"], e.value("tid", 0LL), e["ts"], e["dur"],
                        e["name"], text("code"), text("launched_at")});
    }
    if (ph == "s" || ph == "f") flows[e["id"].get<long long>()].push_back(e);
  }
  // Each track's slices by start, with the latest end of those before
  // each: a time is inside some slice iff the latest end among the slices
  // starting at or before it reaches it (a 100,000-kernel trace has as many
  // flows: no scan of every slice per flow end).
  struct Track {
    std::vector<double> starts, max_end;
  };
  std::map<std::pair<long long, long long>, Track> tracks;
  {
    std::map<std::pair<long long, long long>,
             std::vector<std::pair<double, double>>>
        by;
    for (const auto& sl : slices)
      by[{sl.pid, sl.tid}].push_back({sl.ts, sl.ts + sl.dur});
    for (auto& b : by) {
      std::sort(b.second.begin(), b.second.end());
      Track& tr = tracks[b.first];
      double m = -1e300;
      for (const auto& iv : b.second) {
        m = std::max(m, iv.second);
        tr.starts.push_back(iv.first);
        tr.max_end.push_back(m);
      }
    }
  }
  auto inside = [&](const json& e) {
    const auto it =
        tracks.find({e["pid"].get<long long>(), e.value("tid", 0LL)});
    if (it == tracks.end()) return false;
    const double ts = e["ts"].get<double>();
    const auto& st = it->second.starts;
    const auto k = std::upper_bound(st.begin(), st.end(), ts) - st.begin();
    return k > 0 && it->second.max_end[std::size_t(k - 1)] >= ts;
  };
  // Of the track's slices starting at or before e, the one ending last
  // (for telling what a stray flow end missed, and by how much).
  auto before = [&](const json& e) -> std::string {
    const Slice* best = nullptr;
    const long long pid = e["pid"].get<long long>(), tid = e.value("tid", 0LL);
    const double ts = e["ts"].get<double>();
    for (const auto& sl : slices)
      if (sl.pid == pid && sl.tid == tid && sl.ts <= ts &&
          (!best || sl.ts + sl.dur > best->ts + best->dur))
        best = &sl;
    if (!best) return "no slice before it on its track";
    char b[512];
    std::snprintf(b, sizeof b,
                  "the slice before it ending last: '%.200s' ts %.3f dur %.3f "
                  "(ends %.3f us before it)",
                  best->name.c_str(), best->ts, best->dur,
                  ts - best->ts - best->dur);
    return b;
  };
  int bad = 0, told = 0;
  for (const auto& f : flows) {
    if (f.second.size() != 2) {
      ++bad;
      if (told++ < 5)
        std::cerr << "  stray flow id " << f.first << ": " << f.second.size()
                  << " ends\n";
      continue;
    }
    for (const auto& e : f.second) {
      if (inside(e)) continue;
      ++bad;
      if (told++ < 5)
        std::cerr << "  stray flow end: " << e.dump() << "; " << before(e)
                  << "; its other end: "
                  << (&e == &f.second[0] ? f.second[1] : f.second[0]).dump()
                  << "\n";
    }
  }
  check(bad == 0, "trace: " + std::to_string(bad) +
                      " flow ends outside slices (of " +
                      std::to_string(flows.size()) + " flows)");
  bool device = false;
  for (const auto& s : slices) device = device || s.pid >= 100;
  check(device == expect_device,
        std::string("trace: device tracks ") + (device ? "present" : "absent"));
  return slices;
}

// Device times mapped onto the host clock: a kernel cannot start before its
// launch call began. Returns the smallest start - launch begin (s), pairing
// the n-th "launch of K" host slice with the n-th K kernel slice.
double min_start_after_launch(const std::vector<Slice>& s, int* pairs) {
  std::map<std::string, std::vector<double>> launches, starts;
  for (const auto& e : s) {
    if (e.pid < 100 && e.name.rfind("launch of ", 0) == 0)
      launches[e.name.substr(10)].push_back(e.ts);
    if (e.pid >= 100) starts[e.name].push_back(e.ts);
  }
  double m = 1e300;
  *pairs = 0;
  for (auto& l : launches) {
    auto it = starts.find(l.first);
    if (it == starts.end()) continue;
    std::sort(l.second.begin(), l.second.end());
    std::sort(it->second.begin(), it->second.end());
    for (std::size_t i = 0; i < std::min(l.second.size(), it->second.size());
         ++i) {
      m = std::min(m, (it->second[i] - l.second[i]) * 1e-6);
      ++*pairs;
    }
  }
  return m;
}

double overlap_of(const std::vector<Slice>& s, const std::string& a,
                  const std::string& b) {
  const Slice* x = nullptr;
  const Slice* y = nullptr;
  for (const auto& e : s) {
    if (e.pid < 100) continue;
    if (e.name == a) x = &e;
    if (e.name == b) y = &e;
  }
  if (!x || !y) return 0;
  const double lo = std::max(x->ts, y->ts);
  const double hi = std::min(x->ts + x->dur, y->ts + y->dur);
  return std::max(0.0, hi - lo) / std::min(x->dur, y->dur);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) {
    std::cerr << "usage: addscope-waits-check CASE EXPECT TOOL OUTDIR PROGRAM "
                 "[ARGS...]\n";
    return 2;
  }
  const std::string name = argv[1], expect = argv[2], tool = argv[3],
                    dir = argv[4];
  if (expect != "host" && expect != "device" && expect != "kokkos-only" &&
      expect != "callbacks") {
    std::cerr << "EXPECT = '" << expect
              << "' is invalid; allowed: host, device, kokkos-only, "
                 "callbacks\n";
    return 2;
  }
  const bool bounds = expect == "kokkos-only" || expect == "callbacks";
  const std::string base =
      dir + "/" + name +
      (expect == "kokkos-only" || expect == "callbacks" ? "." + expect : "");
  if (name == "soak") return soak(expect, tool, base, argc, argv);
  std::string cmd;
  for (int i = 5; i < argc; ++i) cmd += (i > 5 ? " " : "") + quote(argv[i]);
  // seed_deleted: the program runs from a copy deleted before it starts
  // (executed through the shell's open descriptor of it): its frames are in
  // a file whose path names nothing.
  if (name == "seed_deleted") {
    const std::string copy = base + ".program";
    std::remove(copy.c_str());
    std::string args;
    for (int i = 6; i < argc; ++i) args += " " + quote(argv[i]);
    cmd = "cp " + quote(argv[5]) + " " + quote(copy) +
          " && sh -c 'rm -f \"$0\" && exec /proc/self/fd/3 \"$@\"' " +
          quote(copy) + args + " 3<" + quote(copy);
  }
  setenv("KOKKOS_PROFILE_LIBRARY", tool.c_str(), 1);
  setenv("KOKKOS_TOOLS_LIBS", tool.c_str(), 1);
  // bad_paths: outputs nobody can write.
  const bool bad_paths = name == "bad_paths";
  const std::string json_path =
      bad_paths ? "/nonexistent-addscope-dir/waits.json" : base + ".json";
  const std::string trace_path =
      bad_paths ? "/nonexistent-addscope-dir/trace.json" : base + ".trace.json";
  setenv("ADDSCOPE_WAITS_JSON", json_path.c_str(), 1);
  setenv("ADDSCOPE_WAITS_TRACE", trace_path.c_str(), 1);
  const std::string output_path = "/nonexistent-addscope-dir/report.txt";
  if (bad_paths) setenv("ADDSCOPE_WAITS_OUTPUT", output_path.c_str(), 1);
  if (expect == "kokkos-only") setenv("ADDSCOPE_WAITS_DEVICE", "none", 1);
  if (expect == "callbacks") setenv("ADDSCOPE_WAITS_DEVICE", "callbacks", 1);
  std::remove((base + ".json").c_str());
  std::remove((base + ".trace.json").c_str());
  const auto started = std::chrono::steady_clock::now();
  const int st = std::system(
      (cmd + " >" + quote(base + ".out") + " 2>" + quote(base + ".err"))
          .c_str());
  // The program's whole run (the tool's clock starts inside it).
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();
  const int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
  const std::string out = read(base + ".out"), err = read(base + ".err");
  std::cout << "== " << name << " (" << expect << ")\n" << out << err;
  auto summary = [&](const std::string& what) {
    std::cout << "SUMMARY " << name << " " << expect << " " << what << "  "
              << (failures ? "FAIL" : "PASS") << "\n";
    return failures ? 1 : 0;
  };
  if (bad_paths) {
    check(rc == 0, "program exit status " + std::to_string(rc));
    check(err.find("addscope waits") != std::string::npos,
          "no report on stderr");
    check(count(err,
                "cannot write '" + json_path +
                    "': No such file or directory (ADDSCOPE_WAITS_JSON)") == 1,
          "not one line for the unwritable ADDSCOPE_WAITS_JSON");
    check(count(err, "(ADDSCOPE_WAITS_TRACE); no trace") == 1,
          "not one line for the unwritable ADDSCOPE_WAITS_TRACE");
    check(
        count(err,
              "cannot write '" + output_path +
                  "': No such file or directory (ADDSCOPE_WAITS_OUTPUT)") == 1,
        "not one line for the unwritable ADDSCOPE_WAITS_OUTPUT");
    // The report is not lost: it follows on stderr.
    check(err.find("kernels by") != std::string::npos,
          "the report was lost with its unwritable ADDSCOPE_WAITS_OUTPUT");
    check(err.find("report in " + output_path) == std::string::npos,
          "says the report is in a file it could not write");
    return summary("unwritable outputs: one line each, exit status " +
                   std::to_string(rc));
  }
  if (name == "exit_abort") {
    // abort(): the tool's handler has its analyzer's thread write the
    // report, the JSON and the trace, then abort goes on (exit status
    // kept). Nothing half-written is left.
    check(rc == 128 + 6,
          "exit status " + std::to_string(rc) + ", not 134 (SIGABRT)");
    check(err.find("the program aborted") != std::string::npos,
          "no report after abort()");
    json ja;
    try {
      ja = json::parse(read(base + ".json"));
    } catch (const std::exception& e) {
      check(false, std::string("no JSON after abort(): ") + e.what());
    }
    check(ja.is_object() && kernel(ja, "faults::before_exit") != nullptr,
          "the JSON after abort() lacks the program's kernels");
    check_trace(base + ".trace.json", expect == "device");
    check(!exists(base + ".json.tmp"), "a temporary JSON left after abort()");
    return summary("abort(): report, JSON and trace written, status kept");
  }
  check(rc == 0, "program exit status " + std::to_string(rc));
  check(err.find("addscope waits") != std::string::npos,
        "no report on stderr: was the tool loaded?");
  json j;
  try {
    std::ifstream f(base + ".json");
    j = json::parse(f);
  } catch (const std::exception& e) {
    check(false, "no JSON report " + base + ".json: " + e.what());
    std::cout << name << ": FAIL\n";
    return 1;
  }
  check(j["schema"] == "addscope-waits/4" && j["version"] == 4, "schema");
  const json& dropped = j["dropped"];
  auto dropped_n = [&](const char* k) {
    return dropped.is_object() && dropped.contains(k)
               ? dropped[k].get<long long>()
               : -1LL;
  };
  check(j["mode"] == expect, "mode is " + j["mode"].dump() + ", not " + expect);
  for (const auto& k : j["kernels"]) {
    const std::string n = k["name"];
    check(n.find("__nv_") == std::string::npos && n.rfind("_Z", 0) != 0 &&
              n.rfind("ZN", 0) != 0,
          "unreadable kernel name " + n);
  }
  const auto slices = check_trace(base + ".trace.json", expect == "device");
  auto calls_of = [&](const std::string& k) {
    const json* e = kernel(j, k);
    return e ? (*e)["calls"].get<long long>() : 0LL;
  };
  double clock_skew = 1e300;
  if (expect == "device" && name.rfind("faults_", 0) != 0 &&
      name.rfind("exit_", 0) != 0) {
    int pairs = 0;
    clock_skew = min_start_after_launch(slices, &pairs);
    check(pairs > 0 && clock_skew > -2e-6,
          "clocks: a kernel started " + std::to_string(-clock_skew * 1e6) +
              " us before its launch began (" + std::to_string(pairs) +
              " launches paired)");
  }
  const json& t = j["totals"];
  const double hidden = t["hidden_s"], expl = t["explicit_s"];
  const auto hid = waits(j, "hidden");
  const auto exp = waits(j, "explicit");

  // The calls of call site `site` in region path `regions` ("": outside
  // every region; "*": in any), and of every site of a kind.
  auto site_calls = [&](const std::string& site, const std::string& regions) {
    long long n = 0;
    for (const auto& e : j["sites"]) {
      const std::string r =
          e["regions"].is_string() ? e["regions"].get<std::string>() : "";
      if (e["site"] == site && (regions == "*" || r == regions))
        n += e["calls"].get<long long>();
    }
    return n;
  };
  auto kind_calls = [&](const std::string& kind) {
    long long n = 0;
    for (const auto& e : j["sites"])
      if (e["kind"] == kind) n += e["calls"].get<long long>();
    return n;
  };
  auto arg_or = [&](int i, long long dflt) {
    return argc > i ? std::atoll(argv[i]) : dflt;
  };
  // Host backends: what the program made, exactly. Kernel K ran `n` times,
  // each a finished call of its own, in region path `regions`.
  auto host_kernel = [&](const std::string& k, long long n,
                         const std::string& regions = "") {
    check(calls_of(k) == n, k + " ran " + std::to_string(calls_of(k)) +
                                " times, not " + std::to_string(n));
    const json* e = kernel(j, k);
    if (e)
      check((*e)["launches"] == n, k + ": launches " + (*e)["launches"].dump() +
                                       ", not " + std::to_string(n));
    check(site_calls(k, regions) == n,
          k + ": " + std::to_string(site_calls(k, regions)) +
              " calls in region path '" + regions + "', not " +
              std::to_string(n));
  };
  // A single thread over `bytes` (reads and writes) takes at least bytes /
  // 60 GB/s: more than any core streams.
  auto one_thread_over = [&](const std::string& k, double bytes) {
    const double d = device_s(j, k);
    check(d >= bytes / 60e9, k + " took " + std::to_string(d) +
                                 " s on one thread for " +
                                 std::to_string(bytes) + " bytes");
  };
  auto printed = [&](const std::string& key) {
    const auto p = out.find(key);
    return p == std::string::npos ? -1.0
                                  : std::atof(out.c_str() + p + key.size());
  };

  if (expect == "host") {
    check(j["waits"].empty(), "host backend, yet calls waited");
    // Nothing asynchronous: every total of waiting and of device work is
    // zero, and the JSON's totals are its arrays' sums.
    for (const char* z : {"launches", "device_kernels", "hidden_calls",
                          "explicit_calls", "kernels_without_device_record"})
      check(t[z] == 0, std::string("host totals: ") + z + " = " + t[z].dump());
    for (const char* z :
         {"hidden_s", "explicit_s", "overlap_s", "device_busy_s"})
      check(t[z].get<double>() == 0.0,
            std::string("host totals: ") + z + " = " + t[z].dump());
    // (devices: not checked — host_only runs as "host" on a GPU build too,
    // where the device may be described though it ran nothing.)
    check(j["streams"].empty(), "device streams on a host backend");
    check(!j["idle"].value("any_activity", true),
          "device activity on a host backend");
    long long kcalls = 0, scalls = 0, tcalls = 0;
    double ksum = 0;
    for (const auto& k : j["kernels"]) {
      const std::string n = k["name"];
      kcalls += k["calls"].get<long long>();
      const double d = k["device_s"], mx = k["device_max_s"];
      ksum += d;
      // Its host time: inside the run, positive, each launch inside the
      // total, the mean the total over the launches.
      check(k["launches"] == k["calls"], n + ": launches != calls");
      check(d > 0 && mx > 0 && mx <= d * (1 + 1e-12) && mx <= wall_s,
            n + ": host time " + std::to_string(d) + " s, longest " +
                std::to_string(mx) + " s, run " + std::to_string(wall_s) +
                " s");
      check(std::abs(k["mean_s"].get<double>() * k["launches"].get<double>() -
                     d) <= 1e-9 * d + 1e-12,
            n + ": mean x launches != total");
      check(k["median_s"].is_null() || k["median_s"].get<double>() <= mx,
            n + ": median above the longest");
      check(k["stream"].is_null() && k["shapes"].empty() && !k["starved"],
            n + ": a stream, shapes or starved on a host backend");
    }
    for (const auto& e : j["sites"]) scalls += e["calls"].get<long long>();
    for (const auto& e : j["threads"]) tcalls += e["calls"].get<long long>();
    const long long threads_n = t["threads"].get<long long>();
    check(ksum <= wall_s * double(std::max(1LL, threads_n)),
          "kernels' host time " + std::to_string(ksum) + " s > the run's " +
              std::to_string(wall_s) + " s x " + std::to_string(threads_n) +
              " threads");
    check(kcalls == t["host_kernels"].get<long long>(),
          "host_kernels " + t["host_kernels"].dump() + ", kernels' calls " +
              std::to_string(kcalls));
    if (dropped_n("sites") == 0)
      check(scalls == t["calls"].get<long long>(),
            "totals.calls " + t["calls"].dump() + ", sites' calls " +
                std::to_string(scalls));
    if (dropped_n("threads") == 0)
      check(tcalls == t["calls"].get<long long>(),
            "totals.calls " + t["calls"].dump() + ", threads' calls " +
                std::to_string(tcalls));
    // Every kernel call is one slice of the trace (when it dropped none),
    // inside the run.
    if (j["trace_events_dropped"] == 0 && dropped_n("names") == 0 &&
        dropped_n("kernels") == 0) {
      std::map<std::string, long long> slices_of;
      bool inside = true;
      for (const auto& sl : slices) {
        ++slices_of[sl.name];
        inside = inside && sl.ts >= 0 && sl.dur >= 0 &&
                 sl.ts + sl.dur <= wall_s * 1e6;
      }
      check(inside,
            "a trace slice outside the run's " + std::to_string(wall_s) + " s");
      for (const auto& k : j["kernels"])
        check(slices_of[k["name"].get<std::string>()] == k["calls"],
              "trace: " +
                  std::to_string(slices_of[k["name"].get<std::string>()]) +
                  " slices of " + k["name"].get<std::string>() + ", " +
                  k["calls"].dump() + " calls");
    }
    check(contains(err, "launch shapes: a GPU matter"),
          "the host report does not say launch shapes are a GPU matter");
    check(j["starved"].empty(), "starved launches on a host backend");
    // Every kernel ran on a named host space (Kokkos 3.x reports View
    // initializations as device 0, Serial: named after the others).
    std::string space;
    for (const auto& k : j["kernels"]) {
      check(k["device"].is_string() && k["device"] != "Cuda",
            "kernel " + k["name"].get<std::string>() + " ran on " +
                k["device"].dump());
      const std::string n = k["name"];
      if (space.empty() && k["device"].is_string() &&
          n.rfind("Kokkos::View::", 0) != 0)
        space = k["device"];
    }
    // faults_threads runs its own kernels on Serial from 16 threads while
    // its Views are initialized on the default space (OpenMP): two spaces.
    for (const auto& k : j["kernels"])
      if (name != "faults_threads" &&
          k["name"].get<std::string>().rfind("Kokkos::View::initialization",
                                             0) == 0)
        check(k["device"] == space, k["name"].get<std::string>() +
                                        " labelled " + k["device"].dump() +
                                        ", the program's kernels on " + space);
  }
  if (expect == "kokkos-only")
    check(contains(err, "launch shapes: need device records"),
          "the kokkos-only report does not say shapes need device records");
  // Device: what the device holds came from the driver.
  long long resident = 0;
  if (expect == "device") {
    check(!j["devices"].empty() && j["devices"][0]["resident_threads"] > 0,
          "no device capacity in the JSON");
    if (!j["devices"].empty())
      resident = j["devices"][0]["resident_threads"].get<long long>();
  }
  // One line per case for the summary: the shape of the case's kernel.
  std::string shape_note;
  auto note_shape = [&](const std::string& name) {
    const json* k = kernel(j, name);
    if (!k || (*k)["shapes"].empty()) return;
    const json& s = (*k)["shapes"][0];
    char b[160];
    std::snprintf(b, sizeof b, " %s %lldx%lld", name.c_str(),
                  s["blocks"].get<long long>(),
                  s["threads_per_block"].get<long long>());
    shape_note += b;
    if (s["threads_in_flight"].is_number()) {
      std::snprintf(b, sizeof b, " in flight %lld/%lld%s",
                    s["threads_in_flight"].get<long long>(),
                    s["resident_threads"].get<long long>(),
                    s["starved"].get<bool>() ? " STARVED" : "");
      shape_note += b;
    }
  };
  auto need_kernel = [&](const std::string& k) {
    check(kernel(j, k) != nullptr, "kernel " + k + " not in the report");
  };
  // A program that only fences the kernels it launched: no hidden wait for
  // them, and hidden waits elsewhere (Kokkos' own start-up) stay small.
  auto no_hidden_wait_for = [&](std::vector<std::string> ks) {
    for (const auto* w : hid)
      for (const auto& k : ks)
        check(!waited_for(*w, k),
              "hidden wait for " + k + ": " + (*w)["line"].get<std::string>());
    check(hidden < 1e-3, "hidden waits " + std::to_string(hidden) +
                             " s in a program that only fences");
  };
  const bool host = expect == "host";
  // The seed, and the seed as bad input for its lines: stripped, built with
  // -g from a source path that does not exist, run from a deleted file.
  const bool stripped = name == "seed_stripped",
             no_source = name == "seed_no_source";
  if (name == "seed" || stripped || no_source || name == "seed_deleted") {
    need_kernel("user::slow_add[1x1]");
    if (host) {
      // tests/tools/slow_read.cpp: one fill, one 1 x 1 add over n floats
      // (12 n bytes on one thread), one deep_copy of one element.
      const long long n = arg_or(6, 10000000);
      host_kernel("user::fill", 1);
      host_kernel("user::slow_add[1x1]", 1);
      one_thread_over("user::slow_add[1x1]", 12.0 * double(n));
      check(kind_calls("deep_copy") == 1,
            "deep_copies: " + std::to_string(kind_calls("deep_copy")) +
                ", not the program's 1");
      check(site_calls("deep_copy out<-out (Host<-Host)", "") == 1,
            "no deep_copy out<-out (Host<-Host): on a host backend the "
            "mirror of out[2] is out itself");
    }
    // Built with -g (any backend): each kernel at the program's line that
    // launched it (tests/tools/slow_read.cpp: the parallel_for statements);
    // on a device the read's wait at its deep_copy line too.
    // The line's text, where the source file is there: the statement's
    // first line (both launches' and the read's).
    const std::string file =
        no_source ? "/addscope-no-such-dir/slow_read.cpp" : "slow_read.cpp";
    auto at_line = [&](const json& at, int line, const std::string& what) {
      const json text = no_source    ? json()
                        : line == 27 ? json("Kokkos::deep_copy(h, one);")
                                     : json("Kokkos::parallel_for(");
      check(at.is_object() && at["file"].is_string() &&
                contains(at["file"].get<std::string>(), file) &&
                at["line"] == line && at["function"] == "main" &&
                at["language"] == "c++" && at.value("text", json()) == text,
            what + " at " + at.dump() + ": not " + file + ":" +
                std::to_string(line) + " (main, c++) reading " + text.dump());
    };
    // Stripped: no line, no function; the program's module, each launch at
    // an offset of its own.
    std::set<long long> offsets;
    auto in_module = [&](const json& at, const std::string& what) {
      const bool ok = at.is_object() && at["module"].is_string() &&
                      contains(at["module"].get<std::string>(),
                               "addscope-test-slow-read-stripped") &&
                      at["offset"].is_number_integer() && at["offset"] > 0 &&
                      at.value("line", json()).is_null() &&
                      at.value("file", json()).is_null();
      check(ok, what + " at " + at.dump() +
                    ": not the stripped program's module and an offset");
      if (ok) offsets.insert(at["offset"].get<long long>());
    };
    for (const auto& [k, line] :
         {std::pair<const char*, int>{"user::fill", 13},
          std::pair<const char*, int>{"user::slow_add[1x1]", 20}}) {
      const json* e = kernel(j, k);
      const json at = e ? e->value("launched_at", json()) : json();
      if (stripped)
        in_module(at, std::string(k) + " launched");
      else
        at_line(at, line, std::string(k) + " launched");
    }
    if (stripped)
      check(offsets.size() == 2, "the two launches at " +
                                     std::to_string(offsets.size()) +
                                     " offsets, not 2");
    if (expect == "device" && !stripped) {
      at_line(hid.empty() ? json() : hid[0]->value("code", json()), 27,
              "the read's wait");
      // The trace too (written during the run, its stacks symbolized then):
      // the add's slice at its launch line, the read's at its line.
      bool launch_seen = false, read_seen = false;
      for (const auto& sl : slices) {
        launch_seen =
            launch_seen || contains(sl.launched_at, "slow_read.cpp:20 (main)");
        read_seen = read_seen || contains(sl.code, "slow_read.cpp:27 (main)");
      }
      // The idle rows too: the read's round trip at its deep_copy line.
      bool idle_seen = false;
      const json idle = j.value("idle", json::object());
      if (idle.is_object() && idle.contains("sites"))
        for (const auto& r : idle["sites"])
          idle_seen =
              idle_seen || (r.value("cause", "") == "sync_round_trip" &&
                            r.contains("code") && r["code"].is_object() &&
                            r["code"].value("line", 0) == 27);
      check(idle_seen, "idle: no round-trip row at slow_read.cpp:27");
      check(launch_seen, "trace: no slice launched_at slow_read.cpp:20 (main)");
      check(read_seen, "trace: no slice with code slow_read.cpp:27 (main)");
    }
    const double k = device_s(j, "user::slow_add[1x1]");
    note_shape("user::slow_add[1x1]");
    if (expect == "device") {
      check(starved(j, "user::slow_add[1x1]"),
            "user::slow_add[1x1] not flagged starved");
      check(starved_line(j, "user::slow_add[1x1]")
                    .rfind("user::slow_add[1x1] ran as 1 block x 1 thread (1 "
                           "of ",
                           0) == 0,
            "starved line: " + starved_line(j, "user::slow_add[1x1]"));
      check(names_launch(err, "user::slow_add[1x1]", "1 x 1 (starved)"),
            "the wait line does not point at the 1 x 1 launch");
      check(!hid.empty() && !(*hid[0])["waited_for"].empty() &&
                (*hid[0])["waited_for"][0]["launched_as"] == "1 x 1" &&
                (*hid[0])["waited_for"][0]["starved"] == true,
            "the hidden wait's kernel is not 'launched_as 1 x 1, starved'");
      check(!starved(j, "user::fill"), "user::fill flagged starved");
      check(!hid.empty() && waited_for(*hid[0], "user::slow_add[1x1]"),
            "the longest hidden wait is not for user::slow_add[1x1]");
      check(hidden >= 0.8 * k, "hidden waits " + std::to_string(hidden) +
                                   " s < 80% of the kernel's " +
                                   std::to_string(k) + " s");
    }
    if (bounds)
      check(!hid.empty() && waited_for(*hid[0], "user::slow_add[1x1]") &&
                (*hid[0])["wait_is_bound"] == true,
            "no bounded hidden wait for user::slow_add[1x1]");
  } else if (name == "overlap") {
    need_kernel("probe::slow_add[1x1]");
    if (host) {
      // tests/tools/overlap.cpp: the add runs inside its launch, within the
      // host work the program times (at least host_ms).
      const double host_work = printed("overlap: host work ");
      host_kernel("user::fill", 1);
      host_kernel("probe::slow_add[1x1]", 1);
      check(host_work >= double(arg_or(7, 1000)) * 1e-3,
            "the program's host work " + std::to_string(host_work) + " s");
      check(device_s(j, "probe::slow_add[1x1]") <= host_work + 5e-4,
            "probe::slow_add[1x1] took " +
                std::to_string(device_s(j, "probe::slow_add[1x1]")) +
                " s, more than the host work around it (" +
                std::to_string(host_work) + " s)");
      check(kind_calls("deep_copy") == 0, "deep_copies in a program with none");
    }
    no_hidden_wait_for({"probe::slow_add[1x1]"});
    if (expect == "device") {
      const json& k = *kernel(j, "probe::slow_add[1x1]");
      const double d = k["device_s"], ov = k["overlap_s"];
      check(ov >= 0.9 * d, "overlap " + std::to_string(ov) + " s < 90% of " +
                               std::to_string(d) + " s");
      check(expl <= 0.05 * d, "the fence waited " + std::to_string(expl) +
                                  " s for a kernel that had finished");
    }
  } else if (name == "two_instances") {
    need_kernel("user::slow_a");
    need_kernel("user::slow_b");
    if (host) {
      // tests/tools/two_instances.cpp: on a host backend the instances are
      // one, the kernels run one after the other inside the timed wall.
      for (const char* k :
           {"user::fill", "user::warmup", "user::slow_a", "user::slow_b"})
        host_kernel(k, 1);
      const double wall = printed("two_instances: wall ");
      const double both =
          device_s(j, "user::slow_a") + device_s(j, "user::slow_b");
      check(wall + 1e-4 >= both, "the program's wall " + std::to_string(wall) +
                                     " s is shorter than its two kernels' " +
                                     std::to_string(both) + " s");
    }
    no_hidden_wait_for({"user::slow_a", "user::slow_b"});
    if (expect == "device") {
      check((*kernel(j, "user::slow_a"))["stream"] !=
                (*kernel(j, "user::slow_b"))["stream"],
            "the two instances' kernels ran on one stream");
      for (const auto* w : exp)
        check(
            !(waited_for(*w, "user::slow_a") && waited_for(*w, "user::slow_b")),
            "one instance's fence waited for the other instance's kernel");
      const double ov = overlap_of(slices, "user::slow_a", "user::slow_b");
      check(ov >= 0.8, "the two kernels overlapped " + std::to_string(ov) +
                           " of their time on the device (concurrency lost)");
      const auto p = out.find("wall ");
      const double wall =
          p == std::string::npos ? 1e9 : std::atof(out.c_str() + p + 5);
      const double longest =
          std::max(device_s(j, "user::slow_a"), device_s(j, "user::slow_b"));
      check(wall < 1.5 * longest, "wall " + std::to_string(wall) +
                                      " s: the instances did not run together");
    }
  } else if (name == "stream_fenced") {
    for (const char* k : {"copy", "mul", "add", "triad", "dot"})
      need_kernel(std::string("StreamCase<float>::") + k + " (lambda)");
    if (host) {
      // tests/tools/stream_fenced.cpp: init once, then each kernel once an
      // iteration.
      const long long iters = arg_or(7, 100);
      host_kernel("StreamCase<float>::init (lambda)", 1);
      for (const char* k : {"copy", "mul", "add", "triad", "dot"})
        host_kernel(std::string("StreamCase<float>::") + k + " (lambda)",
                    iters);
      check(kind_calls("deep_copy") == 0, "deep_copies in a program with none");
    }
    if (expect == "device") {
      check(expl > 0, "no explicit waits in a program that fences");
      check(hidden <= 0.01 * expl + 1e-3,
            "hidden waits " + std::to_string(hidden) + " s beside explicit " +
                std::to_string(expl) + " s");
    }
  } else if (name == "region_wait") {
    need_kernel("user::slow_r1");
    need_kernel("user::slow_r2");
    if (host) {
      // tests/tools/region_wait.cpp: both adds inside user::phase, the fill
      // before it; the reads are plain memcpy on a host backend.
      host_kernel("user::fill", 1);
      host_kernel("user::slow_r1", 1, "user::phase");
      host_kernel("user::slow_r2", 1, "user::phase");
      check(kind_calls("deep_copy") == 0, "deep_copies in a program with none");
    }
    if (expect == "device") {
      bool copy = false, sync = false;
      for (const auto* w : hid)
        copy = copy ||
               ((*w)["regions"] == "user::phase" &&
                (*w)["what"].get<std::string>().rfind("cudaMemcpy", 0) == 0 &&
                waited_for(*w, "user::slow_r1") &&
                (*w)["wait_s"].get<double>() >=
                    0.8 * device_s(j, "user::slow_r1"));
      for (const auto* w : exp)
        sync = sync || ((*w)["regions"] == "user::phase" &&
                        (*w)["what"] == "cudaDeviceSynchronize" &&
                        waited_for(*w, "user::slow_r2"));
      check(copy,
            "no hidden wait in region user::phase by cudaMemcpy for "
            "user::slow_r1");
      check(sync,
            "no explicit wait in region user::phase by "
            "cudaDeviceSynchronize for user::slow_r2");
    }
  } else if (name == "two_threads") {
    need_kernel("user::slow_t0");
    need_kernel("user::slow_t1");
    if (host) {
      // tests/tools/two_threads.cpp: on a host backend the main thread does
      // both works in turn: a slow add, then one deep_copy of one element.
      host_kernel("user::fill", 1);
      host_kernel("user::slow_t0", 1);
      host_kernel("user::slow_t1", 1);
      check(site_calls("deep_copy h0<-a (Host<-Host)", "") == 1 &&
                site_calls("deep_copy h1<-b (Host<-Host)", "") == 1 &&
                kind_calls("deep_copy") == 2,
            "not one deep_copy h0<-a and one h1<-b");
      check(j["threads"].size() == 1, "host calls on " +
                                          std::to_string(j["threads"].size()) +
                                          " threads, not the main one");
    }
    if (expect == "device") {
      long long th0 = -1, th1 = -1;
      for (const auto* w : hid) {
        if (waited_for(*w, "user::slow_t0") && th0 < 0) th0 = (*w)["thread"];
        if (waited_for(*w, "user::slow_t1") && th1 < 0) th1 = (*w)["thread"];
      }
      check(th0 >= 0 && th1 >= 0, "no hidden wait for each thread's kernel");
      bool apart = false;
      for (const auto* a : hid)
        for (const auto* b : hid)
          apart = apart || ((*a)["thread"] != (*b)["thread"] &&
                            waited_for(*a, "user::slow_t0") &&
                            waited_for(*b, "user::slow_t1"));
      check(apart, "the two threads' waits were not told apart");
    }
  } else if (name == "shape_starved") {
    need_kernel("user::starved_add");
    if (host) {
      host_kernel("user::fill", 1);
      host_kernel("user::starved_add", 1);
      one_thread_over("user::starved_add", 12.0 * double(arg_or(6, 10000000)));
    }
    note_shape("user::starved_add");
    no_hidden_wait_for({"user::starved_add"});
    if (expect == "device") {
      check(starved(j, "user::starved_add"),
            "user::starved_add not flagged starved");
      check(
          contains(err, "user::starved_add ran as 1 block x 1 thread (1 of " +
                            thousands(resident) + " resident threads on this "),
          "no starved line for user::starved_add in the report");
      check(j["starved"].size() == 1,
            "more than one starved launch: " + j["starved"].dump());
      // The program's Kokkos::fence(): a Kokkos fence where Kokkos reports
      // fences (4.x), else the cudaDeviceSynchronize it calls (3.4, whose
      // fence after user::fill is a second explicit wait). Whichever, one
      // explicit wait took most of the kernel's time and names the 1 x 1
      // launch (as the seed and region cases accept either).
      const double k = device_s(j, "user::starved_add");
      bool fenced = false;
      for (const auto* w : exp)
        fenced =
            fenced || (waited_for(*w, "user::starved_add") &&
                       (*w)["wait_s"].get<double>() >= 0.8 * k &&
                       names_launch((*w)["line"].get<std::string>(),
                                    "user::starved_add", "1 x 1 (starved)"));
      check(fenced, "no explicit wait took >= 80% of user::starved_add's " +
                        std::to_string(k) +
                        " s and named its 1 x 1 (starved) launch");
    }
  } else if (name == "shape_healthy") {
    for (const char* k :
         {"user::triad_range", "user::triad_team", "user::scale", "user::sum"})
      need_kernel(k);
    if (host) {
      // tests/tools/shape_healthy.cpp: per repeat a triad of each policy and
      // two scales; one sum at the end.
      const long long r = arg_or(7, 10);
      host_kernel("user::fill", 1);
      host_kernel("user::triad_range", r);
      host_kernel("user::triad_team", r);
      host_kernel("user::scale", 2 * r);
      host_kernel("user::sum", 1);
    }
    note_shape("user::triad_range");
    note_shape("user::triad_team");
    no_hidden_wait_for({"user::triad_range", "user::triad_team"});
    if (expect == "device") {
      check(j["starved"].empty(),
            "healthy kernels flagged starved: " + j["starved"].dump());
      for (const char* name : {"user::triad_range", "user::triad_team"}) {
        const json* k = kernel(j, name);
        if (!k || (*k)["shapes"].empty()) {
          check(false, std::string("no shape for ") + name);
          continue;
        }
        const json& s = (*k)["shapes"][0];
        check(s["in_flight_fraction"].get<double>() >= 0.125,
              std::string(name) + " keeps " + s["in_flight_fraction"].dump() +
                  " of the device in flight");
      }
      const json* sc = kernel(j, "user::scale");
      check(sc && (*sc)["shapes"].size() == 2,
            "user::scale: not two shapes under one name");
      check(contains(err, "starved launches (") && contains(err, "): none"),
            "the report does not say 'starved launches (...): none'");
    }
  } else if (name == "shape_plain_add") {
    need_kernel("user::plain_add");
    if (host) {
      host_kernel("user::fill", 1);
      host_kernel("user::plain_add", arg_or(7, 20));
      check(kind_calls("deep_copy") == 0,
            "deep_copies: a host mirror of a host View is the View itself");
    }
    note_shape("user::plain_add");
    if (expect == "device") {
      check(j["starved"].empty(),
            "the plain add flagged starved: " + j["starved"].dump());
      const json* k = kernel(j, "user::plain_add");
      check(k && !(*k)["shapes"].empty(), "no shape for user::plain_add");
      // Kokkos 3.x's RangePolicy on CUDA: 64-thread blocks.
      if (k && !(*k)["shapes"].empty() && contains(out, "kokkos 3"))
        check((*k)["shapes"][0]["threads_per_block"] == 64,
              "Kokkos 3.x plain add: blocks of " +
                  (*k)["shapes"][0]["threads_per_block"].dump() +
                  " threads, not 64");
      check(contains(err, "user::plain_add"), "user::plain_add not in report");
    }
  } else if (name == "wait_scope") {
    need_kernel("user::slow_scoped");
    if (host) {
      // tests/tools/wait_scope.cpp: the add and the read inside the scope,
      // the fill before it.
      host_kernel("user::fill", 1);
      host_kernel("user::slow_scoped", 1, "user::assemble");
      check(site_calls("deep_copy out<-out (Host<-Host)", "user::assemble") ==
                    1 &&
                kind_calls("deep_copy") == 1,
            "not one deep_copy out<-out in region user::assemble");
    }
    bool in_region = false;
    for (const auto& s : j["sites"])
      in_region = in_region || s["regions"] == "user::assemble";
    check(in_region, "no call site in region user::assemble");
    for (const auto& s : j["sites"])
      check(!contains(
                s["regions"].is_string() ? s["regions"].get<std::string>() : "",
                "user::assemble > user::assemble"),
            "the region was heard twice");
    if (expect == "device") {
      check(!hid.empty() && (*hid[0])["regions"] == "user::assemble" &&
                waited_for(*hid[0], "user::slow_scoped"),
            "the hidden wait is not in region user::assemble");
      check(contains(err, "waits by region") && contains(err, "user::assemble"),
            "no 'waits by region' with user::assemble in the report");
    }
  } else if (name == "faults_regions") {
    const long long n = argc > 7 ? std::atoll(argv[7]) : 10000;
    check(dropped_n("unmatched_ends") == 3,
          "unmatched ends " + std::to_string(dropped_n("unmatched_ends")) +
              ", not the 3 pops without a push");
    check(dropped_n("unpopped_regions") == n,
          "regions never popped: " +
              std::to_string(dropped_n("unpopped_regions")) + ", not " +
              std::to_string(n));
    check(dropped_n("regions_too_deep") == n - 64,
          "region pushes past the depth cap: " +
              std::to_string(dropped_n("regions_too_deep")));
    check(calls_of("faults::in_region") == n,
          "faults::in_region ran " +
              std::to_string(calls_of("faults::in_region")) + " times");
    check(err.find("  limits: ") != std::string::npos,
          "no limits line in the report");
  } else if (name == "faults_throw") {
    check(out.find("faults: caught 3") != std::string::npos,
          "the program did not catch its 3 exceptions");
    check(dropped_n("unended_calls") == 3,
          "calls never ended: " + std::to_string(dropped_n("unended_calls")) +
              ", not the 3 kernels that threw");
    check(calls_of("faults::after") == 1, "the kernel after them is missing");
  } else if (name == "faults_names") {
    const long long n = argc > 7 ? std::atoll(argv[7]) : 100000;
    check(dropped_n("names") >= n - 65536,
          "names past the cap: " + std::to_string(dropped_n("names")));
    check(j["kernels"].size() <= 4097, "more kernel entries than the cap");
    long long calls = 0;
    for (const auto& k : j["kernels"])
      if (k["name"].get<std::string>().rfind("faults::kernel ", 0) == 0 ||
          k["name"] == "(name table full)" || k["name"] == "(other kernels)")
        calls += k["calls"].get<long long>();
    check(calls == n, "kernels counted " + std::to_string(calls) + ", not " +
                          std::to_string(n));
  } else if (name == "faults_threads") {
    const long long n = argc > 7 ? std::atoll(argv[7]) : 16;
    if (host) {
      // Each thread: 2000 x (kernel, deep_copy), all on Serial; the main
      // thread only initialized faults::v.
      check(site_calls("deep_copy faults::h<-faults::w (Host<-Host)", "") ==
                2000 * n,
            "deep_copy faults::h<-faults::w: " +
                std::to_string(site_calls(
                    "deep_copy faults::h<-faults::w (Host<-Host)", "")) +
                " calls");
      check((long long)j["threads"].size() == n + 1,
            "host calls on " + std::to_string(j["threads"].size()) +
                " threads, not the " + std::to_string(n) + " and main");
      const json* tk = kernel(j, "faults::thread_kernel");
      check(tk && (*tk)["device"] == "Serial",
            "faults::thread_kernel not on Serial");
    }
    check(t["threads"].get<long long>() >= n,
          "threads seen: " + t["threads"].dump());
    check(calls_of("faults::thread_kernel") == 2000 * n,
          "faults::thread_kernel ran " +
              std::to_string(calls_of("faults::thread_kernel")) + " times");
    check(dropped_n("unended_calls") == 0 && dropped_n("unmatched_ends") == 0,
          "unpaired callbacks: " + dropped.dump());
  } else if (name == "faults_unfenced") {
    const long long n = argc > 7 ? std::atoll(argv[7]) : 1000;
    check(calls_of("faults::unfenced") == n, "faults::unfenced launches");
    if (expect == "device") {
      check((*kernel(j, "faults::unfenced"))["launches"] == n,
            "device records of the unfenced kernels: " +
                (*kernel(j, "faults::unfenced"))["launches"].dump());
      check(t["kernels_without_device_record"] == 0,
            "launches without a device record");
    }
  } else if (name == "host_only") {
    check(j["mode"] == "host",
          "a host-only program measured as " + j["mode"].dump());
    check(calls_of("faults::host_kernel") == 100, "faults::host_kernel");
    // The tool's host time of a few-ms kernel is the time the program
    // measured around its launches, less the tool's own work at the ends
    // (a consistent error in every host time passed every check before).
    const double timed = printed(
        "host_only: faults::host_timed 20 calls, timed by the program ");
    const json* ht = kernel(j, "faults::host_timed");
    const double tool_s = ht ? (*ht)["device_s"].get<double>() : -1;
    check(ht && (*ht)["calls"] == 20 && timed > 0 && tool_s <= timed &&
              tool_s >= 0.85 * timed,
          "faults::host_timed: the tool's host time " + std::to_string(tool_s) +
              " s, the program's " + std::to_string(timed) +
              " s (allowed: 85..100% of it; a preemption between the "
              "program's clock and the tool's callback costs a few ms)");
    check(site_calls("deep_copy faults::host_copy<-faults::host (Host<-Host)",
                     "") == 100 &&
              kind_calls("deep_copy") == 100,
          "not 100 deep_copies faults::host_copy<-faults::host");
  } else if (name == "exit_return" || name == "exit_exit" ||
             name == "exit_quick") {
    check(err.find("without Kokkos::finalize()") != std::string::npos,
          "the report does not say it was written without Kokkos::finalize");
    check(calls_of("faults::before_exit") == 10,
          "faults::before_exit ran " +
              std::to_string(calls_of("faults::before_exit")) + " times");
    check(dropped_n("unpopped_regions") == 1,
          "the region left open is not counted");
    if (host) {
      host_kernel("faults::before_exit", 10, "faults::before_exit");
      check(site_calls("deep_copy faults::v<-faults::v (Host<-Host)",
                       "faults::before_exit") == 10,
            "not 10 deep_copies in region faults::before_exit");
    }
  } else if (name.rfind("idle_", 0) == 0) {
    // tests/tools/idle_patterns.cpp: the cause that must dominate the
    // device's idle time (device mode); a host backend has no device idle.
    const json& id = j["idle"];
    check(id.is_object(), "no idle section in the JSON");
    if (host) {
      // tests/tools/idle_patterns.cpp: what each mode launches.
      const long long iters =
          arg_or(7, name == "idle_launch_bound" ? 2000 : 200);
      if (name == "idle_loop") {
        host_kernel("probe::add", iters, "probe::loop");
        host_kernel("probe::residual", iters, "probe::loop");
        check(site_calls("deep_copy probe::r<-probe::r (Host<-Host)",
                         "probe::loop") == iters,
              "not one deep_copy of the residual an iteration");
      } else if (name == "idle_host_bound") {
        host_kernel("probe::step", iters, "probe::host");
        check(kind_calls("deep_copy") == 0, "deep_copies in host_bound");
      } else if (name == "idle_launch_bound") {
        host_kernel("probe::tiny", iters);
      } else {
        host_kernel("probe::stream_add", iters);
      }
    }
    if (expect != "device") {
      check(!id.value("any_activity", false),
            "device activity seen without device records");
    } else if (id.is_object()) {
      const double share = id.value("idle_share", 0.0);
      std::string top;
      double top_s = -1;
      for (auto it = id["causes"].begin(); it != id["causes"].end(); ++it) {
        const double s = it.value().value("idle_s", 0.0);
        if (s > top_s) {
          top_s = s;
          top = it.key();
        }
      }
      char note[160];
      std::snprintf(note, sizeof note, " idle %.1f%%, most %s %.3f ms",
                    100 * share, top.c_str(), top_s * 1e3);
      shape_note += note;
      const std::string want = name == "idle_loop"           ? "sync_round_trip"
                               : name == "idle_host_bound"   ? "host_code"
                               : name == "idle_launch_bound" ? "launch_latency"
                                                             : "";
      if (want.empty()) {  // idle_streaming: the device never waits long
        check(share < 0.05, "a streaming run left the device idle " +
                                std::to_string(100 * share) + "% of the time");
      } else {
        check(share > 0.2, "the device idle only " +
                               std::to_string(100 * share) + "% of the run");
        check(top == want, "most idle time is " + top + ", not " + want);
      }
      if (name == "idle_loop") {
        bool site = false;
        for (const auto& r : id["sites"])
          site = site || (r.value("cause", "") == "sync_round_trip" &&
                          r["site"].is_string() &&
                          contains(r["site"].get<std::string>(), "deep_copy"));
        check(site, "no round trip charged to a deep_copy");
        // "200 deep_copy ... round trips [at idle_patterns.cpp:53 (loop)]
        // left the device idle ...": the line where a stack was taken.
        bool what_if = false;
        std::istringstream lines(err);
        for (std::string l; std::getline(lines, l);)
          what_if = what_if ||
                    (contains(l, "deep_copy") && contains(l, " round trips ") &&
                     contains(l, " left the device idle "));
        check(what_if, "no what-if line for the round trips");
      }
    }
  } else if (name.rfind("external", 0) == 0) {
    // A program nobody here wrote (external, external_NAME: each case its
    // own outputs): its starved launches, if any, go into the summary;
    // external_healthy must have none.
    check(!j["kernels"].empty(), "no kernels");
    if (expect == "device") {
      shape_note += " starved " + std::to_string(j["starved"].size());
      for (const auto& s : j["starved"])
        shape_note += " [" + s["line"].get<std::string>() + "]";
      if (name == "external_healthy")
        check(j["starved"].empty(),
              "starved launches in a healthy program: " + j["starved"].dump());
    }
    if (expect == "device")
      check(hidden <= 0.05 * expl + 2e-3,
            "hidden waits " + std::to_string(hidden) + " s beside explicit " +
                std::to_string(expl) + " s");
  } else {
    std::cerr << "CASE = '" << name << "' is unknown\n";
    return 2;
  }
  char line[2048];
  char skew[64] = "";
  if (expect == "device" && clock_skew < 1e299)
    std::snprintf(skew, sizeof skew, " start-launch >= %.1f us",
                  clock_skew * 1e6);
  std::snprintf(line, sizeof line,
                "%-14s %-11s hidden %8.4f s (%zu) explicit %8.4f s (%zu) "
                "overlap %8.4f s%s%s  %s",
                name.c_str(), j["mode"].get<std::string>().c_str(), hidden,
                hid.size(), expl, exp.size(), t["overlap_s"].get<double>(),
                skew, shape_note.c_str(), failures ? "FAIL" : "PASS");
  std::cout << "SUMMARY " << line << "\n";
  return failures ? 1 : 0;
}
