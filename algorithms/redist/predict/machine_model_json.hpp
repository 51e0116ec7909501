// A machine model (redist/transport/machine_model.hpp) as JSON: how the simulator hands it over from
// the child process that loaded the platform, and how a model is kept in a file for programs that
// predict without SimGrid.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "redist/transport/machine_model.hpp"

namespace redist {

std::string machine_model_to_json(const MachineModel& model);

/// Throws std::invalid_argument with one line naming `source` and what is wrong (malformed JSON, a
/// missing or negative value, a route naming an unknown link, a route table not hosts × hosts).
MachineModel machine_model_from_json(std::string_view text, const std::string& source);

/// The most bytes a machine model file may have (a model is a few kilobytes).
inline constexpr std::size_t kMaxMachineModelBytes = std::size_t{16} << 20;

/// The text of the model file `path`. A missing, unreadable or not regular file (a device, a FIFO,
/// a directory: never read) or one over kMaxMachineModelBytes (refused before reading) is an
/// std::invalid_argument naming it.
std::string read_machine_model_text(const std::string& path);

/// The model in file `path`: machine_model_from_json(read_machine_model_text(path)). `redist
/// calibrate` writes one beside its platform, `redist explain --write-model` one for any platform.
MachineModel load_machine_model(const std::string& path);

}  // namespace redist
