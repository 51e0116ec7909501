// The runs `redist validate` compares: each case for real under mpirun (redist-mpi run) and in the
// simulator (the redistribute experiment of `redist simulate` and scenarios) on a calibrated platform.
#pragma once

#include <string>
#include <vector>

#include "redist/calibration/mpi_launcher.hpp"
#include "redist/calibration/validation_case.hpp"
#include "redist/transport/phases.hpp"

namespace redist::calibration {

/// The 14 hand-picked cases; `quick`: four small ones, one of them relabelled.
std::vector<ValidationCase> hand_picked_validation_cases(bool quick);

/// The twelve benchmark pairs (redist/layout/benchmark_pairs.hpp) on 4 processes for a rows x cols
/// matrix, each moved by prylli and async (redist's default).
std::vector<ValidationCase> benchmark_validation_cases(Index rows, Index cols);

/// The cores of a platform file's first host (its core attribute; 1 without one). Throws
/// std::runtime_error when it cannot be read or declares no host.
int platform_core_count(const std::string& platform);

/// The hosts a platform file declares. Throws std::runtime_error when it cannot be read or has none.
int platform_host_count(const std::string& platform);

/// One mpirun of a case (`repeat` repetitions, the fastest counted), its phases. Throws
/// std::runtime_error when the run fails or is not verified.
Phases measure_case(const MpiLauncher& launcher, const ValidationCase& c, int repeat);

/// The case simulated on `platform`, its ranks on the platform's `hosts` in turn (rank i on
/// node-(i mod hosts)). Throws std::runtime_error when the run is not verified.
Phases simulate_case(const std::string& platform, const ValidationCase& c, int hosts);

// Every case measured in `rounds` passes over the whole list, its fastest total kept (with that run's
// phases): a slow spell of a shared machine — a virtual machine's memory bandwidth may halve for minutes —
// then spoils one pass, not the case. The simulator prices the machine unloaded, as calibrate measured it.
// Each pass's total is kept too: how far they spread is the noise the errors are to be read against.
struct CaseMeasurements {
  std::vector<Phases> fastest;
  std::vector<std::vector<double>> totals;  ///< per case, one per pass
};

CaseMeasurements measure_cases(const MpiLauncher& launcher, const std::vector<ValidationCase>& all, int repeat,
                               int rounds);

}  // namespace redist::calibration
