// bench_report.cpp — the benches' table and JSON file (bench_report.hpp).
#include "bench/bench_report.hpp"

#include <cstdio>
#include <fstream>

#include "control/json_text.hpp"
#include "core/error.hpp"

namespace ls::bench {

namespace {

void print_line(const std::vector<Column>& columns, const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const Column& c = columns[i];
    const std::string& cell = i < cells.size() ? cells[i] : std::string();
    const std::string pad(cell.size() < static_cast<std::size_t>(c.width) ? c.width - cell.size() : 0, ' ');
    if (i > 0) line.append(static_cast<std::size_t>(c.gap), ' ');
    line += c.left ? cell + pad : pad + cell;
  }
  std::printf("%s\n", line.c_str());
}

}  // namespace

std::vector<Column> columns_of(std::string_view header_format, const std::vector<std::string_view>& titles) {
  std::vector<Column> columns;
  int gap = 0;
  for (std::size_t i = 0; i < header_format.size(); ++i) {
    if (header_format[i] == ' ') {
      ++gap;
      continue;
    }
    // "%[-]Ns"
    Column c;
    c.title = columns.size() < titles.size() ? titles[columns.size()] : std::string_view();
    c.left = header_format[++i] == '-';
    if (c.left) ++i;
    while (header_format[i] >= '0' && header_format[i] <= '9')
      c.width = 10 * c.width + (header_format[i++] - '0');
    c.gap = gap;
    gap = 0;
    columns.push_back(c);
  }
  return columns;
}

void print_table(const std::vector<Column>& columns, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::string> titles;
  for (const Column& c : columns) titles.emplace_back(c.title);
  print_line(columns, titles);
  for (const auto& row : rows) print_line(columns, row);
}

std::string formatted(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

JsonObject& JsonObject::text(std::string_view key, std::string_view value) {
  return raw(key, app::json_string(value));
}

JsonObject& JsonObject::number(std::string_view key, double value) {
  return raw(key, app::json_number(value));
}

JsonObject& JsonObject::number(std::string_view key, std::optional<double> value) {
  return raw(key, value ? app::json_number(*value) : "null");
}

JsonObject& JsonObject::whole(std::string_view key, long long value) {
  return raw(key, std::to_string(value));
}

JsonObject& JsonObject::boolean(std::string_view key, std::optional<bool> value) {
  return raw(key, value ? (*value ? "true" : "false") : "null");
}

JsonObject& JsonObject::wholes(std::string_view key, const std::vector<int>& values) {
  std::string list = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) list += ',';
    list += std::to_string(values[i]);
  }
  list += ']';
  return raw(key, std::move(list));
}

JsonObject& JsonObject::raw(std::string_view key, std::string json) {
  fields_.emplace_back(app::json_string(key), std::move(json));
  return *this;
}

std::string JsonObject::str() const {
  std::string out = "{";
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) out += ", ";
    out += fields_[i].first;
    out += ": ";
    out += fields_[i].second;
  }
  out += '}';
  return out;
}

void write_json(const std::string& path, const JsonObject& top, const std::vector<JsonObject>& rows) {
  std::string text = top.str();
  text.pop_back();  // the closing brace: "rows" is the last field
  text += std::string(top.str() == "{}" ? "" : ", ") + "\"rows\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) text += (i ? ",\n  " : "\n  ") + rows[i].str();
  text += "\n]}\n";
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw InputError("--json: cannot write \"" + path + "\"");
  file << text;
  if (!file.flush()) throw InputError("--json: cannot write \"" + path + "\"");
}

}  // namespace ls::bench
