// addscope apps — output files: written whole or not at all, checked for
// writability before anything is measured.
#ifndef ADDSCOPE_APPS_COMMON_FILES_HPP
#define ADDSCOPE_APPS_COMMON_FILES_HPP

#include <string>

namespace addscope {
namespace apps {

/// Writes `content` to `path` through a temporary file and a rename, so that
/// `path` is complete or untouched. Throws RuntimeError naming the path.
void write_file_atomic(const std::string& path, const std::string& content);
/// Throws InvalidArgument naming `flag` if `path` cannot be created (its
/// folder is missing or not writable, or it is a read-only file).
void check_writable(const std::string& flag, const std::string& path);
/// Creates folder `dir` if missing; throws InvalidArgument naming `flag` if
/// it cannot be, or is not a writable folder.
void make_output_dir(const std::string& flag, const std::string& dir);
/// Full path of `program` on PATH ("" if not found).
std::string find_program(const std::string& program);

}  // namespace apps
}  // namespace addscope

#endif
