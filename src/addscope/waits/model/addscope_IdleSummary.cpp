#include "addscope/waits/model/addscope_IdleSummary.hpp"

namespace addscope {

const char* device_work_name(DeviceWork w) {
  switch (w) {
    case DeviceWork::Kernel:
      return "kernel";
    case DeviceWork::Memcpy:
      return "memcpy";
    case DeviceWork::Memset:
      return "memset";
  }
  return "unknown";
}

const char* host_state_name(HostState s) {
  switch (s) {
    case HostState::Program:
      return "program";
    case HostState::Launch:
      return "launch";
    case HostState::Blocked:
      return "blocked";
    case HostState::KokkosOwn:
      return "kokkos";
    case HostState::Mpi:
      return "mpi";
  }
  return "unknown";
}

const char* idle_cause_name(IdleCause c) {
  switch (c) {
    case IdleCause::SyncRoundTrip:
      return "sync_round_trip";
    case IdleCause::LaunchLatency:
      return "launch_latency";
    case IdleCause::HostCode:
      return "host_code";
    case IdleCause::Communication:
      return "communication";
    case IdleCause::Submitted:
      return "submitted";
    case IdleCause::Unknown:
      return "unknown";
    case IdleCause::StartUp:
      return "start_up";
  }
  return "unknown";
}

const char* idle_cause_words(IdleCause c) {
  switch (c) {
    case IdleCause::SyncRoundTrip:
      return "synchronization round trip";
    case IdleCause::LaunchLatency:
      return "launch latency";
    case IdleCause::HostCode:
      return "host code";
    case IdleCause::Communication:
      return "communication (MPI)";
    case IdleCause::Submitted:
      return "already submitted";
    case IdleCause::Unknown:
      return "other/unknown";
    case IdleCause::StartUp:
      return "start-up";
  }
  return "other/unknown";
}

}  // namespace addscope
