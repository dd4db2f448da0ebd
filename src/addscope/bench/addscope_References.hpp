// addscope — references: other programs moving the same bytes, measured in
// the same run as the add. A reference is not a limit: the add can beat a
// copy (two thirds of its traffic are reads); the limit is the DRAM peak
// (bench/DeviceInfo).
//
// - Kokkos::deep_copy between two Views of the space (D2D);
// - cudaMemcpy D2D (CUDA only);
// - a STREAM-style copy kernel, c(i) = a(i), one element per index (as
//   STREAM's and BabelStream's Copy);
// - a 16-byte-pack copy kernel, one pack per index (what `range:pack` does
//   for the add), where the Views are contiguous and aligned.
// Bytes are counted as STREAM counts them: a copy reads N and writes N
// elements (2 N sizeof(T)). On CPUs a store to a line not in cache reads the
// line first (write-allocate) unless the compiler or memcpy uses streaming
// stores: the memory then moves 3 N sizeof(T) for a copy and 4 N sizeof(T)
// for an add — see write_allocate_bytes.
#ifndef ADDSCOPE_BENCH_REFERENCES_HPP
#define ADDSCOPE_BENCH_REFERENCES_HPP

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "addscope/compute/addscope_Add.hpp"
#include "addscope/compute/impl/addscope_AddFunctors.hpp"
#include "addscope/core/addscope_SpaceKind.hpp"
#include "addscope/timing/addscope_Measure.hpp"
#include "addscope/timing/addscope_Results.hpp"

namespace addscope {

/// One reference measurement.
struct CopyReference {
  std::string name;       ///< "Kokkos::deep_copy", "cudaMemcpy", ...
  TransferResult result;  ///< D2D, bytes = 2 N sizeof(T)
  std::string note;       ///< what the bytes do not count ("" if nothing)
  /// How often it was measured: again while its runs were beyond the noise
  /// bound (ReferenceOptions), up to `attempts` times in all.
  int attempts = 1;
  /// Its runs (of the attempt kept) were within the noise bound. A
  /// reference that is not clean is no yardstick: nothing is divided by it.
  bool clean = true;
};

/// How references are measured cleanly.
struct ReferenceOptions {
  /// Runs of a copy beyond this bound (max > 2 min, above 50 us) mean that
  /// something else ran meanwhile: the copy is measured again.
  NoiseBound noise;
  /// Measurements of one reference at most (the first included); the
  /// cleanest one (smallest max/min) is kept, marked not clean if it is
  /// still beyond the bound.
  int attempts = 3;
  /// Throws InvalidArgument naming the field out of range.
  void validate() const;
};

/// Bytes the memory really moves when `reads` + `writes` arrays of
/// `elem_size`-byte elements are streamed through a write-allocate cache
/// (each written line is read first): (reads + 2 writes) N s.
inline std::uint64_t write_allocate_bytes(std::int64_t n, std::size_t elem_size,
                                          int reads, int writes) {
  return std::uint64_t(n) * elem_size * std::uint64_t(reads + 2 * writes);
}

/// cudaMemcpy(dst, src, bytes, DeviceToDevice), then cudaDeviceSynchronize.
/// Throws RuntimeError without CUDA.
void cuda_memcpy_d2d(void* dst, const void* src, std::size_t bytes);

/// Times cudaMemcpy(dst, src, n * elem_size) in `direction`: device
/// synchronised before, host clock until cudaDeviceSynchronize returns
/// after; `opt.warmup` untimed copies first. Throws RuntimeError without
/// CUDA.
TransferResult measure_cuda_memcpy(
    const std::string& what, CopyDirection direction, MemoryKind memory,
    void* dst, const void* src, std::int64_t n, std::size_t elem_size,
    const MeasureOptions& opt = MeasureOptions());

namespace Impl {
template <class Dst, class Src>
struct StreamCopyFunctor {
  Dst c;
  Src a;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    c(i) = a(i);
  }
};

template <class T>
struct PackCopyFunctor {
  const Pack16<T>* a;
  Pack16<T>* c;
  const T* as;
  T* cs;
  std::int64_t packs, n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t j) const {
    if (j < packs) c[j] = a[j];
    if (j == 0)
      for (std::int64_t i = packs * Pack16<T>::width; i < n; ++i) cs[i] = as[i];
  }
};
}  // namespace Impl

/// One way to copy src into dst, run synchronously (returns when done).
struct CopyMethod {
  std::string name;  ///< "Kokkos::deep_copy", "cudaMemcpy", ...
  std::string what;  ///< "Kokkos::deep_copy D2D", ...
  std::string note;  ///< what the counted bytes leave out ("" if nothing)
  std::function<void()> run;
};

