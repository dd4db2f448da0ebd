#include <gtest/gtest.h>

#include <string>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/launch/addscope_LaunchConfig.hpp"

using addscope::LaunchConfig;
using addscope::LaunchKind;
using addscope::parse_launch_config;

TEST(LaunchConfig, GoodFormsRoundTrip) {
  for (const char* s :
       {"range", "range:chunk=4096", "range:ilp=4", "range:ilp=1", "range:pack",
        "range:pack,ilp=2", "range:pack,chunk=64,ilp=4", "range:chunk=7,ilp=16",
        "team:1024x256", "team:1x1", "team:ceil(N/256)x256", "team:auto",
        "blas"}) {
    SCOPED_TRACE(s);
    const LaunchConfig c = parse_launch_config(s);
    EXPECT_EQ(c.to_string(), s);
    EXPECT_EQ(parse_launch_config(c.to_string()), c);
  }
}

TEST(LaunchConfig, ShorthandsAndFields) {
  const LaunchConfig t = parse_launch_config("1x1");
  EXPECT_EQ(t.kind, LaunchKind::Team);
  EXPECT_EQ(t.league, 1);
  EXPECT_EQ(t.team, 1);
  EXPECT_EQ(t.to_string(), "team:1x1");
  const LaunchConfig u = parse_launch_config("2112x256");
  EXPECT_EQ(u.league, 2112);
  EXPECT_EQ(u.team, 256);
  const LaunchConfig r = parse_launch_config("range:ilp=8,chunk=32");
  EXPECT_EQ(r.kind, LaunchKind::Range);
  EXPECT_EQ(r.chunk, 32);
  EXPECT_EQ(r.ilp, 8);
  EXPECT_EQ(r.to_string(), "range:chunk=32,ilp=8");
  EXPECT_EQ(LaunchConfig().to_string(), "range");
  // range options in any order; one canonical spelling
  const LaunchConfig p = parse_launch_config("range:ilp=2,pack,chunk=8");
  EXPECT_TRUE(p.pack);
  EXPECT_EQ(p.ilp, 2);
  EXPECT_EQ(p.chunk, 8);
  EXPECT_EQ(p.to_string(), "range:pack,chunk=8,ilp=2");
  const LaunchConfig e = parse_launch_config("team:ceil(N/128)x128");
  EXPECT_EQ(e.kind, LaunchKind::TeamPerElement);
  EXPECT_EQ(e.team, 128);
  EXPECT_TRUE(e.is_auto());
}

TEST(LaunchConfig, EveryFactoryValuePrintsAndParsesBack) {
  // What the advisor and the resolver produce must round-trip, so that
  // advice can be fed back to --configs.
  const LaunchConfig all[] = {
      LaunchConfig::range(),           LaunchConfig::range(64, 8),
      LaunchConfig::range_pack(),      LaunchConfig::range_pack(3, 16),
      LaunchConfig::team_policy(7, 3), LaunchConfig::team_per_element(1024),
      LaunchConfig::team_auto(),       LaunchConfig::blas()};
  for (const auto& c : all) {
    SCOPED_TRACE(c.to_string());
    EXPECT_EQ(parse_launch_config(c.to_string()), c);
  }
}

TEST(LaunchConfig, AutomaticChoicesShowWhatTheyResolvedTo) {
  EXPECT_TRUE(LaunchConfig().is_auto());
  EXPECT_TRUE(LaunchConfig::team_auto().is_auto());
  EXPECT_FALSE(parse_launch_config("range:ilp=1").is_auto());
  EXPECT_EQ(LaunchConfig().kernel_label(LaunchConfig::range(0, 4)),
            "addscope::add[range(ilp=4)]");
  EXPECT_EQ(LaunchConfig::team_auto().kernel_label(
                LaunchConfig::team_policy(8448, 64)),
            "addscope::add[team:auto(8448x64)]");
  EXPECT_EQ(LaunchConfig().kernel_label(LaunchConfig::range_pack(0, 1)),
            "addscope::add[range(pack,ilp=1)]");
  EXPECT_EQ(
      LaunchConfig::range_pack().kernel_label(LaunchConfig::range_pack(0, 1)),
      "addscope::add[range:pack(ilp=1)]");
  EXPECT_EQ(LaunchConfig::team_per_element(256).kernel_label(
                LaunchConfig::team_policy(4096, 256)),
            "addscope::add[team:ceil(N/256)x256(4096x256)]");
  const auto t = parse_launch_config("team:2x3");
  EXPECT_EQ(t.kernel_label(t), "addscope::add[team:2x3]");
}

TEST(LaunchConfig, KernelLabelNamesTheConfiguration) {
  EXPECT_EQ(parse_launch_config("team:1024x256").kernel_label(),
            "addscope::add[team:1024x256]");
  EXPECT_EQ(parse_launch_config("range").kernel_label(),
            "addscope::add[range]");
}

