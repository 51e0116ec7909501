// The `redist` command line: one subcommand per task, one error line and a non-zero exit on bad input.
#include <exception>
#include <iostream>
#include <string>

#include <fmt/format.h>
#include <xbt/base.h>  // before simgrid/version.h, which uses its macros without including it
#include <simgrid/version.h>

#include "command.hpp"
#include "redist/os/error_line.hpp"
#include "redist/os/standard_output.hpp"
#include "redist/os/stop_signals.hpp"
#include "redist/command_line/strict_numbers.hpp"

namespace {

// The project's version (CMake's project()) and that of the SimGrid library actually loaded.
std::string version_text() {
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  return fmt::format("redist {}\nSimGrid {}.{}.{}", REDIST_VERSION, major, minor, patch);
}

bool is_command(const redist::cli::Commands& commands, const std::string& name) {
  for (const auto& command : commands) {
    if (command.app->get_name() == name) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  redist::os::install_stop_handlers();
  CLI::App app{"redist: redistribution of block-cyclic arrays, on simulated and real machines"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text, "print the versions of redist and SimGrid, and exit");
  redist::cli::Commands commands;
  redist::cli::add_grid_command(app, commands);
  redist::cli::add_holes_command(app, commands);
  redist::cli::add_tables_command(app, commands);
  redist::cli::add_schedule_command(app, commands);
  redist::cli::add_simulate_command(app, commands);
  redist::cli::add_sra_command(app, commands);
  redist::cli::add_pack_commands(app, commands);
  redist::cli::add_replay_command(app, commands);
  redist::cli::add_experiments_command(app, commands);
  redist::cli::add_platform_properties_command(app, commands);
  redist::cli::add_sweep_command(app, commands);
  redist::cli::add_merge_command(app, commands);
  redist::cli::add_calibrate_command(app, commands);
  redist::cli::add_validate_command(app, commands);
  redist::cli::add_explain_command(app, commands);
  redist::cli::add_fit_command(app, commands);

  if (argc > 1 && argv[1][0] != '-' && !is_command(commands, argv[1])) {
    std::cerr << "redist: error: unknown command '" << redist::os::as_error_line(argv[1]) << "' (run 'redist --help' for the list)\n";
    return 2;
  }
  redist::command_line::read_numbers_strictly(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "redist: error: " << redist::os::as_error_line(e.what()) << '\n';
    return 2;
  }

  try {
    for (const auto& command : commands) {
      if (!command.app->parsed()) continue;
      const int status = command.run();
      if (const std::string problem = redist::os::standard_output_problem(); !problem.empty()) {
        std::cerr << "redist: error: " << redist::os::as_error_line(problem) << '\n';
        return 1;
      }
      return status;
    }
  } catch (const std::exception& e) {
    std::cerr << "redist: error: " << redist::os::as_error_line(e.what()) << '\n';
    return 1;
  }
  return 2;
}
