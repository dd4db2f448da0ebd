#include "addscope/waits/site/addscope_SnapshotSites.hpp"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace addscope {
namespace Impl {

void resolve_sites(WaitsSnapshot& w, const StackTable& stacks,
                   SiteResolver& resolver,
                   const SiteResolver::NameOf& name_of) {
  if (stacks.size() == 0) return;
  auto code = [&](std::uint32_t stack) {
    return stack ? resolver.resolve(stacks[stack], name_of) : CodeSite();
  };
  for (CallRecord& c : w.waits) c.code = code(c.stack);
  for (SiteStats& s : w.sites) s.code = code(s.stack);
  // One row per call at a line: the same line reached by two stacks (two
  // callers of one function, an interpreter's frames) is one site.
  std::map<std::tuple<int, std::string, std::string, std::string>, std::size_t>
      seen;
  std::vector<SiteStats> merged;
  merged.reserve(w.sites.size());
  for (SiteStats& s : w.sites) {
    if (!s.code.known()) {
      merged.push_back(std::move(s));
      continue;
    }
    const std::string where = s.code.file + ":" + std::to_string(s.code.line) +
                              ":" + s.code.module + "+" +
                              std::to_string(s.code.offset);
    const auto key = std::make_tuple(int(s.kind), s.site, s.regions, where);
    auto it = seen.find(key);
    if (it == seen.end()) {
      seen.emplace(key, merged.size());
      merged.push_back(std::move(s));
    } else {
      Ledger::merge_site(merged[it->second], s);
    }
  }
  if (merged.size() != w.sites.size()) Ledger::sort_sites(merged);
  w.sites = std::move(merged);
  for (KernelStats& k : w.kernels) k.launched_at = code(k.launch_stack);
  // The idle rows of round trips in calls of the program's own: at their
  // lines, one row per (cause, call, region) and line; the what-ifs read
  // the merged rows.
  std::map<std::tuple<int, std::string, std::string, std::string>, std::size_t>
      idle_seen;
  std::vector<IdleSiteStats> idle_rows;
  idle_rows.reserve(w.idle.sites.size());
  for (IdleSiteStats& r : w.idle.sites) {
    r.code = code(r.stack);
    if (!r.code.known()) {
      idle_rows.push_back(std::move(r));
      continue;
    }
    const std::string where = r.code.file + ":" + std::to_string(r.code.line) +
                              ":" + r.code.module + "+" +
                              std::to_string(r.code.offset);
    const auto key = std::make_tuple(int(r.cause), r.site, r.region, where);
    auto it = idle_seen.find(key);
    if (it == idle_seen.end()) {
      idle_seen.emplace(key, idle_rows.size());
      idle_rows.push_back(std::move(r));
    } else {
      merge_idle_site(idle_rows[it->second], r);
    }
  }
  if (idle_rows.size() != w.idle.sites.size()) sort_idle_sites(idle_rows);
  w.idle.sites = std::move(idle_rows);
  // Rows named by a kernel: at its first launch's line (the kernels table's
  // `launched at`).
  std::map<std::string, const CodeSite*> launched;
  for (const KernelStats& k : w.kernels)
    if (k.launched_at.known()) launched.emplace(k.name, &k.launched_at);
  bool named = false;
  for (IdleSiteStats& r : w.idle.sites) {
    if (r.other || r.code.known() || !idle_row_is_a_kernel(r.cause)) continue;
    const auto it = launched.find(r.site);
    if (it == launched.end()) continue;
    r.code = *it->second;
    named = true;
  }
  if (!idle_seen.empty() || named) fill_idle_what_if(w.idle);
}

}  // namespace Impl
}  // namespace addscope
