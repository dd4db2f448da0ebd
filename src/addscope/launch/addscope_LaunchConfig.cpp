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

LaunchConfig LaunchConfig::range(std::int64_t chunk, int ilp) {
  LaunchConfig c;
  c.chunk = chunk;
  c.ilp = ilp;
  c.validate();
  return c;
}
LaunchConfig LaunchConfig::range_pack(std::int64_t chunk, int ilp) {
  LaunchConfig c = range(chunk, ilp);
  c.pack = true;
  return c;
}
LaunchConfig LaunchConfig::team_policy(std::int64_t league, int team_size) {
  LaunchConfig c;
  c.kind = LaunchKind::Team;
  c.league = league;
  c.team = team_size;
  c.validate();
  return c;
}
LaunchConfig LaunchConfig::team_per_element(int team_size) {
  LaunchConfig c;
  c.kind = LaunchKind::TeamPerElement;
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
  auto team_ok = [&] {
    ADDSCOPE_THROW_IF(team < 1 || team > max_team,
                      "team size = " << team
                                     << " is invalid; allowed: 1 up to the "
                                        "execution space's team_size_max");
  };
  switch (kind) {
    case LaunchKind::Range:
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
      team_ok();
      break;
    case LaunchKind::TeamPerElement:
      team_ok();
      break;
    case LaunchKind::TeamAuto:
    case LaunchKind::Blas:
      break;
  }
}

namespace {
// "pack,chunk=C,ilp=K" — the range options that are set, comma-separated.
std::string range_options(bool pack, std::int64_t chunk, int ilp) {
  std::string s;
  auto add = [&](const std::string& o) { s += (s.empty() ? "" : ",") + o; };
  if (pack) add("pack");
  if (chunk > 0) add("chunk=" + std::to_string(chunk));
  if (ilp > 0) add("ilp=" + std::to_string(ilp));
  return s;
}
}  // namespace

std::string LaunchConfig::to_string() const {
  switch (kind) {
    case LaunchKind::Range: {
      const std::string o = range_options(pack, chunk, ilp);
      return o.empty() ? "range" : "range:" + o;
    }
    case LaunchKind::Team:
      return "team:" + std::to_string(league) + "x" + std::to_string(team);
    case LaunchKind::TeamPerElement:
      return "team:ceil(N/" + std::to_string(team) + ")x" +
             std::to_string(team);
    case LaunchKind::TeamAuto:
      return "team:auto";
    case LaunchKind::Blas:
      return "blas";
  }
  return "?";
}

std::string LaunchConfig::kernel_label() const {
  return "addscope::add[" + to_string() + "]";
}

bool LaunchConfig::is_auto() const {
  return kind == LaunchKind::TeamAuto || kind == LaunchKind::TeamPerElement ||
         (kind == LaunchKind::Range && ilp == 0);
}

std::string LaunchConfig::kernel_label(const LaunchConfig& ran) const {
  if (!is_auto() || ran == *this) return kernel_label();
  std::string resolved;
  if (ran.kind == LaunchKind::Team)
    resolved = std::to_string(ran.league) + "x" + std::to_string(ran.team);
  else if (ran.kind == LaunchKind::Range && kind == LaunchKind::Range)
    resolved = range_options(ran.pack && !pack, 0, ran.ilp);
  else
    resolved = ran.to_string();
  return "addscope::add[" + to_string() + "(" + resolved + ")]";
}

std::ostream& operator<<(std::ostream& os, const LaunchConfig& c) {
  return os << c.to_string();
}

const char* launch_config_forms() {
  return "range | range:ilp=K | range:chunk=C | range:pack | "
         "range:pack,chunk=C,ilp=K (options in any order) | team:LxT | LxT | "
         "team:ceil(N/T)xT | team:auto | blas "
         "(C, L, T >= 1; K in 1, 2, 4, 8, 16)";
}

