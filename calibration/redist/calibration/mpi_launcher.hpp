// Runs redist-mpi under mpirun from `redist calibrate` / `redist validate` and captures its output.
// No shell: mpirun is started from an argument vector, its standard output and error read through
// pipes, so that any path works (spaces and all) and nothing is written to disk.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace redist::calibration {

struct MpiLauncher {
  std::string redist_mpi;  ///< path of redist-mpi (the commands default it to the one built beside redist)
  /// The MPI launcher: a program (a path, or a name looked up on PATH) followed by its own options,
  /// separated by spaces. A path with spaces is taken whole when it names a file. The default binds
  /// the ranks to cores in turn, however many (rank k on core k mod cores), as the simulator places
  /// them: unbound, processes that outnumber cores run where the kernel puts them, which changes
  /// from one launch to the next.
  std::string mpirun = "mpirun --oversubscribe --bind-to core:overload-allowed --map-by core";
  /// Seconds one mpirun may run (0: no limit). A mpirun that hangs is ended with its whole process
  /// group (its ranks): SIGTERM, then SIGKILL 5 s later; run() then throws "COMMAND did not finish
  /// within T s (killed)".
  double timeout_s = 1800;

  /// Runs `mpirun -np <ranks> redist-mpi <arguments>` (arguments separated by single spaces; none
  /// holds a space) and returns its standard output. Before starting anything, a --mpirun or
  /// --redist-mpi that is empty, missing, a directory, an empty file or not executable throws
  /// std::runtime_error naming it and the reason; a failed run throws one naming the command, its
  /// exit status and its first error line.
  std::string run(int ranks, const std::string& arguments) const;

  /// run()'s output read as redist-mpi's JSON: output that is not one JSON object throws
  /// std::runtime_error saying so, with the command and the start of what it printed.
  nlohmann::json run_json(int ranks, const std::string& arguments) const;

  /// run_json() handed to `read`; a field `read` misses or finds of another type throws
  /// std::runtime_error naming the command, as output redist-mpi does not print.
  template <class Read>
  auto read_json(int ranks, const std::string& arguments, Read&& read) const {
    const nlohmann::json json = run_json(ranks, arguments);
    try {
      return read(json);
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error(command_text(ranks, arguments) + " printed JSON that is not redist-mpi's (" +
                               e.what() + ")");
    }
  }

  /// The command as run(ranks, arguments) starts it, for messages (words with spaces quoted).
  std::string command_text(int ranks, const std::string& arguments) const;
};

}  // namespace redist::calibration
