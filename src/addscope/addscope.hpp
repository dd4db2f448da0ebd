// addscope — umbrella header: everything a user of the library calls.
// (The Kokkos Tools library, libaddscope_waits.so, needs no header. JSON of
// the results is opt-in: addscope/addscope_Json.hpp, with nlohmann-json.)
#ifndef ADDSCOPE_HPP
#define ADDSCOPE_HPP

#include "addscope/addscope_Version.hpp"
#include "addscope/compute/addscope_Add.hpp"
#include "addscope/core/addscope_Error.hpp"
#include "addscope/core/addscope_Format.hpp"
#include "addscope/core/addscope_Memory.hpp"
#include "addscope/core/addscope_SpaceKind.hpp"
#include "addscope/bench/addscope_Advisor.hpp"
#include "addscope/bench/addscope_DeviceInfo.hpp"
#include "addscope/bench/addscope_HostTransfers.hpp"
#include "addscope/bench/addscope_LaunchLatency.hpp"
#include "addscope/bench/addscope_References.hpp"
#include "addscope/launch/addscope_LaunchConfig.hpp"
#include "addscope/timing/addscope_DeviceTimer.hpp"
#include "addscope/timing/addscope_Measure.hpp"
#include "addscope/timing/addscope_ReadAfterLaunch.hpp"
#include "addscope/timing/addscope_Results.hpp"
#include "addscope/timing/addscope_Stats.hpp"
#include "addscope/timing/addscope_Verify.hpp"
#include "addscope/timing/addscope_WaitScope.hpp"
#include "addscope/transfer/addscope_Transfer.hpp"
#include "addscope/waits/addscope_SyncTracker.hpp"

#endif
