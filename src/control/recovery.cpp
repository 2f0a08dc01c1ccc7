// recovery.cpp — implements recovery.hpp: periodic host snapshots, the injected-fault test hook, and
// saving the newest snapshots as exact-torus RLE files after a fatal device error.
#include "control/recovery.hpp"

#include <bit>
#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <ostream>
#include <system_error>
#include <utility>

namespace ls::app {
namespace {

constexpr std::size_t kRleColumns = 70;  // as Golly writes

/// RLE tokens ("12b", "o", "3$") into lines of at most kRleColumns characters.
class RleLines {
 public:
  explicit RleLines(std::ostream& out) : out_(out) {}
  void add(long long count, char tag) {
    if (count <= 0) return;
    char buf[32];
    std::size_t n = 0;
    if (count > 1) n = static_cast<std::size_t>(std::to_chars(buf, buf + 24, count).ptr - buf);
    buf[n++] = tag;
    if (column_ + n > kRleColumns) {
      out_.put('\n');
      column_ = 0;
    }
    out_.write(buf, static_cast<std::streamsize>(n));
    column_ += n;
  }
  void finish() {
    add(1, '!');
    out_.put('\n');
  }

 private:
  std::ostream& out_;
  std::size_t column_ = 0;
};

/// First x >= from in the row whose cell is `live`, or the row's width.
int find_cell(const std::uint32_t* row, int words, int from, bool live) {
  int j = from / 32;
  if (j >= words) return words * 32;
  std::uint32_t w = (live ? row[j] : ~row[j]) & (~0u << (from % 32));
  while (true) {
    if (w != 0) return j * 32 + std::countr_zero(w);
    if (++j == words) return words * 32;
    w = live ? row[j] : ~row[j];
  }
}

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}

/// Writes one recovery file under `dir` with a name nobody has taken; the path, or an error text.
bool write_new_file(const std::filesystem::path& dir, const RecoveryState& state, std::filesystem::path& path,
                    std::string& error) {
  std::vector<std::string> comments = {
      "recovered by lifestreams after a fatal device error: instance " + std::to_string(state.instance) +
          " at generation " + std::to_string(state.generation),
      std::to_string(state.cells.width()) + "x" + std::to_string(state.cells.height()) + " torus, hash " +
          hex(state.cells.hash())};
  for (int attempt = 1; attempt < 1000; ++attempt) {
    path = dir / recovered_file_name(state.instance, state.generation, attempt);
    // "x": created here or not at all, so an existing file is never overwritten.
    std::FILE* f = std::fopen(path.c_str(), "wx");
    if (!f) {
      if (errno == EEXIST) continue;
      error = std::string("cannot create ") + path.string() + ": " + std::strerror(errno);
      return false;
    }
    std::fclose(f);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    write_lattice_rle(out, state.cells, state.rule, "lifestreams instance " + std::to_string(state.instance),
                      comments);
    if (!out.flush()) {
      error = "cannot write " + path.string() + ": " + std::strerror(errno);
      return false;
    }
    return true;
  }
  error = "every name like " + (dir / recovered_file_name(state.instance, state.generation, 1)).string() +
          " is taken";
  return false;
}

}  // namespace

void write_lattice_rle(std::ostream& out, const Lattice& cells, const Rule& rule, const std::string& name,
                       const std::vector<std::string>& comments) {
  const int w = cells.width(), h = cells.height();
  if (!name.empty()) out << "#N " << name << "\n";
  for (const std::string& c : comments) out << "#C " << c << "\n";
  out << "x = " << w << ", y = " << h << ", rule = " << rule.to_string() << ":T" << w << "," << h << "\n";
  RleLines lines(out);
  const int words = w / 32;
  long long rows_ended = 0;  // row ends not yet written: empty rows collapse into one "n$"
  for (int y = 0; y < h; ++y) {
    const std::uint32_t* row =
        cells.words().data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(words);
    int x = 0;
    while (true) {
      const int live = find_cell(row, words, x, true);
      if (live >= w) break;
      const int dead = find_cell(row, words, live, false);
      lines.add(rows_ended, '$');
      rows_ended = 0;
      lines.add(live - x, 'b');
      lines.add(dead - live, 'o');
      x = dead;
    }
    ++rows_ended;  // trailing dead cells and trailing empty rows are never written
  }
  lines.finish();
}

