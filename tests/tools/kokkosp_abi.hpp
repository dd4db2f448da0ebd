// The Kokkos Tools interface's structures as a tool library sees them
// (Kokkos_Profiling_C_Interface.h; a tool includes nothing of Kokkos).
#pragma once

extern "C" {
struct SpaceHandle {
  char name[64];
};
struct ToolSettings {
  bool requires_global_fencing;
  bool padding[255];
};
}
