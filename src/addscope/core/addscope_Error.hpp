// addscope — error handling shared by every component.
#ifndef ADDSCOPE_CORE_ERROR_HPP
#define ADDSCOPE_CORE_ERROR_HPP

#include <sstream>
#include <stdexcept>
#include <string>

namespace addscope {

/// Thrown for invalid arguments: the message names the parameter, the value
/// and what is allowed, then where the check failed.
class InvalidArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Thrown when the machine cannot do what was asked (memory, backend).
class RuntimeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace Impl {
[[noreturn]] inline void throw_invalid(const std::string& msg, const char* file,
                                       int line, const char* func) {
  std::ostringstream os;
  os << "addscope: " << msg << " [" << file << ":" << line << " in " << func
     << "]";
  throw InvalidArgument(os.str());
}
[[noreturn]] inline void throw_runtime(const std::string& msg, const char* file,
                                       int line, const char* func) {
  std::ostringstream os;
  os << "addscope: " << msg << " [" << file << ":" << line << " in " << func
     << "]";
  throw RuntimeError(os.str());
}
}  // namespace Impl
}  // namespace addscope

/// Throw addscope::InvalidArgument with `msg` (a streamable expression) and
/// the source location, if `cond` holds.
#define ADDSCOPE_THROW_IF(cond, msg)                                          \
  do {                                                                        \
    if (cond) {                                                               \
      std::ostringstream addscope_os_;                                        \
      addscope_os_ << msg;                                                    \
      ::addscope::Impl::throw_invalid(addscope_os_.str(), __FILE__, __LINE__, \
                                      __func__);                              \
    }                                                                         \
  } while (0)

/// Throw addscope::RuntimeError with `msg` and the source location.
#define ADDSCOPE_RUNTIME_ERROR(msg)                                         \
  do {                                                                      \
    std::ostringstream addscope_os_;                                        \
    addscope_os_ << msg;                                                    \
    ::addscope::Impl::throw_runtime(addscope_os_.str(), __FILE__, __LINE__, \
                                    __func__);                              \
  } while (0)

#endif
