// addscope — vector addition on Kokkos Views with a chosen launch
// configuration: out(i) = x(i) + y(i).
#ifndef ADDSCOPE_COMPUTE_ADD_HPP
#define ADDSCOPE_COMPUTE_ADD_HPP

#include <KokkosKernels_config.h>  // KOKKOSKERNELS_VERSION (4.x)

#include <KokkosBlas1_update.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "addscope/compute/impl/addscope_AddFunctors.hpp"
#include "addscope/core/addscope_Error.hpp"
#include "addscope/core/addscope_SpaceKind.hpp"
#include "addscope/launch/addscope_LaunchConfig.hpp"

namespace addscope {

namespace Impl {

template <class ExecSpace, class XView, class YView, class OutView>
struct AddChecks {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "addscope::add: the first argument must be a Kokkos execution "
                "space instance");
  static_assert(Kokkos::is_view<XView>::value &&
                    Kokkos::is_view<YView>::value &&
                    Kokkos::is_view<OutView>::value,
                "addscope::add: x, y and out must be Kokkos::Views");
  static_assert(XView::rank == 1 && YView::rank == 1 && OutView::rank == 1,
                "addscope::add: x, y and out must be rank-1 Views");
  using value_type = typename OutView::non_const_value_type;
  static_assert(std::is_same<typename OutView::value_type, value_type>::value,
                "addscope::add: out must not be a View of const");
  static_assert(
      std::is_same<typename XView::non_const_value_type, value_type>::value &&
          std::is_same<typename YView::non_const_value_type, value_type>::value,
      "addscope::add: x, y and out must hold the same value type");
  static_assert(std::is_arithmetic<value_type>::value,
                "addscope::add: the value type must be arithmetic (float, "
                "double, int32_t, int64_t, ...)");
  static_assert(
      Kokkos::SpaceAccessibility<ExecSpace,
                                 typename XView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<
              ExecSpace, typename YView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<
              ExecSpace, typename OutView::memory_space>::accessible,
      "addscope::add: x, y and out must be accessible from the execution "
      "space");
};

/// Throws InvalidArgument unless x, y and out have the same extent.
template <class XView, class YView, class OutView>
void check_same_extents(const XView& x, const YView& y, const OutView& out) {
  ADDSCOPE_THROW_IF(
      x.extent(0) != out.extent(0) || y.extent(0) != out.extent(0),
      "extents differ: x.extent(0) = "
          << x.extent(0) << ", y.extent(0) = " << y.extent(0)
          << ", out.extent(0) = " << out.extent(0) << "; allowed: all equal");
}

template <class A, class B>
bool partially_overlap(const A& a, const B& b) {
  if (a.extent(0) == 0 || b.extent(0) == 0) return false;
  using T = typename A::non_const_value_type;
  const auto* a0 = reinterpret_cast<const char*>(a.data());
  const auto* b0 = reinterpret_cast<const char*>(b.data());
  const auto* a1 = a0 + ((a.extent(0) - 1) * a.stride(0) + 1) * sizeof(T);
  const auto* b1 = b0 + ((b.extent(0) - 1) * b.stride(0) + 1) * sizeof(T);
  const bool overlap =
      std::less<const char*>()(a0, b1) && std::less<const char*>()(b0, a1);
  const bool identical = a0 == b0 && a.stride(0) == b.stride(0);
  return overlap && !identical;
}

/// The same memory, as an unmanaged View whose execution space is ExecSpace.
template <class ExecSpace, class View>
auto on_space(const View& v) {
  using Out =
      Kokkos::View<typename View::data_type, typename View::array_layout,
                   Kokkos::Device<ExecSpace, typename View::memory_space>,
                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  return Out(v.data(), v.layout());
}

/// Calls f(std::integral_constant<int, K>()) for the validated ilp K in
/// {1, 2, 4, 8, 16}: the work per index is a compile-time constant.
template <class F>
void with_ilp(int ilp, F&& f) {
  switch (ilp) {
    case 1:
      f(std::integral_constant<int, 1>());
      break;
    case 2:
      f(std::integral_constant<int, 2>());
      break;
    case 4:
      f(std::integral_constant<int, 4>());
      break;
    case 8:
      f(std::integral_constant<int, 8>());
      break;
    default:
      f(std::integral_constant<int, 16>());
      break;
  }
}

template <class ExecSpace>
using AddTeamPolicy =
    Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;

/// Team size limits of `exec` for the add functor.
struct TeamLimits {
  int max = 0, recommended = 0;
};
template <class ExecSpace, class XView, class YView, class OutView>
TeamLimits team_limits(const ExecSpace& exec, const XView& x, const YView& y,
                       const OutView& out) {
  using Policy = AddTeamPolicy<ExecSpace>;
  using F = AddTeamFunctor<XView, YView, OutView, typename Policy::member_type,
                           is_gpu_space<ExecSpace>()>;
  const F f{x, y, out, 0};
  Policy p(exec, 1, Kokkos::AUTO);
  return {p.team_size_max(f, Kokkos::ParallelForTag()),
          p.team_size_recommended(f, Kokkos::ParallelForTag())};
}

template <class XView, class YView, class OutView>
bool packable(const XView& x, const YView& y, const OutView& out) {
  using T = typename OutView::non_const_value_type;
  auto aligned = [](const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
  };
  const bool contiguous =
      out.extent(0) <= 1 ||
      (x.stride(0) == 1 && y.stride(0) == 1 && out.stride(0) == 1);
  return sizeof(T) <= 16 && 16 % sizeof(T) == 0 && contiguous &&
         aligned(x.data()) && aligned(y.data()) && aligned(out.data());
}

template <class XView, class YView, class OutView>
void check_packable(const LaunchConfig& config, const XView& x, const YView& y,
                    const OutView& out) {
  ADDSCOPE_THROW_IF(!packable(x, y, out),
                    "launch configuration '"
                        << config
                        << "' needs contiguous, 16-byte aligned Views of an "
                           "element size dividing 16; got strides (x, y, out) "
                           "= ("
                        << x.stride(0) << ", " << y.stride(0) << ", "
                        << out.stride(0)
                        << "); allowed: stride 1 and aligned data (else use "
                           "'range')");
}

/// The range:pack launch: RangePolicy over 16-byte packs.
template <class ExecSpace, class XView, class YView, class OutView>
void launch_pack(const ExecSpace& exec, const std::string& label,
                 const LaunchConfig& run, const XView& x, const YView& y,
                 const OutView& out) {
  using T = typename OutView::non_const_value_type;
  using P = Pack16<T>;
  const std::int64_t n = std::int64_t(out.extent(0));
  const std::int64_t packs = n / P::width;
  const std::int64_t m =
      std::max<std::int64_t>(1, (packs + run.ilp - 1) / run.ilp);
  Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>> policy(exec,
                                                                         0, m);
  if (run.chunk > 0) policy.set_chunk_size(int(run.chunk));
  with_ilp(run.ilp, [&](auto k) {
    constexpr int K = decltype(k)::value;
    Kokkos::parallel_for(
        label, policy,
        AddPackFunctor<K, T>{reinterpret_cast<const P*>(x.data()),
                             reinterpret_cast<const P*>(y.data()),
                             reinterpret_cast<P*>(out.data()), x.data(),
                             y.data(), out.data(), packs, m, n});
  });
}

}  // namespace Impl

