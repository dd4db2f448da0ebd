// A plain Kokkos + MPI program (it knows nothing of addscope), the seed
// across ranks: every rank adds its vector, the last rank with a slow
// kernel (one thread, `reps` passes), then each computes a checksum into a
// device View, stages it through a host mirror (deep_copy, no fence) and
// joins MPI_Allreduce. For the waits tool with libaddscope_waits_mpi.so:
//   waits-slow-collective N REPS
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Kokkos::initialize(argc, argv);
  int bad = 0;
  {
    const int n = argc > 1 ? std::atoi(argv[1]) : 1000000;
    const int reps = argc > 2 ? std::atoi(argv[2]) : 1;
    const bool slow = rank == ranks - 1;
    Kokkos::View<double*> x("x", n), y("y", n), out("out", n);
    Kokkos::deep_copy(x, 1.0);
    Kokkos::deep_copy(y, 2.0);
    Kokkos::View<double> sum("sum");
    auto sum_h = Kokkos::create_mirror_view(sum);
    Kokkos::fence();
    MPI_Barrier(MPI_COMM_WORLD);
    if (slow) {
      using Policy = Kokkos::TeamPolicy<>;
      Kokkos::parallel_for(
          "user::add[1x1]", Policy(1, 1),
          KOKKOS_LAMBDA(const Policy::member_type&) {
            for (int r = 0; r < reps; ++r)
              for (int i = 0; i < n; ++i) out(i) = x(i) + y(i) * (r + 1) / reps;
          });
    } else {
      Kokkos::parallel_for(
          "user::add", n, KOKKOS_LAMBDA(int i) { out(i) = x(i) + y(i); });
    }
    Kokkos::parallel_reduce(
        "user::checksum", n, KOKKOS_LAMBDA(int i, double& s) { s += out(i); },
        sum);
    Kokkos::deep_copy(sum_h, sum);  // the staging: no fence before it
    double total = 0;
    const double mine = sum_h();
    MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    bad = total != 3.0 * n * ranks;
    std::printf("rank %d: total %s\n", rank, bad ? "WRONG" : "ok");
  }
  Kokkos::finalize();
  MPI_Finalize();
  return bad;
}
