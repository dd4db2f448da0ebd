// The waits tool across ranks, its rules on made-up records whose answer is
// known: who waited in which collective for whom, what the late rank was
// doing (a waiting call, else its host call, else nothing that covers half),
// and the per-rank traces moved into one file. No MPI runtime needed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "addscope/waits/analyze/addscope_CrossRankWaits.hpp"
#include "addscope/waits/output/addscope_MergedReport.hpp"
#include "addscope/waits/output/addscope_TraceMerge.hpp"

using namespace addscope::waits_mpi;

namespace {
CollectiveInstance instance(const char* name, std::uint64_t seq,
                            std::vector<double> enter,
                            std::vector<double> exit) {
  CollectiveInstance c;
  c.name = name;
  c.comm = "MPI_COMM_WORLD";
  c.seq = seq;
  c.enter_s = enter;
  c.exit_s = exit;
  c.present.assign(enter.size(), true);
  return c;
}
RankWaitCall call(double b, double e, double wait, const char* what,
                  const char* kernel, const char* cls) {
  RankWaitCall c;
  c.begin_s = b;
  c.end_s = e;
  c.wait_s = wait;
  c.what = what;
  c.kernel = kernel;
  c.wait_class = cls;
  return c;
}
bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}
}  // namespace

TEST(CrossRankWaits, TheLastRanksStagingWaitExplainsTheOthersCollective) {
  // Rank 1's deep_copy waited 0.29 s for its kernel; it entered
  // MPI_Allreduce 0.3 s after rank 0, which waited there all that time.
  std::vector<RankWaits> ranks(2);
  ranks[1].mode = "device";
  ranks[1].waits = {
      call(1.005, 1.2995, 0.29, "deep_copy sum_h<-sum", "K1x1", "hidden"),
      call(0.2, 0.25, 0.05, "fence 'user'", "Kinit", "explicit")};
  ranks[1].waits[0].at = "tools/solver.cpp:40 (step)";
  const auto w = cross_rank_waits(
      {instance("MPI_Allreduce", 2, {1.0, 1.3}, {1.3002, 1.3003})}, ranks);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].rank, 0);
  EXPECT_EQ(w[0].for_rank, 1);
  EXPECT_EQ(w[0].call, "MPI_Allreduce");
  EXPECT_EQ(w[0].seq, 2u);
  EXPECT_NEAR(w[0].wait_s, 0.3, 1e-12);
  EXPECT_NEAR(w[0].gap_s, 0.3, 1e-12);
  EXPECT_NEAR(w[0].duration_s, 0.3002, 1e-12);
  ASSERT_TRUE(w[0].late_call_found);
  EXPECT_EQ(w[0].late_call.kernel, "K1x1");
  const std::string line = format_cross_rank_wait(w[0]);
  EXPECT_TRUE(has(line,
                  "rank 0's MPI_Allreduce (MPI_COMM_WORLD, #2) 300.2 ms "
                  "= 300.0 ms waiting for rank 1 + 200.0 us own"))
      << line;
  EXPECT_TRUE(has(line,
                  "it was blocked in deep_copy sum_h<-sum at "
                  "tools/solver.cpp:40 (step) on K1x1 (hidden wait 290.0 ms)"))
      << line;
}

TEST(CrossRankWaits, ARankThatLeavesEarlyWaitedOnlyUntilItLeft) {
  // A broadcast root may leave before the others enter: its wait ends when
  // it leaves, not when the last rank enters.
  const auto w =
      cross_rank_waits({instance("MPI_Bcast", 1, {1.0, 1.3}, {1.05, 1.3001})},
                       std::vector<RankWaits>(2));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NEAR(w[0].wait_s, 0.05, 1e-12);
  EXPECT_NEAR(w[0].gap_s, 0.3, 1e-12);
}

TEST(CrossRankWaits, SmallWaitsAbsentRanksLongestFirstAndTop) {
  auto a = instance("MPI_Barrier", 1, {1.0, 1.000005, 1.000006},
                    {1.00001, 1.00001, 1.00001});  // 6 us: below 10 us
  auto b = instance("MPI_Allreduce", 2, {2.0, 2.1, 2.4}, {2.4, 2.4, 2.4});
  auto c = instance("MPI_Allreduce", 3, {3.0, 3.5, 0}, {3.5, 3.5, 0});
  c.present[2] = false;  // rank 2 kept no record: rank 1 is the last
  const auto w = cross_rank_waits({a, b, c}, std::vector<RankWaits>(3));
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].seq, 3u);  // 0.5 s, rank 0 for rank 1
  EXPECT_EQ(w[0].for_rank, 1);
  EXPECT_EQ(w[1].seq, 2u);  // 0.4 s, rank 0 for rank 2
  EXPECT_EQ(w[1].rank, 0);
  EXPECT_EQ(w[2].rank, 1);  // 0.3 s, rank 1 for rank 2
  EXPECT_EQ(w[2].for_rank, 2);
  CrossRankOptions top1;
  top1.top = 1;
  EXPECT_EQ(cross_rank_waits({a, b, c}, std::vector<RankWaits>(3), top1).size(),
            1u);
  CrossRankOptions big;
  big.min_wait_s = 0.45;
  EXPECT_EQ(cross_rank_waits({a, b, c}, std::vector<RankWaits>(3), big).size(),
            1u);
}

