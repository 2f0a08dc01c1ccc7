// bench_report.hpp — how every bench driver shows its rows: a table on stdout whose header and rows
// share the columns' widths, and the --json file: the run's facts, then one object per row.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ls::bench {

/// A table column: its title, its width (cells are padded to it, never cut), left- or
/// right-aligned, and the spaces before it (none before the first column).
struct Column {
  std::string_view title;
  int width = 0;
  bool left = false;
  int gap = 1;
};

/// The columns of a printf header format ("%-10s %-13s %9s  %-12s": widths, '-' left-aligned, the
/// spaces between them the gaps) with these titles, one per conversion.
std::vector<Column> columns_of(std::string_view header_format, const std::vector<std::string_view>& titles);

/// Prints the columns' titles, then each row's cells (one per column), on stdout.
void print_table(const std::vector<Column>& columns, const std::vector<std::vector<std::string>>& rows);

/// print_table with each row's cells from `cells_of(row)`.
template <class Row, class CellsOf>
void print_table(const std::vector<Column>& columns, const std::vector<Row>& rows, CellsOf cells_of) {
  std::vector<std::vector<std::string>> cells;
  for (const Row& r : rows) cells.push_back(cells_of(r));
  print_table(columns, cells);
}

/// `value` through printf's `format` ("%.3e"): a table cell.
std::string formatted(const char* format, double value);

/// A JSON object's fields in order, each value already JSON text.
class JsonObject {
 public:
  JsonObject& text(std::string_view key, std::string_view value);
  /// %.6g; null where JSON has no number.
  JsonObject& number(std::string_view key, double value);
  /// null when absent.
  JsonObject& number(std::string_view key, std::optional<double> value);
  JsonObject& whole(std::string_view key, long long value);
  JsonObject& boolean(std::string_view key, std::optional<bool> value);
  /// [1,2,3]: a list of whole numbers, no spaces.
  JsonObject& wholes(std::string_view key, const std::vector<int>& values);
  /// `json` as it is (a list, an object).
  JsonObject& raw(std::string_view key, std::string json);
  /// {"key": value, ...}
  std::string str() const;

 private:
  std::vector<std::pair<std::string, std::string>> fields_;
};

/// Writes {TOP's fields, "rows": [ one row a line ]} to `path`. InputError "--json: cannot write"
/// when it cannot.
void write_json(const std::string& path, const JsonObject& top, const std::vector<JsonObject>& rows);

}  // namespace ls::bench