TEST(LaunchConfig, BadFormsNameTokenAndAcceptedForms) {
  struct Case {
    const char* text;
    const char* token;
  };
  const Case cases[] = {
      {"", "empty"},
      {"rang", "'rang'"},
      {"range:", "nothing after"},
      {"range:chunk=0", "'0'"},
      {"range:chunk=-1", "'-1'"},
      {"range:chunk=abc", "'abc'"},
      {"range:chunk=", "chunk must be"},
      {"range:ilp=3", "'3'"},
      {"range:ilp=32", "'32'"},
      {"range:ilp=0", "'0'"},
      {"range:foo=1", "'foo'"},
      {"range:chunk", "'chunk'"},
      {"range:chunk=1,chunk=2", "repeated"},
      {"range:chunk=4,", "trailing comma"},
      {"team", "team needs"},
      {"team:", "expected LxT"},
      {"team:0x1", "league size"},
      {"team:1x0", "team size"},
      {"team:x", "league size"},
      {"team:1x", "team size"},
      {"team:axb", "'a'"},
      {"team:auto2", "'auto2'"},
      {"team:-1x4", "'-1'"},
      {"team: 1x4", "' 1'"},
      {"blas:1", "blas takes no options"},
      {"vector", "range:pack"},
      {"vector:ilp=2", "range:pack"},
      {"range:pack,pack", "repeated"},
      {"range:packs", "'packs'"},
      {"range:pack,ilp=5", "'5'"},
      {"team:ceil(N/256)x128", "must be the same"},
      {"team:ceil(N/0)x0", "team size"},
      {"team:ceil(M/4)x4", "expected ceil(N/T)xT"},
      {"team:ceil(N/4)", "expected ceil(N/T)xT"},
      {"1x", "team size"},
      {"x1", "'x1'"},
      {"1x1x1", "'1x1'"},
      {"99999999999999999999x1", "league size"},
      {"1x99999999999", "team size"},
      {"RANGE", "'RANGE'"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      parse_launch_config(c.text);
      ADD_FAILURE() << "no error for '" << c.text << "'";
    } catch (const addscope::InvalidArgument& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(c.token), std::string::npos) << m;
      EXPECT_NE(m.find("accepted forms"), std::string::npos) << m;
      EXPECT_NE(m.find("team:LxT"), std::string::npos) << m;
    }
  }
}

TEST(LaunchConfig, FactoriesValidate) {
  EXPECT_THROW(LaunchConfig::team_policy(0, 1), addscope::InvalidArgument);
  EXPECT_THROW(LaunchConfig::team_policy(1, 0), addscope::InvalidArgument);
  EXPECT_THROW(LaunchConfig::team_policy(-5, 32), addscope::InvalidArgument);
  EXPECT_THROW(LaunchConfig::range(-1), addscope::InvalidArgument);
  EXPECT_THROW(LaunchConfig::range(0, 3), addscope::InvalidArgument);
  try {
    LaunchConfig::team_policy(1, -3);
    ADD_FAILURE();
  } catch (const addscope::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("team size = -3"), std::string::npos)
        << e.what();
  }
}

TEST(LaunchConfig, Lists) {
  const auto v =
      addscope::parse_launch_config_list("range  team:1x1;blas\n1x1");
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].to_string(), "range");
  EXPECT_EQ(v[1].to_string(), "team:1x1");
  EXPECT_EQ(v[2].to_string(), "blas");
  EXPECT_EQ(v[3].to_string(), "team:1x1");
  EXPECT_THROW(addscope::parse_launch_config_list(""),
               addscope::InvalidArgument);
  EXPECT_THROW(addscope::parse_launch_config_list(" ; ;"),
               addscope::InvalidArgument);
  EXPECT_THROW(addscope::parse_launch_config_list("range bogus"),
               addscope::InvalidArgument);
}

TEST(LaunchConfig, ListsTakeCommasOutsideRangeOptions) {
  // A comma before a range option continues the configuration; any other
  // comma separates two.
  const auto v = addscope::parse_launch_config_list(
      "range:chunk=64,ilp=4,team:1x1,range:pack,ilp=2, blas,,1x1;range");
  ASSERT_EQ(v.size(), 6u);
  EXPECT_EQ(v[0].to_string(), "range:chunk=64,ilp=4");
  EXPECT_EQ(v[1].to_string(), "team:1x1");
  EXPECT_EQ(v[2].to_string(), "range:pack,ilp=2");
  EXPECT_EQ(v[3].to_string(), "blas");
  EXPECT_EQ(v[4].to_string(), "team:1x1");
  EXPECT_EQ(v[5].to_string(), "range");
  // "pack" alone is not a configuration, and not an option of "range"
  // without a colon.
  EXPECT_THROW(addscope::parse_launch_config_list("range,pack"),
               addscope::InvalidArgument);
  EXPECT_THROW(addscope::parse_launch_config_list(",;,"),
               addscope::InvalidArgument);
}

TEST(LaunchConfig, ErrorsCarryTheSourceLocationApart) {
  try {
    parse_launch_config("rang");
    ADD_FAILURE();
  } catch (const addscope::InvalidArgument& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find("addscope_LaunchConfig.cpp"), std::string::npos) << m;
    EXPECT_EQ(m.rfind("addscope:", 0), std::string::npos) << m;
    EXPECT_NE(e.where().find("addscope_LaunchConfig.cpp:"), std::string::npos)
        << e.where();
  }
}