/// Largest team size `add` accepts on `exec` for these View types.
template <class ExecSpace, class XView, class YView, class OutView>
int add_team_size_max(const ExecSpace& exec, const XView& x, const YView& y,
                      const OutView& out) {
  return Impl::team_limits(exec, x, y, out).max;
}

/// Validates `config` against `exec`, the Views and the problem size, and
/// resolves automatic choices to the concrete configuration that will run:
/// - range without ilp: on GPUs, 16-byte packs (range:pack,ilp=1) when the
///   Views are contiguous and aligned, else 4 elements per work item; on
///   CPUs one element per index. (On an H200 Kokkos 3.4 launches a plain
///   RangePolicy add in 64-thread blocks of one element per thread, which
///   caps it near 1.26 TB/s; Kokkos 4.6.99 picks 128-thread blocks, 2.5
///   TB/s; the packs reach 4.3 TB/s with either.)
/// - range:pack without ilp: one pack per work item;
/// - team:ceil(N/T)xT: league ceil(N/T) for this N;
/// - team:auto: team_size_recommended and a league that fills the device.
/// Throws InvalidArgument (a team size above team_size_max states it).
template <class ExecSpace, class XView, class YView, class OutView>
LaunchConfig resolve_launch_config(const ExecSpace& exec, const XView& x,
                                   const YView& y, const OutView& out,
                                   const LaunchConfig& config) {
  config.validate();
  LaunchConfig run = config;
  constexpr bool gpu = is_gpu_space<ExecSpace>();
  const std::int64_t n = std::int64_t(out.extent(0));
  switch (config.kind) {
    case LaunchKind::Range:
      if (run.pack) {
        Impl::check_packable(config, x, y, out);
        if (run.ilp == 0) run.ilp = 1;
        return run;
      }
      if (run.ilp != 0) return run;
      // Measured on an H200 with Kokkos 3.4 and 4.6.99 (README, "the
      // default path"): 16-byte packs, one per work item, run at the copy
      // reference; plain elements need 4 per work item to get near it.
      if (gpu && Impl::packable(x, y, out))
        return LaunchConfig::range_pack(run.chunk, 1);
      run.ilp = gpu ? 4 : 1;
      return run;
    case LaunchKind::Team:
    case LaunchKind::TeamPerElement:
    case LaunchKind::TeamAuto: {
      const auto lim = Impl::team_limits(exec, x, y, out);
      if (config.kind != LaunchKind::TeamAuto) {
        ADDSCOPE_THROW_IF(
            config.team > lim.max,
            "team size = " << config.team << " (in '" << config
                           << "') exceeds team_size_max = " << lim.max << " of "
                           << ExecSpace::name() << "; allowed: 1.." << lim.max);
        if (config.kind == LaunchKind::Team) return run;
        const std::int64_t league =
            std::max<std::int64_t>(1, (n + config.team - 1) / config.team);
        ADDSCOPE_THROW_IF(league > std::numeric_limits<int>::max(),
                          "'" << config << "' needs a league of " << league
                              << " teams for N = " << n << "; allowed: at most "
                              << std::numeric_limits<int>::max()
                              << " (use a larger team size, or team:LxT)");
        return LaunchConfig::team_policy(league, config.team);
      }
      // Enough teams to fill the device twice over (blocks per SM / chunks
      // per core), never more than there are team-sized pieces of work.
      const int team = std::max(1, lim.recommended);
      const std::int64_t fill = std::max<std::int64_t>(
          1, 2 * std::int64_t(exec.concurrency()) / team);
      const std::int64_t pieces =
          std::max<std::int64_t>(1, (n + team - 1) / team);
      return LaunchConfig::team_policy(std::min(fill, pieces), team);
    }
    case LaunchKind::Blas:
      break;
  }
  return run;
}

