// What CUPTI itself costs a CUDA program: the floor under any tool that uses
// it (the waits tool among them). Plain CUDA, no Kokkos, no addscope; libcupti
// is opened with dlopen (CUPTI's headers give the types only), so the
// program links no CUPTI. Each CUPTI set-up runs in a process of its own
// (CUPTI cannot be fully undone inside one), in interleaved rounds:
//
//   none        no CUPTI at all
//   activity    kernel activity records (CONCURRENT_KERNEL) alone
//   blocking    activity + runtime callbacks on the calls that can block
//   extcorr     activity + EXTERNAL_CORRELATION records, an external id
//               pushed/popped around each launch (as kineto and Caliper tie
//               kernels to their framework's launches) + blocking callbacks
//   extcorr-rt  extcorr + runtime API activity records (the records external
//               correlation records are documented to precede)
//   records     activity + runtime API records + external correlation, no
//               callbacks at all (blocking calls seen as API records)
//   launch      activity + runtime callbacks on the launches and the
//               blocking calls
//   tool        launch + MEMCPY and MEMSET activity records: what the waits
//               tool asks of CUPTI in a Kokkos program (its idle blame needs
//               the copies: they keep the device busy too)
//
// Metrics of each set-up (one process measures all four):
//   launch_sync   an empty kernel + cudaStreamSynchronize, per iteration (us)
//   burst_launch  a burst of empty launches back to back + one
//                 cudaStreamSynchronize, per launch (us)
//   memcpy_d2h    a one-element synchronous cudaMemcpy device to host (us)
//   add           a fenced add c = a + b of n floats, the best of add_iters
//                 (GB/s, 3 arrays counted)
// Checks in every process: every CUDA and CUPTI return code, the add's
// result; with activity on, one kernel record per kernel launched and no
// record dropped; with callbacks, every launch / blocking call seen; with
// external correlation, every kernel record tied to its launch's external
// id. A set-up "gives the truth" when its kernel records are tied to their
// launches (extcorr, extcorr-rt, records, launch) and every blocking call
// is seen (by callback or API record).
//
// Usage: addscope-cupti-floor [--rounds R=5] [--setups a,b,...]
//   [--iters N=20000] [--burst N=100000] [--n N=10000000] [--add-iters N=100]
//   [--buffer-kib K=64] [--rotate K=0]
// (--rotate: the first round starts with set-up K of the list, modulo its
// length; tests/perf/waits_cost.sh runs one round per round of its own.)
// Prints, after the rounds, one line per set-up and metric:
//   cupti_floor setup=S metric=M median=V unit=U diff=D values=v1,v2,...
// (D: the difference of the medians to set-up none, in the metric's unit, or
// in % for add), and one line per set-up with its checks:
//   cupti_floor setup=S truth=yes|no runs=R failed=F launches=N ... what="..."
// "cupti_floor setup=S round=R FAIL: why" for each failed check, and
// "cupti_floor setup=S note: what" (first round) for what this CUPTI does
// that keeps a set-up from giving the truth without failing it.
// Exit status 0 when every process ran and passed its checks, 1 otherwise,
// 2 for a usage error. ADDSCOPE_CUPTI_LIB names the libcupti to open.
#include <cuda_runtime.h>
#include <cupti.h>
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "cupti_floor_setup.hpp"

namespace {

// ---- options ---------------------------------------------------------------

struct Options {
  int rounds = 5;
  int rotate = 0;
  long iters = 20000;
  long burst = 100000;
  long n = 10000000;
  long add_iters = 100;
  long buffer_kib = 64;
  std::vector<const Setup*> setups;
  const Setup* child = nullptr;
};

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr,
               "cupti_floor: %s\nusage: addscope-cupti-floor [--rounds R=5] "
               "[--setups a,b,...] [--iters N=20000] [--burst N=100000] [--n "
               "N=10000000] [--add-iters N=100] [--buffer-kib K=64] [--rotate "
               "K=0]\n",
               msg.c_str());
  std::exit(2);
}

