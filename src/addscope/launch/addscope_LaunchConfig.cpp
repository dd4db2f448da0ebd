#include "addscope/launch/addscope_LaunchConfig.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <ostream>
#include <sstream>

#include "addscope/core/addscope_Error.hpp"

namespace addscope {

namespace {

constexpr std::int64_t max_league = std::numeric_limits<int>::max();
constexpr std::int64_t max_team = 1 << 20;  // exec-space limit checked later

// Parses a positive decimal integer; returns false on anything else
// (sign, spaces, overflow, empty).
bool parse_positive(const std::string& s, std::int64_t max, std::int64_t& out) {
  if (s.empty() || s.size() > 19) return false;
  std::int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
    if (v > max) return false;
  }
  if (v < 1) return false;
  out = v;
  return true;
}

[[noreturn]] void bad(const std::string& text, const std::string& token,
                      const std::string& why) {
  ADDSCOPE_THROW_IF(true,
                    "launch configuration '"
                        << text << "': " << why << " (token '" << token
                        << "'); accepted forms: " << launch_config_forms());
}

}  // namespace

namespace {
LaunchConfig range_like(LaunchKind kind, std::int64_t chunk, int ilp) {
  LaunchConfig c;
  c.kind = kind;
  c.chunk = chunk;
  c.ilp = ilp;
  c.validate();
  return c;
}
}  // namespace

LaunchConfig LaunchConfig::range(std::int64_t chunk, int ilp) {
  return range_like(LaunchKind::Range, chunk, ilp);
}
LaunchConfig LaunchConfig::vector(std::int64_t chunk, int ilp) {
  return range_like(LaunchKind::Vector, chunk, ilp);
}
LaunchConfig LaunchConfig::team_policy(std::int64_t league, int team_size) {
  LaunchConfig c;
  c.kind = LaunchKind::Team;
  c.league = league;
  c.team = team_size;
  c.validate();
  return c;
}
LaunchConfig LaunchConfig::team_auto() {
  LaunchConfig c;
  c.kind = LaunchKind::TeamAuto;
  return c;
}
LaunchConfig LaunchConfig::blas() {
  LaunchConfig c;
  c.kind = LaunchKind::Blas;
  return c;
}

void LaunchConfig::validate() const {
  switch (kind) {
    case LaunchKind::Range:
    case LaunchKind::Vector:
      ADDSCOPE_THROW_IF(chunk < 0, "chunk = " << chunk
                                              << " is invalid; allowed: "
                                                 "0 (Kokkos' default) or "
                                                 ">= 1");
      ADDSCOPE_THROW_IF(ilp < 0 || ilp > max_ilp || (ilp & (ilp - 1)) != 0,
                        "ilp = " << ilp
                                 << " is invalid; allowed: 0 (auto), 1, 2, 4, "
                                    "8, 16");
      break;
    case LaunchKind::Team:
      ADDSCOPE_THROW_IF(league < 1 || league > max_league,
                        "team league size = " << league
                                              << " is invalid; allowed: 1.."
                                              << max_league);
      ADDSCOPE_THROW_IF(team < 1 || team > max_team,
                        "team size = " << team
                                       << " is invalid; allowed: 1 up to the "
                                          "execution space's team_size_max");
      break;
    case LaunchKind::TeamAuto:
    case LaunchKind::Blas:
      break;
  }
}

std::string LaunchConfig::to_string() const {
  std::ostringstream os;
  switch (kind) {
    case LaunchKind::Range:
    case LaunchKind::Vector:
      os << (kind == LaunchKind::Range ? "range" : "vector");
      if (chunk > 0 || ilp > 0) os << ':';
      if (chunk > 0) os << "chunk=" << chunk;
      if (chunk > 0 && ilp > 0) os << ',';
      if (ilp > 0) os << "ilp=" << ilp;
      break;
    case LaunchKind::Team:
      os << "team:" << league << 'x' << team;
      break;
    case LaunchKind::TeamAuto:
      os << "team:auto";
      break;
    case LaunchKind::Blas:
      os << "blas";
      break;
  }
  return os.str();
}

std::string LaunchConfig::kernel_label() const {
  return "addscope::add[" + to_string() + "]";
}

bool LaunchConfig::is_auto() const {
  return kind == LaunchKind::TeamAuto ||
         ((kind == LaunchKind::Range || kind == LaunchKind::Vector) &&
          ilp == 0);
}