std::string recovered_file_name(std::size_t instance, std::uint64_t generation, int attempt) {
  char name[96];
  if (attempt > 1)
    std::snprintf(name, sizeof name, "lifestreams-recovered-%zu-gen%" PRIu64 "-%d.rle", instance, generation,
                  attempt);
  else
    std::snprintf(name, sizeof name, "lifestreams-recovered-%zu-gen%" PRIu64 ".rle", instance, generation);
  return name;
}

Recovery::Recovery(Engine& engine, RecoverySettings settings) : engine_(engine), settings_(settings) {}

void Recovery::after_frame(long long frames_done, double now_s) {
  if (settings_.snapshot_max_cells > 0 &&
      (requests_ == 0 || now_s - last_request_s_ >= settings_.interval_s)) {
    engine_.request_snapshots(settings_.snapshot_max_cells);
    last_request_s_ = now_s;
    ++requests_;
  }
  if (settings_.fault_at_frame >= 0 && frames_done >= settings_.fault_at_frame) {
    throw DeviceError("injected fault after frame " + std::to_string(frames_done) + " (" +
                      kFaultAtFrameOption + " " + std::to_string(settings_.fault_at_frame) + ")");
  }
}

std::vector<RecoveryState> Recovery::states() const noexcept {
  if (settings_.snapshot_max_cells == 0) return {};
  try {
    // A last request first: an engine in host memory answers it at once, so its files hold the
    // state at the fault; a failed device refuses it or never finishes it, and the newest earlier
    // snapshot is what remains.
    engine_.request_snapshots(settings_.snapshot_max_cells);
  } catch (...) {
  }
  try {
    return engine_.snapshots();
  } catch (...) {
    return {};  // out of host memory while copying
  }
}

std::vector<RecoveredFile> Recovery::save(const std::filesystem::path& dir,
                                          std::ostream& log) const noexcept {
  std::vector<RecoveredFile> files;
  try {
    std::vector<RecoveryState> states = this->states();
    std::vector<bool> saved(engine_.size(), false);
    for (const RecoveryState& state : states) {
      std::filesystem::path path;
      std::string error;
      bool ok = write_new_file(dir, state, path, error);
      if (!ok) {
        std::error_code ec;
        const std::filesystem::path temp = std::filesystem::temp_directory_path(ec);
        std::string second;
        if (!ec && temp != dir) ok = write_new_file(temp, state, path, second);
      }
      if (!ok) {
        log << "lifestreams: instance " << state.instance << " not saved: " << error << "\n";
        continue;
      }
      std::error_code ec;
      const std::filesystem::path shown = std::filesystem::absolute(path, ec);
      const std::uint64_t hash = state.cells.hash();
      log << "lifestreams: saved instance " << state.instance << " from generation " << state.generation
          << " to " << (ec ? path : shown).string() << " (hash " << hex(hash) << ")\n";
      files.push_back(RecoveredFile{state.instance, state.generation, hash, ec ? path : shown});
      if (state.instance < saved.size()) saved[state.instance] = true;
    }
    for (std::size_t i = 0; i < saved.size(); ++i) {
      if (saved[i]) continue;
      std::string why = "no snapshot of it had finished";
      try {
        // status() may need the device; after a fatal error it can fail, and the reason stays generic.
        const InstanceStatus s = engine_.status(i);
        const std::uint64_t cells =
            static_cast<std::uint64_t>(s.width) * static_cast<std::uint64_t>(s.height);
        if (cells > settings_.snapshot_max_cells)
          why = std::to_string(s.width) + "x" + std::to_string(s.height) + " is above --snapshot-max-cells " +
                std::to_string(settings_.snapshot_max_cells);
      } catch (...) {
      }
      log << "lifestreams: instance " << i << " not saved: " << why << "\n";
    }
    log.flush();
  } catch (...) {
    // Logging or allocation failed: return what was written.
  }
  return files;
}

int Recovery::save_after_fault(const DeviceError& error, std::ostream& log) const noexcept {
  try {
    log << "lifestreams: " << error.what() << "\n";
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::current_path(ec);
    if (ec) dir = std::filesystem::temp_directory_path(ec);
    save(dir, log);
  } catch (...) {
  }
  return 3;
}

}  // namespace ls::app
