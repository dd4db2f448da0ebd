// addscope/addscope_Json.hpp: one JSON form per result type — the fields
// docs/json.md documents, null where there is nothing to say.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "addscope/addscope_Json.hpp"
#include "addscope/waits/output/addscope_AttributionText.hpp"

namespace {

using namespace addscope;
using nlohmann::json;

TEST(Json, StatsOfNothingAreNull) {
  EXPECT_TRUE(to_json(Stats()).is_null());
  const json j = to_json(Stats::of({3e-6, 1e-6, 2e-6}));
  EXPECT_EQ(j.at("count"), 3);
  EXPECT_DOUBLE_EQ(j.at("median_s").get<double>(), 2e-6);
  EXPECT_DOUBLE_EQ(j.at("min_s").get<double>(), 1e-6);
  EXPECT_EQ(j.size(), 8u);  // count, min, q1, median, q3, max, mean, stddev
}

TEST(Json, PhasesWithoutADeviceClock) {
  PhaseResult p;
  p.label = "addscope::add[range]";
  p.n = 10;
  p.bytes = 120;
  p.completion = Stats::of({1e-6});
  p.gbps_median = 120e-3;
  p.reduced_repeat = true;
  const json j = to_json(p);
  EXPECT_TRUE(j.at("device").is_null());
  EXPECT_TRUE(j.at("device_gbps_median").is_null());
  EXPECT_TRUE(j.at("launch").is_null());
  EXPECT_EQ(j.at("completion").at("count"), 1);
  EXPECT_EQ(j.at("repeat_reduced"), true);
  EXPECT_EQ(j.at("bytes"), 120);
}

TEST(Json, AReferenceSaysHowCleanlyItWasMeasured) {
  CopyReference r;
  r.name = "cudaMemcpy";
  r.result.what = "cudaMemcpy D2D";
  r.result.direction = CopyDirection::DeviceToDevice;
  r.result.memory = MemoryKind::Device;
  r.attempts = 3;
  r.clean = false;
  const json j = to_json(r);
  EXPECT_EQ(j.at("reference"), "cudaMemcpy");
  EXPECT_EQ(j.at("direction"), "D2D");
  EXPECT_EQ(j.at("memory"), "device");
  EXPECT_TRUE(j.at("note").is_null());
  EXPECT_TRUE(j.at("time").is_null());
  EXPECT_EQ(j.at("attempts"), 3);
  EXPECT_EQ(j.at("clean"), false);
  EXPECT_EQ(j.at("repeat_reduced"), false);
}

TEST(Json, ACandidateNotMeasuredHasOnlyWhy) {
  CandidateResult c;
  c.candidate = parse_launch_config("team:1x1");
  c.skipped = "league 70000 > 65536 teams";
  const json j = to_json(c);
  EXPECT_EQ(j.size(), 3u);
  EXPECT_EQ(j.at("config"), "team:1x1");
  EXPECT_EQ(j.at("measured"), false);
  EXPECT_EQ(j.at("skipped"), c.skipped);
  c.measured = true;
  c.skipped.clear();
  c.resolved = parse_launch_config("team:1x1");
  c.check.checked = 5;
  c.check.mismatches = 1;
  c.check.first_bad = 4;
  const json m = to_json(c);
  EXPECT_TRUE(m.at("skipped").is_null());
  EXPECT_EQ(m.at("verified"), false);
  EXPECT_EQ(m.at("check").at("first_bad"), 4);
  EXPECT_EQ(m.at("ran_as"), "team:1x1");
  EXPECT_TRUE(m.contains("phases"));
}

TEST(Json, TheSeedExperimentsWaitsInTheWaitsToolsForm) {
  ReadAfterLaunch r;
  r.label = "addscope::add[team:1x1]";
  r.fenced_read = Stats::of({2e-5});
  CallRecord c;
  c.what = "deep_copy(out[2])";
  c.kind = CallKind::DeepCopy;
  c.wait_class = WaitClass::Hidden;
  c.begin_s = 1;
  c.end_s = 1.5;
  c.wait_s = 0.4;
  WaitShare s;
  s.kernel = "addscope::add[team:1x1]";
  s.wait_s = 0.4;
  c.waited_for = {s};
  r.attribution = {c};
  r.attribution_line = format_attribution(c);
  const json j = to_json(r);
  const json& a = j.at("attribution").at(0);
  EXPECT_EQ(a, call_record_json(c));  // the one form of a call
  EXPECT_EQ(a.at("line"), r.attribution_line);
  EXPECT_EQ(a.at("kind"), "deep_copy");
  EXPECT_EQ(a.at("class"), "hidden");
  EXPECT_TRUE(a.at("waited_for").at(0).at("launched_as").is_null());
  EXPECT_EQ(j.at("attribution_line"), r.attribution_line);
  EXPECT_FALSE(j.contains("element"));  // the form docs/json.md documents
}

TEST(Json, DeviceFactsUnknownAreNull) {
  DeviceInfo d;
  d.exec_space = "OpenMP";
  const json j = to_json(d);
  EXPECT_TRUE(j.at("dram_peak_gbps").is_null());
  EXPECT_TRUE(j.at("compute_capability").is_null());
  EXPECT_TRUE(j.at("memory_clock_khz").is_null());
  d.dram_peak_gbps = 4814.3;
  d.compute_capability = "9.0";
  EXPECT_DOUBLE_EQ(to_json(d).at("dram_peak_gbps").get<double>(), 4814.3);
  EXPECT_EQ(to_json(d).at("compute_capability"), "9.0");
}

}  // namespace
