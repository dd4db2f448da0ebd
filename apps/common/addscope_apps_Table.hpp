// addscope apps — aligned text tables and CSV from the same cells.
#ifndef ADDSCOPE_APPS_COMMON_TABLE_HPP
#define ADDSCOPE_APPS_COMMON_TABLE_HPP

#include <string>
#include <vector>

namespace addscope {
namespace apps {

/// A table of text cells: a header and lines of cells.
class Table {
 public:
  explicit Table(std::vector<std::string> header);
  /// Appends a line (missing cells are empty; extra cells are an error).
  void add(std::vector<std::string> cells);
  std::size_t size() const { return lines_.size(); }
  /// Aligned text: the header, a rule, the lines; numbers ("6.1 ms",
  /// "97%", "3650.2") right-aligned, everything else left-aligned.
  std::string text() const;
  /// CSV (RFC 4180 quoting), header first.
  std::string csv() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> lines_;
};

}  // namespace apps
}  // namespace addscope

#endif
