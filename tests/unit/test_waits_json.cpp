// waits/output/addscope_WaitsJson: a call that waited, in its one JSON form
// (the waits tool's waits[] and the apps' attribution[]).
#include <gtest/gtest.h>

#include "addscope/waits/output/addscope_AttributionText.hpp"
#include "addscope/waits/output/addscope_WaitsJson.hpp"

namespace {

using namespace addscope;

CallRecord waited_call() {
  CallRecord c;
  c.id = 7;
  c.what = "deep_copy(out[2])";
  c.kind = CallKind::DeepCopy;
  c.wait_class = WaitClass::Hidden;
  c.thread = 2;
  c.begin_s = 1.0;
  c.end_s = 1.5;
  c.wait_s = 0.375;
  c.wait_is_bound = true;
  c.via = "cudaMemcpy";
  WaitShare a, b;
  a.kernel = "K1";
  a.kernel_raw = "_Z2K1v";
  a.wait_s = 0.25;
  a.stream = 3;
  b.kernel = "K2";
  b.wait_s = 0.125;
  c.waited_for = {a, b};
  return c;
}

// Where in the program: its line with debug info, its module and offset
// without.
TEST(WaitsJson, ACallsCodeSite) {
  CallRecord c = waited_call();
  c.code.file = "/home/u/app/main.cpp";
  c.code.line = 24;
  c.code.function = "main";
  c.code.language = "c++";
  auto j = call_record_json(c).at("code");
  EXPECT_EQ(j.at("file"), "/home/u/app/main.cpp");
  EXPECT_EQ(j.at("line"), 24);
  EXPECT_EQ(j.at("function"), "main");
  EXPECT_EQ(j.at("language"), "c++");
  EXPECT_TRUE(j.at("text").is_null());
  EXPECT_EQ(j.size(), 5u);
  c.code.text = "Kokkos::deep_copy(h, one);";
  EXPECT_EQ(call_record_json(c).at("code").at("text"),
            "Kokkos::deep_copy(h, one);");
  c.code = addscope::CodeSite();
  c.code.module = "/home/u/app/solver";
  c.code.offset = 0x1a2b;
  c.code.language = "native";
  j = call_record_json(c).at("code");
  EXPECT_TRUE(j.at("file").is_null());
  EXPECT_TRUE(j.at("line").is_null());
  EXPECT_TRUE(j.at("function").is_null());
  EXPECT_EQ(j.at("module"), "/home/u/app/solver");
  EXPECT_EQ(j.at("offset"), 0x1a2b);
}

TEST(WaitsJson, EveryFieldOfACall) {
  const CallRecord c = waited_call();
  const auto j = call_record_json(c);
  EXPECT_EQ(j.at("id"), 7);
  EXPECT_EQ(j.at("what"), "deep_copy(out[2])");
  EXPECT_TRUE(j.at("site").is_null());
  EXPECT_EQ(j.at("kind"), "deep_copy");
  EXPECT_EQ(j.at("class"), "hidden");
  EXPECT_EQ(j.at("thread"), 2);
  EXPECT_DOUBLE_EQ(j.at("begin_s").get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j.at("duration_s").get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j.at("wait_s").get<double>(), 0.375);
  EXPECT_DOUBLE_EQ(j.at("own_s").get<double>(), 0.125);
  EXPECT_EQ(j.at("wait_is_bound"), true);
  EXPECT_TRUE(j.at("regions").is_null());
  EXPECT_TRUE(j.at("context").is_null());
  EXPECT_EQ(j.at("via"), "cudaMemcpy");
  EXPECT_EQ(j.at("line"), format_attribution(c));  // no line given
  EXPECT_TRUE(j.at("code").is_null());             // no site captured
  EXPECT_EQ(j.size(), 17u);
  const auto& w = j.at("waited_for");
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].at("kernel"), "K1");
  EXPECT_EQ(w[0].at("kernel_raw"), "_Z2K1v");
  EXPECT_EQ(w[0].at("stream"), 3);
  EXPECT_TRUE(w[0].at("launched_as").is_null());
  EXPECT_EQ(w[0].at("starved"), false);
  EXPECT_TRUE(w[1].at("kernel_raw").is_null());
}

TEST(WaitsJson, TheReportsLineAndShapes) {
  const CallRecord c = waited_call();
  const auto j =
      call_record_json(c, "the report's line", [](const WaitShare& s) {
        WaitedKernelShape k;
        if (s.kernel == "K1") {
          k.launched_as = "1 x 1";
          k.starved = true;
        }
        return k;
      });
  EXPECT_EQ(j.at("line"), "the report's line");
  EXPECT_EQ(j.at("waited_for")[0].at("launched_as"), "1 x 1");
  EXPECT_EQ(j.at("waited_for")[0].at("starved"), true);
  EXPECT_TRUE(j.at("waited_for")[1].at("launched_as").is_null());
}

}  // namespace
