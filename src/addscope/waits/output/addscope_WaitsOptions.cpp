#include "addscope/waits/output/addscope_WaitsOptions.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "addscope/waits/addscope_WaitsSettings.hpp"

namespace addscope {

namespace {
std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}
bool parse_number(const std::string& text, double* v, std::string* rest) {
  const std::string t = trim(text);
  if (t.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(t.c_str(), &end);
  if (end == t.c_str() || errno != 0 || !std::isfinite(x)) return false;
  *v = x;
  *rest = trim(end);
  return true;
}
}  // namespace

bool parse_duration(const std::string& text, double* seconds) {
  double v = 0;
  std::string unit;
  if (!parse_number(text, &v, &unit) || v < 0) return false;
  double scale = 0;
  if (unit.empty() || unit == "s")
    scale = 1;
  else if (unit == "ms")
    scale = 1e-3;
  else if (unit == "us")
    scale = 1e-6;
  else if (unit == "ns")
    scale = 1e-9;
  else
    return false;
  *seconds = v * scale;
  return true;
}

WaitsReportOptions waits_options_from_environment(
    std::vector<std::string>* warnings, const char* (*lookup)(const char*)) {
  WaitsReportOptions o;
  auto get = [&](const char* var) -> const char* {
    const char* v = lookup ? lookup(var) : waits_setting(var);
    return v && *v ? v : nullptr;
  };
  auto bad = [&](const char* var, const char* value, const std::string& allowed,
                 const std::string& dflt) {
    if (warnings)
      warnings->push_back(std::string(var) + "='" + value +
                          "' is invalid; allowed: " + allowed + " (using " +
                          dflt + ")");
  };
  if (const char* v = get("ADDSCOPE_WAITS_TOP")) {
    double x = 0;
    std::string rest;
    if (parse_number(v, &x, &rest) && rest.empty() && x >= 1 && x <= 1e6 &&
        x == std::floor(x))
      o.top = std::size_t(x);
    else
      bad("ADDSCOPE_WAITS_TOP", v, "an integer from 1 to 1000000",
          std::to_string(o.top));
  }
  auto duration = [&](const char* var, double* target, const char* dflt) {
    if (const char* v = get(var)) {
      double x = 0;
      if (parse_duration(v, &x))
        *target = x;
      else
        bad(var, v, "a duration >= 0 such as 10us, 1.5ms, 2s or 0.001", dflt);
    }
  };
  auto fraction = [&](const char* var, double* target, const char* dflt) {
    if (const char* v = get(var)) {
      double x = 0;
      std::string rest;
      if (parse_number(v, &x, &rest) && rest.empty() && x >= 0 && x <= 1)
        *target = x;
      else
        bad(var, v, "a fraction from 0 to 1 such as 0.125", dflt);
    }
  };
  duration("ADDSCOPE_WAITS_THRESHOLD", &o.threshold_s, "10us");
  fraction("ADDSCOPE_WAITS_STARVED_THREADS", &o.starved.max_in_flight, "0.125");
  fraction("ADDSCOPE_WAITS_STARVED_SHARE", &o.starved.min_share, "0.01");
  duration("ADDSCOPE_WAITS_STARVED_MIN", &o.starved.min_s, "1ms");
  if (const char* v = get("ADDSCOPE_WAITS_OUTPUT")) o.output = v;
  o.json = get("ADDSCOPE_WAITS_JSON") != nullptr;
  if (const char* v = get("ADDSCOPE_WAITS_LAUNCHER"))
    o.launcher = std::string(v) == "1";
  return o;
}

std::string more_rows_hint(const WaitsReportOptions& opt, bool threshold) {
  std::string h = opt.launcher ? "--top" : "ADDSCOPE_WAITS_TOP";
  if (threshold)
    h += opt.launcher ? ", --threshold" : ", ADDSCOPE_WAITS_THRESHOLD";
  if (opt.json)
    h += "; all in the JSON";
  else
    h += opt.launcher ? "; all with --json FILE"
                      : "; all with ADDSCOPE_WAITS_JSON=FILE";
  return "(" + h + ")";
}

}  // namespace addscope
