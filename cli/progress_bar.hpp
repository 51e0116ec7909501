// The progress of `redist replay` and `redist sweep` on standard error.
#pragma once

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "redist/experiments/scenario_runner.hpp"

namespace redist::cli {

// A one-line progress bar with the time left, redrawn in place on a terminal. Elsewhere (a log, a
// job manager) one line "NAME: DONE/TOTAL runs, ~Ns left" every `interval` seconds and at the end.
class ProgressBar {
 public:
  ProgressBar(std::string label, double interval)
      : label_(std::move(label)), start_(Clock::now()), terminal_(isatty(2) != 0), interval_(interval),
        last_line_(std::make_shared<Clock::time_point>(start_)) {}
  void operator()(const sim::Progress& p) const {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double left = p.done == 0 ? 0 : elapsed / static_cast<double>(p.done) * static_cast<double>(p.total - p.done);
    if (!terminal_) {
      if (p.done != p.total && std::chrono::duration<double>(Clock::now() - *last_line_).count() < interval_) return;
      if (p.done == p.total && elapsed < interval_) return;  // short runs stay quiet
      *last_line_ = Clock::now();
      std::cerr << fmt::format("{}: {}/{} runs, ~{:.0f}s left\n", label_, p.done, p.total, left) << std::flush;
      return;
    }
    const std::size_t width = 30, filled = p.total == 0 ? width : width * p.done / p.total;
    std::cerr << fmt::format("\r{:<32} [{}{}] {}/{} ~{:.0f}s left ", label_, std::string(filled, '#'),
                             std::string(width - filled, '.'), p.done, p.total, left)
              << (p.done == p.total ? "\r\033[K" : "") << std::flush;
  }

 private:
  using Clock = std::chrono::steady_clock;
  std::string label_;
  Clock::time_point start_;
  bool terminal_;
  double interval_;
  std::shared_ptr<Clock::time_point> last_line_;  // shared: the callback is copied into std::function
};

}  // namespace redist::cli
