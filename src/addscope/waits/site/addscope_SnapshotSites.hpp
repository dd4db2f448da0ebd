// addscope — the snapshot's stacks resolved into the program's own lines:
// each kept wait, each call site, each kernel's first launch
// (CallRecord::code, SiteStats::code, KernelStats::launched_at); call sites
// at one line merged into one. Run when a report is made, under the
// analyzer's lock (the stack table is its).
#ifndef ADDSCOPE_WAITS_SITE_SNAPSHOTSITES_HPP
#define ADDSCOPE_WAITS_SITE_SNAPSHOTSITES_HPP

#include "addscope/waits/addscope_WaitsSnapshot.hpp"
#include "addscope/waits/analyze/addscope_StackTable.hpp"
#include "addscope/waits/site/addscope_SiteResolver.hpp"

namespace addscope {
namespace Impl {

void resolve_sites(WaitsSnapshot& w, const StackTable& stacks,
                   SiteResolver& resolver,
                   const SiteResolver::NameOf& name_of = nullptr);

}  // namespace Impl
}  // namespace addscope

#endif