long parse_long(const std::string& flag, const char* s, long lo, long hi) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
    usage_error(flag + " = '" + s + "' is invalid; allowed: an integer from " +
                std::to_string(lo) + " to " + std::to_string(hi));
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::printf(
          "usage: addscope-cupti-floor [--rounds R=5] [--setups a,b,...] "
          "[--iters N=20000] [--burst N=100000] [--n N=10000000] "
          "[--add-iters N=100] [--buffer-kib K=64] [--rotate K=0]\n"
          "set-ups:\n");
      for (const auto& s : kSetups) std::printf("  %-11s %s\n", s.name, s.what);
      std::exit(0);
    }
    if (i + 1 >= argc) usage_error("missing value after " + a);
    const char* v = argv[++i];
    if (a == "--rounds") {
      o.rounds = int(parse_long(a, v, 1, 1000));
    } else if (a == "--rotate") {
      o.rotate = int(parse_long(a, v, 0, 1000000));
    } else if (a == "--iters") {
      o.iters = parse_long(a, v, 1, 100000000);
    } else if (a == "--burst") {
      o.burst = parse_long(a, v, 1, 100000000);
    } else if (a == "--n") {
      o.n = parse_long(a, v, 1, 1L << 31);
    } else if (a == "--add-iters") {
      o.add_iters = parse_long(a, v, 1, 1000000);
    } else if (a == "--buffer-kib") {
      o.buffer_kib = parse_long(a, v, 4, 1 << 20);
    } else if (a == "--setups" || a == "--child") {
      std::stringstream ss(v);
      std::string name;
      std::vector<const Setup*> list;
      while (std::getline(ss, name, ',')) {
        const Setup* s = find_setup(name);
        if (!s)
          usage_error(a + ": set-up '" + name +
                      "' is unknown; allowed: " + setup_names());
        if (std::find(list.begin(), list.end(), s) == list.end())
          list.push_back(s);
      }
      if (list.empty())
        usage_error(a + " = '" + v +
                    "' names no set-up; allowed: " + setup_names());
      if (a == "--child") {
        if (list.size() != 1) usage_error("--child takes one set-up");
        o.child = list[0];
      } else {
        o.setups = list;
      }
    } else {
      usage_error("unknown option '" + a + "'");
    }
  }
  if (o.setups.empty())
    for (const auto& s : kSetups) o.setups.push_back(&s);
  return o;
}

// ---- the child: one set-up in this process ---------------------------------

#define FLOOR_CUDA(call)                                        \
  do {                                                          \
    const cudaError_t e_ = (call);                              \
    if (e_ != cudaSuccess)                                      \
      fail(std::string(#call) + ": " + cudaGetErrorString(e_)); \
  } while (0)

__global__ void empty_kernel() {}

__global__ void fill_kernel(float* a, float* b, float* c, long n) {
  const long i = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i] = 1.0f;
    b[i] = 2.0f;
    c[i] = -1.0f;
  }
}

