// Who asked for a synchronization (analyze/addscope_SyncAsker.hpp): the
// program's own code or a framework inside another call — the rules on
// synthetic stacks, and the classes the fold gives the calls.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "addscope/waits/addscope_TrackerOptions.hpp"
#include "addscope/waits/analyze/addscope_Fold.hpp"
#include "addscope/waits/analyze/addscope_NameTable.hpp"
#include "addscope/waits/analyze/addscope_StackTable.hpp"
#include "addscope/waits/analyze/addscope_SyncAsker.hpp"
#include "addscope/waits/output/addscope_ChromeTrace.hpp"

using addscope::CallKind;
using addscope::SyncApi;
using addscope::Impl::Fold;
using addscope::Impl::is_framework_module;
using addscope::Impl::is_synchronize_function;
using addscope::Impl::kPythonFrameTag;
using addscope::Impl::LiveCall;
using addscope::Impl::NameTable;
using addscope::Impl::StackTable;
using addscope::Impl::sync_asker;
using addscope::Impl::SyncAsker;

namespace {
// Native addresses: 0x1000 in the CUDA runtime, 0x2000 in PyTorch's c10,
// 0x3000 in CuPy's Cython module.
std::string module_at(std::uint64_t pc) {
  switch (pc) {
    case 0x1000:
      return "/usr/local/cuda/lib64/libcudart.so.13";
    case 0x2000:
      return "/venv/lib/python3.12/site-packages/torch/lib/libc10_cuda.so";
    case 0x3000:
      return "/venv/lib/python3.12/site-packages/cupy/cuda/"
             "stream.cpython-312-x86_64-linux-gnu.so";
    case 0x4000:
      return "/usr/bin/python3.12";
    default:
      return std::string();
  }
}

// Native addresses, then a Python line that called `called` (a name id).
std::vector<std::uint64_t> stack(std::vector<std::uint64_t> pcs,
                                 std::uint32_t called = 0, bool python = true) {
  if (python) pcs.insert(pcs.end(), {kPythonFrameTag, 1, 2, 21, called});
  return pcs;
}
}  // namespace

TEST(WaitsSyncAsker, ASynchronizeFunctionIsOneWhoseLastNamePartEndsSo) {
  for (const char* f :
       {"synchronize", "Event.synchronize", "Stream.synchronize",
        "deviceSynchronize", "Context.cuCtxSynchronize"})
    EXPECT_TRUE(is_synchronize_function(f)) << f;
  for (const char* f : {"", "sync", "synchronized", "synchronize.helper",
                        "DeviceNDArray.copy_to_host", "Tensor.__repr__", "?"})
    EXPECT_FALSE(is_synchronize_function(f)) << f;
}

TEST(WaitsSyncAsker, FrameworkModulesArePyTorchsLibraries) {
  EXPECT_TRUE(is_framework_module(module_at(0x2000)));
  EXPECT_TRUE(is_framework_module("libtorch_cuda.so"));
  EXPECT_TRUE(is_framework_module("/x/torch/lib/libtorch_python.so"));
  for (const char* m : {"", "/usr/local/cuda/lib64/libcudart.so.13",
                        "/opt/libmytorch.so", "/torch/lib/x.so"})
    EXPECT_FALSE(is_framework_module(m)) << m;
  EXPECT_FALSE(is_framework_module(module_at(0x3000)));
  EXPECT_TRUE(addscope::Impl::is_interpreter_module(module_at(0x4000)));
  EXPECT_TRUE(addscope::Impl::is_interpreter_module(
      "/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0"));
  EXPECT_FALSE(addscope::Impl::is_interpreter_module(module_at(0x2000)));
}

