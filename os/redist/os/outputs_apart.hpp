// An output never replaces an input: before any work, each file a command will write is compared
// with each file it reads, by device and inode (so another name of the same file, a hard link or
// a symbolic link to it, is caught too). Written whole by rename, an output named like an input
// would replace it for good, and the run would have read what it then destroyed.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace redist::os {

/// A file named on the command line or found by the command, and how the user knows it
/// ("--platform", "the scenario's platform").
struct NamedFile {
  std::filesystem::path path;
  std::string role;
};

/// Throws std::invalid_argument "ROLE OUT is ROLE IN (FILE): an output never replaces an input;
/// choose another name" for the first output that is an existing input. Outputs and inputs that
/// do not exist yet are no conflict.
void refuse_outputs_onto_inputs(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs);

}  // namespace redist::os
