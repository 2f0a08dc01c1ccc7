// progress_line.hpp — the one status line a long `lifestreams run` keeps on stderr when stderr is a
// terminal: generation, cell updates per second and time left, redrawn in place (\r) and cleared
// before any output line and at the end. Nothing at all when stderr is not a terminal, so the
// output lines stay the contract.
#pragma once

#include <algorithm>
#include <chrono>

namespace ls {

class ProgressLine {
 public:
  /// A run of `total` generations of `cells` cells each, k generations per launch. `shown`: draw the line (by
  /// default when stderr is a terminal). `always_pieces`: step in pieces even when not shown (every rank of a
  /// distributed run steps in the same pieces, whichever rank draws).
  ProgressLine(long long total, double cells, int k, bool shown = stderr_is_terminal(),
               bool always_pieces = false);
  ~ProgressLine() { clear(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  static bool stderr_is_terminal();

  /// Runs `n` generations as step(piece) calls: one call when the line is off, else pieces of
  /// about kCellsPerPiece cell updates (multiples of k, so launches stay those of one call). After
  /// a piece, when the line is due for a redraw, calls sync() (the work is done, so the rate is
  /// true) and redraws.
  template <class Step, class Sync>
  void step_in_pieces(int n, Step&& step, Sync&& sync) {
    if (!pieces_) {
      step(n);
      done_ += n;
      return;
    }
    int left = n;
    while (left > 0) {
      const int piece = std::min(left, piece_);
      step(piece);
      left -= piece;
      done_ += piece;
      if (due()) {
        sync();
        draw();
      }
    }
  }

  /// Removes the line if it is shown (before an output line, and at the end).
  void clear();

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr double kCellsPerPiece = 1 << 28;  // a fraction of a second on the CPU engine
  static constexpr double kQuietSeconds = 2.0;       // runs shorter than this show nothing
  static constexpr double kRedrawSeconds = 0.25;

  static int piece_size(double cells, int k);

  bool due() const;
  void draw();

  long long total_;
  double cells_;
  bool shown_;
  bool pieces_;
  int piece_;
  long long done_ = 0;
  bool drawn_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_draw_ = start_;
};

}  // namespace ls