TEST(CrossRankWaits, WithoutAWaitingCallTheLateRanksHostCallExplains) {
  // A host backend: rank 1 ran its kernel inside the launch, 0.28 of the
  // 0.3 s; a wait that covers only a little does not explain it.
  std::vector<RankWaits> ranks(2);
  ranks[1].mode = "host";
  ranks[1].waits = {call(1.0, 1.01, 0.01, "deep_copy a", "K", "hidden")};
  ranks[1].busy = {call(1.01, 1.29, 0, "user::add[1x1]", "", "kernel"),
                   call(0.5, 0.6, 0, "user::fill", "", "kernel")};
  const auto inst = instance("MPI_Allreduce", 1, {1.0, 1.3}, {1.3, 1.3});
  auto w = cross_rank_waits({inst}, ranks);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_FALSE(w[0].late_call_found);
  ASSERT_TRUE(w[0].late_busy_found);
  EXPECT_EQ(w[0].late_busy.what, "user::add[1x1]");
  EXPECT_NEAR(w[0].late_busy_overlap_s, 0.28, 1e-12);
  EXPECT_TRUE(has(format_cross_rank_wait(w[0]),
                  "it was in kernel user::add[1x1] for 280.0 ms of that (a "
                  "host backend: the kernel ran inside its launch)"));
  // Only 0.1 s of it in one call: nothing explains it; the most is named.
  ranks[1].busy = {call(1.2, 1.3, 0, "user::small", "", "kernel")};
  w = cross_rank_waits({inst}, ranks);
  EXPECT_FALSE(w[0].late_busy_found);
  const std::string line = format_cross_rank_wait(w[0]);
  EXPECT_TRUE(has(line,
                  "no call of rank 1 that the tracker saw covers half "
                  "of that (the most: kernel user::small, 100.0 ms)"))
      << line;
}

TEST(TraceMerge, EachRankGetsItsProcessesItsClockAndUniqueFlows) {
  using nlohmann::json;
  const std::string rank1 = R"([
{"ph":"M","pid":1,"name":"process_name","args":{"name":"host"}},
{"ph":"M","pid":1,"name":"process_sort_index","args":{"sort_index":0}},
{"ph":"X","pid":1,"tid":0,"name":"MPI_Allreduce","cat":"mpi","ts":100.0,"dur":5.0,"args":{}},
{"ph":"M","pid":100,"name":"process_name","args":{"name":"device 0"}},
{"ph":"X","pid":100,"tid":7,"name":"K","cat":"kernel","ts":90.0,"dur":3.0,"args":{}},
{"ph":"s","pid":100,"tid":7,"name":"waited for","cat":"wait","id":1,"ts":91.0},
{"ph":"f","bp":"e","pid":1,"tid":0,"name":"waited for","cat":"wait","id":1,"ts":104.0}
]
)";
  json out = json::array();
  merge_rank_trace(rank1, 1, 2, 1000.0, out);
  ASSERT_EQ(out.size(), 7u);
  EXPECT_EQ(out[0]["pid"], merged_pid(1, 1));
  EXPECT_EQ(out[0]["args"]["name"], "rank 1 host");
  EXPECT_EQ(out[1]["args"]["sort_index"], 1000);
  EXPECT_EQ(out[2]["pid"], 2001);
  EXPECT_DOUBLE_EQ(out[2]["ts"].get<double>(), 1100.0);
  EXPECT_DOUBLE_EQ(out[2]["dur"].get<double>(), 5.0);
  EXPECT_EQ(out[3]["args"]["name"], "rank 1 device 0");
  EXPECT_EQ(out[4]["pid"], 2100);
  EXPECT_EQ(out[5]["id"], 1 * 2 + 1);  // rank 0's flow 1 becomes 2
  EXPECT_EQ(out[6]["id"], out[5]["id"]);
  add_rank_flow(out, 99, "waited for rank 1", 1, 0.5, 0, 0.6);
  ASSERT_EQ(out.size(), 9u);
  EXPECT_EQ(out[7]["ph"], "s");
  EXPECT_EQ(out[7]["pid"], merged_pid(1, 1));
  EXPECT_DOUBLE_EQ(out[7]["ts"].get<double>(), 0.5e6);
  EXPECT_EQ(out[8]["ph"], "f");
  EXPECT_EQ(out[8]["pid"], merged_pid(0, 1));
  EXPECT_THROW(merge_rank_trace("{\"not\": \"a trace\"}", 0, 2, 0, out),
               nlohmann::json::exception);
  EXPECT_THROW(merge_rank_trace("[{\"ph\":", 0, 2, 0, out),
               nlohmann::json::exception);
}

// A rank's account says where in its program each wait was called (the
// line rank 0 puts beside the late rank's call: "blocked in ... at
// solver.cpp:40 (step)"); unknown: "".
TEST(MergedReport, ARanksWaitsCarryTheirLines) {
  addscope::WaitsSnapshot snap;
  addscope::CallRecord c;
  c.what = "deep_copy sum_h<-sum";
  c.begin_s = 1.005;
  c.end_s = 1.2995;
  c.wait_s = 0.29;
  c.code.file = "/src/tools/solver.cpp";
  c.code.line = 40;
  c.code.function = "step";
  c.code.language = "c++";
  snap.waits.push_back(c);
  c.code = addscope::CodeSite();
  snap.waits.push_back(c);
  RankCounters rc;
  rc.rank = 1;
  const nlohmann::json a = rank_account(snap, rc);
  ASSERT_EQ(a["waits"].size(), 2u);
  EXPECT_EQ(a["waits"][0]["at"], "tools/solver.cpp:40 (step)");
  EXPECT_EQ(a["waits"][0]["code"]["line"], 40);
  EXPECT_EQ(a["waits"][1]["at"], "");
  EXPECT_TRUE(a["waits"][1]["code"].is_null());
}
