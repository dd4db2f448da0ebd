// addscope-demo under mpirun — the seed experiment across ranks. Every rank
// holds a block of x, y and out (N over the ranks); one rank (--slow-rank)
// launches the seed's configuration, the others a good one; then every rank
// computes a checksum of its block, stages it through a host mirror and
// joins MPI_Allreduce — first without a fence, then fenced with each step
// timed alone. Rank 0 says from the gathered numbers which call on which
// rank waited, for which rank's kernel, and where that rank lost its time
// (addscope::mpi::explain). The measuring is the library's.
#include "demo_mpi.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <addscope/addscope.hpp>
#include <addscope/mpi/addscope_Mpi.hpp>
#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "common/addscope_apps_Files.hpp"
#include "addscope/core/addscope_Format.hpp"
#include "common/addscope_apps_Inputs.hpp"
#include "common/addscope_apps_Json.hpp"
#include "common/addscope_apps_Mpi.hpp"
#include "common/addscope_apps_Table.hpp"
#include "common/addscope_apps_Types.hpp"

namespace addscope {
namespace demo {

namespace {

constexpr const char* kProgram = "addscope-demo";
using Exec = Kokkos::DefaultExecutionSpace;
using Mem = Exec::memory_space;
using apps::json;

std::string t(double s) { return format_seconds(s); }

/// The sentences, each from the gathered numbers; also kept for the JSON.
class Story {
 public:
  void say(const std::string& s) {
    text_ << s << "\n";
    lines_.push_back(s);
  }
  std::string text() const { return text_.str(); }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::ostringstream text_;
  std::vector<std::string> lines_;
};

/// min / max (rank) / mean over ranks of one column.
std::string over_ranks(const mpi::RankTimes& c) {
  return fmt::format("min {} (rank {}), max {} (rank {}), mean {}", t(c.min_s),
                     c.fastest_rank, t(c.max_s), c.slowest_rank, t(c.mean_s));
}

template <class T>
json run_type(apps::MpiRun& run, const DemoOptions& o, const char* type_name,
              bool& verified) {
  const Exec exec;
  const MPI_Comm comm = run.comm();
  const int rank = run.rank(), ranks = run.ranks();
  const int slow = o.slow_rank >= 0 ? o.slow_rank : ranks - 1;
  const mpi::BlockDistribution dist(o.n, ranks);
  addscope::check_fits<Mem>(o.size_flag + " (this rank's block)",
                            std::max<std::int64_t>(1, dist.count(rank)),
                            sizeof(T), 3);
  mpi::DistributedVector<T, Mem> x("x", o.n, comm), y("y", o.n, comm),
      out("out", o.n, comm);
  apps::fill_inputs(exec, x.local(), y.local(),
                    o.common.seed + 1000003 * std::uint64_t(rank));
  Kokkos::deep_copy(out.local(), T(0));
  Kokkos::fence();

  const LaunchConfig good =
      o.configs_given ? o.common.configs.front() : LaunchConfig::range();
  const LaunchConfig mine = rank == slow ? o.naive : good;
  const std::string label = mine.kernel_label(addscope::resolve_launch_config(
      exec, x.local(), y.local(), out.local(), mine));

  mpi::CollectiveOptions copt;
  copt.reads = o.reads;
  const auto r = mpi::measure_collective_after_launch(
      exec, label, out, [&] { mpi::add(exec, x, y, out, mine); }, copt);
  const auto check = mpi::verify_add(exec, x, y, out);
  const auto f = mpi::explain(r);
  const bool ok = check.ok() && r.checksum_ok();
  verified = verified && ok;
  if (!check.ok() && rank == 0)
    std::cerr << kProgram << ": WRONG RESULT: " << check.detail << "\n";

  // Only rank 0 speaks; every rank has the gathered numbers.
  json j;
  if (rank != 0) return j;
  const auto dev = addscope::device_info(exec);
  const bool async = r.async_backend;
  std::string counts;
  for (int q = 0; q < ranks; ++q)
    counts += (q ? " " : "") + std::to_string(dist.count(q));
  std::cout << fmt::format(
      "addscope-demo across {} MPI ranks: N = {} {} in blocks of {}; Kokkos "
      "{}, execution space {} ({} launches) on {}\n\n",
      ranks, o.n, type_name, counts, addscope::version_text(KOKKOS_VERSION),
      r.exec_space, async ? "asynchronous" : "synchronous", dev.name);
  std::cout << run.placement_table() << "\n";

  // ---- the table: one line per rank, then over ranks ---------------------
  std::vector<double> c_launch, c_sum, c_stage, c_coll, c_arrival, c_kernel,
      c_stage_alone, c_coll_alone;
  apps::Table table({"rank", "kernel", "launch", "checksum", r.staging,
                     r.collective, "entered at", "kernel (fenced)",
                     "staging alone", r.collective + " alone"});
  for (const auto& s : r.ranks) {
    const double sum_s = s.stage_begin_s - s.launch_end_s;
    table.add({std::to_string(s.rank), s.kernel, t(s.launch_s()), t(sum_s),
               t(s.stage_s()), t(s.collective_s()), t(s.arrival_s()),
               t(s.kernel_s), t(s.stage_alone.median_s),
               t(s.collective_alone.median_s)});
    c_launch.push_back(s.launch_s());
    c_sum.push_back(sum_s);
    c_stage.push_back(s.stage_s());
    c_coll.push_back(s.collective_s());
    c_arrival.push_back(s.arrival_s());
    c_kernel.push_back(s.kernel_s);
    c_stage_alone.push_back(s.stage_alone.median_s);
    c_coll_alone.push_back(s.collective_alone.median_s);
  }
  const auto m_launch = mpi::RankTimes::of(c_launch),
             m_sum = mpi::RankTimes::of(c_sum),
             m_stage = mpi::RankTimes::of(c_stage),
             m_coll = mpi::RankTimes::of(c_coll),
             m_arrival = mpi::RankTimes::of(c_arrival),
             m_kernel = mpi::RankTimes::of(c_kernel),
             m_stage_alone = mpi::RankTimes::of(c_stage_alone),
             m_coll_alone = mpi::RankTimes::of(c_coll_alone);
  const std::vector<const mpi::RankTimes*> cols = {
      &m_launch,  &m_sum,    &m_stage,       &m_coll,
      &m_arrival, &m_kernel, &m_stage_alone, &m_coll_alone};
  for (const char* what : {"min", "max", "mean"}) {
    std::vector<std::string> cells = {what, ""};
    for (const auto* c : cols) {
      const std::string w = what;
      const double v = w == "min"   ? c->min_s
                       : w == "max" ? c->max_s
                                    : c->mean_s;
      const int at = w == "min" ? c->fastest_rank : c->slowest_rank;
      cells.push_back(w == "mean" ? t(v) : fmt::format("{} (r{})", t(v), at));
    }
    table.add(cells);
  }
  std::cout << fmt::format(
      "Naive (no fence), then fenced (medians of {}). 'entered at': when the "
      "rank entered {}, {}.\n",
      o.reads, r.collective,
      r.one_clock ? "from the first rank leaving an MPI_Barrier (one node: "
                    "the ranks' steady clocks agree)"
                  : "from the rank's own exit from an MPI_Barrier (ranks on "
                    "several nodes: their clocks are not compared; the "
                    "barrier's exit skew is in these times)");
  std::cout << table.text() << "\n";

  // ---- the sentences -------------------------------------------------------
  Story story;
  int item = 0;
  auto no = [&] { return std::to_string(++item) + ". "; };
  const auto& last = r.ranks[std::size_t(f.last_rank)];
  story.say(fmt::format(
      "{}The naive sequence, on every rank: launch the add, launch the "
      "checksum of the block, {} into a host mirror, {} on it — no fence. "
      "Rank {} launched {}; the others {}.",
      no(), r.staging, r.collective, slow, r.ranks[std::size_t(slow)].kernel,
      ranks > 1 ? r.ranks[std::size_t(slow == 0 ? 1 : 0)].kernel
                : std::string("(none: one rank)")));
  story.say(fmt::format(
      "{}Entering {}: {} ({} the first, {} the last). A wait counts from "
      "{}: the larger of 10 us and the spread of {} alone over every rank "
      "and run.",
      no(), r.collective, over_ranks(m_arrival),
      fmt::format("rank {}", f.first_rank), fmt::format("rank {}", f.last_rank),
      t(f.collective_threshold_s), r.collective));
  if (ranks == 1)
    story.say(
        "   One rank: there is no other rank to wait for (run with "
        "mpirun -np 2 or more).");
  for (const auto& w : f.waits)
    story.say(fmt::format(
        "   rank {} waited {} in {} for rank {}{} (it took {}, {} alone; "
        "rank {} entered {} later).",
        w.rank, t(w.wait_s), r.collective, w.for_rank,
        w.for_kernel.empty() ? std::string() : "'s " + w.for_kernel,
        t(r.ranks[std::size_t(w.rank)].collective_s()),
        t(r.ranks[std::size_t(w.rank)].collective_alone.median_s), w.for_rank,
        t(w.arrival_gap_s)));
  for (int q : f.unexplained)
    story.say(fmt::format(
        "   rank {}'s {} took {} more than alone, but no rank entered later "
        "by as much: not a wait for another rank.",
        q, r.collective,
        t(r.ranks[std::size_t(q)].collective_s() -
          r.ranks[std::size_t(q)].collective_alone.median_s)));
  if (f.waits.empty() && f.unexplained.empty() && ranks > 1)
    story.say(fmt::format(
        "   No rank waited in {} beyond noise: every rank entered within {} "
        "of the first.",
        r.collective, t(m_arrival.spread_s())));
  switch (f.late.cause) {
    case mpi::LateCause::Staging:
      story.say(fmt::format(
          "{}Rank {} came late because its {} waited {} for its own {} (the "
          "staging alone takes {}; fenced, that kernel takes {}, the other "
          "ranks' at most {}).",
          no(), f.late.rank, r.staging, t(f.late.cause_s), f.late.kernel,
          t(last.stage_alone.median_s), t(f.late.kernel_s),
          t(f.late.others_kernel_s)));
      if (!last.tracker_line.empty())
        story.say("   The sync tracker on rank " + std::to_string(f.late.rank) +
                  ": " + last.tracker_line);
      break;
    case mpi::LateCause::Launch:
      story.say(fmt::format(
          "{}Rank {} came late because its launch of {} took {} ({} more "
          "than the other ranks' launches){}; its {} then took {}, no wait.",
          no(), f.late.rank, f.late.kernel, t(last.launch_s()),
          t(f.late.cause_s),
          async ? ""
                : fmt::format(": on {} launches are synchronous, the kernel "
                              "ran inside the launch call",
                              r.exec_space),
          r.staging, t(last.stage_s())));
      break;
    case mpi::LateCause::Checksum:
      story.say(fmt::format(
          "{}Rank {} came late because its checksum took {} ({} more than "
          "the other ranks'){}, not because of its {}.",
          no(), f.late.rank, t(last.checksum_s()), t(f.late.cause_s),
          async ? ""
                : fmt::format(" (on {} computed inside its launch)",
                              r.exec_space),
          f.late.kernel));
      break;
    case mpi::LateCause::Other:
      story.say(fmt::format(
          "{}Rank {} entered {} later than rank {}, but neither its launch "
          "({}), its checksum ({}) nor its {} ({}, {} alone) accounts for "
          "half of that: the cause is not measured here.",
          no(), f.late.rank, t(f.late.gap_s), f.first_rank, t(last.launch_s()),
          t(last.checksum_s()), r.staging, t(last.stage_s()),
          t(last.stage_alone.median_s)));
      break;
    case mpi::LateCause::None:
      break;
  }
  story.say(fmt::format(
      "{}Fenced, each step alone: the kernels take {}; {} {}; {} {}.", no(),
      over_ranks(m_kernel), r.staging, over_ranks(m_stage_alone), r.collective,
      over_ranks(m_coll_alone)));
  story.say(fmt::format(
      "{}The {} of the staged checksums gave {:#018x}, {} the checksum of "
      "the finished vector ({:#018x}): the staging {}.",
      no(), r.collective, r.naive_sum, r.checksum_ok() ? "equal to" : "NOT",
      r.expected_sum,
      r.checksum_ok() ? "waited for every kernel, as deep_copy must"
                      : "read unfinished data"));
  std::string conclusion;
  if (!f.waits.empty() && !f.waits.front().for_kernel.empty()) {
    const auto& w = f.waits.front();
    conclusion = fmt::format(
        "Conclusion: the {} that rank {} would blame on {} (\"the network "
        "is slow\") was rank {}'s {}; {} itself takes {} there. {}",
        t(r.ranks[std::size_t(w.rank)].collective_s()), w.rank, r.collective,
        w.for_rank, w.for_kernel, r.collective,
        t(r.ranks[std::size_t(w.rank)].collective_alone.median_s),
        async ? fmt::format("A fence after the launch puts the time where it "
                            "belongs: in rank {}'s fence ({} fenced).",
                            w.for_rank,
                            t(r.ranks[std::size_t(w.for_rank)].kernel_s))
              : fmt::format("On {} there is nothing to fence: the time was "
                            "rank {}'s launch call, which ran the kernel.",
                            r.exec_space, w.for_rank));
  } else if (!f.waits.empty()) {
    const auto& w = f.waits.front();
    conclusion = fmt::format(
        "Conclusion: rank {} waited {} in {} for rank {}, but not for a "
        "kernel: rank {}'s kernel was not what made it late (see above); "
        "the slowest kernel, rank {}'s {}, takes {} fenced.",
        w.rank, t(w.wait_s), r.collective, w.for_rank, w.for_rank,
        m_kernel.slowest_rank,
        r.ranks[std::size_t(m_kernel.slowest_rank)].kernel, t(m_kernel.max_s));
  } else {
    conclusion = fmt::format(
        "Conclusion: nothing was hidden in {} here: no rank waited beyond "
        "noise for another; the slowest kernel, rank {}'s {}, takes {} "
        "fenced.",
        r.collective, m_kernel.slowest_rank,
        r.ranks[std::size_t(m_kernel.slowest_rank)].kernel, t(m_kernel.max_s));
  }
  story.say(conclusion);
  story.say(ok ? "All results verified: every element of out equals x + y "
                 "on every rank, compared on the device."
               : "WRONG RESULTS: " + (check.ok()
                                          ? std::string("the checksum differs")
                                          : check.detail));
  std::cout << story.text();

  j["n"] = o.n;
  j["type"] = type_name;
  j["ranks"] = ranks;
  j["slow_rank"] = slow;
  j["counts"] = json::array();
  for (int q = 0; q < ranks; ++q) j["counts"].push_back(dist.count(q));
  j["execution_space"] = r.exec_space;
  j["async_backend"] = async;
  j["kokkos_version"] = addscope::version_text(KOKKOS_VERSION);
  j["device"] = apps::to_json(dev);
  j["collective"] = r.collective;
  j["staging"] = r.staging;
  j["sequence"] = json::array();
  for (const auto& s : r.ranks) j["sequence"].push_back(apps::to_json(s));
  j["findings"] = apps::to_json(f);
  j["checksum"] = {{"naive", r.naive_sum},
                   {"expected", r.expected_sum},
                   {"ok", r.checksum_ok()}};
  j["check"] = apps::to_json(check);
  j["sentences"] = story.lines();
  j["verified"] = ok;
  return j;
}

}  // namespace

int run_mpi(apps::CommandLine& cl, const DemoOptions& o) {
  apps::MpiRun run(cl);
  int rc = apps::exit_ok;
  try {
    // Checked on every rank alike before anything collective: the rank
    // count, and both configurations against this space.
    ADDSCOPE_THROW_IF(o.slow_rank >= run.ranks(),
                      "--slow-rank = " << o.slow_rank
                                       << " is out of range; allowed: 0.."
                                       << run.ranks() - 1);
    {
      Kokkos::View<float*, Mem> one("one", 1);
      auto check = [&](const std::string& flag,
                       const addscope::LaunchConfig& c) {
        try {
          addscope::resolve_launch_config(Exec(), one, one, one, c);
        } catch (const addscope::InvalidArgument& e) {
          throw addscope::InvalidArgument(flag + ": " + e.what(), e.where());
        }
      };
      check("--naive-config", o.naive);
      if (o.configs_given) check(o.configs_flag, o.common.configs.front());
    }
  } catch (const addscope::InvalidArgument& e) {
    if (run.root()) apps::print_error(kProgram, e);
    return apps::exit_usage;
  }
  try {
    json doc;
    doc["tool"] = kProgram;
    // Under mpirun the runs are other objects: a schema of their own
    // (docs/json.md).
    doc["schema"] = "addscope-demo-mpi/1";
    doc["version"] = ADDSCOPE_VERSION_STRING;
    doc["mpi"] = {{"ranks", run.ranks()}, {"placement", run.placements_json()}};
    doc["runs"] = json::array();
    bool verified = true;
    for (std::size_t i = 0; i < o.common.types.size(); ++i) {
      if (i && run.root()) std::cout << "\n";
      apps::with_type(o.common.types[i], [&](auto tag) {
        using T = typename decltype(tag)::type;
        doc["runs"].push_back(
            run_type<T>(run, o, to_string(o.common.types[i]), verified));
      });
    }
    doc["verified"] = verified;
    if (run.root() && !o.common.json.empty())
      apps::write_file_atomic(o.common.json, doc.dump(2) + "\n");
    rc = verified ? apps::exit_ok : apps::exit_failure;
  } catch (const addscope::InvalidArgument& e) {
    run.abort(kProgram, e, apps::exit_usage);
  } catch (const std::exception& e) {
    run.abort(kProgram, e, apps::exit_failure);
  }
  return run.agree(rc);
}

}  // namespace demo
}  // namespace addscope
