// command_ranges.cpp — the ranges of the commands' arguments, "WHAT must be LO..HI, got VALUE":
// the parser's and the executor's one statement of them.
#include <string>

#include "core/command.hpp"
#include "core/script_words.hpp"

namespace ls {

InputError range_error(std::string_view what, std::string_view range, std::string_view value) {
  return InputError(std::string(what) + " must be " + std::string(range) + ", got " + script::cut(value));
}

namespace {

std::string range_text(long long lo, long long hi) { return std::to_string(lo) + ".." + std::to_string(hi); }

void check_whole(const char* what, long long n, long long lo, long long hi, std::string_view as_written) {
  if (n < lo || n > hi)
    throw range_error(what, range_text(lo, hi),
                      as_written.empty() ? std::to_string(n) : std::string(as_written));
}

void check_real(const char* what, double v, double lo, double hi, std::string_view range,
                std::string_view as_written) {
  if (!(v >= lo && v <= hi))
    throw range_error(what, range, as_written.empty() ? script::real_text(v) : std::string(as_written));
}

}  // namespace

void check_step_generations(long long n, std::string_view as_written) {
  check_whole("generation count", n, 1, kMaxStepGenerations, as_written);
}

void check_frame_count(long long n, std::string_view as_written) {
  check_whole("frame count", n, 1, kMaxFrameCount, as_written);
}

void check_zoom(double pixels_per_cell, std::string_view as_written) {
  check_real("zoom", pixels_per_cell, 1 / kMaxZoom, kMaxZoom, "1/4096..4096 pixels per cell", as_written);
}

void check_density(double p, std::string_view as_written) {
  check_real("density", p, 0, 1, "0..1", as_written);
}

void check_generations_per_frame(long long n, std::string_view as_written) {
  check_whole("generations per frame", n, 1, kMaxGenerationsPerFrame, as_written);
}

void check_generations_per_launch(long long k, std::string_view as_written) {
  check_whole("generations per launch", k, 1, kMaxGenerationsPerLaunch, as_written);
}

void check_timing_period_frames(long long n, std::string_view as_written) {
  check_whole("timing period", n, 1, kMaxTimingPeriod, as_written);
}

}  // namespace ls
