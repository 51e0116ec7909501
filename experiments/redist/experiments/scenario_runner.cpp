#include "redist/experiments/scenario_runner.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

#include "redist/reports/phases_transfer.hpp"
#include "redist/os/stop_signals.hpp"

namespace redist::sim {
namespace {

struct Job {
  std::size_t run;     ///< index in the scenario's parameter sets
  std::size_t method;  ///< index in the scenario's methods
};

Params with_options(Params params, const Params& options) {
  for (const auto& [key, value] : options.items()) params[key] = value;
  return params;
}

// What one job reports, as one line of JSON: {"job":k,"phases":[...],"quantities":{...}} or
// {"job":k,"error":"..."}.
std::string run_job(const Scenario& scenario, const Experiment& experiment, const std::vector<Params>& runs,
                    const std::vector<Job>& work, std::size_t k) {
  const Params params = with_options(runs[work[k].run], scenario.methods[work[k].method].options);
  nlohmann::json line = {{"job", k}};
  try {
    // Simulations are deterministic: repetitions re-run the same simulation and the mean is kept,
    // so that a scenario meant for real machines keeps its shape here.
    Phases mean;
    for (int rep = 0; rep < scenario.repetitions; ++rep) {
      const auto result = experiment.run(scenario.platform, params, scenario.payload, "");
      for (const auto field : kPhaseFields) mean.*field += result.phases.*field / scenario.repetitions;
      line["quantities"] = result.quantities;
    }
    line["phases"] = mean;
  } catch (const std::exception& e) {
    line["error"] = scenario.name + ": run " + params.dump() + " failed: " + e.what();
  }
  return line.dump();
}

// A scenario reports a phase in its unit, or one of the run's quantities as it is (pack-beta1's beta1).
double reported_value(const Scenario& scenario, const std::string& name, const Phases& phases,
                      const std::map<std::string, double>& quantities) {
  const auto quantity = quantities.find(name);
  if (quantity != quantities.end()) return quantity->second;
  return seconds(phases, phase_names().from_name(name)) / scenario.seconds_per_unit();
}

void write_line(int fd, const std::string& text) {
  const std::string line = text + "\n";
  for (std::size_t done = 0; done < line.size();) {
    const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// Runs the jobs in `workers` processes, job k in worker k mod workers, and hands each result line to
// `arrived` as it comes. Processes, not threads: every
// simulation forks (engine.hpp), and forking a multi-threaded process can leave a lock held forever
// in the child. The parent stays single-threaded and reads one result line per job.
void run_in_workers(std::size_t count, int workers, const std::function<std::string(std::size_t)>& job,
                    const std::function<void(const std::string& line, std::size_t done)>& arrived) {
  std::vector<pollfd> pipes;
  std::vector<pid_t> pids;
  std::cout.flush();
  std::fflush(nullptr);  // or each worker would write our buffered output once more
  for (int w = 0; w < workers; ++w) {
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("cannot create a pipe for a worker");
    const pid_t pid = os::fork_child();  // dies with us, and on our stop signal
    if (pid == 0) {
      ::close(fds[0]);
      for (std::size_t k = static_cast<std::size_t>(w); k < count; k += static_cast<std::size_t>(workers)) {
        write_line(fds[1], job(k));
      }
      ::_exit(0);
    }
    ::close(fds[1]);
    pipes.push_back({fds[0], POLLIN, 0});
    pids.push_back(pid);
  }
  std::vector<std::string> partial(pipes.size());
  std::size_t open = pipes.size(), done = 0;
  while (open > 0) {
    if (::poll(pipes.data(), pipes.size(), -1) < 0 && errno != EINTR) throw std::runtime_error("poll failed");
    for (std::size_t w = 0; w < pipes.size(); ++w) {
      if (pipes[w].fd < 0 || pipes[w].revents == 0) continue;
      char buffer[4096];
      const ssize_t n = ::read(pipes[w].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(pipes[w].fd);
        pipes[w].fd = -1;
        --open;
        continue;
      }
      partial[w].append(buffer, static_cast<std::size_t>(n));
      for (std::size_t end; (end = partial[w].find('\n')) != std::string::npos; partial[w].erase(0, end + 1)) {
        arrived(partial[w].substr(0, end), ++done);
      }
    }
  }
  for (pid_t pid : pids) os::wait_child(pid);
}

}  // namespace

namespace {

std::vector<Job> jobs_of(const Scenario& scenario, std::size_t runs) {
  std::vector<Job> work;
  for (std::size_t r = 0; r < runs; ++r) {
    for (std::size_t m = 0; m < scenario.methods.size(); ++m) work.push_back({r, m});
  }
  return work;
}

void check_jobs(const Scenario& scenario, const Experiment& experiment, const std::vector<Params>& runs,
                const std::vector<Job>& work, const std::vector<std::size_t>& todo,
                const std::function<void(const Progress&)>& progress = {}) {
  if (!experiment.check) return;
  std::size_t checked = 0;
  for (const std::size_t k : todo) {
    // Millions of runs take a while to check: the display shows it (it stays quiet for short ones).
    if (progress && ++checked % 4096 == 0) progress({checked, todo.size()});
    const Params params = with_options(runs[work[k].run], scenario.methods[work[k].method].options);
    try {
      experiment.check(params, scenario.payload);
    } catch (const std::exception& e) {
      throw std::invalid_argument(scenario.name + ": run " + params.dump() + " is refused (nothing was run): " + e.what());
    }
  }
}

}  // namespace

void check_runs(const Scenario& scenario, const std::function<void(const Progress&)>& progress) {
  const auto runs = scenario.parameter_sets();
  const auto work = jobs_of(scenario, runs.size());
  std::vector<std::size_t> all(work.size());
  for (std::size_t k = 0; k < all.size(); ++k) all[k] = k;
  check_jobs(scenario, find_experiment(scenario.experiment), runs, work, all, progress);
  if (progress) progress({all.size(), all.size()});
}

std::uint64_t run_list_bytes(const Scenario& scenario) {
  // A sweep of 4 million runs of a few keys once took 2.4 GB while listed, about 600 bytes a run:
  // its parameters are a JSON object, a map node, key and value for each.
  const std::uint64_t keys = scenario.fixed.size() + scenario.sweep.size();
  std::uint64_t sets = 1, bytes = 64 + 160 * keys;
  for (const auto& axis : scenario.sweep) {
    if (__builtin_mul_overflow(sets, static_cast<std::uint64_t>(axis.values.size()), &sets)) return UINT64_MAX;
  }
  const std::uint64_t per_set = bytes + 16 * static_cast<std::uint64_t>(scenario.methods.size());  // its jobs
  return __builtin_mul_overflow(sets, per_set, &bytes) ? UINT64_MAX : bytes;
}

std::vector<std::string> run_jobs(const Scenario& scenario, int jobs, const std::function<void(const Progress&)>& progress,
                                  const JobSelection& selection) {
  const Experiment& experiment = find_experiment(scenario.experiment);
  const auto runs = scenario.parameter_sets();
  const auto work = jobs_of(scenario, runs.size());
  std::vector<std::string> lines(work.size());
  std::vector<std::size_t> todo;  // the selected jobs still to run
  for (std::size_t k = selection.shard; k < work.size(); k += selection.shards) {
    const auto known = selection.known.find(k);
    if (known != selection.known.end()) {
      lines[k] = known->second;
    } else {
      todo.push_back(k);
    }
  }
  // Every run is checked before the first starts: a refused one costs nothing and leaves nothing.
  check_jobs(scenario, experiment, runs, work, todo);
  const auto job = [&](std::size_t i) { return run_job(scenario, experiment, runs, work, todo[i]); };
  const auto arrived = [&](const std::string& line, std::size_t done) {
    lines.at(nlohmann::json::parse(line).at("job").get<std::size_t>()) = line;
    if (selection.on_result) selection.on_result(line);
    if (progress) progress({done, todo.size()});
  };
  if (jobs <= 1) {
    for (std::size_t i = 0; i < todo.size(); ++i) arrived(job(i), i + 1);
  } else if (!todo.empty()) {
    run_in_workers(todo.size(), std::min<int>(jobs, static_cast<int>(todo.size())), job, arrived);
  }
  return lines;
}

std::vector<Record> records_from_lines(const Scenario& scenario, const std::vector<std::string>& lines) {
  const auto runs = scenario.parameter_sets();
  const auto work = jobs_of(scenario, runs.size());
  if (lines.size() != work.size()) throw std::runtime_error(scenario.name + ": the results do not match the scenario's runs");
  std::vector<Record> records;
  for (std::size_t k = 0; k < work.size(); ++k) {
    if (lines[k].empty()) throw std::runtime_error(scenario.name + ": a worker process died before reporting");
    const auto line = nlohmann::json::parse(lines[k]);
    if (line.contains("error")) throw std::runtime_error(line["error"].get<std::string>());
    const auto phases = line.at("phases").get<Phases>();
    const auto quantities = line.at("quantities").get<std::map<std::string, double>>();
    for (const auto& name : scenario.phases) {
      records.push_back({runs[work[k].run], scenario.methods[work[k].method].name, name,
                         reported_value(scenario, name, phases, quantities), std::nullopt, quantities});
    }
  }
  attach_published(scenario, records);
  return records;
}

std::vector<Record> run_scenario(const Scenario& scenario, int jobs, const std::function<void(const Progress&)>& progress) {
  return records_from_lines(scenario, run_jobs(scenario, jobs, progress, {}));
}

}  // namespace redist::sim
