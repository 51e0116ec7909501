#include "redist/calibration/mpi_launcher.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "redist/os/atomic_file.hpp"
#include "redist/os/stop_signals.hpp"

namespace redist::calibration {
namespace {

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
  const std::string& program = redist_mpi;
  if (program.empty() || !std::filesystem::exists(program)) {
    throw std::runtime_error("redist-mpi not found (build with MPI, or pass --redist-mpi PATH)");
  }
  // As root, Open MPI wants both consents; containers often forbid the single-copy (ptrace) path.
  std::string environment =
      "export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}; ";
  if (::geteuid() == 0) environment += "export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; ";
  // mpirun's error output, in a temporary removed afterwards (and on a stop signal).
  os::PendingFile errors(std::filesystem::temp_directory_path() / "redist-mpirun.err");
  // `exec`: mpirun replaces the shell, so it is the child that dies with us (PR_SET_PDEATHSIG).
  const std::string command = environment + "exec " + mpirun + " -np " + std::to_string(ranks) + " " + program +
                              " " + arguments + " 2>" + errors.path().string() + " </dev/null";
  int out_fds[2];
  if (::pipe2(out_fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  // Its own process group: a stop signal ends mpirun and every rank it started.
  const pid_t pid = os::fork_child(/*own_group=*/true);
  if (pid == 0) {
    ::dup2(out_fds[1], STDOUT_FILENO);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(out_fds[1]);
  std::string out;
  std::array<char, 4096> chunk{};
  for (ssize_t n; (n = ::read(out_fds[0], chunk.data(), chunk.size())) != 0;) {
    if (n > 0) out.append(chunk.data(), static_cast<std::size_t>(n));
    else if (errno != EINTR) break;
  }
  ::close(out_fds[0]);
  const int status = os::wait_child(pid);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error(mpirun + " -np " + std::to_string(ranks) + " redist-mpi " + arguments +
                             " failed: " + first_line(errors.path()));
  }
  return out;
}

}  // namespace redist::calibration
