// Speed and memory of the stepwise schedule (paper 004 §4.5) on a large problem, P = Q = 1024,
// r = 7, s = 11 (target: at most 2 s), against a straightforward baseline measured in the same run:
// stepwise without weights, one Boost maximum-cardinality matching (Edmonds) per step. On this
// 17-regular graph every maximum matching is perfect, so the baseline also reaches the optimal
// NS; it ignores message lengths, so its TC is worse. Reported per benchmark: NS, TC and the peak
// heap in use during one schedule computation; at the end, the time ratio and the process's
// maximum resident set size.
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <sys/resource.h>

#include <atomic>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/max_cardinality_matching.hpp>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <new>
#include <string>

#include "redist/comm_grid/comm_grid.hpp"
#include "redist/schedule/check_schedule.hpp"
#include "redist/schedule/matching_schedule.hpp"

// ---------------------------------------------------------------------------------------------
// Heap accounting: live bytes and their peak, through the global allocation functions.

namespace {
std::atomic<std::size_t> live_bytes{0};
std::atomic<std::size_t> peak_bytes{0};

void* counted_alloc_or_null(std::size_t size) noexcept {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) return nullptr;
  const std::size_t now = live_bytes += malloc_usable_size(p);
  for (std::size_t peak = peak_bytes; now > peak && !peak_bytes.compare_exchange_weak(peak, now);) {
  }
  return p;
}

void* counted_alloc(std::size_t size) {
  void* p = counted_alloc_or_null(size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void counted_free(void* p) {
  if (p == nullptr) return;
  live_bytes -= malloc_usable_size(p);
  std::free(p);
}
}  // namespace

void* operator new(std::size_t size) { return counted_alloc(size); }
void* operator new[](std::size_t size) { return counted_alloc(size); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
// The nothrow forms too (std::stable_sort's temporary buffer uses them): counted like the others,
// and GCC then sees every operator delete's free() meet a malloc().
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return counted_alloc_or_null(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return counted_alloc_or_null(size); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_free(p); }

namespace redist {
namespace {

const LengthMatrix& problem() {
  static const LengthMatrix lengths(comm_grid({1024, 7, 1024, 11}));
  return lengths;
}

// The baseline: each step a maximum-cardinality matching of the remaining messages (Edmonds'
// algorithm from Boost.Graph), lengths ignored.
Schedule cardinality_stepwise(const LengthMatrix& lengths) {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  const Index P = lengths.P(), Q = lengths.Q();
  LengthMatrix pending = lengths;
  Schedule schedule{P, Q, {}};
  for (bool left = true; left;) {
    Graph g(static_cast<std::size_t>(P + Q));
    left = false;
    for (Index p = 0; p < P; ++p) {
      for (Index q = 0; q < Q; ++q) {
        if (pending.at(p, q) != 0) {
          boost::add_edge(static_cast<std::size_t>(p), static_cast<std::size_t>(P + q), g);
          left = true;
        }
      }
    }
    if (!left) break;
    std::vector<boost::graph_traits<Graph>::vertex_descriptor> mate(static_cast<std::size_t>(P + Q));
    boost::edmonds_maximum_cardinality_matching(g, mate.data());
    ScheduleStep step;
    for (Index p = 0; p < P; ++p) {
      const auto m = mate[static_cast<std::size_t>(p)];
      if (m == boost::graph_traits<Graph>::null_vertex()) continue;
      const Index q = static_cast<Index>(m) - P;
      step.messages.push_back({p, q, pending.at(p, q)});
      pending.set(p, q, 0);
    }
    schedule.steps.push_back(std::move(step));
  }
  return schedule;
}

template <Schedule (*Compute)(const LengthMatrix&)>
void run_schedule(benchmark::State& state) {
  const LengthMatrix& lengths = problem();
  Schedule schedule;
  std::size_t peak = 0;
  for (auto _ : state) {
    const std::size_t before = live_bytes;
    peak_bytes = before;
    schedule = Compute(lengths);
    peak = std::max(peak, peak_bytes - before);
    benchmark::DoNotOptimize(schedule);
  }
  if (const auto violation = schedule_violation(schedule, lengths)) state.SkipWithError(violation->c_str());
  state.counters["NS"] = static_cast<double>(schedule.step_count());
  state.counters["TC"] = static_cast<double>(schedule.total_cost());
  state.counters["peak_heap_MiB"] = static_cast<double>(peak) / (1 << 20);
}

BENCHMARK(run_schedule<stepwise_schedule>)->Name("stepwise/P=Q=1024,r=7,s=11")->Unit(benchmark::kMillisecond);
BENCHMARK(run_schedule<cardinality_stepwise>)
    ->Name("baseline_boost_cardinality/P=Q=1024,r=7,s=11")
    ->Unit(benchmark::kMillisecond);

// Console output, plus the time of each benchmark kept for the ratio.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& run : runs) {
      // One time per benchmark: its single run, or the mean of its repetitions.
      const bool mean = run.run_type == Run::RT_Aggregate && run.aggregate_name == "mean";
      if (run.run_type == Run::RT_Iteration || mean) seconds_[run.run_name.str()] = run.GetAdjustedRealTime();
    }
    ConsoleReporter::ReportRuns(runs);
  }
  double time_of(const std::string& prefix) const {
    for (const auto& [name, t] : seconds_) {
      if (name.rfind(prefix, 0) == 0) return t;
    }
    return 0;
  }

 private:
  std::map<std::string, double> seconds_;
};

}  // namespace
}  // namespace redist

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  redist::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const double ours = reporter.time_of("stepwise/"), baseline = reporter.time_of("baseline_boost_cardinality/");
  if (ours > 0 && baseline > 0) {
    std::printf("stepwise (max-weight) / baseline (Boost max-cardinality) time ratio: %.3f\n", ours / baseline);
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("process max RSS: %.1f MiB\n", static_cast<double>(usage.ru_maxrss) / 1024);
  benchmark::Shutdown();
  return 0;
}
