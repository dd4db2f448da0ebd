// addscope-waits — did the tool start? The launcher's side of the protocol
// of src/addscope/waits/tool/addscope_ToolStart.hpp: a fresh file of its
// own (mode 0600, in $TMPDIR or /tmp), named to the program in
// ADDSCOPE_WAITS_STARTED; each process in which the tool starts appends a
// line (its format: addscope_StartedLine.hpp); after the program, the launcher
// reads the lines and removes the file. A launcher run under another one passes
// its lines on to the outer one's file.
#ifndef ADDSCOPE_APPS_WAITS_STARTED_HPP
#define ADDSCOPE_APPS_WAITS_STARTED_HPP

#include <string>
#include <vector>

namespace addscope {
namespace apps {

/// One process in which the tool started.
struct ToolStart {
  std::string front_door;  ///< "kokkos", "cuda-injection"
  long pid = 0;
  std::string detail;  ///< e.g. the Kokkos Tools interface version
};

/// The lines of a started file; lines that do not parse are skipped.
std::vector<ToolStart> parse_started(const std::string& text);

class StartedFile {
 public:
  /// Makes the file; path() is "" (and why() says why) if it could not.
  StartedFile();
  ~StartedFile();  ///< removes the file
  StartedFile(const StartedFile&) = delete;
  StartedFile& operator=(const StartedFile&) = delete;

  const std::string& path() const { return path_; }
  const std::string& why() const { return why_; }
  /// What the tool wrote so far.
  std::vector<ToolStart> read() const;
  /// The raw text (to pass on to an outer launcher).
  std::string text() const;

 private:
  std::string path_, why_;
};

/// Appends `text` to the file at `path` if it is an existing regular file
/// (an outer launcher's); never creates, never follows a link.
void append_to_existing(const std::string& path, const std::string& text);

}  // namespace apps
}  // namespace addscope

#endif
