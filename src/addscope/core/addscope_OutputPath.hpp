// addscope — output paths with placeholders
// (%p the process id, %r the MPI rank or 0), and the MPI rank a launcher
// announces in the environment.
#ifndef ADDSCOPE_CORE_OUTPUTPATH_HPP
#define ADDSCOPE_CORE_OUTPUTPATH_HPP

#include <string>

namespace addscope {

/// The rank from OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK or SLURM_PROCID
/// (in that order); -1 when none is set.
int rank_from_environment();
/// `pattern` with %p, %r and %% expanded.
std::string expand_output_path(const std::string& pattern);

}  // namespace addscope

#endif
