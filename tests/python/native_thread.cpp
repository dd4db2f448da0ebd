// A library's own C++ thread, as PyTorch's autograd thread is: a kernel
// launched (through the Kokkos Tools entry points it is handed) on a thread
// Python never saw, while the Python thread that asked for it waits inside
// this call (tests/python/python_sites.py).
#include <cstdint>
#include <string>
#include <thread>

using BeginFn = void (*)(const char*, std::uint32_t, std::uint64_t*);
using EndFn = void (*)(std::uint64_t);

extern "C" void addscope_test_launch_on_native_thread(BeginFn begin, EndFn end,
                                                      const char* name) {
  std::thread worker([=] {
    std::uint64_t id = 0;
    begin(name, 0, &id);
    end(id);
  });
  worker.join();
}

// `count` kernels of names of their own ("user::native_0", ...), each a
// first launch (a stack taken), on one thread of the library's.
extern "C" void addscope_test_launch_many_on_native_thread(BeginFn begin,
                                                           EndFn end,
                                                           int count) {
  std::thread worker([=] {
    for (int i = 0; i < count; ++i) {
      const std::string name = "user::native_" + std::to_string(i);
      std::uint64_t id = 0;
      begin(name.c_str(), 0, &id);
      end(id);
    }
  });
  worker.join();
}
