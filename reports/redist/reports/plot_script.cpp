#include "redist/reports/plot_script.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "redist/os/stop_signals.hpp"

namespace redist {
namespace {

// The interpreter: $REDIST_PYTHON, else Debian's python3 (scripts/install-deps.sh gives it
// matplotlib; a python3 earlier on PATH, such as a pyenv shim, may lack it), else python3 on PATH.
std::string python() {
  if (const char* chosen = std::getenv("REDIST_PYTHON"); chosen != nullptr && *chosen != '\0') return chosen;
  if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

// The last non-empty line of a program's output: where Python puts the error that stopped it.
std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of("\n\r ");
  if (end == std::string::npos) return "";
  const std::size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

struct Outcome {
  int status;
  std::string output;  // stdout and stderr, interleaved
};

// Exit status of a child whose exec failed; its errno comes through the pipe as the only output.
constexpr int kExecFailed = 127;

// Runs `argv` with stdout and stderr into a pipe, as a child that dies with us (stop_signals.hpp);
// throws when the program cannot be started.
Outcome run(const std::vector<std::string>& argv) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t pid = os::fork_child();
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    execvp(args[0], args.data());
    const int error = errno;
    (void)!write(pipe_fds[1], &error, sizeof error);
    _exit(kExecFailed);
  }
  close(pipe_fds[1]);
  Outcome outcome{0, {}};
  char buffer[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
    if (n > 0) outcome.output.append(buffer, static_cast<std::size_t>(n));
    else if (errno != EINTR) break;
  }
  close(pipe_fds[0]);
  const int status = os::wait_child(pid);
  if (WIFEXITED(status) && WEXITSTATUS(status) == kExecFailed && outcome.output.size() == sizeof(int)) {
    int error = 0;
    std::memcpy(&error, outcome.output.data(), sizeof error);
    throw std::runtime_error(error == ENOENT ? argv[0] + " is not installed (scripts/install-deps.sh installs it)"
                                             : "cannot run " + argv[0] + ": " + std::strerror(error));
  }
  if (WIFSIGNALED(status)) {
    outcome.status = -1;
    outcome.output += std::string("\n") + argv[0] + " was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
                      strsignal(WTERMSIG(status)) + ")";
  } else {
    outcome.status = WEXITSTATUS(status);
  }
  return outcome;
}

}  // namespace

void run_plot_script(const std::filesystem::path& script, const std::vector<std::string>& args,
                     const std::filesystem::path& output) {
  if (!std::filesystem::is_regular_file(script)) throw std::runtime_error("plot script " + script.string() + " not found");
  std::vector<std::string> argv{python(), script.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  const Outcome outcome = run(argv);
  std::error_code ec;
  const auto size = std::filesystem::file_size(output, ec);
  if (outcome.status == 0 && !ec && size > 0) return;
  std::filesystem::remove(output, ec);
  std::string why = last_line(outcome.output);
  if (why.empty()) {
    why = outcome.status == 0 ? "python3 exited with status 0 but wrote no plot"
                              : "python3 exited with status " + std::to_string(outcome.status);
  }
  throw std::runtime_error("plotting " + output.string() + " failed: " + why);
}

}  // namespace redist
