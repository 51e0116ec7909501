// Where the repository's data folders (scenarios/, platforms/, reports/) are for the Python module:
// the current directory when it is a checkout, otherwise the source tree the module was built from
// (the rule of the `redist` command, so that a scenario or platform named alike is found alike).
#pragma once

#include <filesystem>
#include <string>

namespace redist::python {

std::filesystem::path repository_root();

/// A platform named as the command line names one: a file, or a name in platforms/ (with or without
/// ".xml"). Throws std::invalid_argument naming the folders searched when none is a file.
std::string platform_file(const std::string& name);

}  // namespace redist::python
