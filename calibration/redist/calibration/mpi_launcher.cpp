#include "redist/calibration/mpi_launcher.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>

#include "redist/os/stop_signals.hpp"

extern char** environ;

namespace redist::calibration {
namespace {

std::vector<std::string> launcher_words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// --mpirun: a file named whole (its path may hold spaces), else a program and its options.
std::vector<std::string> mpirun_words(const std::string& mpirun) {
  struct stat st {};
  if (mpirun.find('/') != std::string::npos && ::stat(mpirun.c_str(), &st) == 0) return {mpirun};
  return launcher_words_of(mpirun);
}

// Why `path` cannot be run as a program, or empty when it can.
std::string program_problem(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return errno == ENOENT ? "no such file" : std::strerror(errno);
  if (S_ISDIR(st.st_mode)) return "a directory, not a program";
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  if (st.st_size == 0) return "an empty file, not a program";
  if (::access(path.c_str(), X_OK) != 0) return "not executable (no execute permission)";
  return {};
}

// The program `name` names: itself when it holds a '/', else the first executable file of that
// name on PATH. Throws naming `option` and the reason when there is none.
std::string resolved_program(const std::string& option, const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (const std::string problem = program_problem(name); !problem.empty()) {
      throw std::runtime_error(option + " " + name + ": " + problem);
    }
    return name;
  }
  const char* path = std::getenv("PATH");
  std::string directories = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  std::string first_problem;
  for (std::size_t at = 0;;) {
    const std::size_t end = std::min(directories.find(':', at), directories.size());
    std::string directory = directories.substr(at, end - at);
    if (directory.empty()) directory = ".";
    const std::string candidate = directory + "/" + name;
    const std::string problem = program_problem(candidate);
    if (problem.empty()) return candidate;
    if (first_problem.empty() && problem != "no such file") first_problem = candidate + " is " + problem;
    if (end == directories.size()) break;
    at = end + 1;
  }
  throw std::runtime_error(option + " " + name + ": no program of that name on PATH" +
                           (first_problem.empty() ? "" : " (" + first_problem + ")"));
}

std::string quoted(const std::string& word) {
  if (!word.empty() && word.find_first_of(" \t'\"\\$`") == std::string::npos) return word;
  std::string text = "'";
  for (const char c : word) text += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return text + "'";
}

// The environment of mpirun: ours, with Open MPI's consents as root and its single-copy (ptrace)
// path off unless set (containers often forbid it).
std::vector<std::string> child_environment() {
  std::vector<std::string> environment;
  bool single_copy_set = false;
  const bool root = ::geteuid() == 0;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text = *entry;
    if (text.rfind("OMPI_MCA_btl_vader_single_copy_mechanism=", 0) == 0) single_copy_set = true;
    if (root && (text.rfind("OMPI_ALLOW_RUN_AS_ROOT=", 0) == 0 || text.rfind("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=", 0) == 0)) {
      continue;
    }
    environment.push_back(text);
  }
  if (!single_copy_set) environment.emplace_back("OMPI_MCA_btl_vader_single_copy_mechanism=none");
  if (root) {
    environment.emplace_back("OMPI_ALLOW_RUN_AS_ROOT=1");
    environment.emplace_back("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1");
  }
  return environment;
}

std::vector<char*> pointers(std::vector<std::string>& texts) {
  std::vector<char*> list;
  for (std::string& text : texts) list.push_back(text.data());
  list.push_back(nullptr);
  return list;
}

bool only_dashes(const std::string& line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return c == '-' || c == '=' || std::isspace(static_cast<unsigned char>(c)); });
}

// The line of `errors` that says what went wrong: the first naming an error, else the first with
// words in it.
std::string error_line(const std::string& errors) {
  std::istringstream in(errors);
  std::string first;
  for (std::string line; std::getline(in, line);) {
    std::string lower = line;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower.find("error") != std::string::npos) return line;
    if (first.empty() && !only_dashes(line)) first = line;
  }
  return first.empty() ? "no error output" : first;
}

std::string start_of(const std::string& output) {
  std::string line = output.substr(0, output.find('\n'));
  if (line.size() > 80) line = line.substr(0, 80) + "...";
  return line;
}

struct Finished {
  int status = 0;
  bool timed_out = false;  // killed after the launcher's timeout
  int exec_errno = 0;  // the program could not be started
  std::string out, err;
};

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Seconds as a message says them: "1800", "0.5".
std::string seconds_text(double seconds) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%g", seconds);
  return text.data();
}

// Ends the process group of `pid` (mpirun and every rank it started): SIGTERM, then SIGKILL when
// mpirun has not ended within kLauncherTermGrace. Returns mpirun's wait status when it was reaped.
constexpr auto kLauncherTermGrace = std::chrono::seconds(5);

std::optional<int> end_launcher_group(pid_t pid) {
  ::kill(-pid, SIGTERM);
  const auto give_up = std::chrono::steady_clock::now() + kLauncherTermGrace;
  std::optional<int> reaped;
  while (!reaped && std::chrono::steady_clock::now() < give_up) {
    int status = 0;
    const pid_t got = ::waitpid(pid, &status, WNOHANG);
    if (got == pid) reaped = status;
    else if (got < 0 && errno != EINTR) break;
    else ::usleep(20000);
  }
  ::kill(-pid, SIGKILL);  // the ranks too, which may outlive a mpirun that ended on SIGTERM
  return reaped;
}

