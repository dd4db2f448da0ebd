// addscope apps — the value types the apps add, by name, and the one
// dispatch from a name to a C++ type.
#ifndef ADDSCOPE_APPS_COMMON_TYPES_HPP
#define ADDSCOPE_APPS_COMMON_TYPES_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace addscope {
namespace apps {

enum class ValueType { Float, Double, Int32, Int64 };

/// "float", "double", "int32", "int64".
const char* to_string(ValueType t);
std::size_t size_of(ValueType t);
/// All four, in that order.
std::vector<ValueType> all_value_types();
/// The accepted names, for messages: "float, double, int32, int64, all".
const char* value_type_names();
/// Parses one name (not "all"); throws InvalidArgument naming `flag`.
ValueType parse_value_type(const std::string& flag, const std::string& name);

template <class T>
struct TypeTag {
  using type = T;
};

/// Calls f(TypeTag<T>()) with T the C++ type of `t`.
template <class F>
void with_type(ValueType t, F&& f) {
  switch (t) {
    case ValueType::Float:
      f(TypeTag<float>());
      break;
    case ValueType::Double:
      f(TypeTag<double>());
      break;
    case ValueType::Int32:
      f(TypeTag<std::int32_t>());
      break;
    case ValueType::Int64:
      f(TypeTag<std::int64_t>());
      break;
  }
}

}  // namespace apps
}  // namespace addscope

#endif
