#include "redist/sim/scenario_runner.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

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

}  // namespace

Payload payload_of(const Scenario& scenario) {
  if (scenario.payload == "real") return Payload::Real;
  if (scenario.payload == "phantom") return Payload::Phantom;
  return Payload::Auto;
}

std::vector<Record> run_scenario(const Scenario& scenario, int jobs, const std::function<void(const Progress&)>& progress) {
  const Experiment& experiment = find_experiment(scenario.experiment);
  const auto runs = scenario.parameter_sets();
  std::vector<Job> work;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    for (std::size_t m = 0; m < scenario.methods.size(); ++m) work.push_back({r, m});
  }
  // Simulations are deterministic: repetitions re-run the same simulation and the mean is kept, so
  // that a scenario meant for real machines keeps its shape here.
  std::vector<std::map<std::string, double>> results(work.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex mutex;
  std::exception_ptr failure;

  const auto worker = [&] {
    for (std::size_t k = next++; k < work.size(); k = next++) {
      const auto& job = work[k];
      try {
        const Params params = with_options(runs[job.run], scenario.methods[job.method].options);
        std::map<std::string, double> sum;
        for (int rep = 0; rep < scenario.repetitions; ++rep) {
          for (const auto& [phase, seconds] : experiment.run(scenario.platform, params, payload_of(scenario), "").phases) {
            sum[phase] += seconds / scenario.repetitions;
          }
        }
        results[k] = std::move(sum);
      } catch (const std::exception& e) {
        const std::lock_guard lock(mutex);
        if (!failure) {
          failure = std::make_exception_ptr(std::runtime_error(
              scenario.name + ": run " + with_options(runs[job.run], scenario.methods[job.method].options).dump() +
              " failed: " + e.what()));
        }
        next = work.size();  // stop handing out jobs
      }
      const std::lock_guard lock(mutex);
      if (progress) progress({++done, work.size()});
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::max(1, jobs); ++t) pool.emplace_back(worker);
  for (auto& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);

  std::vector<Record> records;
  for (std::size_t k = 0; k < work.size(); ++k) {
    for (const auto& phase : scenario.phases) {
      records.push_back({runs[work[k].run], scenario.methods[work[k].method].name, phase,
                         results[k].at(phase) / scenario.seconds_per_unit(), std::nullopt});
    }
  }
  attach_published(scenario, records);
  return records;
}

}  // namespace redist::sim
