// The SimGrid platform `redist calibrate` writes for the machine it measured: one host of C cores
// and the measured time slice (ranks beyond the cores keep to one core each, as the launcher binds
// them, and take it in turn: sim/redist/sim/core_turns.hpp), its messages over one shared link with
// the fitted latency and the first all-to-all's bandwidth (those beyond the cores declared by ranks
// per core, for when the ranks outnumber the cores, whose messages CPUs then copy:
// sim/redist/sim/oversubscribed_bandwidth.hpp; and by how much copies and other work slow down at
// each level: sim/redist/sim/core_sharing_slowdowns.hpp),
// piecewise latency and bandwidth factors by message size where one line does not fit the
// ping-pong's curve (sim/redist/sim/network_factors.hpp), and the fitted prices of local work.
// Every fitted value and residual is kept in the file as a comment.
#pragma once

#include <string>
#include <vector>

#include "redist/calibration/core_sharing_measurements.hpp"
#include "redist/calibration/local_work_measurements.hpp"
#include "redist/calibration/network_measurements.hpp"

namespace redist::calibration {

/// The fits and their residuals, as printed and kept in the platform: the ping-pong's pieces, the
/// all-to-alls, the copy prices and the index work prices (`prices` in kIndexKinds order).
std::string calibration_report(const NetworkMeasurements& network, const LocalWork& work,
                               const std::vector<double>& prices, const std::vector<SharedCopy>& shared_copies,
                               Index cores);

/// The platform XML of a host of `cores` cores, `report` written in its header comment;
/// `shared_copies`: the reference at one rank per core, then each level beyond (measure_shared_copies).
std::string calibrated_platform_xml(Index cores, const NetworkMeasurements& network, const LocalWork& work,
                                    const std::vector<double>& prices, const std::vector<SharedCopy>& shared_copies,
                                    const std::string& report);

/// Where a platform's machine model goes: PLATFORM.xml -> PLATFORM.model.json (any other name:
/// NAME.model.json).
std::string machine_model_file(const std::string& platform);

}  // namespace redist::calibration
