#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "addscope/core/addscope_Error.hpp"
#include "common/addscope_apps_Report.hpp"

TEST(Report, TableAlignsColumns) {
  const std::string t = addscope::render_table(
      {"config", "GB/s"}, {{"range", "12.5"}, {"team:1024x256", "3100.0"}});
  std::istringstream is(t);
  std::string h, rule, a, b;
  std::getline(is, h);
  std::getline(is, rule);
  std::getline(is, a);
  std::getline(is, b);
  EXPECT_EQ(h, "config         GB/s");
  EXPECT_EQ(rule, std::string(21, '-'));  // 13 + 2 + 6
  EXPECT_EQ(a, "range            12.5");  // numbers right-aligned
  EXPECT_EQ(b, "team:1024x256  3100.0");
}

TEST(Report, CsvQuotes) {
  EXPECT_EQ(addscope::render_csv({"a", "b"}, {{"range:chunk=1,ilp=2", "x\"y"}}),
            "a,b\n\"range:chunk=1,ilp=2\",\"x\"\"y\"\n");
}

TEST(Report, SeedResultJsonHasThePhases) {
  addscope::SeedResult r;
  r.label = "addscope::add[team:1x1]";
  r.naive_launch_s = 0.002;
  r.naive_mirror_s = 1.5;
  r.naive_copy_s = 0.06;
  r.fenced_mirror_s = 0.001;
  r.fenced_copy_s = 0.0001;
  const auto j = addscope::to_json(r);
  EXPECT_DOUBLE_EQ(j["naive"]["read_s"].get<double>(), 1.56);
  EXPECT_DOUBLE_EQ(j["wait_s"].get<double>(), 1.56 - 0.0011);
  EXPECT_EQ(j["label"], "addscope::add[team:1x1]");
}

TEST(Report, AtomicWriteAndWritableCheck) {
  char tmpl[] = "/tmp/addscope-report-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl, file = dir + "/r.json";
  addscope::write_file_atomic(file, "{}\n");
  std::ifstream f(file);
  std::string s((std::istreambuf_iterator<char>(f)), {});
  EXPECT_EQ(s, "{}\n");
  EXPECT_NO_THROW(addscope::check_writable("--json", file));
  try {
    addscope::check_writable("--json", dir + "/missing/r.json");
    ADD_FAILURE();
  } catch (const addscope::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("--json"), std::string::npos);
  }
  EXPECT_THROW(addscope::write_file_atomic(dir + "/missing/r.json", "x"),
               addscope::RuntimeError);
  std::remove(file.c_str());
  rmdir(tmpl);
}
