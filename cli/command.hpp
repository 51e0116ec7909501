// A `redist` subcommand: its CLI11 definition and the action run when it is chosen.
#pragma once

#include <functional>
#include <vector>

#include <CLI/CLI.hpp>

namespace redist::cli {

struct Command {
  CLI::App* app;
  /// Runs the command after parsing; returns the exit status. May throw: main reports the error.
  std::function<int()> run;
};

using Commands = std::vector<Command>;

void add_grid_command(CLI::App& root, Commands& commands);
/// `redist experiments`: the experiments' parameters (scenarios/README.md's table).
void add_experiments_command(CLI::App& root, Commands& commands);
/// `redist platform-properties`: the platform properties redist knows (platforms/README.md's list).
void add_platform_properties_command(CLI::App& root, Commands& commands);
void add_holes_command(CLI::App& root, Commands& commands);
/// `redist pack` and `redist unpack` (paper 001).
void add_pack_commands(CLI::App& root, Commands& commands);
void add_tables_command(CLI::App& root, Commands& commands);
void add_schedule_command(CLI::App& root, Commands& commands);
void add_simulate_command(CLI::App& root, Commands& commands);
void add_sra_command(CLI::App& root, Commands& commands);
void add_replay_command(CLI::App& root, Commands& commands);
void add_sweep_command(CLI::App& root, Commands& commands);
void add_merge_command(CLI::App& root, Commands& commands);
void add_calibrate_command(CLI::App& root, Commands& commands);
void add_validate_command(CLI::App& root, Commands& commands);
void add_explain_command(CLI::App& root, Commands& commands);
void add_fit_command(CLI::App& root, Commands& commands);

}  // namespace redist::cli
