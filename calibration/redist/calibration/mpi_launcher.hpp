// Runs redist-mpi under mpirun from `redist calibrate` / `redist validate` and captures its output.
#pragma once

#include <string>

namespace redist::calibration {

struct MpiLauncher {
  std::string redist_mpi;  ///< path of redist-mpi (the commands default it to the one built beside redist)
  std::string mpirun = "mpirun --oversubscribe";

  /// Runs `redist-mpi <arguments>` on `ranks` ranks; returns its standard output. Throws
  /// std::runtime_error naming the command and its first error line when it fails, or when
  /// `redist_mpi` is empty or no file.
  std::string run(int ranks, const std::string& arguments) const;
};

}  // namespace redist::calibration
