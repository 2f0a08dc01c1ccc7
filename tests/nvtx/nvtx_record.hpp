// nvtx_record.hpp — reading what the recording NVTX tool (nvtx_recorder.cpp) wrote: its lines as
// fields, the ranges as a tree of pushes and pops, and the newest name of each CUDA stream.
#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ls::test {

using RecordLine = std::vector<std::string>;  // tab-separated fields

inline std::vector<RecordLine> read_record(const std::string& path) {
  std::vector<RecordLine> lines;
  std::ifstream in(path);
  std::string text;
  while (std::getline(in, text)) {
    RecordLine fields;
    std::istringstream s(text);
    std::string field;
    while (std::getline(s, field, '\t')) fields.push_back(field);
    if (!text.empty() && text.back() == '\t') fields.emplace_back();
    lines.push_back(fields);
  }
  return lines;
}

/// A pushed range of the "lifestreams" domain, with the ranges pushed inside it.
struct RecordedRange {
  std::string name;
  bool registered = false;  // named by a registered string (nvtxDomainRegisterStringA)
  std::vector<RecordedRange> inside;
};

/// The lifestreams domain's outermost ranges in order (their nested ranges inside). `balanced`
/// says whether every push had its pop.
inline std::vector<RecordedRange> lifestreams_ranges(const std::vector<RecordLine>& lines, bool& balanced) {
  std::vector<RecordedRange> top;
  std::vector<RecordedRange> open;
  balanced = true;
  for (const RecordLine& f : lines) {
    if (f.size() >= 4 && f[0] == "push" && f[1] == "lifestreams") {
      open.push_back(RecordedRange{f[3], f[2] == "registered", {}});
    } else if (f.size() >= 2 && f[0] == "pop" && f[1] == "lifestreams") {
      if (open.empty()) {
        balanced = false;
        continue;
      }
      RecordedRange done = std::move(open.back());
      open.pop_back();
      (open.empty() ? top : open.back().inside).push_back(std::move(done));
    }
  }
  if (!open.empty()) balanced = false;
  return top;
}

/// The newest name given to each CUDA stream (by its handle in hex).
inline std::map<std::string, std::string> stream_names(const std::vector<RecordLine>& lines) {
  std::map<std::string, std::string> names;
  for (const RecordLine& f : lines)
    if (f.size() >= 3 && f[0] == "stream") names[f[1]] = f[2];
  return names;
}

}  // namespace ls::test
