// The apps' shared layer: tables, files, the command-line vocabulary.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "addscope/core/addscope_Error.hpp"
#include "common/addscope_apps_Cli.hpp"
#include "common/addscope_apps_Files.hpp"
#include "common/addscope_apps_Table.hpp"

namespace apps = addscope::apps;

TEST(Table, AlignsColumnsNumbersRight) {
  apps::Table t({"config", "GB/s"});
  t.add({"range", "12.5"});
  t.add({"team:1024x256", "3100.0"});
  std::istringstream is(t.text());
  std::string h, rule, a, b;
  std::getline(is, h);
  std::getline(is, rule);
  std::getline(is, a);
  std::getline(is, b);
  EXPECT_EQ(h, "config         GB/s");
  EXPECT_EQ(rule, std::string(21, '-'));  // 13 + 2 + 6
  EXPECT_EQ(a, "range            12.5");  // numbers right-aligned
  EXPECT_EQ(b, "team:1024x256  3100.0");
  EXPECT_THROW(t.add({"a", "b", "c"}), addscope::InvalidArgument);
}

TEST(Table, CsvQuotes) {
  apps::Table t({"a", "b"});
  t.add({"range:chunk=1,ilp=2", "x\"y"});
  EXPECT_EQ(t.csv(), "a,b\n\"range:chunk=1,ilp=2\",\"x\"\"y\"\n");
}

TEST(Files, AtomicWriteAndWritableCheck) {
  char tmpl[] = "/tmp/addscope-apps-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl, file = dir + "/r.json";
  apps::write_file_atomic(file, "{}\n");
  std::ifstream f(file);
  std::string s((std::istreambuf_iterator<char>(f)), {});
  EXPECT_EQ(s, "{}\n");
  EXPECT_NO_THROW(apps::check_writable("--json", file));
  try {
    apps::check_writable("--json", dir + "/missing/r.json");
    ADD_FAILURE();
  } catch (const addscope::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("--json"), std::string::npos);
  }
  EXPECT_THROW(apps::write_file_atomic(dir + "/missing/r.json", "x"),
               addscope::RuntimeError);
  // Not a regular file: refused before anything is measured, and never
  // followed or replaced when written.
  const std::string link = dir + "/link.json";
  ASSERT_EQ(symlink(file.c_str(), link.c_str()), 0);
  for (const std::string& p : {link, std::string("/dev/null"), dir}) {
    SCOPED_TRACE(p);
    try {
      apps::check_writable("--json", p);
      ADD_FAILURE() << "accepted";
    } catch (const addscope::InvalidArgument& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--json = '" + p + "' is ", 0), 0u)
          << e.what();
    }
  }
  try {
    apps::write_file_atomic(link, "replaced");
    ADD_FAILURE() << "wrote through a link";
  } catch (const addscope::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find(link), std::string::npos) << e.what();
  }
  std::ifstream again(file);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), {}), "{}\n");
  std::remove(link.c_str());
  std::remove(file.c_str());
  rmdir(tmpl);
}

TEST(Cli, SizesInEveryAcceptedSpelling) {
  EXPECT_EQ(apps::parse_size("--n", "1048576"), 1048576);
  EXPECT_EQ(apps::parse_size("--n", "2^20"), 1048576);
  EXPECT_EQ(apps::parse_size("--n", "1e6"), 1000000);
  EXPECT_EQ(apps::parse_size("--n", "2.5e6"), 2500000);
  EXPECT_EQ(apps::parse_size("--n", "1E3"), 1000);
  EXPECT_EQ(apps::parse_size("--n", "2^40"), 1ll << 40);
  for (const char* bad :
       {"0", "-5", "abc", "2^41", "3^4", "1.5e0", "1e", "e6", "1e14", "2^", "",
        "99999999999999999999", "1.2.3e4", "0e5"}) {
    SCOPED_TRACE(bad);
    try {
      apps::parse_size("--n", bad);
      ADD_FAILURE() << "accepted";
    } catch (const addscope::InvalidArgument& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind("--n = '", 0), 0u) << m;  // names the user's flag
      EXPECT_NE(m.find("2^20"), std::string::npos) << m;
    }
  }
}