TEST(WaitsSyncAsker, TheFunctionTheLineCalledDecidesThenTheModules) {
  // torch.cuda.synchronize(), Event.synchronize(): the program asked,
  // even through PyTorch's libraries.
  EXPECT_EQ(sync_asker(stack({0x1000, 0x2000}), "synchronize", module_at),
            SyncAsker::Program);
  EXPECT_EQ(sync_asker(stack({0x1000}), "Event.synchronize", module_at),
            SyncAsker::Program);
  // print(t), numba's copy_to_host: a package's function that synchronized.
  EXPECT_EQ(sync_asker(stack({0x1000}), "Tensor.__repr__", module_at),
            SyncAsker::Framework);
  EXPECT_EQ(sync_asker(stack({0x1000}), "?", module_at), SyncAsker::Framework);
  // .item(): the line called native code, inside PyTorch's libraries.
  EXPECT_EQ(sync_asker(stack({0x1000, 0x2000}), "", module_at),
            SyncAsker::Framework);
  // CuPy's Device().synchronize() (Cython, no Python frame of CuPy's), a
  // native program: the runtime call's kind decides.
  EXPECT_EQ(sync_asker(stack({0x1000, 0x3000}), "", module_at),
            SyncAsker::Unknown);
  EXPECT_EQ(sync_asker(stack({0x1000, 0x3000}, 0, false), "", module_at),
            SyncAsker::Unknown);
  EXPECT_EQ(sync_asker(stack({0x1000, 0x2000}, 0, false), "", module_at),
            SyncAsker::Framework);
  EXPECT_EQ(sync_asker({}, "", module_at), SyncAsker::Unknown);
  // PyTorch's libraries outside the interpreter's frames are the line's
  // callers (a hook PyTorch called), not what the line called.
  EXPECT_EQ(sync_asker(stack({0x1000, 0x3000, 0x4000, 0x2000}), "", module_at),
            SyncAsker::Unknown);
  EXPECT_EQ(sync_asker(stack({0x1000, 0x2000, 0x4000}), "", module_at),
            SyncAsker::Framework);
  EXPECT_EQ(sync_asker(stack({0x2000}), "", nullptr), SyncAsker::Unknown);
}

TEST(WaitsSyncAsker, OnlyTheNativeAddressesAreLookedUp) {
  std::vector<std::uint64_t> asked;
  auto spy = [&](std::uint64_t pc) {
    asked.push_back(pc);
    return module_at(pc);
  };
  EXPECT_EQ(sync_asker(stack({0x1000, 0x3000}, 0), "", spy),
            SyncAsker::Unknown);
  EXPECT_EQ(asked, (std::vector<std::uint64_t>{0x1000, 0x3000}));
}

TEST(WaitsSyncAsker, TheFoldClassesEachCallByWhoAsked) {
  addscope::TrackerOptions opt;
  NameTable names(1000, 1 << 20);
  StackTable stacks;
  Fold fold(opt, names, stacks);
  fold.set_module_of(module_at);
  const std::uint32_t kernel = names.intern("spin_kernel");
  const std::uint32_t sync = names.intern("synchronize");
  const std::uint32_t copy = names.intern("DeviceNDArray.copy_to_host");
  const auto id = [&](std::vector<std::uint64_t> s) {
    return stacks.intern(s.data(), std::uint32_t(s.size()));
  };
  struct Case {
    SyncApi api;
    std::uint32_t stack;
    bool kokkos_own;
    bool explicit_;
    const char* what;
  };
  const Case cases[] = {
      {SyncApi::DeviceSynchronize, id(stack({0x1000, 0x2000}, sync)), false,
       true, "torch.cuda.synchronize()"},
      {SyncApi::StreamSynchronize, id(stack({0x1000, 0x2000})), false, false,
       ".item()"},
      {SyncApi::DeviceSynchronize, id(stack({0x1000}, copy)), false, false,
       "numba's copy_to_host"},
      {SyncApi::StreamSynchronize, id(stack({0x1000, 0x3000})), false, true,
       "CuPy's Stream.synchronize()"},
      {SyncApi::Memcpy, id(stack({0x1000, 0x3000})), false, false,
       "CuPy's out[2]"},
      {SyncApi::StreamSynchronize, 0, false, true,
       "a synchronize without a stack"},
      {SyncApi::DeviceSynchronize, id(stack({0x1000}, sync)), true, false,
       "Kokkos' own"},
  };
  double expect_explicit = 0, expect_hidden = 0;
  double wait = 1.0;
  for (const Case& c : cases) {
    const auto before = fold.ledger().totals();
    LiveCall lc;
    lc.kind = CallKind::Runtime;
    lc.what = lc.site = names.intern(addscope::sync_api_name(c.api));
    lc.api = c.api;
    lc.stack = c.stack;
    lc.kokkos_own = c.kokkos_own;
    lc.begin_s = 0;
    lc.end_s = 2 * wait;
    lc.shares.push_back({kernel, 7, wait});
    fold.call(lc);
    const auto after = fold.ledger().totals();
    EXPECT_EQ(after.explicit_s - before.explicit_s, c.explicit_ ? wait : 0)
        << c.what;
    EXPECT_EQ(after.hidden_s - before.hidden_s, c.explicit_ ? 0 : wait)
        << c.what;
    (c.explicit_ ? expect_explicit : expect_hidden) += wait;
    wait *= 2;
  }
  EXPECT_EQ(fold.ledger().totals().explicit_s, expect_explicit);
  EXPECT_EQ(fold.ledger().totals().hidden_s, expect_hidden);
}

