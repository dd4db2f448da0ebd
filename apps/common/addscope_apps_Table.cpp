#include "common/addscope_apps_Table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "addscope/core/addscope_Error.hpp"

namespace addscope {
namespace apps {

namespace {
// A cell that is a number, optionally followed by a unit ("6.1 ms", "97%").
bool numeric(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  if (end == s.c_str()) return false;
  const std::string rest(end);
  return rest.empty() || rest == "%" || rest == " s" || rest == " ms" ||
         rest == " us" || rest == " ns" || rest == "x";
}
}  // namespace

Table::Table(std::vector<std::string> header) : header_(std::move(header)) {}

void Table::add(std::vector<std::string> cells) {
  ADDSCOPE_THROW_IF(cells.size() > header_.size(),
                    "a table line has " << cells.size() << " cells; allowed: "
                                        << header_.size() << " (the header's)");
  cells.resize(header_.size());
  lines_.push_back(std::move(cells));
}

std::string Table::text() const {
  std::vector<std::size_t> w(header_.size(), 0);
  auto widen = [&](const std::vector<std::string>& r) {
    for (std::size_t i = 0; i < r.size(); ++i)
      w[i] = std::max(w[i], r[i].size());
  };
  widen(header_);
  for (const auto& r : lines_) widen(r);
  std::string out;
  auto line = [&](const std::vector<std::string>& r, bool head) {
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (i) out += "  ";
      if (!head && numeric(r[i]))
        out += fmt::format("{:>{}}", r[i], w[i]);
      else
        out += fmt::format("{:<{}}", r[i], w[i]);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += '\n';
  };
  line(header_, true);
  std::size_t total = 0;
  for (auto x : w) total += x;
  out += std::string(total + 2 * (w.empty() ? 0 : w.size() - 1), '-') + '\n';
  for (const auto& r : lines_) line(r, false);
  return out;
}

std::string Table::csv() const {
  auto cell = [](const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::string out;
  auto line = [&](const std::vector<std::string>& r) {
    for (std::size_t i = 0; i < r.size(); ++i)
      out += (i ? "," : "") + cell(r[i]);
    out += '\n';
  };
  line(header_);
  for (const auto& r : lines_) line(r);
  return out;
}

}  // namespace apps
}  // namespace addscope
