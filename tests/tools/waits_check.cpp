// Runs a Kokkos program with libaddscope_waits.so loaded and checks what its
// report, JSON and Chrome trace must say for that program (the tool's tests
// on real programs: ctest here, tests/tools/waits_h200.sh on a GPU).
//
// Usage: addscope-waits-check CASE EXPECT TOOL OUTDIR PROGRAM [ARGS...]
//   CASE    seed | overlap | two_instances | stream_fenced | region_wait |
//           two_threads | external
//   EXPECT  host | device | kokkos-only: how the tool must have measured
// Writes OUTDIR/CASE[.kokkos-only].{json,trace.json,out,err}; prints one
// summary line;
// exits 0 if every check passed, 1 if one failed, 2 on a usage error.
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
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
std::vector<const json*> waits(const json& j, const std::string& cls) {
  std::vector<const json*> v;
  for (const auto& w : j["waits"])
    if (w["class"] == cls) v.push_back(&w);
  return v;
}

struct Slice {
  int pid;
  long long tid;
  double ts, dur;
  std::string name;
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
    if (ph == "X")
      slices.push_back(
          {e["pid"], e.value("tid", 0LL), e["ts"], e["dur"], e["name"]});
    if (ph == "s" || ph == "f") flows[e["id"].get<long long>()].push_back(e);
  }
  auto inside = [&](const json& e) {
    for (const auto& s : slices)
      if (s.pid == e["pid"] && s.tid == e.value("tid", 0LL) &&
          s.ts <= e["ts"].get<double>() &&
          e["ts"].get<double>() <= s.ts + s.dur)
        return true;
    return false;
  };
  int bad = 0;
  for (const auto& f : flows) {
    if (f.second.size() != 2) {
      ++bad;
      continue;
    }
    for (const auto& e : f.second) bad += inside(e) ? 0 : 1;
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
  if (expect != "host" && expect != "device" && expect != "kokkos-only") {
    std::cerr << "EXPECT = '" << expect
              << "' is invalid; allowed: host, device, kokkos-only\n";
    return 2;
  }
  const std::string base =
      dir + "/" + name + (expect == "kokkos-only" ? ".kokkos-only" : "");
  std::string cmd;
  for (int i = 5; i < argc; ++i) cmd += (i > 5 ? " " : "") + quote(argv[i]);
  setenv("KOKKOS_PROFILE_LIBRARY", tool.c_str(), 1);
  setenv("KOKKOS_TOOLS_LIBS", tool.c_str(), 1);
  setenv("ADDSCOPE_WAITS_JSON", (base + ".json").c_str(), 1);
  setenv("ADDSCOPE_WAITS_TRACE", (base + ".trace.json").c_str(), 1);
  if (expect == "kokkos-only") setenv("ADDSCOPE_WAITS_DEVICE", "none", 1);
  std::remove((base + ".json").c_str());
  std::remove((base + ".trace.json").c_str());
  const int st = std::system(
      (cmd + " >" + quote(base + ".out") + " 2>" + quote(base + ".err"))
          .c_str());
  const int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
  const std::string out = read(base + ".out"), err = read(base + ".err");
  std::cout << "== " << name << " (" << expect << ")\n" << out << err;
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
  check(j["schema"] == "addscope-waits/2", "schema");
  check(j["mode"] == expect, "mode is " + j["mode"].dump() + ", not " + expect);
  for (const auto& k : j["kernels"]) {
    const std::string n = k["name"];
    check(n.find("__nv_") == std::string::npos && n.rfind("_Z", 0) != 0 &&
              n.rfind("ZN", 0) != 0,
          "unreadable kernel name " + n);
  }
  const auto slices = check_trace(base + ".trace.json", expect == "device");
  double clock_skew = 0;
  if (expect == "device") {
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

  if (expect == "host") {
    check(j["waits"].empty(), "host backend, yet calls waited");
  }
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
  if (name == "seed") {
    need_kernel("user::slow_add[1x1]");
    const double k = device_s(j, "user::slow_add[1x1]");
    if (expect == "device") {
      check(!hid.empty() && waited_for(*hid[0], "user::slow_add[1x1]"),
            "the longest hidden wait is not for user::slow_add[1x1]");
      check(hidden >= 0.8 * k, "hidden waits " + std::to_string(hidden) +
                                   " s < 80% of the kernel's " +
                                   std::to_string(k) + " s");
    }
    if (expect == "kokkos-only")
      check(!hid.empty() && waited_for(*hid[0], "user::slow_add[1x1]") &&
                (*hid[0])["wait_is_bound"] == true,
            "no bounded hidden wait for user::slow_add[1x1]");
  } else if (name == "overlap") {
    need_kernel("probe::slow_add[1x1]");
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
    if (expect == "device") {
      check(expl > 0, "no explicit waits in a program that fences");
      check(hidden <= 0.01 * expl + 1e-3,
            "hidden waits " + std::to_string(hidden) + " s beside explicit " +
                std::to_string(expl) + " s");
    }
  } else if (name == "region_wait") {
    need_kernel("user::slow_r1");
    need_kernel("user::slow_r2");
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
  } else if (name == "external") {
    check(!j["kernels"].empty(), "no kernels");
    if (expect == "device")
      check(hidden <= 0.05 * expl + 2e-3,
            "hidden waits " + std::to_string(hidden) + " s beside explicit " +
                std::to_string(expl) + " s");
  } else {
    std::cerr << "CASE = '" << name << "' is unknown\n";
    return 2;
  }
  char line[320];
  char skew[64] = "";
  if (expect == "device")
    std::snprintf(skew, sizeof skew, " start-launch >= %.1f us",
                  clock_skew * 1e6);
  std::snprintf(line, sizeof line,
                "%-14s %-11s hidden %8.4f s (%zu) explicit %8.4f s (%zu) "
                "overlap %8.4f s%s  %s",
                name.c_str(), j["mode"].get<std::string>().c_str(), hidden,
                hid.size(), expl, exp.size(), t["overlap_s"].get<double>(),
                skew, failures ? "FAIL" : "PASS");
  std::cout << "SUMMARY " << line << "\n";
  return failures ? 1 : 0;
}