// The trace is written while the program runs, before any stack is
// symbolized: a wait at a Python line names it there already, and so does
// a kernel first launched at one.
TEST(WaitsSyncAsker, AWaitAtAPythonLineNamesItInTheTrace) {
  const std::string path = ::testing::TempDir() + "sync_asker_trace_" +
                           std::to_string(::getpid()) + ".json";
  {
    addscope::TrackerOptions opt;
    NameTable names(1000, 1 << 20);
    StackTable stacks;
    Fold fold(opt, names, stacks);
    fold.set_module_of(module_at);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    fold.set_trace(std::unique_ptr<addscope::Impl::TraceSink>(
        new addscope::Impl::ChromeTrace(fd, path, 1000)));
    std::vector<std::uint64_t> s = {0x1000,
                                    0x2000,
                                    kPythonFrameTag,
                                    names.intern("/x/train.py"),
                                    names.intern("step"),
                                    44,
                                    0};
    LiveCall lc;
    lc.kind = CallKind::Runtime;
    lc.what = lc.site = names.intern("cudaStreamSynchronize");
    lc.api = SyncApi::StreamSynchronize;
    lc.stack = stacks.intern(s.data(), std::uint32_t(s.size()));
    lc.begin_s = 1.0;
    lc.end_s = 1.5;
    lc.shares.push_back({names.intern("spin_kernel"), 7, 0.49});
    fold.call(lc);
    // The kernel it waited for, launched at line 40: its slice says so; one
    // launched from native code alone says nothing.
    std::vector<std::uint64_t> l = {0x1000, kPythonFrameTag,
                                    names.intern("/x/train.py"),
                                    names.intern("step"), 40, 0};
    addscope::DeviceKernel k;
    k.name = names.intern("spin_kernel");
    k.stream = 7;
    k.start_s = 1.0;
    k.end_s = 1.49;
    fold.kernel(k, stacks.intern(l.data(), std::uint32_t(l.size())));
    std::vector<std::uint64_t> native = {0x1000, 0x2000};
    k.name = names.intern("native_kernel");
    fold.kernel(k, stacks.intern(native.data(), std::uint32_t(native.size())));
  }  // the trace closes with the fold
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  EXPECT_NE(text.find(R"x("code":"/x/train.py:44 (step)")x"), std::string::npos)
      << text;
  EXPECT_NE(text.find(R"x("launched_at":"/x/train.py:40 (step)")x"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("launched_at"), text.rfind("launched_at")) << text;
}
