// addscope apps — the library's results as JSON (nlohmann-json), for the
// apps' --json files. The library itself does not depend on JSON.
#ifndef ADDSCOPE_APPS_COMMON_JSON_HPP
#define ADDSCOPE_APPS_COMMON_JSON_HPP

#include <nlohmann/json.hpp>

#include "addscope/device/addscope_Advisor.hpp"
#include "addscope/device/addscope_DeviceInfo.hpp"
#include "addscope/device/addscope_LaunchLatency.hpp"
#include "addscope/device/addscope_References.hpp"
#include "addscope/timing/addscope_Results.hpp"
#include "addscope/timing/addscope_Verify.hpp"

namespace addscope {
namespace apps {

using nlohmann::json;

/// Stats: count, min/q1/median/q3/max, mean, stddev (seconds); null when
/// not measured (count 0).
json to_json(const Stats& s);
json to_json(const PhaseResult& r);
json to_json(const TransferResult& r);
json to_json(const CopyReference& r);
json to_json(const CallRecord& c);
json to_json(const ReadAfterLaunch& r);
json to_json(const Verification& v);
json to_json(const DeviceInfo& d);
json to_json(const LatencyResult& l);

}  // namespace apps
}  // namespace addscope

#endif
