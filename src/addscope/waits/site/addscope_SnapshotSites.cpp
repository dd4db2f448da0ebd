#include "addscope/waits/site/addscope_SnapshotSites.hpp"

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
  for (KernelStats& k : w.kernels) k.launched_at = code(k.launch_stack);
}

}  // namespace Impl
}  // namespace addscope
