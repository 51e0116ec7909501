// The machine model a prediction uses (redist/transport/machine_model.hpp), read from a SimGrid
// platform: the hosts' prices and the routes SimGrid itself takes between them.
#pragma once

#include <string>

#include "redist/transport/machine_model.hpp"

namespace redist::sim {

/// The model of `ranks` ranks on `platform`, placed as a simulation places them: rank i on node-i,
/// or with `hosts` > 0 on node-(i mod hosts). Runs in a child process (SimGrid allows one engine per
/// process); throws std::runtime_error naming the platform for a missing host or a bad property.
MachineModel machine_model_from_platform(const std::string& platform, Index ranks, Index hosts = 0);

}  // namespace redist::sim
