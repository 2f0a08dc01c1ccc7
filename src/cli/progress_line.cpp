// progress_line.cpp — the status line of a long run on a terminal (progress_line.hpp).
#include "cli/progress_line.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace ls {

ProgressLine::ProgressLine(long long total, double cells, int k, bool shown, bool always_pieces)
    : total_(total),
      cells_(std::max(1.0, cells)),
      shown_(shown),
      pieces_(shown || always_pieces),
      piece_(piece_size(cells_, k)) {}

bool ProgressLine::stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

int ProgressLine::piece_size(double cells, int k) {
  k = std::max(1, k);
  const double gens = std::floor(kCellsPerPiece / cells);
  const int whole = static_cast<int>(std::min(gens, 4096.0)) / k * k;
  return std::max(k, whole);
}

bool ProgressLine::due() const {
  if (!shown_) return false;
  const auto now = Clock::now();
  return std::chrono::duration<double>(now - start_).count() >= kQuietSeconds &&
         std::chrono::duration<double>(now - last_draw_).count() >= kRedrawSeconds;
}

void ProgressLine::draw() {
  const auto now = Clock::now();
  last_draw_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const double per_second = seconds > 0 ? static_cast<double>(done_) / seconds : 0;
  const double left = per_second > 0 ? static_cast<double>(total_ - done_) / per_second : 0;
  std::fprintf(stderr, "\rgeneration %lld/%lld  %.3g cell updates/s  %.0f s left\033[K", done_, total_,
               per_second * cells_, left);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::clear() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace ls
