// Where the repository's data folders (scenarios/, platforms/, reports/) are: the current
// directory when it is a checkout, otherwise the source tree the binary was built from; and the
// redist-mpi built beside this redist.
#pragma once

#include <filesystem>
#include <string>

namespace redist::cli {

inline std::filesystem::path repo_root() {
  namespace fs = std::filesystem;
  if (fs::is_directory("scenarios") && fs::is_directory("platforms")) return fs::current_path();
  return fs::path(REDIST_SOURCE_DIR);
}

/// The redist-mpi built with this redist (empty when MPI was not found).
inline std::string built_redist_mpi() {
#ifdef REDIST_MPI_BIN
  return REDIST_MPI_BIN;
#else
  return {};
#endif
}

}  // namespace redist::cli
