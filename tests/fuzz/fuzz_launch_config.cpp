// libFuzzer target for the launch-configuration parser.
//
// Feeds the input to addscope::parse_launch_config and
// addscope::parse_launch_config_list. The only acceptable error is
// addscope::InvalidArgument; any other exception, a crash or undefined
// behaviour (ASan/UBSan) is a finding. Every configuration that parses must
// round-trip through its canonical text and have a well-formed kernel label.
//
// Needs no Kokkos: addscope_LaunchConfig.cpp is compiled straight into it
// (see tests/fuzz/CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "addscope/core/addscope_Error.hpp"
#include "addscope/launch/addscope_LaunchConfig.hpp"

namespace {

[[noreturn]] void finding(const std::string& input, const std::string& what) {
  std::fprintf(stderr, "fuzz_launch_config: FINDING for input '%s': %s\n",
               input.c_str(), what.c_str());
  std::abort();  // libFuzzer saves the input as a crash artifact
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

// Invariants of a configuration that the parser accepted.
void check_parsed(const std::string& input, const addscope::LaunchConfig& c) {
  const std::string text = c.to_string();
  addscope::LaunchConfig back;
  try {
    c.validate();
    back = addscope::parse_launch_config(text);
  } catch (const addscope::InvalidArgument& e) {
    finding(input, "canonical text '" + text + "' is rejected: " + e.what());
  }
  if (back != c)
    finding(input, "round trip changed the configuration: '" + text +
                       "' parses back as '" + back.to_string() + "'");
  if (back.to_string() != text)
    finding(input, "canonical text is not stable: '" + text + "' -> '" +
                       back.to_string() + "'");
  const std::string label = c.kernel_label();
  if (!starts_with(label, "addscope::add[") || label.back() != ']')
    finding(input, "bad kernel label '" + label + "'");
  if (c.kernel_label(c) != label)
    finding(input, "kernel_label(self) '" + c.kernel_label(c) +
                       "' differs from kernel_label() '" + label + "'");
}

void check_error(const std::string& input, const addscope::InvalidArgument& e) {
  const std::string msg = e.what();
  if (!starts_with(msg, "launch configuration"))
    finding(input,
            "InvalidArgument not naming the launch configuration: " + msg);
  if (e.where().empty())
    finding(input, "InvalidArgument without a source location in where()");
}

void fuzz_one(const std::string& input) {
  addscope::LaunchConfig c;
  try {
    c = addscope::parse_launch_config(input);
  } catch (const addscope::InvalidArgument& e) {
    check_error(input, e);
    return;
  }
  check_parsed(input, c);
}

void fuzz_list(const std::string& input) {
  std::vector<addscope::LaunchConfig> list;
  try {
    list = addscope::parse_launch_config_list(input);
  } catch (const addscope::InvalidArgument& e) {
    check_error(input, e);
    return;
  }
  if (list.empty())
    finding(input, "parse_launch_config_list returned no entry");
  std::string joined;
  for (const auto& c : list) {
    check_parsed(input, c);
    joined += c.to_string();
    joined += ' ';
  }
  // The canonical texts, joined, parse back to the same list.
  std::vector<addscope::LaunchConfig> back;
  try {
    back = addscope::parse_launch_config_list(joined);
  } catch (const addscope::InvalidArgument& e) {
    finding(input, "canonical list '" + joined + "' is rejected: " + e.what());
  }
  if (back != list)
    finding(input, "list round trip changed the list: '" + joined + "'");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  try {
    fuzz_one(input);
    fuzz_list(input);
  } catch (const std::exception& e) {
    finding(input, std::string("unexpected exception: ") + e.what());
  } catch (...) {
    finding(input, "unexpected non-standard exception");
  }
  return 0;
}