/// What add() launched: the configuration asked for, the one it resolved
/// to, and the label the kernel ran under (what Kokkos Tools and profilers
/// show): "addscope::add[team:auto(8448x64)]".
struct AddLaunch {
  LaunchConfig requested;
  LaunchConfig resolved;
  std::string label;
  const std::string& kernel_label() const { return label; }
};

/// out(i) = x(i) + y(i) for i in [0, N), launched on `exec` as `config` says.
///
/// - x, y, out: rank-1 Views of the same arithmetic type, any layout or
///   stride, accessible from `exec`; x and y may be Views of const.
/// - out may be x or y (in-place: each element is read before it is written
///   by the same thread); any other overlap is rejected, as it would race.
/// - Asynchronous like any Kokkos launch: fence `exec` before reading out.
/// - `blas` calls KokkosBlas::update on `exec` where Kokkos Kernels takes an
///   instance (4.1 and later); with older Kokkos Kernels (Debian's 3.4) it
///   runs on a default instance of ExecSpace, so fencing only `exec` does not
///   wait for it when `exec` is another instance.
/// - Errors (mismatched extents, bad configuration, partial overlap) throw
///   InvalidArgument before anything is launched; out is untouched.
/// - The kernel is labelled config.kernel_label(), e.g.
///   "addscope::add[team:1024x256]"; automatic choices show what they
///   resolved to: "addscope::add[team:auto(8448x64)]".
///
/// Returns what ran: the resolved configuration and the kernel's label.
template <class ExecSpace, class XView, class YView, class OutView>
AddLaunch add(const ExecSpace& exec, const XView& x, const YView& y,
              const OutView& out, const LaunchConfig& config = LaunchConfig()) {
  (void)sizeof(Impl::AddChecks<ExecSpace, XView, YView, OutView>);
  Impl::check_same_extents(x, y, out);
  ADDSCOPE_THROW_IF(
      Impl::partially_overlap(out, x) || Impl::partially_overlap(out, y),
      "out partially overlaps x or y; allowed: out disjoint "
      "from x and y, or exactly x or y (in-place)");
  const LaunchConfig run = resolve_launch_config(exec, x, y, out, config);
  const std::int64_t n = std::int64_t(out.extent(0));
  AddLaunch launched{config, run, config.kernel_label(run)};
  const std::string& label = launched.label;
  if (n == 0) return launched;

  switch (run.kind) {
    case LaunchKind::Range: {
      if (run.pack) {
        Impl::launch_pack(exec, label, run, x, y, out);
        break;
      }
      const std::int64_t m = (n + run.ilp - 1) / run.ilp;
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>> policy(
          exec, 0, m);
      if (run.chunk > 0) policy.set_chunk_size(int(run.chunk));
      auto launch = [&](auto k) {
        constexpr int K = decltype(k)::value;
        Kokkos::parallel_for(
            label, policy,
            Impl::AddRangeFunctor<K, is_gpu_space<ExecSpace>(), XView, YView,
                                  OutView>{x, y, out, n, m});
      };
      Impl::with_ilp(run.ilp, launch);
      break;
    }
    case LaunchKind::Team:
    case LaunchKind::TeamPerElement:
    case LaunchKind::TeamAuto: {
      using Policy = Impl::AddTeamPolicy<ExecSpace>;
      Kokkos::parallel_for(
          label, Policy(exec, run.league, run.team),
          Impl::AddTeamFunctor<XView, YView, OutView,
                               typename Policy::member_type,
                               is_gpu_space<ExecSpace>()>{x, y, out, n});
      break;
    }
    case LaunchKind::Blas: {
      // KokkosBlas labels its own kernel; the region carries ours. The Views
      // are viewed with ExecSpace as their execution space, which is the
      // one KokkosBlas runs on without an instance.
      Kokkos::Tools::pushRegion(label);
      using T = typename OutView::non_const_value_type;
#if defined(KOKKOSKERNELS_VERSION) && KOKKOSKERNELS_VERSION >= 40100
      KokkosBlas::update(exec, T(1), Impl::on_space<ExecSpace>(x), T(1),
                         Impl::on_space<ExecSpace>(y), T(0),
                         Impl::on_space<ExecSpace>(out));
#else
      KokkosBlas::update(T(1), Impl::on_space<ExecSpace>(x), T(1),
                         Impl::on_space<ExecSpace>(y), T(0),
                         Impl::on_space<ExecSpace>(out));
#endif
      Kokkos::Tools::popRegion();
      break;
    }
  }
  return launched;
}

/// Forwarding overload: runs on a default instance of out's execution space.
template <class XView, class YView, class OutView>
AddLaunch add(const XView& x, const YView& y, const OutView& out,
              const LaunchConfig& config = LaunchConfig()) {
  return add(typename OutView::execution_space(), x, y, out, config);
}

}  // namespace addscope

#endif
