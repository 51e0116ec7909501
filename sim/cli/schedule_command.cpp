// `redist schedule -P 15 -r 2 -Q 6 -s 3 --strategy caterpillar|walker-otto|stepwise|greedy
//  [--json] [--plot FILE.png]`: a communication schedule of paper 004 as the paper's step and cost
// tables, or as JSON, optionally drawn by analysis/plot_schedule.py.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "command.hpp"
#include "options.hpp"
#include "plot_script.hpp"
#include "redist/core/atomic_file.hpp"
#include "redist/analysis/schedule_report.hpp"
#include "redist/schedule/strategy.hpp"

namespace redist::cli {
namespace {

CLI::Validator strategy_name() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          strategy_from_name(text);
        } catch (const std::invalid_argument& e) {
          return e.what();
        }
        return {};
      },
      "STRATEGY");
}

std::string title_of(Strategy strategy, const Redistribution& redist, const Schedule& schedule) {
  std::string name(name_of(strategy));
  name[0] = static_cast<char>(std::toupper(name[0]));
  return fmt::format("{} schedule for P = {}, Q = {}, r = {}, s = {}: NS = {} steps, TC = {}", name, redist.P,
                     redist.Q, redist.r, redist.s, schedule.step_count(), schedule.total_cost());
}

// The schedule goes to the plot script as a JSON file in the temporary directory (removed
// afterwards, and on a stop signal); the PNG is published whole or not at all.
void plot(const Schedule& schedule, const std::string& title, const std::filesystem::path& png) {
  core::PendingFile json(std::filesystem::temp_directory_path() / "redist-schedule.json");
  json.write(schedule_json(schedule).dump());
  core::PendingFile image(png);
  run_plot_script(REDIST_PLOT_SCHEDULE_SCRIPT,
                  {json.path().string(), image.path().string(), "--P", std::to_string(schedule.P), "--Q",
                   std::to_string(schedule.Q), "--title", title},
                  image.path());
  image.publish();
}

}  // namespace

void add_schedule_command(CLI::App& root, Commands& commands) {
  struct Options {
    Redistribution redist{};
    std::string strategy;
    bool json = false;
    std::string plot;
  };
  auto opts = std::make_shared<Options>();
  auto* app = root.add_subcommand("schedule", "Print a communication schedule of CYCLIC(r) on P -> CYCLIC(s) on Q");
  app->add_option("-P", opts->redist.P, "source processors")->required()->check(whole_number());
  app->add_option("-r", opts->redist.r, "source block size")->required()->check(whole_number());
  app->add_option("-Q", opts->redist.Q, "destination processors")->required()->check(whole_number());
  app->add_option("-s", opts->redist.s, "destination block size")->required()->check(whole_number());
  app->add_option("--strategy", opts->strategy, "caterpillar, walker-otto, stepwise or greedy")
      ->required()
      ->check(strategy_name());
  app->add_flag("--json", opts->json, "print JSON (the shape of docs/ARCHITECTURE.md §7)");
  app->add_option("--plot", opts->plot, "also draw the schedule into this PNG file (python3-matplotlib)");
  commands.push_back({app, [opts] {
                        const Strategy strategy = strategy_from_name(opts->strategy);
                        const Schedule schedule = make_schedule(strategy, comm_grid(opts->redist));
                        const std::string title = title_of(strategy, opts->redist, schedule);
                        // Plot first: a failed plot leaves no output at all.
                        if (!opts->plot.empty()) plot(schedule, title, opts->plot);
                        if (opts->json) {
                          std::cout << schedule_json(schedule).dump() << '\n';
                        } else {
                          std::cout << schedule_table(schedule, title);
                        }
                        return 0;
                      }});
}

}  // namespace redist::cli
