#include "addscope/waits/output/addscope_WaitsJson.hpp"

#include "addscope/waits/output/addscope_AttributionText.hpp"

namespace addscope {

namespace {
nlohmann::json str_or_null(const std::string& s) {
  return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}
}  // namespace

nlohmann::json code_site_json(const CodeSite& s) {
  if (!s.known()) return nullptr;
  nlohmann::json j = {{"file", str_or_null(s.file)},
                      {"line", s.line > 0 ? nlohmann::json(s.line) : nullptr},
                      {"function", str_or_null(s.function)},
                      {"language", str_or_null(s.language)},
                      {"text", str_or_null(s.text)}};
  if (s.language == "python") j["called"] = str_or_null(s.called);
  if (s.line <= 0) {
    j["module"] = s.module;
    j["offset"] = s.offset;
  }
  return j;
}

nlohmann::json call_record_json(const CallRecord& c, const std::string& line,
                                const WaitedKernelShapes& shapes) {
  using nlohmann::json;
  json wf = json::array();
  for (const auto& s : c.waited_for) {
    const WaitedKernelShape k = shapes ? shapes(s) : WaitedKernelShape();
    wf.push_back({{"kernel", s.kernel},
                  {"kernel_raw", str_or_null(s.kernel_raw)},
                  {"wait_s", s.wait_s},
                  {"stream", s.stream},
                  {"launched_as", str_or_null(k.launched_as)},
                  {"starved", k.starved},
                  {"launched_at", code_site_json(k.launched_at)}});
  }
  return {{"id", c.id},
          {"what", c.what},
          {"site", str_or_null(c.site)},
          {"code", code_site_json(c.code)},
          {"kind", call_kind_name(c.kind)},
          {"class", wait_class_name(c.wait_class)},
          {"thread", c.thread},
          {"begin_s", c.begin_s},
          {"duration_s", c.duration_s()},
          {"wait_s", c.wait_s},
          {"own_s", c.own_s()},
          {"wait_is_bound", c.wait_is_bound},
          {"regions", str_or_null(c.regions)},
          {"context", str_or_null(c.context)},
          {"via", str_or_null(c.via)},
          {"waited_for", wf},
          {"line", line.empty() ? format_attribution(c) : line}};
}

}  // namespace addscope
