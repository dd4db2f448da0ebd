// addscope — the one way addscope writes a file: the waits tool (report,
// JSON, trace), its MPI merge and the apps (JSON, CSV, plots) all go
// through here. Kokkos-free; no exceptions (errors come back as text).
//
//  * Regular files only. A path that exists and is not a regular file — a
//    device (/dev/null, /dev/full), a FIFO, a socket, a folder, or a
//    symbolic link to anything — is refused, never replaced or followed.
//  * Whole or not at all: the text goes to a temporary file created next to
//    the target with a unique name (O_CREAT | O_EXCL | O_NOFOLLOW, so a
//    planted file or link is never opened), is fsync'ed, then renamed over
//    the target; the folder is fsync'ed after the rename.
//  * A stream (the trace, written while the program runs) is opened on the
//    target itself, with the same refusals, so that what is on disk after a
//    crash is at the path the user gave.
//  * Paths are resolved once (resolve_output_path): placeholders expanded,
//    made absolute against the working folder of that moment.
#ifndef ADDSCOPE_CORE_OUTPUTFILE_HPP
#define ADDSCOPE_CORE_OUTPUTFILE_HPP

#include <string>
#include <string_view>

namespace addscope {

/// `pattern` with %p (the process id), %r (the MPI rank from the launcher's
/// environment, 0 outside MPI) and %% expanded, made absolute against the
/// current working folder. "-" stays "-" (standard output).
std::string resolve_output_path(const std::string& pattern);

/// Why `path` cannot be written as a regular file ("" if it can be tried):
/// it exists and is not a regular file (named: "is a symbolic link", "is a
/// character device", ...).
std::string output_path_problem(const std::string& path);

/// Writes `text` to `path` whole or not at all (see above). False, with
/// `*error` saying why in words that name the path, if it could not; the
/// target is then untouched and no temporary file is left.
bool write_file_atomically(const std::string& path, std::string_view text,
                           std::string* error);

/// Opens `path` for a stream that is written while the program runs
/// (created, or truncated if it is an existing regular file). Returns a file
/// descriptor (close-on-exec), or -1 with `*error` saying why.
int open_output_stream(const std::string& path, std::string* error);

/// Writes all of `data` to `fd` (retrying short writes and EINTR); false on
/// an error (errno set).
bool write_all(int fd, std::string_view data);

}  // namespace addscope

#endif
