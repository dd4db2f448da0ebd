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

#include "addscope/compute/addscope_Inputs.hpp"
#include "addscope/core/addscope_Format.hpp"
#include "addscope/mpi/addscope_MpiJson.hpp"
#include "common/addscope_apps_Configs.hpp"
#include "common/addscope_apps_Files.hpp"
#include "common/addscope_apps_Mpi.hpp"
#include "common/addscope_apps_Table.hpp"
#include "common/addscope_apps_Types.hpp"

namespace addscope {
namespace demo {

namespace {

constexpr const char* kProgram = "addscope-demo";
using Exec = Kokkos::DefaultExecutionSpace;
using Mem = Exec::memory_space;
using json = nlohmann::json;

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

/// Every column of the table over the ranks.
struct OverRanks {
  mpi::RankTimes launch, sum, stage, coll, arrival, kernel, stage_alone,
      coll_alone;
};

/// The table: one line per rank, then min, max and mean over the ranks.
std::string rank_table(const mpi::CollectiveAfterLaunch& r, int reads,
                       OverRanks& m) {
  std::vector<std::vector<double>> c(8);
  apps::Table table({"rank", "kernel", "launch", "checksum", r.staging,
                     r.collective, "entered at", "kernel (fenced)",
                     "staging alone", r.collective + " alone"});
  for (const auto& s : r.ranks) {
    const std::vector<double> v = {s.launch_s(),
                                   s.checksum_s(),
                                   s.stage_s(),
                                   s.collective_s(),
                                   s.arrival_s(),
                                   s.kernel_s,
                                   s.stage_alone.median_s,
                                   s.collective_alone.median_s};
    std::vector<std::string> cells = {std::to_string(s.rank), s.kernel};
    for (std::size_t k = 0; k < v.size(); ++k) {
      cells.push_back(t(v[k]));
      c[k].push_back(v[k]);
    }
    table.add(cells);
  }
  m = {mpi::RankTimes::of(c[0]), mpi::RankTimes::of(c[1]),
       mpi::RankTimes::of(c[2]), mpi::RankTimes::of(c[3]),
       mpi::RankTimes::of(c[4]), mpi::RankTimes::of(c[5]),
       mpi::RankTimes::of(c[6]), mpi::RankTimes::of(c[7])};
  const std::vector<const mpi::RankTimes*> cols = {
      &m.launch,  &m.sum,    &m.stage,       &m.coll,
      &m.arrival, &m.kernel, &m.stage_alone, &m.coll_alone};
  for (const std::string w : {"min", "max", "mean"}) {
    std::vector<std::string> cells = {w, ""};
    for (const auto* col : cols) {
      const double v = w == "min"   ? col->min_s
                       : w == "max" ? col->max_s
                                    : col->mean_s;
      const int at = w == "min" ? col->fastest_rank : col->slowest_rank;
      cells.push_back(w == "mean" ? t(v) : fmt::format("{} (r{})", t(v), at));
    }
    table.add(cells);
  }
  return fmt::format(
             "Naive (no fence), then fenced (medians of {}). 'entered at': "
             "when the rank entered {}, {}.\n",
             reads, r.collective,
             r.one_clock
                 ? "from the first rank leaving an MPI_Barrier (one node: "
                   "the ranks' steady clocks agree)"
                 : "from the rank's own exit from an MPI_Barrier (ranks on "
                   "several nodes: their clocks are not compared; the "
                   "barrier's exit skew is in these times)") +
         table.text() + "\n";
}

/// What the gathered numbers say, and the numbering of the items.
struct Teller {
  const mpi::CollectiveAfterLaunch& r;
  const mpi::CollectiveFindings& f;
  const OverRanks& m;
  Story story;
  int item = 0;
  std::string no() { return std::to_string(++item) + ". "; }
  const mpi::RankSequence& rank(int q) const { return r.ranks[std::size_t(q)]; }
};

/// Items 1 and 2: the sequence, who entered the collective when, who
/// waited there for whom.
void say_waits(Teller& tl, int slow) {
  const auto& r = tl.r;
  const auto& f = tl.f;
  const int ranks = int(r.ranks.size());
  tl.story.say(fmt::format(
      "{}The naive sequence, on every rank: launch the add, launch the "
      "checksum of the block, {} into a host mirror, {} on it — no fence. "
      "Rank {} launched {}; the others {}.",
      tl.no(), r.staging, r.collective, slow, tl.rank(slow).kernel,
      ranks > 1 ? tl.rank(slow == 0 ? 1 : 0).kernel
                : std::string("(none: one rank)")));
  tl.story.say(fmt::format(
      "{}Entering {}: {} ({} the first, {} the last). A wait counts from "
      "{}: the larger of 10 us and the spread of {} alone over every rank "
      "and run.",
      tl.no(), r.collective, over_ranks(tl.m.arrival),
      fmt::format("rank {}", f.first_rank), fmt::format("rank {}", f.last_rank),
      t(f.collective_threshold_s), r.collective));
  if (ranks == 1)
    tl.story.say(
        "   One rank: there is no other rank to wait for (run with "
        "mpirun -np 2 or more).");
  for (const auto& w : f.waits)
    tl.story.say(fmt::format(
        "   rank {} waited {} in {} for rank {}{} (it took {}, {} alone; "
        "rank {} entered {} later).",
        w.rank, t(w.wait_s), r.collective, w.for_rank,
        w.for_kernel.empty() ? std::string() : "'s " + w.for_kernel,
        t(tl.rank(w.rank).collective_s()),
        t(tl.rank(w.rank).collective_alone.median_s), w.for_rank,
        t(w.arrival_gap_s)));
  for (int q : f.unexplained)
    tl.story.say(fmt::format(
        "   rank {}'s {} took {} more than alone, but no rank entered later "
        "by as much: not a wait for another rank.",
        q, r.collective,
        t(tl.rank(q).collective_s() - tl.rank(q).collective_alone.median_s)));
  if (f.waits.empty() && f.unexplained.empty() && ranks > 1)
    tl.story.say(fmt::format(
        "   No rank waited in {} beyond noise: every rank entered within {} "
        "of the first.",
        r.collective, t(tl.m.arrival.spread_s())));
}

/// Where the last rank lost its time (mpi::explain's LateCause).
void say_late(Teller& tl) {
  const auto& r = tl.r;
  const auto& l = tl.f.late;
  const auto& last = tl.rank(tl.f.last_rank);
  const bool async = r.async_backend;
  switch (l.cause) {
    case mpi::LateCause::Staging:
      tl.story.say(fmt::format(
          "{}Rank {} came late because its {} waited {} for its own {} (the "
          "staging alone takes {}; fenced, that kernel takes {}, the other "
          "ranks' at most {}).",
          tl.no(), l.rank, r.staging, t(l.cause_s), l.kernel,
          t(last.stage_alone.median_s), t(l.kernel_s), t(l.others_kernel_s)));
      if (!last.tracker_line.empty())
        tl.story.say("   The sync tracker on rank " + std::to_string(l.rank) +
                     ": " + last.tracker_line);
      break;
    case mpi::LateCause::Launch:
      tl.story.say(fmt::format(
          "{}Rank {} came late because its launch of {} took {} ({} more "
          "than the other ranks' launches){}; its {} then took {}, no wait.",
          tl.no(), l.rank, l.kernel, t(last.launch_s()), t(l.cause_s),
          async ? ""
                : fmt::format(": on {} launches are synchronous, the kernel "
                              "ran inside the launch call",
                              r.exec_space),
          r.staging, t(last.stage_s())));
      break;
    case mpi::LateCause::Checksum:
      tl.story.say(fmt::format(
          "{}Rank {} came late because its checksum took {} ({} more than "
          "the other ranks'){}, not because of its {}.",
          tl.no(), l.rank, t(last.checksum_s()), t(l.cause_s),
          async ? ""
                : fmt::format(" (on {} computed inside its launch)",
                              r.exec_space),
          l.kernel));
      break;
    case mpi::LateCause::Other:
      tl.story.say(fmt::format(
          "{}Rank {} entered {} later than rank {}, but neither its launch "
          "({}), its checksum ({}) nor its {} ({}, {} alone) accounts for "
          "half of that: the cause is not measured here.",
          tl.no(), l.rank, t(l.gap_s), tl.f.first_rank, t(last.launch_s()),
          t(last.checksum_s()), r.staging, t(last.stage_s()),
          t(last.stage_alone.median_s)));
      break;
    case mpi::LateCause::None:
      break;
  }
}

std::string conclusion(const Teller& tl) {
  const auto& r = tl.r;
  const auto& f = tl.f;
  const auto& k = tl.m.kernel;
  if (!f.waits.empty() && !f.waits.front().for_kernel.empty()) {
    const auto& w = f.waits.front();
    return fmt::format(
        "Conclusion: the {} that rank {} would blame on {} (\"the network "
        "is slow\") was rank {}'s {}; {} itself takes {} there. {}",
        t(tl.rank(w.rank).collective_s()), w.rank, r.collective, w.for_rank,
        w.for_kernel, r.collective,
        t(tl.rank(w.rank).collective_alone.median_s),
        r.async_backend
            ? fmt::format("A fence after the launch puts the time where it "
                          "belongs: in rank {}'s fence ({} fenced).",
                          w.for_rank, t(tl.rank(w.for_rank).kernel_s))
            : fmt::format("On {} there is nothing to fence: the time was "
                          "rank {}'s launch call, which ran the kernel.",
                          r.exec_space, w.for_rank));
  }
  if (!f.waits.empty()) {
    const auto& w = f.waits.front();
    return fmt::format(
        "Conclusion: rank {} waited {} in {} for rank {}, but not for a "
        "kernel: rank {}'s kernel was not what made it late (see above); "
        "the slowest kernel, rank {}'s {}, takes {} fenced.",
        w.rank, t(w.wait_s), r.collective, w.for_rank, w.for_rank,
        k.slowest_rank, tl.rank(k.slowest_rank).kernel, t(k.max_s));
  }
  return fmt::format(
      "Conclusion: nothing was hidden in {} here: no rank waited beyond "
      "noise for another; the slowest kernel, rank {}'s {}, takes {} "
      "fenced.",
      r.collective, k.slowest_rank, tl.rank(k.slowest_rank).kernel, t(k.max_s));
}

/// All the sentences, items numbered in order.
Story tell(const mpi::CollectiveAfterLaunch& r,
           const mpi::CollectiveFindings& f, const OverRanks& m, int slow,
           bool ok, const Verification& check) {
  Teller tl{r, f, m, Story(), 0};
  say_waits(tl, slow);
  say_late(tl);
  tl.story.say(fmt::format(
      "{}Fenced, each step alone: the kernels take {}; {} {}; {} {}.", tl.no(),
      over_ranks(m.kernel), r.staging, over_ranks(m.stage_alone), r.collective,
      over_ranks(m.coll_alone)));
  tl.story.say(fmt::format(
      "{}The {} of the staged checksums gave {:#018x}, {} the checksum of "
      "the finished vector ({:#018x}): the staging {}.",
      tl.no(), r.collective, r.naive_sum, r.checksum_ok() ? "equal to" : "NOT",
      r.expected_sum,
      r.checksum_ok() ? "waited for every kernel, as deep_copy must"
                      : "read unfinished data"));
  tl.story.say(conclusion(tl));
  tl.story.say(ok ? "All results verified: every element of out equals x + y "
                    "on every rank, compared on the device."
                  : "WRONG RESULTS: " +
                        (check.ok() ? std::string("the checksum differs")
                                    : check.detail));
  return std::move(tl.story);
}

json run_json(const DemoOptions& o, const char* type_name,
              const mpi::BlockDistribution& dist,
              const mpi::CollectiveAfterLaunch& r,
              const mpi::CollectiveFindings& f, const Verification& check,
              int slow, const Story& story, bool ok) {
  json j;
  const int ranks = int(r.ranks.size());
  j["n"] = o.n;
  j["type"] = type_name;
  j["ranks"] = ranks;
  j["slow_rank"] = slow;
  j["counts"] = json::array();
  for (int q = 0; q < ranks; ++q) j["counts"].push_back(dist.count(q));
  j["execution_space"] = r.exec_space;
  j["async_backend"] = r.async_backend;
  j["kokkos_version"] = version_text(KOKKOS_VERSION);
  j["device"] = to_json(device_info(Exec()));
  j["collective"] = r.collective;
  j["staging"] = r.staging;
  j["sequence"] = json::array();
  for (const auto& s : r.ranks) j["sequence"].push_back(mpi::to_json(s));
  j["findings"] = mpi::to_json(f);
  j["checksum"] = {{"naive", r.naive_sum},
                   {"expected", r.expected_sum},
                   {"ok", r.checksum_ok()}};
  j["check"] = to_json(check);
  j["sentences"] = story.lines();
  j["verified"] = ok;
  return j;
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
  addscope::fill_inputs(exec, x.local(), y.local(),
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
  if (rank != 0) return json();
  std::string counts;
  for (int q = 0; q < ranks; ++q)
    counts += (q ? " " : "") + std::to_string(dist.count(q));
  std::cout << fmt::format(
      "addscope-demo across {} MPI ranks: N = {} {} in blocks of {}; Kokkos "
      "{}, execution space {} ({} launches) on {}\n\n",
      ranks, o.n, type_name, counts, version_text(KOKKOS_VERSION), r.exec_space,
      r.async_backend ? "asynchronous" : "synchronous", device_info(exec).name);
  std::cout << run.placement_table() << "\n";
  OverRanks m;
  std::cout << rank_table(r, o.reads, m);
  const Story story = tell(r, f, m, slow, ok, check);
  std::cout << story.text();
  return run_json(o, type_name, dist, r, f, check, slow, story, ok);
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
      const Kokkos::View<float*, Mem> one("one", 1);
      apps::check_configs("--naive-config", Exec(), one, one, one, {o.naive});
      if (o.configs_given)
        apps::check_configs(o.configs_flag, Exec(), one, one, one,
                            {o.common.configs.front()});
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
