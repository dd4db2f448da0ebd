// libaddscope_waits_mpi.so — MPI calls as calls, for the waits tracker: PMPI
// wrappers of MPI's blocking calls (each becomes a host call of kind `mpi`
// in the per-rank report and trace; blocking collectives are matched across
// ranks) and, at MPI_Finalize, the merged report on rank 0 naming the waits
// that cross ranks. Preload it (or link it before MPI) beside the Kokkos
// Tools library, which itself stays free of MPI:
//   mpirun -np 2 -x LD_PRELOAD=/path/libaddscope_waits_mpi.so \
//     -x KOKKOS_TOOLS_LIBS=/path/libaddscope_waits.so \
//     -x ADDSCOPE_WAITS_JSON=waits.%r.json -x
//     ADDSCOPE_WAITS_TRACE=trace.%r.json \
//     ./app
// (Kokkos 3.x: KOKKOS_PROFILE_LIBRARY instead of KOKKOS_TOOLS_LIBS.) %r in a
// path is the rank; the merged files replace it with "merged".
//
// Seen: MPI_Init, MPI_Init_thread, MPI_Finalize; the blocking collectives
// (Barrier, Bcast, Reduce, Allreduce, Gather(v), Allgather(v), Scatter(v),
// Alltoall(v), Reduce_scatter(_block), Scan, Exscan), matched across ranks;
// blocking point-to-point calls and completions (Send, Ssend, Recv,
// Sendrecv, Probe, Wait, Waitall, Waitany), shown per rank but not matched.
// Nonblocking starts (Isend, Irecv, ...) return at once and are not shown.
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <exception>

#include "addscope/waits/mpi/addscope_MpiEventSource.hpp"

namespace {

using addscope::waits_mpi::MpiEventSource;

std::uint64_t type_bytes(int count, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL || count <= 0) return 0;
  int size = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS || size < 0) return 0;
  return std::uint64_t(count) * std::uint64_t(size);
}

// Runs f; what it throws becomes one line on stderr (once): an exception
// must never leave a PMPI wrapper into the program (nor its MPI_Finalize:
// the other ranks would wait for this one).
template <class F>
void guarded(const char* where, F&& f) noexcept {
  static std::atomic<bool> said{false};
  try {
    f();
  } catch (const std::exception& e) {
    if (!said.exchange(true))
      std::fprintf(stderr,
                   "addscope waits: internal error in %s (%s); the "
                   "program goes on\n",
                   where, e.what());
  } catch (...) {
    if (!said.exchange(true))
      std::fprintf(stderr,
                   "addscope waits: internal error in %s; the program "
                   "goes on\n",
                   where);
  }
}

/// One MPI call, begun and ended around the PMPI call.
class Scope {
 public:
  Scope(const char* name, MPI_Comm comm, bool collective,
        std::uint64_t bytes = 0) {
    guarded(name, [&] {
      token_ = MpiEventSource::global().begin(name, comm, collective, bytes);
    });
  }
  ~Scope() {
    guarded("an MPI call's end", [&] { MpiEventSource::global().end(token_); });
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  std::uint64_t token_ = 0;
};

}  // namespace

extern "C" {

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS)
    guarded("MPI_Init", [] { MpiEventSource::global().after_init(); });
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS)
    guarded("MPI_Init_thread", [] { MpiEventSource::global().after_init(); });
  return rc;
}

int MPI_Finalize(void) {
  guarded("MPI_Finalize", [] { MpiEventSource::global().before_finalize(); });
  return PMPI_Finalize();
}

// ---- blocking collectives (matched across ranks) --------------------------

int MPI_Barrier(MPI_Comm comm) {
  Scope s("MPI_Barrier", comm, true);
  return PMPI_Barrier(comm);
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root,
              MPI_Comm comm) {
  Scope s("MPI_Bcast", comm, true, type_bytes(count, type));
  return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Reduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type,
               MPI_Op op, int root, MPI_Comm comm) {
  Scope s("MPI_Reduce", comm, true, type_bytes(count, type));
  return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
}

