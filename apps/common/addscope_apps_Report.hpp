// addscope apps — rendering results: aligned text tables, JSON, CSV, and files
// written whole or not at all. Knows only the result structs.
#ifndef ADDSCOPE_APPS_COMMON_REPORT_HPP
#define ADDSCOPE_APPS_COMMON_REPORT_HPP

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "addscope/timing/addscope_Results.hpp"

namespace addscope {

nlohmann::json to_json(const Stats& s);
nlohmann::json to_json(const PhaseResult& r);
nlohmann::json to_json(const TransferResult& r);
nlohmann::json to_json(const CallRecord& c);
nlohmann::json to_json(const SeedResult& r);

using Row = std::vector<std::string>;

/// An aligned text table: header, a rule, rows. Numbers right-aligned.
std::string render_table(const Row& header, const std::vector<Row>& rows);
/// CSV (RFC 4180 quoting) with the header first.
std::string render_csv(const Row& header, const std::vector<Row>& rows);

/// Writes `content` to `path` through a temporary file and a rename, so that
/// `path` is complete or untouched. Throws RuntimeError naming the path.
void write_file_atomic(const std::string& path, const std::string& content);
/// Throws InvalidArgument naming `param` if `path` cannot be created (its
/// folder is missing or not writable) — checked before any measuring.
void check_writable(const std::string& param, const std::string& path);

/// "640.1 ms", "6.2 us" (same as the tracker's).
std::string fmt_time(double s);
/// "3650.2" (GB/s, one decimal).
std::string fmt_gbps(double g);

}  // namespace addscope

#endif
