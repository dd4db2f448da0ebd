// addscope — checking MPI calls in addscope's MPI component. Internal.
#ifndef ADDSCOPE_MPI_IMPL_MPICHECK_HPP
#define ADDSCOPE_MPI_IMPL_MPICHECK_HPP

#include <mpi.h>

#include <string>

#include "addscope/core/addscope_Error.hpp"

namespace addscope {
namespace mpi {
namespace Impl {
/// MPI's text for an error code ("MPI_ERR_COMM: invalid communicator").
inline std::string mpi_error_string(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) return "unknown";
  return std::string(text, std::size_t(len));
}
}  // namespace Impl
}  // namespace mpi
}  // namespace addscope

/// Throws addscope::RuntimeError naming the call and MPI's error string
/// (communicators addscope uses return errors: MPI_ERRORS_RETURN is not
/// set by addscope, so with MPI's default handler a failure aborts first).
#define ADDSCOPE_MPI_CHECK(call)                                               \
  do {                                                                         \
    const int addscope_mpi_err_ = (call);                                      \
    if (addscope_mpi_err_ != MPI_SUCCESS)                                      \
      ADDSCOPE_RUNTIME_ERROR(#call << " failed: "                              \
                                   << ::addscope::mpi::Impl::mpi_error_string( \
                                          addscope_mpi_err_));                 \
  } while (0)

#endif
