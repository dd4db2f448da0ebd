// 100,000 distinct kernel names on one thread, through the tool's Kokkos
// Tools entry points with a Cuda device id (async: placed launches).
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
using Init = void (*)(int, std::uint64_t, std::uint32_t, void*);
using Begin = void (*)(const char*, std::uint32_t, std::uint64_t*);
using End = void (*)(std::uint64_t);
using Fin = void (*)();
int main(int argc, char** argv) {
  void* h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    std::puts(dlerror());
    return 1;
  }
  auto init = (Init)dlsym(h, "kokkosp_init_library");
  auto begin = (Begin)dlsym(h, "kokkosp_begin_parallel_for");
  auto end = (End)dlsym(h, "kokkosp_end_parallel_for");
  auto fin = (Fin)dlsym(h, "kokkosp_finalize_library");
  const int n = argc > 2 ? std::atoi(argv[2]) : 100000;
  init(0, 20211015, 0, nullptr);
  for (int i = 0; i < n; ++i) {
    const std::string name = "faults::kernel " + std::to_string(i);
    std::uint64_t id = 0;
    begin(name.c_str(), 2u << 24, &id);
    end(id);
  }
  fin();
}
