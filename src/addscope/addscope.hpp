// addscope — umbrella header.
#ifndef ADDSCOPE_HPP
#define ADDSCOPE_HPP

#include "addscope/compute/addscope_Add.hpp"
#include "addscope/core/addscope_Error.hpp"
#include "addscope/core/addscope_Memory.hpp"
#include "addscope/launch/addscope_LaunchConfig.hpp"
#include "addscope/timing/addscope_Measure.hpp"
#include "addscope/timing/addscope_Results.hpp"
#include "addscope/timing/addscope_Stats.hpp"
#include "addscope/transfer/addscope_Transfer.hpp"
#include "addscope/waits/addscope_SyncTracker.hpp"

#endif
