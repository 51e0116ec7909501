// `redist grid -P 16 -r 3 -Q 16 -s 5 [--json]`: the communication grid of paper 004.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "options.hpp"
#include "redist/reports/grid_report.hpp"
#include "redist/comm_grid/comm_grid.hpp"
#include "redist/core/memory_budget.hpp"

namespace redist::cli {

void add_grid_command(CLI::App& root, Commands& commands) {
  struct Options {
    Redistribution redist{};
    bool json = false;
  };
  auto opts = std::make_shared<Options>();
  auto* app = root.add_subcommand("grid", "Print the communication grid of CYCLIC(r) on P -> CYCLIC(s) on Q");
  app->add_option("-P", opts->redist.P, "source processors")->required()->check(whole_number());
  app->add_option("-r", opts->redist.r, "source block size")->required()->check(whole_number());
  app->add_option("-Q", opts->redist.Q, "destination processors")->required()->check(whole_number());
  app->add_option("-s", opts->redist.s, "destination block size")->required()->check(whole_number());
  app->add_flag("--json", opts->json, "print JSON (the shape of docs/ARCHITECTURE.md §7)");
  add_max_memory_option(app);
  commands.push_back({app, [opts] {
                        const auto& g = opts->redist;
                        require_memory(grid_report_peak_bytes(g, opts->json),
                                       "the " + std::to_string(g.P) + "x" + std::to_string(g.Q) + " communication grid" +
                                           (opts->json ? " as JSON" : ""),
                                       "choose smaller P and Q");
                        const CommGrid grid = comm_grid(opts->redist);
                        if (opts->json) {
                          std::cout << grid_json(grid).dump() << '\n';
                        } else {
                          std::cout << grid_table(grid);
                        }
                        return 0;
                      }});
}

}  // namespace redist::cli
