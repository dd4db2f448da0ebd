// Where libcupti is looked for (device/addscope_CuptiLibrary): the search
// on made-up layouts — a CUDA toolkit, pip's nvidia-* wheels, conda,
// PyTorch's lib folder —, the order (the runtime's own major everywhere
// before any other name), the inputs this process shows, and the line a
// report prints when there is none.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "addscope/waits/device/addscope_CuptiLibrary.hpp"

namespace {

using addscope::Impl::cupti_library_candidates;
using addscope::Impl::cupti_not_found_message;
using addscope::Impl::cupti_search_folders;
using addscope::Impl::cupti_search_inputs;
using addscope::Impl::CuptiSearchInputs;

std::ptrdiff_t at(const std::vector<std::string>& v, const std::string& s) {
  const auto it = std::find(v.begin(), v.end(), s);
  return it == v.end() ? -1 : it - v.begin();
}

TEST(WaitsCuptiLibrary, LoaderNamesOnlyWhenNothingElseIsKnown) {
  CuptiSearchInputs in;
  in.env_lib = "/opt/x/libcupti.so.99";
  in.runtime_version = 11080;
  const auto c = cupti_library_candidates(in);
  const std::vector<std::string> want = {
      "/opt/x/libcupti.so.99", "libcupti.so.11.8", "libcupti.so.11",
      "libcupti.so",           "libcupti.so.13",   "libcupti.so.12"};
  EXPECT_EQ(c, want);
  // libcudart.so.11.0 names no minor: Debian's libcupti.so.11.8 comes
  // before any other major's, each name once.
  in.env_lib.clear();
  in.runtime_version = 11000;
  const std::vector<std::string> want11 = {
      "libcupti.so.11.0", "libcupti.so.11", "libcupti.so.11.8",
      "libcupti.so",      "libcupti.so.13", "libcupti.so.12"};
  EXPECT_EQ(cupti_library_candidates(in), want11);
  in.runtime_version = 13000;
  const auto d = cupti_library_candidates(in);
  ASSERT_GE(d.size(), 3u);
  EXPECT_EQ(d[0], "libcupti.so.13.0");
  EXPECT_EQ(d[1], "libcupti.so.13");
  EXPECT_EQ(d[2], "libcupti.so");
  EXPECT_EQ(std::count(d.begin(), d.end(), "libcupti.so.13"), 1);
}

TEST(WaitsCuptiLibrary, PipWheelsBesideTheRuntimeAndInSitePackages) {
  const std::string sp = "/v/lib/python3.12/site-packages";
  CuptiSearchInputs in;
  in.runtime_version = 12080;
  in.cudart_dir = sp + "/nvidia/cuda_runtime/lib";
  in.site_packages = {sp, "/other/site-packages"};
  in.cuda_roots = {"/usr/local/cuda"};
  const auto f = cupti_search_folders(in);
  ASSERT_GE(f.size(), 3u);
  EXPECT_EQ(f[0], sp + "/nvidia/cuda_runtime/lib");
  EXPECT_GE(at(f, sp + "/nvidia/cuda_cupti/lib"), 0);
  EXPECT_GE(at(f, sp + "/torch/lib"), 0);
  EXPECT_GE(at(f, sp + "/nvidia/cu13/lib"), 0);
  EXPECT_GE(at(f, "/other/site-packages/nvidia/cuda_cupti/lib"), 0);
  EXPECT_EQ(std::count(f.begin(), f.end(), sp + "/nvidia/cuda_cupti/lib"), 1);
  const auto c = cupti_library_candidates(in);
  const auto pip = at(c, sp + "/nvidia/cuda_cupti/lib/libcupti.so.12");
  ASSERT_GE(pip, 0);
  EXPECT_LT(pip, at(c, "libcupti.so.12")) << "the loader before pip's wheel";
  EXPECT_LT(pip, at(c, "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.12"))
      << "the machine's toolkit before the program's own wheel";
}

TEST(WaitsCuptiLibrary, TheRuntimesOwnMajorBeforeAnyOtherName) {
  // A CUDA 11.8 program on a machine whose /usr/local/cuda is CUDA 13:
  // the loader's libcupti.so.11.8 before the toolkit's unversioned one.
  CuptiSearchInputs in;
  in.runtime_version = 11080;
  in.cuda_roots = {"/usr/local/cuda"};
  const auto c = cupti_library_candidates(in);
  const auto own = at(c, "libcupti.so.11.8");
  const auto other = at(c, "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so");
  ASSERT_GE(own, 0);
  ASSERT_GE(other, 0);
  EXPECT_LT(own, other);
  EXPECT_LT(at(c, "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.11.8"), own);
  EXPECT_LT(at(c, "libcupti.so"), at(c, "libcupti.so.13"));
}

TEST(WaitsCuptiLibrary, ToolkitAndCondaLayouts) {
  CuptiSearchInputs in;
  in.cudart_dir = "/usr/local/cuda-13.0/targets/x86_64-linux/lib";
  in.conda_prefix = "/opt/conda/envs/x";
  in.cuda_roots = {"/opt/cuda-home", "/usr/local/cuda-13.0"};
  const auto f = cupti_search_folders(in);
  ASSERT_GE(f.size(), 2u);
  EXPECT_EQ(f[0], "/usr/local/cuda-13.0/targets/x86_64-linux/lib");
  EXPECT_EQ(f[1],
            "/usr/local/cuda-13.0/targets/x86_64-linux/extras/CUPTI/lib64");
  const auto extras = at(f, "/usr/local/cuda-13.0/extras/CUPTI/lib64");
  EXPECT_GE(extras, 0);
  EXPECT_LT(extras, at(f, "/opt/conda/envs/x/lib"));
  EXPECT_LT(at(f, "/opt/conda/envs/x/lib"),
            at(f, "/opt/cuda-home/extras/CUPTI/lib64"));
  EXPECT_EQ(
      std::count(f.begin(), f.end(), "/usr/local/cuda-13.0/extras/CUPTI/lib64"),
      1);
  // A toolkit's lib64 (the link into targets/): its extras beside it.
  in = CuptiSearchInputs{};
  in.cudart_dir = "/opt/cuda/lib64";
  const auto g = cupti_search_folders(in);
  EXPECT_GE(at(g, "/opt/cuda/extras/CUPTI/lib64"), 0);
}

TEST(WaitsCuptiLibrary, NotFoundSaysWhereItLookedAndHowToFixIt) {
  CuptiSearchInputs in;
  in.runtime_version = 12040;
  in.cuda_roots = {"/nonexistent/cuda"};
  const std::string m = cupti_not_found_message(in);
  EXPECT_NE(m.find("no libcupti found for CUDA 12.4"), std::string::npos) << m;
  EXPECT_NE(m.find("ADDSCOPE_CUPTI_LIB (unset)"), std::string::npos) << m;
  EXPECT_NE(m.find("no CUDA toolkit, pip or conda CUPTI folder"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("set ADDSCOPE_CUPTI_LIB"), std::string::npos) << m;
  EXPECT_NE(m.find("pip install nvidia-cuda-cupti-cu12"), std::string::npos)
      << m;
  EXPECT_EQ(m.find("/nonexistent"), std::string::npos)
      << "folders that do not exist: " << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
  // A folder that exists is named.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("addscope-cupti-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "lib");
  in.conda_prefix = dir.string();
  in.env_lib = "/x/libcupti.so";
  const std::string n = cupti_not_found_message(in);
  std::filesystem::remove_all(dir);
  EXPECT_NE(n.find((dir / "lib").string()), std::string::npos) << n;
  EXPECT_NE(n.find("ADDSCOPE_CUPTI_LIB = '/x/libcupti.so'"), std::string::npos)
      << n;
  in.runtime_version = 13000;  // CUDA 13's wheel has no -cuNN suffix
  EXPECT_NE(
      cupti_not_found_message(in).find("pip install nvidia-cuda-cupti to see"),
      std::string::npos);
}

// The inputs this process shows: a libcudart loaded from a pip layout gives
// its folder and its site-packages; the environment's CUDA_HOME and
// CONDA_PREFIX; /usr/local/cuda always, after them.
TEST(WaitsCuptiLibrary, InputsFromTheLoadedRuntimeAndTheEnvironment) {
#ifndef ADDSCOPE_FAKE_CUDART
  GTEST_SKIP() << "no stand-in runtime in this build (a CUDA build)";
#else
  namespace fs = std::filesystem;
  bool loaded = false;  // (each test runs alone under ctest; not so by hand)
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        if (info->dlpi_name && std::strstr(info->dlpi_name, "libcudart.so."))
          *static_cast<bool*>(data) = true;
        return 0;
      },
      &loaded);
  if (loaded)
    GTEST_SKIP() << "a CUDA runtime is loaded in this process already";
  const fs::path root =
      fs::temp_directory_path() / ("addscope-sp-" + std::to_string(::getpid()));
  const fs::path lib =
      root / "lib/python3.12/site-packages/nvidia/cuda_runtime/lib";
  fs::create_directories(lib);
  fs::copy_file(ADDSCOPE_FAKE_CUDART, lib / "libcudart.so.12");
  void* h = dlopen((lib / "libcudart.so.12").c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(h, nullptr) << dlerror();
  ::setenv("CUDA_HOME", "/opt/my-cuda", 1);
  ::setenv("CONDA_PREFIX", "/opt/conda", 1);
  ::setenv("ADDSCOPE_PYTHON_SITE_PACKAGES", "/venv/sp::/user/sp", 1);
  const CuptiSearchInputs in = cupti_search_inputs(12000);
  ::unsetenv("CUDA_HOME");
  ::unsetenv("CONDA_PREFIX");
  ::unsetenv("ADDSCOPE_PYTHON_SITE_PACKAGES");
  const std::string real_lib = fs::canonical(lib).string();
  fs::remove_all(root);
  EXPECT_EQ(in.cudart_dir, real_lib);
  const std::string sp = (root / "lib/python3.12/site-packages").string();
  EXPECT_GE(at(in.site_packages, sp), 0) << "site-packages not seen";
  // The launcher's Python's folders after those of what was loaded.
  EXPECT_GT(at(in.site_packages, "/venv/sp"), at(in.site_packages, sp));
  EXPECT_EQ(at(in.site_packages, "/user/sp"),
            at(in.site_packages, "/venv/sp") + 1);
  EXPECT_EQ(at(in.site_packages, ""), -1);
  EXPECT_EQ(in.conda_prefix, "/opt/conda");
  ASSERT_GE(in.cuda_roots.size(), 2u);
  EXPECT_EQ(in.cuda_roots[0], "/opt/my-cuda");
  EXPECT_GE(at(in.cuda_roots, "/usr/local/cuda"), 1);
  EXPECT_EQ(in.runtime_version, 12000);
#endif
}

}  // namespace