TEST(Cli, ListsAndIntegers) {
  EXPECT_EQ(apps::split_list("float, double;int32  int64,,"),
            (std::vector<std::string>{"float", "double", "int32", "int64"}));
  EXPECT_EQ(apps::parse_int("--repeat", "7", 1, 10), 7);
  try {
    apps::parse_int("--repeat", "0", 1, 10);
    ADD_FAILURE();
  } catch (const addscope::InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "--repeat = 0 is invalid; allowed: 1..10");
  }
  EXPECT_THROW(apps::parse_int("--repeat", "many", 1, 10),
               addscope::InvalidArgument);
  EXPECT_THROW(apps::parse_int("--repeat", "", 1, 10),
               addscope::InvalidArgument);
}

namespace {
struct Argv {
  std::vector<std::string> s;
  std::vector<char*> p;
  explicit Argv(std::vector<std::string> a) : s(std::move(a)) {
    for (auto& x : s) p.push_back(&x[0]);
  }
  int argc() { return int(p.size()); }
  char** argv() { return p.data(); }
};
int parse(apps::CommandLine& cl, std::vector<std::string> args) {
  args.insert(args.begin(), "prog");
  Argv a(args);
  return cl.parse(a.argc(), a.argv());
}
}  // namespace

TEST(Cli, BothSpellingsAndSeparators) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--n", "2^10", "--type", "double", "--config",
            "range:chunk=64,ilp=4,team:1x1"},
           {"--sizes=1024", "--types=double", "--configs",
            "range:chunk=64,ilp=4", "team:1x1"},
           {"--sizes", "1024", "--types", "double", "--configs",
            "range:chunk=64,ilp=4;team:1x1"}}) {
    apps::CommandLine cl("prog", "test", apps::CliDefaults());
    ASSERT_EQ(parse(cl, args), apps::keep_going);
    const auto& o = cl.options();
    ASSERT_EQ(o.sizes.size(), 1u);
    EXPECT_EQ(o.sizes[0], 1024);
    ASSERT_EQ(o.types.size(), 1u);
    EXPECT_EQ(o.types[0], apps::ValueType::Double);
    ASSERT_EQ(o.configs.size(), 2u);
    EXPECT_EQ(o.configs[0].to_string(), "range:chunk=64,ilp=4");
    EXPECT_EQ(o.configs[1].to_string(), "team:1x1");
  }
  apps::CommandLine cl("prog", "test", apps::CliDefaults());
  ASSERT_EQ(parse(cl, {"--n", "1e3,2^11", "--types", "all", "--repeat", "4",
                       "--kokkos-threads=1", "--seed", "7"}),
            apps::keep_going);
  EXPECT_EQ(cl.options().sizes, (std::vector<std::int64_t>{1000, 2048}));
  EXPECT_EQ(cl.options().types.size(), 4u);
  EXPECT_EQ(cl.options().repeat, 4);
  EXPECT_EQ(cl.options().seed, 7u);
  EXPECT_EQ(cl.spelling("--sizes"), "--n");
  EXPECT_TRUE(cl.given("--repeat"));
  EXPECT_FALSE(cl.given("--warmup"));
  ASSERT_EQ(cl.kokkos_argc(), 2);  // program name + the Kokkos flag
  EXPECT_EQ(std::string(cl.kokkos_argv()[1]), "--kokkos-threads=1");
}

TEST(Cli, UsageErrorsExitTwo) {
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"--bogus"},
                                             {"--n", "0"},
                                             {"--repeat", "0"},
                                             {"--types", "half"},
                                             {"--configs", "team:0x1"},
                                             {"--warmup", "-1"}}) {
    apps::CommandLine cl("prog", "test", apps::CliDefaults());
    EXPECT_EQ(parse(cl, args), apps::exit_usage) << args[0];
  }
  apps::CommandLine cl("prog", "test", apps::CliDefaults());
  EXPECT_EQ(parse(cl, {"--version"}), apps::exit_ok);
}
