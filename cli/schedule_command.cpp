// `redist schedule -P 15 -r 2 -Q 6 -s 3 --strategy caterpillar|walker-otto|stepwise|greedy
//  [--json] [--plot FILE.png]`: a communication schedule of paper 004 as the paper's step and cost
// tables, or as JSON, optionally drawn by reports/plot_schedule.py.
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "command.hpp"
#include "options.hpp"
#include "redist/reports/schedule_report.hpp"
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

// "caterpillar, walker-otto, stepwise or greedy": every strategy of the registry.
std::string strategy_choices() {
  const std::vector<Strategy> strategies = all_strategies();
  std::string text;
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == strategies.size() ? " or " : ", ") + std::string(name_of(strategies[i]));
  }
  return text;
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
  app->add_option("--strategy", opts->strategy, strategy_choices())
      ->required()
      ->check(strategy_name());
  app->add_flag("--json", opts->json, "print JSON (the shape of docs/ARCHITECTURE.md §7)");
  app->add_option("--plot", opts->plot, "also draw the schedule into this PNG file (python3-matplotlib)");
  commands.push_back({app, [opts] {
                        const Strategy strategy = strategy_from_name(opts->strategy);
                        const Schedule schedule = make_schedule(strategy, comm_grid(opts->redist));
                        const std::string title = schedule_title(strategy, opts->redist, schedule);
                        // Plot first: a failed plot leaves no output at all.
                        if (!opts->plot.empty()) plot_schedule(schedule, title, opts->plot, REDIST_PLOT_SCHEDULE_SCRIPT);
                        if (opts->json) {
                          std::cout << schedule_json(schedule).dump() << '\n';
                        } else {
                          std::cout << schedule_table(schedule, title);
                        }
                        return 0;
                      }});
}

}  // namespace redist::cli
