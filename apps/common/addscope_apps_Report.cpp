#include "common/addscope_apps_Report.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "addscope/core/addscope_Error.hpp"

namespace addscope {

nlohmann::json to_json(const Stats& s) {
  return {{"count", s.count},
          {"min_s", s.min_s},
          {"median_s", s.median_s},
          {"max_s", s.max_s},
          {"mean_s", s.mean_s}};
}

nlohmann::json to_json(const PhaseResult& r) {
  return {{"label", r.label},
          {"n", r.n},
          {"bytes", r.bytes},
          {"launch", to_json(r.launch)},
          {"completion", to_json(r.completion)},
          {"gbps_median", r.gbps_median},
          {"gbps_best", r.gbps_best}};
}

nlohmann::json to_json(const TransferResult& r) {
  return {{"what", r.what},
          {"direction", r.direction},
          {"memory", r.memory},
          {"n", r.n},
          {"bytes", r.bytes},
          {"time", to_json(r.time)},
          {"gbps_median", r.gbps_median}};
}

nlohmann::json to_json(const CallRecord& c) {
  nlohmann::json w = nlohmann::json::array();
  for (const auto& s : c.waited_for)
    w.push_back({{"kernel", s.kernel}, {"wait_s", s.wait_s}});
  return {{"what", c.what},
          {"kind", c.kind},
          {"duration_s", c.duration_s()},
          {"wait_s", c.wait_s},
          {"own_s", c.own_s()},
          {"waited_for", w},
          {"line", format_attribution(c)}};
}

nlohmann::json to_json(const SeedResult& r) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& c : r.attribution) a.push_back(to_json(c));
  return {{"label", r.label},
          {"n", r.n},
          {"index", r.index},
          {"async_backend", r.async_backend},
          {"naive",
           {{"launch_s", r.naive_launch_s},
            {"create_mirror_s", r.naive_mirror_s},
            {"deep_copy_s", r.naive_copy_s},
            {"read_s", r.naive_read_s()}}},
          {"fenced",
           {{"launch_s", r.fenced_launch_s},
            {"completion_s", r.completion_s},
            {"create_mirror_s", r.fenced_mirror_s},
            {"deep_copy_s", r.fenced_copy_s},
            {"read_s", r.fenced_read_s()}}},
          {"wait_s", r.wait_s()},
          {"attribution", a},
          {"attribution_line", r.attribution_line},
          {"verified", r.verified}};
}

namespace {
// A cell that is a number, optionally followed by a unit ("6.1 ms", "97%").
bool numeric(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  if (end == s.c_str()) return false;
  const std::string rest(end);
  return rest.empty() || rest == "%" || rest == " s" || rest == " ms" ||
         rest == " us" || rest == " ns";
}
}  // namespace

std::string render_table(const Row& header, const std::vector<Row>& rows) {
  std::vector<std::size_t> w(header.size(), 0);
  auto widen = [&](const Row& r) {
    for (std::size_t i = 0; i < r.size() && i < w.size(); ++i)
      w[i] = std::max(w[i], r[i].size());
  };
  widen(header);
  for (const auto& r : rows) widen(r);
  std::string out;
  auto line = [&](const Row& r, bool head) {
    for (std::size_t i = 0; i < w.size(); ++i) {
      const std::string cell = i < r.size() ? r[i] : "";
      if (i) out += "  ";
      if (!head && numeric(cell))
        out += fmt::format("{:>{}}", cell, w[i]);
      else
        out += fmt::format("{:<{}}", cell, w[i]);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += '\n';
  };
  line(header, true);
  std::size_t total = 0;
  for (auto x : w) total += x;
  out += std::string(total + 2 * (w.empty() ? 0 : w.size() - 1), '-') + '\n';
  for (const auto& r : rows) line(r, false);
  return out;
}

std::string render_csv(const Row& header, const std::vector<Row>& rows) {
  auto cell = [](const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::string out;
  auto line = [&](const Row& r) {
    for (std::size_t i = 0; i < r.size(); ++i)
      out += (i ? "," : "") + cell(r[i]);
    out += '\n';
  };
  line(header);
  for (const auto& r : rows) line(r);
  return out;
}

void write_file_atomic(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f)
      ADDSCOPE_RUNTIME_ERROR("cannot write '" << path << "' (cannot create "
                                              << tmp << ")");
    f << content;
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      ADDSCOPE_RUNTIME_ERROR("cannot write '" << path << "' (write failed)");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    ADDSCOPE_RUNTIME_ERROR("cannot write '" << path << "' (rename failed)");
  }
}

void check_writable(const std::string& param, const std::string& path) {
  ADDSCOPE_THROW_IF(path.empty(), param << " = '' is invalid; allowed: a file "
                                           "path in a writable folder");
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  ADDSCOPE_THROW_IF(::access(dir.c_str(), W_OK | X_OK) != 0,
                    param << " = '" << path << "' is not writable (folder '"
                          << dir
                          << "' missing or read-only); allowed: a file "
                             "path in a writable folder");
  ADDSCOPE_THROW_IF(
      ::access(path.c_str(), F_OK) == 0 && ::access(path.c_str(), W_OK) != 0,
      param << " = '" << path
            << "' exists and is read-only; allowed: a writable "
               "file path");
}

std::string fmt_time(double s) { return format_seconds(s); }
std::string fmt_gbps(double g) { return fmt::format("{:.1f}", g); }

}  // namespace addscope