/// The reference copies for dst <- src, two rank-1 Views of the same length
/// in `exec`'s memory: Kokkos::deep_copy, cudaMemcpy (CUDA), the STREAM-style
/// kernel and, where the Views are contiguous and aligned, the pack kernel.
template <class ExecSpace, class Dst, class Src>
std::vector<CopyMethod> copy_references(const ExecSpace& exec, const Dst& dst,
                                        const Src& src) {
  using T = typename Dst::non_const_value_type;
  static_assert(std::is_same<T, typename Src::non_const_value_type>::value,
                "addscope::copy_references: same value type expected");
  ADDSCOPE_THROW_IF(dst.extent(0) != src.extent(0),
                    "extents differ: dst.extent(0) = "
                        << dst.extent(0) << ", src.extent(0) = "
                        << src.extent(0) << "; allowed: equal");
  const std::int64_t n = std::int64_t(dst.extent(0));
  constexpr bool gpu = is_gpu_space<ExecSpace>();
  const std::string wa =
      gpu ? std::string()
          : "bytes counted 2 N sizeof(T); without streaming stores the "
            "memory moves 3 N sizeof(T) (write-allocate reads each written "
            "line first)";
  std::vector<CopyMethod> m;
  m.push_back({"Kokkos::deep_copy", "Kokkos::deep_copy D2D",
               gpu ? std::string()
                   : "host deep_copy may use streaming stores (memcpy): then "
                     "no write-allocate traffic",
               [=] { Kokkos::deep_copy(dst, src); }});
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<ExecSpace, Kokkos::Cuda>::value)
    m.push_back({"cudaMemcpy", "cudaMemcpy D2D", "", [=] {
                   cuda_memcpy_d2d(dst.data(), src.data(),
                                   std::size_t(n) * sizeof(T));
                 }});
#endif
  using Policy =
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  m.push_back({"STREAM copy kernel", "STREAM copy kernel c(i) = a(i)", wa, [=] {
                 Kokkos::parallel_for(
                     "addscope::reference[stream_copy]", Policy(exec, 0, n),
                     Impl::StreamCopyFunctor<Dst, Src>{dst, src});
                 exec.fence();
               }});
  if (Impl::packable(src, src, dst)) {
    using P = Impl::Pack16<T>;
    const std::int64_t packs = n / P::width;
    m.push_back(
        {"pack copy kernel", "16-byte pack copy kernel", wa, [=] {
           Kokkos::parallel_for(
               "addscope::reference[pack_copy]",
               Policy(exec, 0, std::max<std::int64_t>(1, packs)),
               Impl::PackCopyFunctor<T>{reinterpret_cast<const P*>(src.data()),
                                        reinterpret_cast<P*>(dst.data()),
                                        src.data(), dst.data(), packs, n});
           exec.fence();
         }});
  }
  return m;
}

namespace Impl {
/// `measure()` (which returns a TransferResult) once, and again while its
/// runs are beyond ro.noise, up to ro.attempts times in all; the attempt
/// with the smallest max/min is kept.
template <class Measure>
CopyReference measure_until_clean(const std::string& name,
                                  const std::string& note, Measure&& measure,
                                  const ReferenceOptions& ro) {
  CopyReference best{name, measure(), note, 1, true};
  while (ro.noise.exceeded_by(best.result.time) &&
         best.attempts < ro.attempts) {
    TransferResult again = measure();
    ++best.attempts;
    if (spread_ratio(again.time) < spread_ratio(best.result.time))
      best.result = std::move(again);
  }
  best.clean = !ro.noise.exceeded_by(best.result.time);
  return best;
}
}  // namespace Impl

/// Each reference copy timed (measure_copy_with): D2D, 2 N sizeof(T) bytes;
/// one whose runs are beyond ro.noise measured again, up to ro.attempts
/// times, and marked not clean if it stays beyond.
template <class ExecSpace, class Dst, class Src>
std::vector<CopyReference> measure_copy_references(
    const ExecSpace& exec, const Dst& dst, const Src& src,
    const MeasureOptions& opt = MeasureOptions(),
    const ReferenceOptions& ro = ReferenceOptions()) {
  using T = typename Dst::non_const_value_type;
  ro.validate();
  std::vector<CopyReference> refs;
  for (const auto& c : copy_references(exec, dst, src))
    refs.push_back(Impl::measure_until_clean(
        c.name, c.note,
        [&] {
          return measure_copy_with(
              exec, c.what, CopyDirection::DeviceToDevice, MemoryKind::Device,
              std::int64_t(dst.extent(0)), sizeof(T), c.run, opt);
        },
        ro));
  return refs;
}

/// The fastest reference (by median GB/s); nullptr if `refs` is empty.
const CopyReference* fastest(const std::vector<CopyReference>& refs);

}  // namespace addscope

#endif
