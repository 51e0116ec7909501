#include "redist/sim/isolated_run.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>

#include "redist/os/stop_signals.hpp"

namespace redist::sim {
namespace {

// The child's report on the pipe: 'R', a count and that many strings, or 'E' and one message.
// Lengths are native 64-bit integers: both ends are the same program.
constexpr char kResults = 'R';
constexpr char kError = 'E';

void append(std::string& out, std::uint64_t n) { out.append(reinterpret_cast<const char*>(&n), sizeof n); }
void append(std::string& out, const std::string& s) {
  append(out, static_cast<std::uint64_t>(s.size()));
  out += s;
}

struct Report {
  bool complete = false;  ///< false: the child died before reporting
  std::vector<std::string> results;
  std::optional<std::string> error;
};

class ReportReader {
 public:
  explicit ReportReader(const std::string& bytes) : bytes_(bytes) {}
  bool number(std::uint64_t& n) {
    if (bytes_.size() - pos_ < sizeof n) return false;
    std::memcpy(&n, bytes_.data() + pos_, sizeof n);
    pos_ += sizeof n;
    return true;
  }
  bool text(std::string& s) {
    std::uint64_t n = 0;
    if (!number(n) || bytes_.size() - pos_ < n) return false;
    s.assign(bytes_, pos_, n);
    pos_ += n;
    return true;
  }
  bool at_end() const { return pos_ == bytes_.size(); }

 private:
  const std::string& bytes_;
  std::size_t pos_ = 1;  // after the kind
};

Report decode(const std::string& bytes) {
  Report report;
  if (bytes.empty()) return report;
  ReportReader in(bytes);
  if (bytes[0] == kError) {
    std::string message;
    report.complete = in.text(message) && in.at_end();
    report.error = message;
  } else if (bytes[0] == kResults) {
    std::uint64_t count = 0;
    bool ok = in.number(count);
    for (std::uint64_t i = 0; ok && i < count; ++i) ok = in.text(report.results.emplace_back());
    report.complete = ok && in.at_end();
  }
  return report;
}

void write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone; nobody is left to tell
    done += static_cast<std::size_t>(n);
  }
}

std::string read_all(int fd) {
  std::string data;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return data;
    data.append(buffer, static_cast<std::size_t>(n));
  }
}

std::string read_file(std::FILE* file) {
  std::rewind(file);
  return read_all(fileno(file));
}

// Other threads of the parent may be running simulations too: their pipes must not stay open in
// this child, or their readers would wait for this child's exit before seeing end-of-file.
void close_other_descriptors(int keep_a, int keep_b) {
  const int low = std::min(keep_a, keep_b), high = std::max(keep_a, keep_b);
  ::close_range(3, static_cast<unsigned>(low - 1), 0);
  ::close_range(static_cast<unsigned>(low + 1), static_cast<unsigned>(high - 1), 0);
  ::close_range(static_cast<unsigned>(high + 1), ~0U, 0);
}

[[noreturn]] void run_child(int report_fd, int stderr_fd, const std::function<std::vector<std::string>()>& job) {
  close_other_descriptors(report_fd, stderr_fd);
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  dup2(stderr_fd, STDERR_FILENO);
  std::string report(1, kResults);
  try {
    const auto results = job();
    append(report, static_cast<std::uint64_t>(results.size()));
    for (const auto& r : results) append(report, r);
  } catch (const std::exception& e) {
    report.assign(1, kError);
    append(report, std::string(e.what()));
  } catch (...) {
    report.assign(1, kError);
    append(report, std::string("unknown exception"));
  }
  std::cout.flush();
  std::fflush(nullptr);
  write_all(report_fd, report);
  _exit(0);  // no atexit handlers, no destructors of the parent's objects
}

// What a dying child said, without SimGrid's "[host:actor] file:line: [category/PRIORITY]" prefix.
std::string last_words(const std::string& child_stderr) {
  const std::size_t start = child_stderr.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return {};
  std::string text = child_stderr.substr(start);
  for (const char* priority : {"/CRITICAL] ", "/ERROR] ", "/WARNING] ", "/INFO] "}) {
    const std::size_t at = text.find(priority);
    if (at != std::string::npos && at < text.find('\n')) {
      text.erase(0, at + std::strlen(priority));
      break;
    }
  }
  return text;
}

std::string death_message(const std::string& label, int status, const std::string& child_stderr) {
  std::string how;
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    how = "crashed (signal " + std::to_string(sig) + ", " + strsignal(sig) + ")";
  } else if (WIFEXITED(status)) {
    how = "exited with status " + std::to_string(WEXITSTATUS(status)) + " before reporting";
  } else {
    how = "ended abnormally";
  }
  const std::string said = last_words(child_stderr);
  return label + " " + how + (said.empty() ? "" : ": " + said);
}

// Errors are reported on one line: whitespace runs become one space, and very long lists (SimGrid
// names every host of a platform in some messages) are cut.
std::string one_line(const std::string& text, std::size_t max_length = 400) {
  std::string line;
  for (char c : text) {
    const bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
    if (space && (line.empty() || line.back() == ' ')) continue;
    line += space ? ' ' : c;
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  if (line.size() > max_length) line = line.substr(0, max_length) + " ...";
  return line;
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

std::runtime_error system_error(const std::string& what) {
  return std::runtime_error("cannot run the simulation: " + what + ": " + std::strerror(errno));
}

}  // namespace

std::vector<std::string> run_isolated(const std::function<std::vector<std::string>()>& job,
                                      const std::string& label) {
  std::unique_ptr<std::FILE, FileCloser> captured(std::tmpfile());
  if (!captured) throw system_error("temporary file");
  int fds[2];
  if (::pipe(fds) != 0) throw system_error("pipe");
  std::cout.flush();
  std::fflush(nullptr);  // or the child would write our buffered output a second time
  pid_t pid = 0;
  try {
    pid = os::fork_child();  // dies with us, and on our stop signal
  } catch (const std::exception&) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw system_error("fork");
  }
  if (pid == 0) {
    ::close(fds[0]);
    run_child(fds[1], fileno(captured.get()), job);
  }
  ::close(fds[1]);
  const Report report = decode(read_all(fds[0]));
  ::close(fds[0]);
  const int status = os::wait_child(pid);
  const std::string child_stderr = read_file(captured.get());

  if (!report.complete) throw std::runtime_error(one_line(death_message(label, status, child_stderr)));
  if (report.error) throw std::runtime_error(one_line(*report.error));
  write_all(STDERR_FILENO, child_stderr);
  return report.results;
}

}  // namespace redist::sim
