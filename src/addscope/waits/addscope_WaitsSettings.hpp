// addscope — every setting of the waits tool, in one table: the variable
// the tool reads, the addscope-waits flag that sets it (if any), its value,
// its default and what it does. The launcher's flags and --help, its
// --variables listing and the README's table come from it (a test holds the
// README's copy to it, another every variable the sources read).
#ifndef ADDSCOPE_WAITS_SETTINGS_HPP
#define ADDSCOPE_WAITS_SETTINGS_HPP

#include <string>
#include <vector>

namespace addscope {

struct WaitsSetting {
  const char* variable;    ///< "ADDSCOPE_WAITS_TOP"
  const char* flag;        ///< "--top"; nullptr: no flag
  const char* value_name;  ///< "N", "FILE", "DURATION"
  const char* fallback;    ///< the default, in words: "10", "(stderr)"
  const char* help;        ///< what it does, and the values allowed
  /// Set by addscope-waits itself, never by a user.
  bool internal = false;
};

/// Every setting, in --help's order: the flags' first.
const std::vector<WaitsSetting>& waits_settings();

/// The value of one of the table's variables in this process's
/// environment (nullptr when unset): the tool reads its settings only so.
/// A variable that is not in the table is a bug: nullptr, always.
const char* waits_setting(const char* variable);

/// The table as Markdown (variable, flag, default, meaning): what
/// `addscope-waits --variables` prints and the README holds.
std::string waits_settings_markdown();

}  // namespace addscope

#endif
