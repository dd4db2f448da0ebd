// addscope-demo's text on recorded runs: each recorded --json document (an
// H200 on Kokkos 3.4 and 4.x, a 2-core OpenMP host) is read back into the
// demo's DemoRun and rendered again (the table, addscope::explain's
// sentences, the conclusion); the text must be the recorded expectation
// (data/demo_*.expected.txt; at first the recorded stdout itself) line for
// line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "addscope/launch/addscope_LaunchConfig.hpp"
#include "common/addscope_apps_Types.hpp"
#include "demo_report.hpp"
#include "replay_json.hpp"

namespace {

using namespace addscope;
using replay::json;

const std::string kData = ADDSCOPE_REPLAY_DATA;

ReadAfterLaunch seed(const json& run) {
  const json& j = run.at("read_after_launch");
  ReadAfterLaunch r;
  r.label = j.at("label");
  r.n = j.at("n");
  r.index = j.at("index");
  r.element = "out[" + std::to_string(r.index) + "]";
  r.exec_space = run.at("execution_space");
  r.async_backend = j.at("async_backend");
  const json& nv = j.at("naive");
  r.naive_launch_s = nv.at("launch_s");
  r.naive_mirror_s = nv.at("create_mirror_s");
  r.naive_copy_s = nv.at("deep_copy_s");
  const json& fe = j.at("fenced");
  r.fenced_launch_s = fe.at("launch_s");
  r.completion_s = fe.at("completion_s");
  r.fenced_mirror = replay::stats(fe.at("create_mirror"));
  r.fenced_copy = replay::stats(fe.at("deep_copy"));
  r.fenced_read = replay::stats(fe.at("read"));
  for (const auto& a : j.at("attribution")) {
    CallRecord c;
    c.what = a.at("what");
    for (int k = 0; k <= int(CallKind::Mpi); ++k)
      if (a.at("kind") == call_kind_name(CallKind(k))) c.kind = CallKind(k);
    for (auto w : {WaitClass::None, WaitClass::Explicit, WaitClass::Hidden})
      if (a.at("class") == wait_class_name(w)) c.wait_class = w;
    c.end_s = a.at("duration_s");
    c.wait_s = a.at("wait_s");
    for (const auto& f : a.at("waited_for")) {
      WaitShare sh;
      sh.kernel = f.at("kernel");
      sh.wait_s = f.at("wait_s");
      c.waited_for.push_back(sh);
    }
    r.attribution.push_back(c);
  }
  r.attribution_line = replay::str(j.at("attribution_line"));
  r.verified = j.at("verified");
  return r;
}

// What a recorded configuration ran as: its `ran_as`, or, in runs recorded
// before the demo wrote one, read off its kernel label
// ("addscope::add[team:auto(8448x64)]" -> team:8448x64,
// "addscope::add[range:pack(ilp=1)]" -> range:pack,ilp=1).
std::string ran_as(const json& c) {
  if (c.contains("ran_as")) return c.at("ran_as");
  const std::string config = c.at("config"), label = c.at("label");
  const auto open = label.find('['), paren = label.find('(', open);
  if (paren == std::string::npos) return config;
  const std::string base = label.substr(open + 1, paren - open - 1);
  const std::string res =
      label.substr(paren + 1, label.rfind(')') - paren - 1);
  std::string ran;
  if (base.rfind("team", 0) == 0) {
    ran = "team:" + res;
  } else {
    const auto colon = base.find(':');
    const std::string opts = colon == std::string::npos ? "" : base.substr(colon + 1);
    ran = "range:" + (opts.empty() ? res : opts + "," + res);
  }
  return parse_launch_config(ran).to_string();
}

demo::DemoRun run_from(const json& j) {
  demo::DemoRun r;
  r.type = j.at("type");
  r.elem_size = apps::size_of(apps::parse_value_type("type", r.type));
  r.kokkos_version = j.at("kokkos_version");
  r.dev = replay::device(j.at("device"));
  r.naive_config = "team:1x1";  // the recorded runs used the default
  r.seq = seed(j);
  r.naive_check = replay::check(j.at("read_after_launch").at("check"));
  for (const auto& c : j.at("configs")) {
    r.configs.push_back(c.at("config"));
    r.ran_as.push_back(ran_as(c));
    r.phases.push_back(replay::phases(c));
    r.checks.push_back(replay::check(c.at("check")));
  }
  for (const auto& t : j.at("transfers"))
    r.transfers.push_back(replay::transfer(t));
  for (const auto& t : j.at("references"))
    r.refs.push_back(replay::reference(t));
  r.verified = j.at("verified");
  return r;
}

void replay_one(const std::string& name) {
  SCOPED_TRACE(name);
  const json doc = replay::read_json(kData + "/" + name + ".json");
  std::string got;
  for (const auto& run : doc.at("runs"))
    got += (got.empty() ? "" : "\n") + demo::render_text(run_from(run));
  const std::string path = kData + "/" + name + ".expected.txt";
  replay::maybe_write(path, got);
  EXPECT_EQ(replay::first_difference(got, replay::read_text(path)), "");
}

/// Every field `was` has is in `now` with the same value (numbers within
/// 1e-12, relative).
std::string kept(const json& was, const json& now, const std::string& at) {
  if (was.is_object()) {
    for (auto it = was.begin(); it != was.end(); ++it) {
      if (!now.is_object() || !now.contains(it.key()))
        return at + "." + it.key() + ": gone";
      const std::string d =
          kept(it.value(), now.at(it.key()), at + "." + it.key());
      if (!d.empty()) return d;
    }
    return "";
  }
  if (was.is_array()) {
    if (!now.is_array() || now.size() != was.size())
      return at + ": another length";
    for (std::size_t i = 0; i < was.size(); ++i) {
      const std::string d = kept(was[i], now[i], at + "[]");
      if (!d.empty()) return d;
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

// The JSON on the recorded numbers: each run keeps every field it had, with
// its value (the one form of each type adds fields, never changes one).
TEST(DemoReplay, JsonKeepsWhatItHad) {
  for (const std::string name :
       {"demo_h200_cuda_k34", "demo_h200_cuda_k4", "demo_openmp_2core"}) {
    SCOPED_TRACE(name);
    const json doc = replay::read_json(kData + "/" + name + ".json");
    for (const auto& run : doc.at("runs"))
      EXPECT_EQ(kept(run, demo::run_json(run_from(run)), "runs[]"), "");
  }
}

TEST(DemoReplay, H200CudaKokkos34) { replay_one("demo_h200_cuda_k34"); }
TEST(DemoReplay, H200CudaKokkos4) { replay_one("demo_h200_cuda_k4"); }
TEST(DemoReplay, OpenMP2Core) { replay_one("demo_openmp_2core"); }

}  // namespace