std::string LaunchConfig::kernel_label(const LaunchConfig& ran) const {
  if (!is_auto() || ran == *this) return kernel_label();
  std::string resolved;
  if (ran.kind == LaunchKind::Team)
    resolved = std::to_string(ran.league) + "x" + std::to_string(ran.team);
  else if (ran.kind != kind)
    resolved = ran.to_string();
  else
    resolved = "ilp=" + std::to_string(ran.ilp);
  return "addscope::add[" + to_string() + "(" + resolved + ")]";
}

std::ostream& operator<<(std::ostream& os, const LaunchConfig& c) {
  return os << c.to_string();
}

const char* launch_config_forms() {
  return "range | range:ilp=K | range:chunk=C | range:chunk=C,ilp=K | "
         "vector | vector:ilp=K | team:LxT | LxT | team:auto | blas "
         "(C, L, T >= 1; K in 1, 2, 4, 8, 16)";
}

LaunchConfig parse_launch_config(const std::string& text) {
  if (text.empty()) bad(text, "", "empty configuration");
  const auto colon = text.find(':');
  const std::string head = text.substr(0, colon);
  const bool has_args = colon != std::string::npos;
  const std::string args = has_args ? text.substr(colon + 1) : std::string();

  auto parse_lxt = [&](const std::string& s) {
    const auto x = s.find('x');
    if (x == std::string::npos) bad(text, s, "expected LxT, e.g. 1024x256");
    std::int64_t l = 0, t = 0;
    if (!parse_positive(s.substr(0, x), max_league, l))
      bad(text, s.substr(0, x),
          "league size must be an integer in 1.." + std::to_string(max_league));
    if (!parse_positive(s.substr(x + 1), max_team, t))
      bad(text, s.substr(x + 1),
          "team size must be an integer in 1.." + std::to_string(max_team));
    return LaunchConfig::team_policy(l, static_cast<int>(t));
  };

  if (head == "range" || head == "vector") {
    LaunchConfig c =
        head == "range" ? LaunchConfig::range() : LaunchConfig::vector();
    if (!has_args) return c;
    if (args.empty()) bad(text, "", "nothing after '" + head + ":'");
    bool seen_chunk = false, seen_ilp = false;
    std::istringstream is(args);
    std::string kv;
    while (std::getline(is, kv, ',')) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos) bad(text, kv, "expected key=value");
      const std::string key = kv.substr(0, eq), val = kv.substr(eq + 1);
      std::int64_t v = 0;
      if (key == "chunk" && !seen_chunk) {
        if (!parse_positive(val, max_league, v))
          bad(text, val, "chunk must be an integer >= 1");
        c.chunk = v;
        seen_chunk = true;
      } else if (key == "ilp" && !seen_ilp) {
        if (!parse_positive(val, max_ilp, v) || (v & (v - 1)) != 0)
          bad(text, val, "ilp must be one of 1, 2, 4, 8, 16");
        c.ilp = static_cast<int>(v);
        seen_ilp = true;
      } else {
        bad(text, key, "unknown or repeated " + head + " option");
      }
    }
    if (!args.empty() && args.back() == ',') bad(text, ",", "trailing comma");
    return c;
  }
  if (head == "team") {
    if (!has_args) bad(text, text, "team needs ':LxT' or ':auto'");
    if (args == "auto") return LaunchConfig::team_auto();
    return parse_lxt(args);
  }
  if (head == "blas") {
    if (has_args) bad(text, args, "blas takes no options");
    return LaunchConfig::blas();
  }
  if (!has_args && !head.empty() &&
      std::isdigit(static_cast<unsigned char>(head[0])))
    return parse_lxt(head);
  bad(text, head, "unknown configuration kind");
}

std::vector<LaunchConfig> parse_launch_config_list(const std::string& text) {
  std::vector<LaunchConfig> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(parse_launch_config(cur));
    cur.clear();
  };
  for (char c : text) {
    if (c == ';' || std::isspace(static_cast<unsigned char>(c)))
      flush();
    else
      cur += c;
  }
  flush();
  ADDSCOPE_THROW_IF(out.empty(), "launch configuration list '"
                                     << text
                                     << "' is empty; give one or more of: "
                                     << launch_config_forms());
  return out;
}

}  // namespace addscope
