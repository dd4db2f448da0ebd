// addscope apps — output files: written whole or not at all, checked for
// writability before anything is measured.
#ifndef ADDSCOPE_APPS_COMMON_FILES_HPP
#define ADDSCOPE_APPS_COMMON_FILES_HPP

#include <string>

namespace addscope {
namespace apps {

/// Writes `content` to `path` whole or not at all, through addscope's one
/// safe writer (addscope::write_file_atomically: regular files only, a
/// temporary next to the target, fsync, rename). Throws RuntimeError naming
/// the path.
void write_file_atomic(const std::string& path, const std::string& content);
/// Throws InvalidArgument naming `flag` if `path` cannot be created (its
/// folder is missing or not writable, it is a read-only file, or it exists
/// and is not a regular file: a link, a device, a FIFO, a folder).
void check_writable(const std::string& flag, const std::string& path);
/// Creates folder `dir` if missing; throws InvalidArgument naming `flag` if
/// it cannot be, or is not a writable folder.
void make_output_dir(const std::string& flag, const std::string& dir);
/// Full path of `program` on PATH ("" if not found).
std::string find_program(const std::string& program);

}  // namespace apps
}  // namespace addscope

#endif
