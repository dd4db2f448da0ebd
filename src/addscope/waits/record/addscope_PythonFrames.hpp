// addscope — the calling thread's innermost Python frame of the program's
// own (not the standard library's, not a package's), read without the GIL:
// a thread inside a CUDA or Kokkos call made from Python (CuPy, PyTorch,
// numba, ctypes) has released it, and its own frames cannot change while it
// is blocked in our callback; they are read with plain loads at the
// interpreter's own layouts (CPython 3.9 to 3.13, x86-64), as py-spy and
// austin read them from outside (another thread's, through
// process_vm_readv, as they do). No lock, no allocation, no reference
// count touched. Not in a Python process (no libpython), or a thread Python
// never saw: nothing found, at the cost of one flag (or one thread-local
// read).
#ifndef ADDSCOPE_WAITS_RECORD_PYTHONFRAMES_HPP
#define ADDSCOPE_WAITS_RECORD_PYTHONFRAMES_HPP

#include <cstdint>
#include <string_view>

namespace addscope {
namespace Impl {

/// A Python frame's place: views into the interpreter's own strings (valid
/// while the frame is: copy them before the call returns).
struct PythonSite {
  std::string_view file, function;
  int line = 0;
  /// What that line called, when it called Python code outside the program
  /// (a package's, the standard library's): the outermost such frame's
  /// qualified name ("synchronize", "Event.synchronize",
  /// "random_sample", a decorator's wrapper; "?" when unreadable). Empty when
  /// the line called native code directly (`.item()`, a Cython method).
  std::string_view called;
};

/// Room for the text and line table of another thread's frame
/// (python_site copies them there; a thread's own frames are read in place).
struct PythonText {
  char file[1024], function[256], called[256];
  /// Copies of the frame's code object (its fixed part) and line table,
  /// which CPython's line decoder reads instead of the live ones (a table
  /// larger than this room: no line; a module's code of 1,000 lines has
  /// about 10 KB).
  alignas(8) char code[256];
  alignas(8) char lines[16384];
};

/// Finds the interpreter, if this process has one of a version whose layout
/// is known (else python_site() finds nothing). Once, outside any callback.
void prepare_python_frames();
/// CPython's version as 0xMMmm (0x030c for 3.12), 0 when none or unknown.
unsigned python_version();
/// The calling thread's innermost frame of the program's own code; false
/// when there is none (or the strings are not plain ASCII). A thread with
/// no line of the program's own (PyTorch's autograd thread, a library's own
/// worker) reads the frames of the last thread one was read on, as they are
/// then (what the program was doing: the line that called
/// `loss.backward()`), through copies into `room` that fail instead of
/// faulting where that thread's frames change under the read; no room,
/// nothing read.
bool python_site(PythonSite* out, PythonText* room = nullptr);
/// What python_place() keeps of the files it has seen on a thread: whether
/// the program's own code is in each (by its name's object: a module's code
/// objects share it). The thread's own, no lock. A name object freed and
/// its address taken by another file's name keeps the old kind until it is
/// pushed out: a launch is then placed by a frame further out or in, and
/// two lines may share a place (the first one's) until then.
struct PythonFiles {
  static constexpr unsigned kSlots = 64;
  const void* file[kSlots] = {};
  bool foreign[kSlots] = {};
};
/// Where the calling thread is in the program's own Python code, as a
/// number: the same at the same instruction of the same code (a launch at
/// one line in a loop), another at another line or call of a line. A few
/// loads a frame (a file's kind read once, kept in `files`); not a line
/// read. False when the thread has no frame of the program's own (then
/// nothing here tells its lines apart).
bool python_place(PythonFiles& files, std::uint64_t* out);
/// After fork(), in the child: the parent's other threads are gone.
void forget_python_threads();
/// Where the program's own Python code is never: the standard library, a
/// package (site-packages, dist-packages), frozen modules.
bool is_foreign_python_file(std::string_view file);

}  // namespace Impl
}  // namespace addscope

#endif
