#include "common/addscope_apps_Types.hpp"

#include "addscope/core/addscope_Error.hpp"

namespace addscope {
namespace apps {

const char* to_string(ValueType t) {
  switch (t) {
    case ValueType::Float:
      return "float";
    case ValueType::Double:
      return "double";
    case ValueType::Int32:
      return "int32";
    case ValueType::Int64:
      return "int64";
  }
  return "?";
}

std::size_t size_of(ValueType t) {
  return t == ValueType::Double || t == ValueType::Int64 ? 8 : 4;
}

std::vector<ValueType> all_value_types() {
  return {ValueType::Float, ValueType::Double, ValueType::Int32,
          ValueType::Int64};
}

const char* value_type_names() { return "float, double, int32, int64, all"; }

ValueType parse_value_type(const std::string& flag, const std::string& name) {
  for (ValueType t : all_value_types())
    if (name == to_string(t)) return t;
  ADDSCOPE_THROW_IF(true, flag << " = '" << name << "' is invalid; allowed: "
                               << value_type_names());
}

}  // namespace apps
}  // namespace addscope
