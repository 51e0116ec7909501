// `redist experiments`: the parameters of every experiment kind, as Markdown — the table of
// scenarios/README.md, printed from the schemas that scenarios and commands are checked against.
#include <iostream>

#include "command.hpp"
#include "redist/reports/schema_table.hpp"
#include "redist/experiments/experiments.hpp"

namespace redist::cli {

void add_experiments_command(CLI::App& root, Commands& commands) {
  auto* app = root.add_subcommand("experiments", "Print every experiment's parameters (scenarios/README.md's table) as Markdown");
  commands.push_back({app, [] {
                        std::cout << schema_markdown(sim::experiment_specs());
                        return 0;
                      }});
}

}  // namespace redist::cli
