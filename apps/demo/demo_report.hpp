// addscope-demo — what one run's numbers say: the table, the sentences
// (addscope::explain for the seed experiment) and the JSON.
#ifndef ADDSCOPE_APPS_DEMO_DEMO_REPORT_HPP
#define ADDSCOPE_APPS_DEMO_DEMO_REPORT_HPP

#include <nlohmann/json.hpp>
#include <string>

#include "demo_run.hpp"

namespace addscope {
namespace demo {

/// The run as text: a header, the table of steps 1-5, the sentences and
/// the conclusion.
std::string render_text(const DemoRun& run);

/// The run as one element of the JSON's runs[] (docs/json.md).
nlohmann::json run_json(const DemoRun& run);

}  // namespace demo
}  // namespace addscope

#endif