__global__ void add_kernel(const float* a, const float* b, float* c, long n) {
  const long i = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// The program's own count of what it asked CUDA for: the checks compare
// CUPTI's view against it.
struct Asked {
  std::uint64_t launches = 0;
  std::uint64_t blocking = 0;
  std::uint64_t ext_id = 0;
};

int child(const Options& o) {
  const Setup& s = *o.child;
  alarm(600);  // a hung device ends the process, not the round
  got.buffer_bytes = std::size_t(o.buffer_kib) << 10;
  const bool cupti = s.activity || s.ext || s.api_records || s.blocking_cbs ||
                     s.launch_cbs || s.copies;
  const std::uint32_t cupti_version = enable_setup(s, [] {
    int rt = 0;
    return cudaRuntimeGetVersion(&rt) == cudaSuccess ? rt : 0;
  }());
  Asked asked;
  const long n = o.n;
  const unsigned block = 256;
  const unsigned grid = unsigned((n + block - 1) / block);
  // Every launch goes through here: an external id around it where the
  // set-up ties launches so (Kokkos' begin/end of a kernel would).
  auto launch = [&](auto&& f) {
    if (s.ext)
      cupti_check(
          api.Push(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, ++asked.ext_id),
          "cuptiActivityPushExternalCorrelationId");
    f();
    if (s.ext) {
      std::uint64_t last = 0;
      cupti_check(api.Pop(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last),
                  "cuptiActivityPopExternalCorrelationId");
      if (last != asked.ext_id) fail("popped another external id");
    }
    ++asked.launches;
  };
  auto blocking = [&](cudaError_t e, const char* what) {
    ++asked.blocking;
    if (e != cudaSuccess)
      fail(std::string(what) + ": " + cudaGetErrorString(e));
  };

  FLOOR_CUDA(cudaSetDevice(0));
  cudaDeviceProp prop;
  FLOOR_CUDA(cudaGetDeviceProperties(&prop, 0));
  int rt = 0, drv = 0;
  FLOOR_CUDA(cudaRuntimeGetVersion(&rt));
  FLOOR_CUDA(cudaDriverGetVersion(&drv));
  cudaStream_t stream;
  FLOOR_CUDA(cudaStreamCreate(&stream));
  float *a = nullptr, *b = nullptr, *c = nullptr;
  FLOOR_CUDA(cudaMalloc(&a, sizeof(float) * std::size_t(n)));
  FLOOR_CUDA(cudaMalloc(&b, sizeof(float) * std::size_t(n)));
  FLOOR_CUDA(cudaMalloc(&c, sizeof(float) * std::size_t(n)));
  launch([&] { fill_kernel<<<grid, block, 0, stream>>>(a, b, c, n); });
  FLOOR_CUDA(cudaGetLastError());
  blocking(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  // Warm-up: the first launches load the module.
  for (int i = 0; i < 100; ++i) {
    launch([&] { empty_kernel<<<1, 1, 0, stream>>>(); });
    blocking(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
  float one = 0;
  for (int i = 0; i < 10; ++i)
    blocking(cudaMemcpy(&one, c, sizeof(float), cudaMemcpyDeviceToHost),
             "cudaMemcpy");
  FLOOR_CUDA(cudaGetLastError());

  auto us = [](std::int64_t t0, std::int64_t t1, long count) {
    return double(t1 - t0) * 1e-3 / double(count);
  };
  std::int64_t t0 = now_ns();
  for (long i = 0; i < o.iters; ++i) {
    launch([&] { empty_kernel<<<1, 1, 0, stream>>>(); });
    blocking(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
  const double launch_sync = us(t0, now_ns(), o.iters);
  FLOOR_CUDA(cudaGetLastError());

  t0 = now_ns();
  for (long i = 0; i < o.burst; ++i)
    launch([&] { empty_kernel<<<1, 1, 0, stream>>>(); });
  blocking(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  const double burst = us(t0, now_ns(), o.burst);
  FLOOR_CUDA(cudaGetLastError());

  t0 = now_ns();
  for (long i = 0; i < o.iters; ++i)
    blocking(cudaMemcpy(&one, c, sizeof(float), cudaMemcpyDeviceToHost),
             "cudaMemcpy");
  const double memcpy_us = us(t0, now_ns(), o.iters);

  double best = 1e30;
  for (long i = 0; i < o.add_iters + 1; ++i) {  // the first is a warm-up
    const std::int64_t k0 = now_ns();
    launch([&] { add_kernel<<<grid, block, 0, stream>>>(a, b, c, n); });
    blocking(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    if (i > 0) best = std::min(best, double(now_ns() - k0) * 1e-9);
  }
  FLOOR_CUDA(cudaGetLastError());
  const double add_gbs = 3.0 * sizeof(float) * double(n) / best * 1e-9;

  // The add's result, every element.
  std::vector<float> h(static_cast<std::size_t>(n), 0.0f);
  blocking(cudaMemcpy(h.data(), c, sizeof(float) * std::size_t(n),
                      cudaMemcpyDeviceToHost),
           "cudaMemcpy");
  long wrong = 0;
  for (long i = 0; i < n; ++i) wrong += h[std::size_t(i)] != 3.0f;
  blocking(cudaFree(a), "cudaFree");
  blocking(cudaFree(b), "cudaFree");
  blocking(cudaFree(c), "cudaFree");
  FLOOR_CUDA(cudaStreamDestroy(stream));
  if (cupti)
    cupti_check(api.ActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED),
                "cuptiActivityFlushAll");

  std::printf("floor_info device %s\n", prop.name);
  std::printf("floor_info runtime %d.%d driver %d.%d\n", rt / 1000,
              rt % 1000 / 10, drv / 1000, drv % 1000 / 10);
  if (cupti)
    std::printf("floor_info cupti %s (CUPTI API %u)\n", api.path.c_str(),
                cupti_version);
  std::printf("floor_child launch_sync %.4f\n", launch_sync);
  std::printf("floor_child burst_launch %.4f\n", burst);
  std::printf("floor_child memcpy_d2h %.4f\n", memcpy_us);
  std::printf("floor_child add %.2f\n", add_gbs);

  // ---- checks ----
  std::vector<std::string> failed;
  std::vector<std::string> notes;  // not failures: what this CUPTI does
  std::ostringstream detail;
  if (wrong)
    failed.push_back("add: " + std::to_string(wrong) + " of " +
                     std::to_string(n) + " elements wrong");
  std::lock_guard<std::mutex> l(got.m);
  static const ThreadLog empty_log{};
  const ThreadLog& lg = tlog ? *tlog : empty_log;
  bool tied = false, blocking_seen = false;
  if (s.activity) {
    detail << " kernels=" << got.kernel_corr.size() << "/" << asked.launches
           << " dropped=" << got.dropped << " buffers=" << got.buffers;
    if (got.kernel_corr.size() != asked.launches)
      failed.push_back("kernel records " +
                       std::to_string(got.kernel_corr.size()) + " for " +
                       std::to_string(asked.launches) + " launches");
    if (got.dropped)
      failed.push_back(std::to_string(got.dropped) + " records dropped");
  }
  if (s.copies) {
    // at least the one-element copies (the memcpy_d2h metric) and the add's
    // read-back
    detail << " copies=" << got.copies;
    if (got.copies < std::uint64_t(o.iters))
      failed.push_back("copy records " + std::to_string(got.copies) +
                       " for at least " + std::to_string(o.iters) + " copies");
  }
  if (s.blocking_cbs) {
    detail << " blocking_cb=" << lg.blocking_enter << "+" << lg.blocking_exit
           << "/" << asked.blocking;
    if (lg.blocking_enter != asked.blocking ||
        lg.blocking_exit != asked.blocking)
      failed.push_back("blocking callbacks " +
                       std::to_string(lg.blocking_enter) + " enter, " +
                       std::to_string(lg.blocking_exit) + " exit for " +
                       std::to_string(asked.blocking) + " blocking calls");
    blocking_seen = true;
  }
  if (s.launch_cbs) {
    detail << " launch_cb=" << lg.launch_enter << "/" << asked.launches;
    if (lg.launch_enter != asked.launches)
      failed.push_back("launch callbacks " + std::to_string(lg.launch_enter) +
                       " for " + std::to_string(asked.launches) + " launches");
    tied = true;  // the callback's correlation id is the kernel record's
  }
  if (s.api_records) {
    detail << " api_blocking=" << got.api_blocking << "/" << asked.blocking
           << " api_launch=" << got.api_launch << "/" << asked.launches
           << " api_other=" << got.api_other;
    if (got.api_blocking != asked.blocking)
      failed.push_back("runtime API records of blocking calls " +
                       std::to_string(got.api_blocking) + " for " +
                       std::to_string(asked.blocking) + " calls");
    if (got.api_launch != asked.launches)
      failed.push_back("runtime API records of launches " +
                       std::to_string(got.api_launch) + " for " +
                       std::to_string(asked.launches) + " launches");
    blocking_seen = true;
  }
  if (s.ext) {
    // Every kernel record tied to the external id pushed around its launch:
    // external records (correlation id -> external id) for the external ids
    // 1..launches, each seen.
    std::map<std::uint32_t, std::uint64_t> by_corr;
    std::vector<std::uint64_t> ids;
    ids.reserve(got.ext.size());
    for (const auto& e : got.ext) {
      by_corr[e.first] = e.second;
      ids.push_back(e.second);
    }
    // (one record per API record inside the push: a launch that is more
    // than one runtime call would give its id twice)
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    const bool ids_ok =
        ids.size() == asked.ext_id &&
        (ids.empty() || (ids.front() == 1 && ids.back() == asked.ext_id));
    std::uint64_t untied = 0;
    for (auto corr : got.kernel_corr) untied += by_corr.count(corr) == 0;
    detail << " ext=" << got.ext.size() << "/" << asked.ext_id
           << " untied_kernels=" << untied;
    if (got.ext.empty())
      // What this CUPTI does, not a broken run (CUPTI 13 on the H200): the
      // set-up's cost is still measured; it does not give the truth.
      notes.push_back(
          "no external correlation records (this CUPTI emits them only "
          "beside runtime API records: see set-up extcorr-rt); its cost is "
          "measured, it does not tie kernels to launches");
    else if (!ids_ok || untied)
      failed.push_back(
          "external correlation: " + std::to_string(got.ext.size()) +
          " records for " + std::to_string(asked.ext_id) + " external ids, " +
          std::to_string(untied) + " kernel records without one");
    else
      tied = true;
    if (got.ext_other_kind)
      failed.push_back(std::to_string(got.ext_other_kind) +
                       " external records of another kind");
  }
  const bool ok = failed.empty();
  std::printf("floor_check truth=%s checks=%s launches=%llu blocking=%llu%s\n",
              ok && tied && blocking_seen ? "yes" : "no", ok ? "ok" : "FAIL",
              (unsigned long long)asked.launches,
              (unsigned long long)asked.blocking, detail.str().c_str());
  for (const auto& f : failed) std::printf("floor_fail %s\n", f.c_str());
  for (const auto& n : notes) std::printf("floor_note %s\n", n.c_str());
  std::fflush(stdout);
  // CUPTI's threads may still hold the log: leave without destructors.
  std::_Exit(ok ? 0 : 1);
}

// ---- the parent: rounds of child processes ---------------------------------

struct ChildResult {
  bool ran = false;
  int status = 0;
  std::map<std::string, double> metric;
  std::string check, info_device, info_versions, info_cupti;
  std::vector<std::string> fails, notes;
};

ChildResult run_child(const char* self, const Options& o, const Setup& s) {
  ChildResult r;
  int fd[2];
  if (pipe(fd) != 0) {
    r.fails.push_back(std::string("pipe: ") + std::strerror(errno));
    return r;
  }
  std::vector<std::string> args = {self,
                                   "--child",
                                   s.name,
                                   "--iters",
                                   std::to_string(o.iters),
                                   "--burst",
                                   std::to_string(o.burst),
                                   "--n",
                                   std::to_string(o.n),
                                   "--add-iters",
                                   std::to_string(o.add_iters),
                                   "--buffer-kib",
                                   std::to_string(o.buffer_kib)};
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) {
    r.fails.push_back(std::string("fork: ") + std::strerror(errno));
    close(fd[0]);
    close(fd[1]);
    return r;
  }
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    close(fd[1]);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(&a[0]);
    argv.push_back(nullptr);
    execv(self, argv.data());
    std::fprintf(stderr, "cupti_floor: cannot run %s: %s\n", self,
                 std::strerror(errno));
    _exit(127);
  }
  close(fd[1]);
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t k = read(fd[0], buf, sizeof buf);
    if (k > 0) {
      out.append(buf, std::size_t(k));
    } else if (k < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  close(fd[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  r.ran = true;
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string tag, key;
    ls >> tag;
    if (tag == "floor_child") {
      double v = 0;
      if (ls >> key >> v) r.metric[key] = v;
    } else if (tag == "floor_check") {
      r.check = line.substr(12);  // "truth=yes|no checks=ok|FAIL ..."
    } else if (tag == "floor_fail") {
      r.fails.push_back(line.size() > 11 ? line.substr(11) : line);
    } else if (tag == "floor_note") {
      r.notes.push_back(line.size() > 11 ? line.substr(11) : line);
    } else if (tag == "floor_info") {
      ls >> key;
      std::string rest;
      std::getline(ls, rest);
      if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
      if (key == "device") r.info_device = rest;
      if (key == "runtime") r.info_versions = "runtime " + rest;
      if (key == "cupti") r.info_cupti = rest;
      if (key == "refused") r.notes.push_back("refused " + rest);
    }
  }
  if (r.status != 0 && r.fails.empty())
    r.fails.push_back("exit status " + std::to_string(r.status));
  return r;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

int parent(const char* self, const Options& o) {
  struct Metric {
    const char* key;
    const char* unit;
  };
  const Metric metrics[] = {{"launch_sync", "us"},
                            {"burst_launch", "us"},
                            {"memcpy_d2h", "us"},
                            {"add", "GB/s"}};
  std::printf(
      "cupti_floor: plain CUDA, no Kokkos: %ld x (empty kernel + "
      "cudaStreamSynchronize), %ld empty launches back to back + 1 sync, %ld "
      "x one-element cudaMemcpy D2H, fenced add of %ld floats (best of %ld); "
      "%d interleaved rounds, medians; CUPTI buffers of %ld KiB\n",
      o.iters, o.burst, o.iters, o.n, o.add_iters, o.rounds, o.buffer_kib);
  std::fflush(stdout);
  std::map<std::string, std::map<std::string, std::vector<double>>> values;
  std::map<std::string, std::vector<std::string>> checks;
  std::map<std::string, int> runs_failed;
  std::string device, versions, cupti;
  int failures = 0;
  const std::size_t ns = o.setups.size();
  for (int round = 0; round < o.rounds; ++round) {
    // Each round starts with the next set-up: none is first only in some.
    for (std::size_t k = 0; k < ns; ++k) {
      const Setup& s = *o.setups[(k + std::size_t(round + o.rotate)) % ns];
      ChildResult r = run_child(self, o, s);
      if (!r.info_device.empty()) device = r.info_device;
      if (!r.info_versions.empty()) versions = r.info_versions;
      if (!r.info_cupti.empty()) cupti = r.info_cupti;
      for (const auto& m : r.metric)
        values[s.name][m.first].push_back(m.second);
      if (!r.check.empty()) checks[s.name].push_back(r.check);
      if (round == 0)
        for (const auto& n : r.notes)
          std::printf("cupti_floor setup=%s note: %s\n", s.name, n.c_str());
      if (!r.fails.empty() || r.status != 0) {
        ++failures;
        ++runs_failed[s.name];
        for (const auto& f : r.fails)
          std::printf("cupti_floor setup=%s round=%d FAIL: %s\n", s.name,
                      round + 1, f.c_str());
      }
      std::fflush(stdout);
    }
  }
  std::printf("cupti_floor: device %s, %s; %s\n",
              device.empty() ? "?" : device.c_str(),
              versions.empty() ? "?" : versions.c_str(),
              cupti.empty() ? "no CUPTI loaded" : cupti.c_str());
  for (const Setup* s : o.setups) {
    for (const auto& m : metrics) {
      const auto& v = values[s->name][m.key];
      if (v.empty()) continue;
      const double med = median(v);
      std::string diff = "-";
      const auto& base = values["none"][m.key];
      if (!base.empty()) {
        const double b = median(base);
        char d[64];
        if (std::string(m.key) == "add")
          std::snprintf(d, sizeof d, "%+.2f%%", 100.0 * (med - b) / b);
        else
          std::snprintf(d, sizeof d, "%+.3f", med - b);
        diff = d;
      }
      std::string list;
      for (double x : v) {
        char t[32];
        std::snprintf(t, sizeof t, "%s%.4g", list.empty() ? "" : ",", x);
        list += t;
      }
      std::printf(
          "cupti_floor setup=%s metric=%s median=%.4f unit=%s diff=%s "
          "values=%s\n",
          s->name, m.key, med, m.unit, diff.c_str(), list.c_str());
    }
  }
  for (const Setup* s : o.setups) {
    const auto& c = checks[s->name];
    // Truth only if every run said so; the counts of the last run.
    bool truth = !c.empty() && runs_failed[s->name] == 0;
    for (const auto& x : c) truth = truth && x.rfind("truth=yes", 0) == 0;
    std::string counts;
    if (!c.empty()) {
      const auto p = c.back().find("launches=");
      if (p != std::string::npos) counts = " " + c.back().substr(p);
    }
    std::printf(
        "cupti_floor setup=%s truth=%s runs=%d failed=%d%s what=\"%s\"\n",
        s->name, truth ? "yes" : "no", o.rounds, runs_failed[s->name],
        counts.c_str(), s->what);
  }
  if (failures)
    std::printf("cupti_floor: %d of %d runs FAILED\n", failures,
                o.rounds * int(ns));
  else
    std::printf("cupti_floor: all %d runs passed their checks\n",
                o.rounds * int(ns));
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (o.child) return child(o);
  // The children are this program again: /proc/self/exe (argv[0] may be a
  // bare name found on PATH).
  char self[4096];
  const ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
  if (k <= 0) {
    std::fprintf(stderr, "cupti_floor: cannot find this program: %s\n",
                 std::strerror(errno));
    return 1;
  }
  self[k] = '\0';
  return parent(self, o);
}
