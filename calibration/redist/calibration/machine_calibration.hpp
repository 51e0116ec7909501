// `redist calibrate` as a whole: measures this machine under mpirun — MPI ping-pong from 1 byte up, an
// all-to-all of one rank per core and one at each level of ranks per core beyond (`redist-mpi
// exchange`), all ranks packing at once at one rank per core and at each level (`redist-mpi
// sharedcopy`), the time slice of ranks sharing a core (`redist-mpi pingpong --busy`), and the
// plans, packing and unpacking of the indexing methods timed by `redist-mpi localwork` against their
// counted work (one rank per core, all at once, as a redistribution's ranks share the node's memory),
// all in the MPI program whose runs the platform predicts — fits them by least squares and writes
// the platform (calibrated_platform.hpp) and its machine model, each file published whole.
#pragma once

#include <algorithm>
#include <string>
#include <thread>

#include "redist/calibration/mpi_launcher.hpp"
#include "redist/core/int_math.hpp"

namespace redist::calibration {

struct CalibrationSettings {
  std::string out;  ///< platform XML to write
  Index max_bytes = Index{16} << 20;  ///< largest ping-pong message
  double seconds_per_size = 0.05;    ///< measuring time per ping-pong size
  Index cores = std::max<Index>(1, std::thread::hardware_concurrency());  ///< of the platform's host
  int passes = 5;  ///< each measurement kept at its fastest pass
  MpiLauncher launcher;
};

struct CalibrationResult {
  std::string report;  ///< every fit and its residuals, also kept in the platform
  std::string model;   ///< path of the machine model written beside the platform
};

/// Measures, fits and writes `settings.out` and its machine model (machine_model_file). An
/// unwritable `out` fails before the measurements. Throws std::runtime_error when redist-mpi fails.
CalibrationResult calibrate_machine(const CalibrationSettings& settings);

}  // namespace redist::calibration
