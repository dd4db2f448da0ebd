// addscope — the MPI component (target addscope::mpi), everything in one
// include: ranks with one GPU each, block-distributed vectors, the
// distributed add, honest timing across ranks, and the seed experiment
// across ranks.
#ifndef ADDSCOPE_MPI_HPP
#define ADDSCOPE_MPI_HPP

#include "addscope/mpi/addscope_BlockDistribution.hpp"
#include "addscope/mpi/addscope_CollectiveAfterLaunch.hpp"
#include "addscope/mpi/addscope_CrossRankTiming.hpp"
#include "addscope/mpi/addscope_DistributedAdd.hpp"
#include "addscope/mpi/addscope_DistributedVector.hpp"
#include "addscope/mpi/addscope_RankPlacement.hpp"
#include "addscope/mpi/addscope_ScopeGuard.hpp"
#include "addscope/mpi/addscope_WeakScalingSweep.hpp"

#endif
