#include "addscope/waits/site/addscope_SnapshotSites.hpp"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace addscope {
namespace Impl {

namespace {
// Rows at one line merged into one row: `key` names a row apart from its
// line (its kind or cause, its call, its region), `merge` adds a row into
// another. Rows without a line stay as they are. True if any merged.
template <class Row, class Key, class Merge>
bool merge_at_lines(std::vector<Row>& rows, Key key, Merge merge) {
  if (rows.empty()) return false;
  using K = decltype(std::tuple_cat(key(rows.front()),
                                    std::make_tuple(std::string())));
  std::map<K, std::size_t> seen;
  std::vector<Row> out;
  out.reserve(rows.size());
  for (Row& r : rows) {
    if (!r.code.known()) {
      out.push_back(std::move(r));
      continue;
    }
    const auto k = std::tuple_cat(key(r), std::make_tuple(line_key(r.code)));
    auto it = seen.find(k);
    if (it == seen.end()) {
      seen.emplace(k, out.size());
      out.push_back(std::move(r));
    } else {
      merge(out[it->second], r);
    }
  }
  const bool merged = out.size() != rows.size();
  rows = std::move(out);
  return merged;
}

// One line's call on several streams is one row, named without its stream:
// the key part, and `merge` wrapped to rename the row it merges into.
std::string site_key(const std::string& site) {
  return std::string(without_stream_suffix(site));
}
template <class Row, class Merge>
auto across_streams(Merge merge) {
  return [merge](Row& into, const Row& from) {
    if (into.site != from.site) into.site = site_key(into.site);
    merge(into, from);
  };
}
}  // namespace

void resolve_sites(WaitsSnapshot& w, const StackTable& stacks,
                   SiteResolver& resolver,
                   const SiteResolver::NameOf& name_of) {
  if (stacks.size() == 0) return;
  auto code = [&](std::uint32_t stack) {
    return stack ? resolver.resolve(stacks[stack], name_of) : CodeSite();
  };
  for (CallRecord& c : w.waits) {
    c.code = code(c.stack);
    for (WaitShare& s : c.waited_for) s.launched_at = code(s.launch_stack);
  }
  for (SiteStats& s : w.sites) s.code = code(s.stack);
  // One row per call at a line: the same line reached by two stacks (two
  // callers of one function, an interpreter's frames) is one site, and so
  // is one line's call on several streams (a CuPy program with a stream per
  // thread): named without its stream then; each wait keeps its own.
  if (merge_at_lines(
          w.sites,
          [](const SiteStats& x) {
            return std::make_tuple(int(x.kind), site_key(x.site), x.regions);
          },
          across_streams<SiteStats>(Ledger::merge_site)))
    Ledger::sort_sites(w.sites);
  for (KernelStats& k : w.kernels) {
    k.launched_at = code(k.launch_stack);
    for (ShapeStats& s : k.shapes) s.launched_at = code(s.launch_stack);
    // A Python kernel (numba's @cuda.jit) defined in the file it was
    // launched from: its `def` line, by the last part of a qualified name
    // (numba's `with_numba.<locals>.spin`: `def spin(`).
    if (k.launched_at.language == "python") {
      const std::size_t dot = k.name.rfind('.');
      k.defined_at = resolver.python_def(
          k.launched_at.file,
          dot == std::string::npos ? k.name : k.name.substr(dot + 1));
    }
  }
  // The idle rows at their lines: round trips in calls of the program's
  // own and in Kokkos calls, the program's code up to a launch, and rows
  // named by a kernel at the launch of the work that ended the gap where a
  // stack was taken there, else at the kernel's first launch (the kernels
  // table's `launched at`). Then one row per (cause, call, region, calls
  // around) and line, a call on several streams named without them; the
  // what-ifs read the merged rows.
  std::map<std::string, const CodeSite*> launched;
  for (const KernelStats& k : w.kernels)
    if (k.launched_at.known()) launched.emplace(k.name, &k.launched_at);
  for (IdleSiteStats& r : w.idle.sites) {
    r.code = code(r.stack);
    if (r.other || r.code.known() || !idle_row_is_a_kernel(r.cause)) continue;
    const auto it = launched.find(r.site);
    if (it != launched.end()) r.code = *it->second;
  }
  if (merge_at_lines(
          w.idle.sites,
          [](const IdleSiteStats& x) {
            return std::make_tuple(int(x.cause), site_key(x.site), x.region,
                                   x.before, x.after);
          },
          across_streams<IdleSiteStats>(merge_idle_site)))
    sort_idle_sites(w.idle.sites);
  fill_idle_what_if(w.idle);
}

}  // namespace Impl
}  // namespace addscope
