"""The waits tool's Kokkos Tools entry points through ctypes, typed as Kokkos
calls them: what a Kokkos library a Python program loaded would call."""
import ctypes


def load(path):
    """The tool's library at `path`, its entry points typed."""
    lib = ctypes.CDLL(path)
    handle = ctypes.POINTER(ctypes.c_uint64)
    lib.kokkosp_init_library.argtypes = [ctypes.c_int, ctypes.c_uint64,
                                         ctypes.c_uint32, ctypes.c_void_p]
    for what in ("parallel_for", "fence"):
        getattr(lib, "kokkosp_begin_" + what).argtypes = [
            ctypes.c_char_p, ctypes.c_uint32, handle]
        getattr(lib, "kokkosp_end_" + what).argtypes = [ctypes.c_uint64]
    return lib