int MPI_Allreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm) {
  Scope s("MPI_Allreduce", comm, true, type_bytes(count, type));
  return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
}

int MPI_Gather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  Scope s("MPI_Gather", comm, true, type_bytes(scount, stype));
  return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Gatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                const int rcounts[], const int displs[], MPI_Datatype rtype,
                int root, MPI_Comm comm) {
  Scope s("MPI_Gatherv", comm, true, type_bytes(scount, stype));
  return PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root,
                      comm);
}

int MPI_Allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                  int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  Scope s("MPI_Allgather", comm, true, type_bytes(scount, stype));
  return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int MPI_Allgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                   const int rcounts[], const int displs[], MPI_Datatype rtype,
                   MPI_Comm comm) {
  Scope s("MPI_Allgatherv", comm, true, type_bytes(scount, stype));
  return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                         comm);
}

int MPI_Scatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  Scope s("MPI_Scatter", comm, true, type_bytes(rcount, rtype));
  return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Scatterv(const void* sbuf, const int scounts[], const int displs[],
                 MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                 int root, MPI_Comm comm) {
  Scope s("MPI_Scatterv", comm, true, type_bytes(rcount, rtype));
  return PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root,
                       comm);
}

int MPI_Alltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf,
                 int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  Scope s("MPI_Alltoall", comm, true, type_bytes(scount, stype));
  return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int MPI_Alltoallv(const void* sbuf, const int scounts[], const int sdispls[],
                  MPI_Datatype stype, void* rbuf, const int rcounts[],
                  const int rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  Scope s("MPI_Alltoallv", comm, true);
  return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls,
                        rtype, comm);
}

int MPI_Reduce_scatter(const void* sbuf, void* rbuf, const int rcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  Scope s("MPI_Reduce_scatter", comm, true);
  return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm);
}

int MPI_Reduce_scatter_block(const void* sbuf, void* rbuf, int rcount,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  Scope s("MPI_Reduce_scatter_block", comm, true, type_bytes(rcount, type));
  return PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm);
}

int MPI_Scan(const void* sbuf, void* rbuf, int count, MPI_Datatype type,
             MPI_Op op, MPI_Comm comm) {
  Scope s("MPI_Scan", comm, true, type_bytes(count, type));
  return PMPI_Scan(sbuf, rbuf, count, type, op, comm);
}

int MPI_Exscan(const void* sbuf, void* rbuf, int count, MPI_Datatype type,
               MPI_Op op, MPI_Comm comm) {
  Scope s("MPI_Exscan", comm, true, type_bytes(count, type));
  return PMPI_Exscan(sbuf, rbuf, count, type, op, comm);
}

// ---- blocking point-to-point and completions (per rank) ------------------

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag,
             MPI_Comm comm) {
  Scope s("MPI_Send", comm, false, type_bytes(count, type));
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm) {
  Scope s("MPI_Ssend", comm, false, type_bytes(count, type));
  return PMPI_Ssend(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag,
             MPI_Comm comm, MPI_Status* status) {
  Scope s("MPI_Recv", comm, false, type_bytes(count, type));
  return PMPI_Recv(buf, count, type, source, tag, comm, status);
}

int MPI_Sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest,
                 int stag, void* rbuf, int rcount, MPI_Datatype rtype,
                 int source, int rtag, MPI_Comm comm, MPI_Status* status) {
  Scope s("MPI_Sendrecv", comm, false, type_bytes(scount, stype));
  return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype,
                       source, rtag, comm, status);
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  Scope s("MPI_Probe", comm, false);
  return PMPI_Probe(source, tag, comm, status);
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  Scope s("MPI_Wait", MPI_COMM_NULL, false);
  return PMPI_Wait(request, status);
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  Scope s("MPI_Waitall", MPI_COMM_NULL, false);
  return PMPI_Waitall(count, requests, statuses);
}

int MPI_Waitany(int count, MPI_Request requests[], int* index,
                MPI_Status* status) {
  Scope s("MPI_Waitany", MPI_COMM_NULL, false);
  return PMPI_Waitany(count, requests, index, status);
}

}  // extern "C"