namespace {
/// "range" and its options after the colon (`args`, if `has_args`).
LaunchConfig parse_range(const std::string& text, const std::string& args,
                         bool has_args) {
  LaunchConfig c = LaunchConfig::range();
  if (!has_args) return c;
  if (args.empty()) bad(text, "", "nothing after 'range:'");
  if (args.back() == ',') bad(text, ",", "trailing comma");
  bool seen_chunk = false, seen_ilp = false;
  std::istringstream is(args);
  std::string kv;
  while (std::getline(is, kv, ',')) {
    if (kv == "pack" && !c.pack) {
      c.pack = true;
      continue;
    }
    const auto eq = kv.find('=');
    if (eq == std::string::npos && kv != "pack")
      bad(text, kv, "expected pack or key=value");
    const std::string key = kv.substr(0, eq);
    const std::string val =
        eq == std::string::npos ? std::string() : kv.substr(eq + 1);
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
      bad(text, key, "unknown or repeated range option");
    }
  }
  return c;
}
}  // namespace

LaunchConfig parse_launch_config(const std::string& text) {
  if (text.empty()) bad(text, "", "empty configuration");
  const auto colon = text.find(':');
  const std::string head = text.substr(0, colon);
  const bool has_args = colon != std::string::npos;
  const std::string args = has_args ? text.substr(colon + 1) : std::string();

  auto parse_team_size = [&](const std::string& s) {
    std::int64_t t = 0;
    if (!parse_positive(s, max_team, t))
      bad(text, s,
          "team size must be an integer in 1.." + std::to_string(max_team));
    return static_cast<int>(t);
  };
  auto parse_lxt = [&](const std::string& s) {
    const auto x = s.find('x');
    if (x == std::string::npos) bad(text, s, "expected LxT, e.g. 1024x256");
    std::int64_t l = 0;
    if (!parse_positive(s.substr(0, x), max_league, l))
      bad(text, s.substr(0, x),
          "league size must be an integer in 1.." + std::to_string(max_league));
    return LaunchConfig::team_policy(l, parse_team_size(s.substr(x + 1)));
  };
  auto parse_per_element = [&](const std::string& s) {
    // ceil(N/T)xT
    const std::string open = "ceil(N/";
    const auto close = s.find(")x");
    if (s.rfind(open, 0) != 0 || close == std::string::npos)
      bad(text, s, "expected ceil(N/T)xT, e.g. ceil(N/256)x256");
    const int t1 = parse_team_size(s.substr(open.size(), close - open.size()));
    const int t2 = parse_team_size(s.substr(close + 2));
    if (t1 != t2)
      bad(text, s, "the two team sizes in ceil(N/T)xT must be the same");
    return LaunchConfig::team_per_element(t1);
  };

  if (head == "range") return parse_range(text, args, has_args);
  if (head == "pack") bad(text, head, "packs are a range option: range:pack");
  if (head == "vector")
    bad(text, head,
        "'vector' is now 'range:pack' (16-byte packs; Kokkos' vector level is "
        "something else)");
  if (head == "team") {
    if (!has_args)
      bad(text, text, "team needs ':LxT', ':ceil(N/T)xT' or ':auto'");
    if (args == "auto") return LaunchConfig::team_auto();
    if (args.rfind("ceil(", 0) == 0) return parse_per_element(args);
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

namespace {
// Does `s` (the text after a comma) start with a range option?
bool starts_with_range_option(const std::string& s, std::size_t at) {
  for (const char* o : {"chunk=", "ilp=", "pack"}) {
    const std::string opt = o;
    if (s.compare(at, opt.size(), opt) == 0) {
      if (opt != "pack") return true;
      const std::size_t end = at + opt.size();
      return end == s.size() || s[end] == ',' || s[end] == ';' ||
             std::isspace(static_cast<unsigned char>(s[end]));
    }
  }
  return false;
}
}  // namespace

std::vector<LaunchConfig> parse_launch_config_list(const std::string& text) {
  std::vector<LaunchConfig> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(parse_launch_config(cur));
    cur.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ';' || std::isspace(static_cast<unsigned char>(c)))
      flush();
    else if (c == ',' && !(cur.rfind("range:", 0) == 0 &&
                           starts_with_range_option(text, i + 1)))
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
