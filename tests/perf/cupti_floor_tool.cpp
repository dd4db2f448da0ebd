// The CUPTI floor inside a Kokkos program: a Kokkos Tools library that
// registers the same Kokkos callbacks as tests/tools/null_tool.cpp (and does
// nothing in them) and sets CUPTI up as one set-up of tests/perf/
// cupti_floor.cpp asks (default "tool": what libaddscope_waits.so asks of
// CUPTI in a Kokkos program), with the floor's minimal work in CUPTI's
// callbacks and buffers (a clock read and a ring entry per callback; records
// counted). Loaded where the waits tool is loaded, it prices CUPTI for the
// very CUDA calls that Kokkos makes, which the plain-CUDA floor program (one
// call per iteration) cannot: on the H200 its counts were 50,009 blocking
// calls in Kokkos 3.4's run of tests/tools/event_overhead.cpp (10,000 launch
// + fence and 10,000 one-element deep_copy iterations: a 3.4 deep_copy with
// a tool loaded makes about four) and 40,009 in 4.6.99's. The waits
// tool's cost above this row is its own. tests/perf/waits_cost.sh runs it as
// the rows "CUPTI floor tool (set-up S)".
//
//   ADDSCOPE_CUPTI_FLOOR_SETUP   a set-up of addscope-cupti-floor other than
//                                none (default tool)
//   ADDSCOPE_CUPTI_LIB           the libcupti to open (else the program's
//                                CUDA runtime's, then the usual names)
// At finalize it writes one line to stderr:
//   cupti_floor_tool setup=S kernels=K copies=C blocking_cb=E+X launch_cb=L
//     buffers=B dropped=D
// (callbacks: the finalizing thread's). A CUPTI failure at start-up ends the
// program with status 1 and one line "cupti_floor_tool: FAIL ..." on stderr
// (a floor that is not measured must not look like one); an invalid set-up
// with status 2.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../tools/kokkosp_empty_callbacks.hpp"
#include "cupti_floor_setup.hpp"

namespace {

const Setup* g_setup = nullptr;
std::uint64_t g_ext_id = 0;  // set-ups with external correlation

// Set-ups with external correlation tie kernels to the Kokkos call around
// them (as kineto and Caliper do to their framework's launches).
void push_call(std::uint64_t* id) {
  *id = 0;
  if (g_setup && g_setup->ext) {
    *id = ++g_ext_id;
    api.Push(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, *id);
  }
}
void pop_call() {
  if (g_setup && g_setup->ext) {
    std::uint64_t last = 0;
    api.Pop(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
  }
}

int program_runtime_version() {
  // The program's CUDA runtime, when it is a shared library (Kokkos'
  // default); 0 when unknown.
  using Fn = int (*)(int*);
  auto fn = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, "cudaRuntimeGetVersion"));
  int v = 0;
  return fn && fn(&v) == 0 ? v : 0;
}

}  // namespace

extern "C" {
void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {
  g_fail_prefix = "cupti_floor_tool: FAIL";
  g_fail_stream = stderr;
  const char* env = std::getenv("ADDSCOPE_CUPTI_FLOOR_SETUP");
  const std::string name = env && *env ? env : "tool";
  g_setup = find_setup(name);
  if (!g_setup || std::strcmp(g_setup->name, "none") == 0) {
    std::string allowed;
    for (const auto& k : kSetups)
      if (std::strcmp(k.name, "none") != 0)
        allowed += std::string(allowed.empty() ? "" : ", ") + k.name;
    std::fprintf(stderr,
                 "cupti_floor_tool: ADDSCOPE_CUPTI_FLOOR_SETUP = '%s' is "
                 "invalid; allowed: %s\n",
                 name.c_str(), allowed.c_str());
    std::exit(2);
  }
  enable_setup(*g_setup, program_runtime_version());
}

void kokkosp_finalize_library() {
  if (!g_setup) return;
  if (api.ActivityFlushAll)
    api.ActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  static const ThreadLog empty_log{};
  const ThreadLog& lg = tlog ? *tlog : empty_log;
  std::lock_guard<std::mutex> l(got.m);
  std::fprintf(stderr,
               "cupti_floor_tool setup=%s kernels=%zu copies=%llu "
               "blocking_cb=%llu+%llu launch_cb=%llu buffers=%llu "
               "dropped=%zu\n",
               g_setup->name, got.kernel_corr.size(),
               static_cast<unsigned long long>(got.copies),
               static_cast<unsigned long long>(lg.blocking_enter),
               static_cast<unsigned long long>(lg.blocking_exit),
               static_cast<unsigned long long>(lg.launch_enter),
               static_cast<unsigned long long>(got.buffers), got.dropped);
}

void kokkosp_begin_parallel_for(const char*, std::uint32_t, std::uint64_t* id) {
  push_call(id);
}
void kokkosp_end_parallel_for(std::uint64_t) { pop_call(); }
void kokkosp_begin_parallel_reduce(const char*, std::uint32_t,
                                   std::uint64_t* id) {
  push_call(id);
}
void kokkosp_end_parallel_reduce(std::uint64_t) { pop_call(); }
void kokkosp_begin_parallel_scan(const char*, std::uint32_t,
                                 std::uint64_t* id) {
  push_call(id);
}
void kokkosp_end_parallel_scan(std::uint64_t) { pop_call(); }
}
