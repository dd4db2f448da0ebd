// One Kokkos initialisation for the whole test binary.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <iostream>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Listing tests (ctest discovery) needs no backend — and may run where the
  // device is absent (a CUDA build on a build machine).
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();
  Kokkos::initialize(argc, argv);
  int result = 0;
  {
    std::cout << "addscope tests on Kokkos " << KOKKOS_VERSION
              << ", default execution space "
              << Kokkos::DefaultExecutionSpace::name() << "\n";
    result = RUN_ALL_TESTS();
  }
  Kokkos::finalize();
  return result;
}
