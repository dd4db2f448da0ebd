// addscope — the waits tool says that it started: the one function each of
// libaddscope_waits.so's front doors calls when the tool starts in a
// process (Kokkos Tools: kokkosp_init_library; any CUDA program: CUPTI's
// InitializeInjection, loaded through CUDA_INJECTION64_PATH).
//
//  * ADDSCOPE_WAITS_STARTED=path (set by the addscope-waits launcher to a
//    fresh file of its own): one line is appended to that file,
//      <front door> <pid>[ <detail>]\n      e.g. "kokkos 4242 20211015"
//    with <front door> "kokkos" or "cuda-injection". After its program
//    exits, the launcher reads the file: no line means the tool never
//    started ("the program loaded no Kokkos Tools library and made no CUDA
//    call: nothing to report"). The file must exist and be a regular file
//    (it is never created, a link is never followed); one write(2) with
//    O_APPEND, so processes that start the tool at once (ranks, children)
//    each add a whole line.
//  * ADDSCOPE_WAITS_VERBOSE=1: one line on stderr, "addscope waits: loaded
//    into PID 4242 via Kokkos Tools (interface 20211015)" or "... via CUDA
//    injection (CUDA_INJECTION64_PATH)". 0 or unset: nothing; any other
//    value is named on stderr and taken as 0.
//
// Once per process: the first call announces, later ones (the second front
// door of a Kokkos program started with both variables) return false and
// write nothing; a forked child that starts the tool again announces
// itself. Never throws, allocates nothing, never fails the program: a file
// that cannot be written is skipped without a word.
#ifndef ADDSCOPE_WAITS_TOOL_TOOLSTART_HPP
#define ADDSCOPE_WAITS_TOOL_TOOLSTART_HPP

namespace addscope {
namespace Impl {

/// How the tool came into the process.
enum class FrontDoor {
  KokkosTools,    ///< kokkosp_init_library (KOKKOS_PROFILE_LIBRARY /
                  ///< KOKKOS_TOOLS_LIBS / --kokkos-tools-libs)
  CudaInjection,  ///< InitializeInjection (CUDA_INJECTION64_PATH)
};

/// "kokkos", "cuda-injection": the word of the started file.
const char* front_door_word(FrontDoor door) noexcept;

/// Announces that the tool started in this process through `door`;
/// `detail` (may be null) is appended to the line: the Kokkos Tools
/// interface version, say. True if this call announced (the first in this
/// process), false if an earlier call did.
bool announce_tool_start(FrontDoor door, const char* detail = nullptr) noexcept;

/// Whether this process is the first of the run in which the tool started:
/// the first line of the ADDSCOPE_WAITS_STARTED file names it (call after
/// announce_tool_start()). True without that file (no launcher: each
/// process on its own) or when it cannot be read. A later process (a
/// script's second program, a spawned worker, another MPI rank under one
/// launcher) writes only the outputs whose path holds %p (or %r, an MPI
/// rank): the others are the first process's.
bool first_to_start_in_run() noexcept;

/// For tests: forget that this process announced.
void reset_tool_start_for_testing() noexcept;

}  // namespace Impl
}  // namespace addscope

#endif
