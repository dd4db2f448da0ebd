// addscope — error handling shared by every component.
#ifndef ADDSCOPE_CORE_ERROR_HPP
#define ADDSCOPE_CORE_ERROR_HPP

#include <sstream>
#include <stdexcept>
#include <string>

namespace addscope {

/// Thrown for invalid arguments. what() names the parameter, the value and
/// what is allowed — written for the user; where() says which check in
/// addscope's sources failed ("file:line in function") — for developers.
class InvalidArgument : public std::invalid_argument {
 public:
  explicit InvalidArgument(const std::string& msg, std::string where = "")
      : std::invalid_argument(msg), where_(std::move(where)) {}
  const std::string& where() const noexcept { return where_; }

 private:
  std::string where_;
};

/// Thrown when the machine cannot do what was asked (memory, backend, a
/// file that cannot be written). what() and where() as for InvalidArgument.
class RuntimeError : public std::runtime_error {
 public:
  explicit RuntimeError(const std::string& msg, std::string where = "")
      : std::runtime_error(msg), where_(std::move(where)) {}
  const std::string& where() const noexcept { return where_; }

 private:
  std::string where_;
};

namespace Impl {
inline std::string source_location(const char* file, int line,
                                   const char* func) {
  return std::string(file) + ":" + std::to_string(line) + " in " + func;
}
}  // namespace Impl
}  // namespace addscope

/// Throw addscope::InvalidArgument with `msg` (a streamable expression) if
/// `cond` holds; the source location goes to where().
#define ADDSCOPE_THROW_IF(cond, msg)                                        \
  do {                                                                      \
    if (cond) {                                                             \
      std::ostringstream addscope_os_;                                      \
      addscope_os_ << msg;                                                  \
      throw ::addscope::InvalidArgument(                                    \
          addscope_os_.str(),                                               \
          ::addscope::Impl::source_location(__FILE__, __LINE__, __func__)); \
    }                                                                       \
  } while (0)

/// Throw addscope::RuntimeError with `msg`; the source location goes to
/// where().
#define ADDSCOPE_RUNTIME_ERROR(msg)                                       \
  do {                                                                    \
    std::ostringstream addscope_os_;                                      \
    addscope_os_ << msg;                                                  \
    throw ::addscope::RuntimeError(                                       \
        addscope_os_.str(),                                               \
        ::addscope::Impl::source_location(__FILE__, __LINE__, __func__)); \
  } while (0)

#endif
