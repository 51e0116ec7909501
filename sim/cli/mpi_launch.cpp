#include "mpi_launch.hpp"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace redist::cli {
namespace {

std::string built_redist_mpi() {
#ifdef REDIST_MPI_BIN
  return REDIST_MPI_BIN;
#else
  return {};
#endif
}

std::string first_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("error") != std::string::npos) return line;
  }
  return "no error message";
}

}  // namespace

std::string MpiLauncher::run(int ranks, const std::string& arguments) const {
  const std::string program = redist_mpi.empty() ? built_redist_mpi() : redist_mpi;
  if (program.empty() || !std::filesystem::exists(program)) {
    throw std::runtime_error("redist-mpi not found (build with MPI, or pass --redist-mpi PATH)");
  }
  // As root, Open MPI wants both consents; containers often forbid the single-copy (ptrace) path.
  std::string environment = "OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none} ";
  if (::geteuid() == 0) environment += "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ";
  const auto errors = std::filesystem::temp_directory_path() / ("redist-mpirun-" + std::to_string(::getpid()) + ".err");
  const std::string command = environment + mpirun + " -np " + std::to_string(ranks) + " " + program + " " +
                              arguments + " 2>" + errors.string() + " </dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot start " + mpirun);
  std::string out;
  std::array<char, 4096> chunk{};
  while (const std::size_t got = std::fread(chunk.data(), 1, chunk.size(), pipe)) out.append(chunk.data(), got);
  const int status = ::pclose(pipe);
  if (status != 0) {
    const std::string why = first_line(errors);
    std::filesystem::remove(errors);
    throw std::runtime_error(mpirun + " -np " + std::to_string(ranks) + " redist-mpi " + arguments + " failed: " + why);
  }
  std::filesystem::remove(errors);
  return out;
}

}  // namespace redist::cli