Finished run_program(const std::string& program, std::vector<std::string> words, double timeout_s) {
  std::vector<std::string> environment = child_environment();
  std::vector<char*> argv = pointers(words), envp = pointers(environment);
  int out_fds[2], err_fds[2], exec_fds[2];
  if (::pipe2(out_fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  if (::pipe2(err_fds, O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(out_fds[0]);
    ::close(out_fds[1]);
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(error));
  }
  if (::pipe2(exec_fds, O_CLOEXEC) != 0) {
    const int error = errno;
    for (const int fd : {out_fds[0], out_fds[1], err_fds[0], err_fds[1]}) ::close(fd);
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(error));
  }
  std::fflush(nullptr);
  pid_t pid = -1;
  try {
    // Its own process group: a stop signal ends mpirun and every rank it started.
    pid = os::fork_child(/*own_group=*/true);
  } catch (...) {
    for (const int fd : {out_fds[0], out_fds[1], err_fds[0], err_fds[1], exec_fds[0], exec_fds[1]}) ::close(fd);
    throw;
  }
  if (pid == 0) {  // only async-signal-safe calls from here
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    ::dup2(out_fds[1], STDOUT_FILENO);
    ::dup2(err_fds[1], STDERR_FILENO);
    ::execve(program.c_str(), argv.data(), envp.data());
    const int error = errno;
    [[maybe_unused]] const ssize_t n = ::write(exec_fds[1], &error, sizeof error);
    ::_exit(127);
  }
  ::close(out_fds[1]);
  ::close(err_fds[1]);
  ::close(exec_fds[1]);
  Finished f;
  std::array<int, 2> fds = {out_fds[0], err_fds[0]};
  std::array<std::string*, 2> into = {&f.out, &f.err};
  std::array<char, 65536> chunk{};
  const bool limited = timeout_s > 0;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(limited ? std::min(timeout_s, 1e9) : 0.0));
  std::optional<int> reaped;
  while (fds[0] >= 0 || fds[1] >= 0) {
    int wait_ms = -1;
    if (limited) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) {
        f.timed_out = true;
        reaped = end_launcher_group(pid);
        break;
      }
      wait_ms = static_cast<int>(std::min<long long>(left, 60000));
    }
    std::array<pollfd, 2> watch = {pollfd{fds[0], POLLIN, 0}, pollfd{fds[1], POLLIN, 0}};
    const int ready = ::poll(watch.data(), watch.size(), wait_ms);
    if (ready == 0) continue;
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (fds[k] < 0 || watch[k].revents == 0) continue;
      const ssize_t n = ::read(fds[k], chunk.data(), chunk.size());
      if (n > 0) {
        into[k]->append(chunk.data(), static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close_fd(fds[k]);
      }
    }
  }
  close_fd(fds[0]);
  close_fd(fds[1]);
  int error = 0;
  if (::read(exec_fds[0], &error, sizeof error) == static_cast<ssize_t>(sizeof error)) f.exec_errno = error;
  ::close(exec_fds[0]);
  const int status = os::wait_child(pid);  // also forgets it (a reaped one: waitpid fails at once)
  f.status = reaped ? *reaped : status;
  return f;
}

}  // namespace

std::string MpiLauncher::command_text(int ranks, const std::string& arguments) const {
  std::string text;
  for (const std::string& word : mpirun_words(mpirun)) text += quoted(word) + " ";
  return text + "-np " + std::to_string(ranks) + " " + quoted(redist_mpi) + (arguments.empty() ? "" : " " + arguments);
}

std::string MpiLauncher::run(int ranks, const std::string& arguments) const {
  if (redist_mpi.empty()) throw std::runtime_error("redist-mpi not found (build with MPI, or pass --redist-mpi PATH)");
  if (const std::string problem = program_problem(redist_mpi); !problem.empty()) {
    throw std::runtime_error("--redist-mpi " + redist_mpi + ": " + problem);
  }
  std::vector<std::string> words = mpirun_words(mpirun);
  if (words.empty()) {
    throw std::runtime_error("--mpirun is empty: it names the MPI launcher (default: " + MpiLauncher{}.mpirun + ")");
  }
  const std::string program = resolved_program("--mpirun", words.front());
  words.insert(words.end(), {"-np", std::to_string(ranks), std::filesystem::absolute(redist_mpi).string()});
  for (std::string& word : launcher_words_of(arguments)) words.push_back(std::move(word));

  const Finished f = run_program(program, std::move(words), timeout_s);
  const std::string command = command_text(ranks, arguments);
  if (f.exec_errno != 0) throw std::runtime_error("cannot start " + command + ": " + std::strerror(f.exec_errno));
  if (f.timed_out) throw std::runtime_error(command + " did not finish within " + seconds_text(timeout_s) + " s (killed)");
  if (WIFSIGNALED(f.status)) {
    throw std::runtime_error(command + " was ended by signal " + std::to_string(WTERMSIG(f.status)) + ": " +
                             error_line(f.err));
  }
  if (!WIFEXITED(f.status) || WEXITSTATUS(f.status) != 0) {
    throw std::runtime_error(command + " failed (exit status " + std::to_string(WEXITSTATUS(f.status)) +
                             "): " + error_line(f.err));
  }
  return f.out;
}

nlohmann::json MpiLauncher::run_json(int ranks, const std::string& arguments) const {
  const std::string out = run(ranks, arguments);
  if (out.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw std::runtime_error(command_text(ranks, arguments) + " printed nothing, where redist-mpi prints one JSON object");
  }
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(out);
  } catch (const nlohmann::json::exception&) {
    json = nullptr;
  }
  if (!json.is_object()) {
    throw std::runtime_error(command_text(ranks, arguments) + " printed '" + start_of(out) +
                             "', not the JSON object redist-mpi prints");
  }
  return json;
}

}  // namespace redist::calibration
