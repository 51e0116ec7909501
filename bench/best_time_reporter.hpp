// A console reporter that also keeps each benchmark's best CPU time per iteration over its
// repetitions — the measure least disturbed by other processes on a shared machine — and shows
// only the aggregates of repeated benchmarks. Benchmarks print their ratio tables from best().
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace redist::bench {

class BestTimeReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    std::vector<Run> shown;
    for (const Run& run : runs) {
      if (run.run_type == Run::RT_Iteration && !run.error_occurred && run.iterations > 0) record(run);
      if (run.run_type == Run::RT_Aggregate || run.repetitions <= 1) shown.push_back(run);
    }
    if (!shown.empty()) ConsoleReporter::ReportRuns(shown);
  }

  /// Best CPU seconds per iteration of the benchmark registered as `name`; 0 if it did not run.
  double best(const std::string& name) const {
    const auto found = best_.find(name);
    return found == best_.end() ? 0.0 : found->second;
  }

 private:
  void record(const Run& run) {
    const double seconds = run.cpu_accumulated_time / static_cast<double>(run.iterations);
    const auto [it, inserted] = best_.emplace(run.run_name.function_name, seconds);
    if (!inserted) it->second = std::min(it->second, seconds);
  }

  std::map<std::string, double> best_;
};

/// The main of a benchmark program that prints a ratio table: runs what is registered (and what
/// the command line selects) with a BestTimeReporter, then hands it to `print_table`.
template <class PrintTable>
int run_with_table(int argc, char** argv, PrintTable print_table) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  BestTimeReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  print_table(reporter);
  benchmark::Shutdown();
  return 0;
}

}  // namespace redist::bench
