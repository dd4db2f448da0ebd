// addscope-bench's report on recorded runs: each recorded --json document
// (an H200's CUDA and host sweeps, trimmed to a few sizes, and a 2-core
// OpenMP --quick run) is read back into the bench's Report, the advice is
// recomputed, and the text report must be the recorded expectation
// (tests/apps/data/*.expected.txt) line for line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bench_report.hpp"
#include "bench_types.hpp"
#include "replay_json.hpp"

namespace {

using namespace addscope;
using replay::json;

const std::string kData = ADDSCOPE_REPLAY_DATA;

apps::ValueType value_type(const std::string& s) {
  return apps::parse_value_type("type", s);
}

/// What compute_advice adds to the notes and warnings: stripped, so that
/// the replay recomputes them.
bool from_advice(const std::string& s) {
  return s.find("slow point(s) would have taken") != std::string::npos ||
         s.find("point(s) could not run") != std::string::npos ||
         s.find("timed points varied more than 2x") != std::string::npos ||
         s.find("copy reference was not measured cleanly") != std::string::npos;
}

CandidateResult candidate(const json& j) {
  CandidateResult c;
  c.candidate = parse_launch_config(j.at("config").get<std::string>());
  c.measured = j.at("measured");
  c.skipped = replay::str(j.at("skipped"));
  if (!c.measured) return c;
  c.resolved = parse_launch_config(j.at("ran_as").get<std::string>());
  c.label = j.at("label");
  c.phases = replay::phases(j.at("phases"));
  c.phases.reduced_repeat = j.at("repeat_reduced");
  c.check = replay::check(j.at("check"));
  return c;
}

bench::Report report_from(const json& d) {
  bench::Report r;
  r.device = replay::device(d.at("device"));
  r.kokkos_version = d.at("kokkos_version");
  const json& o = d.at("options");
  r.plan.sizes = o.at("sizes").get<std::vector<std::int64_t>>();
  for (const auto& t : o.at("types")) r.plan.types.push_back(value_type(t));
  for (const auto& c : o.at("configs"))
    r.plan.candidates.push_back(parse_launch_config(c.get<std::string>()));
  r.plan.advisor.measure.repeat = o.at("repeat");
  r.plan.advisor.measure.warmup = o.at("warmup");
  r.plan.quick = o.at("quick");
  r.plan.seed = o.at("seed");
  for (const auto& n : d.at("notes"))
    if (!from_advice(n)) r.notes.push_back(n);
  for (const auto& w : d.at("warnings"))
    if (!from_advice(w)) r.warnings.push_back(w);
  // The rows and references of each (type, n), in sweep order.
  for (const auto& g : d.at("references")) {
    SweepPoint p;
    p.type = g.at("type");
    p.elem_size = apps::size_of(value_type(p.type));
    p.n = g.at("n");
    for (const auto& x : g.at("references"))
      p.references.push_back(replay::reference(x));
    for (const auto& j : d.at("rows"))
      if (j.at("type") == p.type && j.at("n") == p.n)
        p.results.push_back(candidate(j));
    r.points.push_back(p);
  }
  for (const auto& t : d.at("transfers").at("rows"))
    r.transfers.push_back({t.at("api"), replay::transfer(t)});
  for (const auto& t : d.at("element_reads"))
    r.element_reads.push_back({t.at("api"), replay::transfer(t)});
  for (const auto& l : d.at("launch_latency"))
    r.latency.push_back(replay::latency(l));
  r.verify_failures = d.at("verification").at("failures");
  r.elapsed_s = d.at("elapsed_s");
  return r;
}

void replay_one(const std::string& name) {
  SCOPED_TRACE(name);
  bench::Report r =
      report_from(replay::read_json(kData + "/" + name + ".json"));
  bench::compute_advice(r);
  const std::string got = bench::render_text(r);
  const std::string path = kData + "/" + name + ".expected.txt";
  replay::maybe_write(path, got);
  const std::string want = replay::read_text(path);
  EXPECT_EQ(replay::first_difference(got, want), "");
}

/// Every field `was` has is in `now` with the same value (numbers within
/// 1e-12, relative), but for the paths in `changed`; "" if so, else where
/// not.
std::string kept(const json& was, const json& now, const std::string& at,
                 const std::vector<std::string>& changed) {
  for (const auto& c : changed)
    if (at == c) return "";
  if (was.is_object()) {
    if (!now.is_object()) return at + ": no longer an object";
    for (auto it = was.begin(); it != was.end(); ++it) {
      if (!now.contains(it.key())) return at + "." + it.key() + ": gone";
      const std::string d =
          kept(it.value(), now.at(it.key()), at + "." + it.key(), changed);
      if (!d.empty()) return d;
    }
    return "";
  }
  if (was.is_array()) {
    if (!now.is_array() || now.size() != was.size())
      return at + ": another length";
    for (std::size_t i = 0; i < was.size(); ++i) {
      const std::string d = kept(was[i], now[i], at + "[]", changed);
      if (!d.empty()) return d + " (element " + std::to_string(i) + ")";
    }
    return "";
  }
  if (was.is_number() && now.is_number()) {
    const double a = was.get<double>(), b = now.get<double>();
    return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b))
               ? ""
               : at + ": " + was.dump() + " -> " + now.dump();
  }
  return was == now ? "" : at + ": " + was.dump() + " -> " + now.dump();
}

/// The JSON and the CSV on the recorded numbers: every field the recorded
/// document has keeps its value (the schema, and what depends on the whole
/// recorded sweep, aside), and the CSV is the recorded CSV.
TEST(BenchReplay, JsonAndCsvKeepWhatTheyHad) {
  for (const std::string name : {"bench_openmp_2core", "bench_h200_cuda"}) {
    SCOPED_TRACE(name);
    const json was = replay::read_json(kData + "/" + name + ".json");
    bench::Report r = report_from(was);
    bench::compute_advice(r);
    const json now = bench::report_json(r);
    EXPECT_EQ(now.at("schema"), "addscope-bench/4");
    EXPECT_EQ(kept(was, now, "",
                   {".schema", ".version", ".kokkos_version_number",
                    // recomputed, or trimmed from a larger sweep:
                    ".notes", ".warnings", ".recommendation",
                    ".no_recommendation", ".verification"}),
              "");
  }
  bench::Report r =
      report_from(replay::read_json(kData + "/bench_openmp_2core.json"));
  bench::compute_advice(r);
  EXPECT_EQ(replay::first_difference(
                bench::add_rows_csv(r),
                replay::read_text(kData + "/bench_openmp_2core.expected.csv")),
            "");
}

TEST(BenchReplay, H200Cuda) { replay_one("bench_h200_cuda"); }
TEST(BenchReplay, H200Host) { replay_one("bench_h200_host"); }
TEST(BenchReplay, OpenMP2Core) { replay_one("bench_openmp_2core"); }

}  // namespace
