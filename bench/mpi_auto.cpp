// `auto` on real MPI: how often its pick is the measured best. For seeded random 1-D layout pairs, every candidate
// (indexing × schedule × relabelling, redist/predict/prediction.hpp) is timed as one redistribute()
// call (candidates that place every processor alike: one call) in each of --repeat rounds, its result
// checked element by element; then the candidate `auto` picks on
// the machine model is looked up among them: within 10% of the measured best, and never the worst?
// The measured best is judged two ways: by each call's fastest round, and by its median round. A
// control, auto's pick timed a second time as a call of its own, shows how far the bench itself
// tells identical calls apart (its resolution, against the 10% asked). 24 rounds by default: on 4
// ranks over 2 cores the median of 24 put identical calls more than 10% apart in 0-3 of 30 pairs,
// the fastest of 24 in 4-10, and the median of 8 in 3-6.
// Last, at --big-mib (64 MiB), what choosing costs (choose(), every rank predicting) against the
// redistribution it chose.
//   redist calibrate --out machine.xml        # writes machine.model.json too
//   mpirun -np 4 bench_mpi_auto --model machine.model.json [--pairs 30] [--repeat 24] [--mib 4] [--big-mib 64]
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mpi_timing.hpp"
#include "redist/core/splitmix.hpp"
#include "redist/mpi/plan.hpp"
#include "redist/predict/machine_model_json.hpp"
#include "redist/predict/prediction.hpp"

namespace {

using redist::Index;
using redist::bench::everywhere;
using redist::bench::median_of;
using redist::bench::numbered;
using redist::bench::slowest;

struct Settings {
  std::string model;
  int pairs = 30, repeat = 24;
  Index mib = 4, big_mib = 64;
};

struct Pair {
  Index P, r, Q, s, N;
};

// Every rank draws the same pairs: P or Q is the number of ranks, blocks half small, half large.
Pair random_pair(std::uint64_t seed, int ranks, Index elements) {
  const auto draw = [&](std::uint64_t k, Index n) { return static_cast<Index>(redist::splitmix64(seed * 16 + k) % static_cast<std::uint64_t>(n)); };
  const auto block = [&](std::uint64_t k) { return draw(k, 2) ? 1 + draw(k + 1, 8) : 9 + draw(k + 1, 392); };
  const Index other = 1 + draw(0, ranks);
  const bool sources_all = draw(1, 2) == 0;
  return {sources_all ? ranks : other, block(2), sources_all ? other : ranks, block(4), elements - draw(6, 1000)};
}

// One candidate's call, ready to be timed again and again: its options with the ranks it places,
// its local data, the expected result.
struct TimedCall {
  redist::mpi::Options placed;
  std::vector<double> a, want, b;
  double best = 1e300;
  std::vector<double> times;  // every round's, the slowest rank's
  bool right = true;
};

TimedCall prepare(const redist::Layout& source, const redist::Layout& dest, const redist::mpi::Options& options, int me) {
  TimedCall call;
  call.placed = redist::mpi::choose(MPI_COMM_WORLD, source, dest, options);  // relabelled ranks
  call.a = numbered(source, call.placed.ranks.source_of(me, source.processors()));
  call.want = numbered(dest, call.placed.ranks.dest_of(me, dest.processors()));
  call.b.resize(call.want.size());
  return call;
}

// Times one redistribute() call (the slowest rank's time) and checks every element. Its source and
// destination are in cache first, as when one candidate's calls followed each other: the other
// candidates' buffers, touched in between, are more than the cache holds.
void time_once(const redist::Layout& source, const redist::Layout& dest, TimedCall& call) {
  std::fill(call.b.begin(), call.b.end(), -1.0);
  volatile double touched = std::accumulate(call.a.begin(), call.a.end(), 0.0);
  (void)touched;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  redist::mpi::redistribute<double>(MPI_COMM_WORLD, source, dest, call.a, call.b, call.placed);
  call.times.push_back(slowest(MPI_Wtime() - start));
  call.best = std::min(call.best, call.times.back());
  call.right = call.right && call.b == call.want;
}

// Best of `repeat` rounds, each round one call of every candidate in turn: this machine's speed
// drifts by up to 2x within minutes, so timing one candidate's calls together, then the next's,
// would compare candidates at different speeds. Each round takes the calls in a fresh order (the
// same on every rank): in a fixed order, or forwards then backwards, the calls at the turns ran
// twice in a row, warm from themselves, and came out faster than their twins elsewhere.
void time_in_rounds(const redist::Layout& source, const redist::Layout& dest, std::vector<TimedCall>& calls, int repeat) {
  std::vector<std::size_t> order(calls.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  for (int k = 0; k < repeat; ++k) {
    for (std::size_t i = order.size(); i > 1; --i) {  // Fisher-Yates, seeded by the round
      const auto j = static_cast<std::size_t>(redist::splitmix64(static_cast<std::uint64_t>(k) * 1000003 + i) % i);
      std::swap(order[i - 1], order[j]);
    }
    for (const std::size_t c : order) time_once(source, dest, calls[c]);
  }
}

// Whether every source and destination processor is on the same rank under both.
bool same_placement(const redist::RankMap& a, const redist::RankMap& b, Index Q) {
  if (a.source_first != b.source_first) return false;
  for (Index q = 0; q < Q; ++q) {
    if (a.dest_rank(q) != b.dest_rank(q)) return false;
  }
  return true;
}

std::string label(const redist::mpi::Options& o) { return o.indexing + "/" + o.schedule + "/" + o.relabel; }

double fastest_round(const TimedCall& call) { return call.best; }
double median_round(const TimedCall& call) { return median_of(call.times); }

// auto's pick among the candidates' calls by one statistic of their rounds: its time, the best's
// and the worst's.
struct Verdict {
  double picked = 0, best = 1e300, worst = 0;
  std::size_t best_call = 0;
  bool within_10_percent() const { return picked <= 1.1 * best; }
  bool worst_picked() const { return picked >= worst; }
};

Verdict judge(std::span<const TimedCall> calls, std::size_t pick, double (*statistic)(const TimedCall&)) {
  Verdict v;
  for (std::size_t c = 0; c < calls.size(); ++c) {
    const double seconds = statistic(calls[c]);
    if (seconds < v.best) v.best = seconds, v.best_call = c;
    v.worst = std::max(v.worst, seconds);
  }
  v.picked = statistic(calls[pick]);
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Settings s;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--model") s.model = argv[i + 1];
    if (flag == "--pairs") s.pairs = std::stoi(argv[i + 1]);
    if (flag == "--repeat") s.repeat = std::stoi(argv[i + 1]);
    if (flag == "--mib") s.mib = std::stoll(argv[i + 1]);
    if (flag == "--big-mib") s.big_mib = std::stoll(argv[i + 1]);
  }
  if (s.model.empty()) {
    if (rank == 0) std::fprintf(stderr, "bench_mpi_auto: --model FILE is required (redist calibrate writes one)\n");
    MPI_Finalize();
    return 1;
  }
  const auto model = std::make_shared<const redist::MachineModel>(redist::load_machine_model(s.model));
  if (rank == 0) {
    std::printf("%d ranks, %lld MiB arrays, every distinct candidate call timed as one redistribute() call in %d rounds (one call of each per round, "
                "in a fresh order), judged by its fastest and by its median round; a control: the pick timed again as a call of its own\n", ranks,
                static_cast<long long>(s.mib), s.repeat);
    std::printf("| pair | candidates | calls | auto picks | auto s | best | best s | worst s | auto / best | by median rounds | control / auto | by median rounds |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  }
  int within = 0, worst = 0, within_median = 0, worst_median = 0, control_apart = 0, control_apart_median = 0;
  bool all_right = true;
  std::vector<double> ratios;
  for (int k = 0; k < s.pairs; ++k) {
    const Pair p = random_pair(static_cast<std::uint64_t>(k) + 1, ranks, s.mib << 17);
    const redist::Layout source = redist::BlockCyclic(p.N, p.r, p.P), dest = redist::BlockCyclic(p.N, p.s, p.Q);
    const auto candidates = redist::candidates(source, dest, redist::RankMap::shared(), {"auto", "auto", "auto"});
    redist::mpi::Options asked{.indexing = "auto", .schedule = "auto", .relabel = "auto"};
    asked.model = model;
    const std::string picked = label(redist::mpi::choose(MPI_COMM_WORLD, source, dest, asked));
    // Candidates whose relabelling places every destination processor where another's does (an
    // assignment that keeps the identity, two methods agreeing) move the same data between the same
    // ranks: one call, timed once per round, stands for them all. Timed apart, the fastest of
    // identical calls would win by noise alone (1.28 against 1.49 ms on one pair).
    std::vector<TimedCall> calls;
    std::vector<std::string> labels;        // the call that stands for each
    std::vector<std::size_t> call_of;       // by candidate
    std::vector<std::string> candidate_labels;
    for (const redist::Candidate& c : candidates) {
      const redist::mpi::Options options{.indexing = c.indexing, .schedule = c.schedule,
                                         .relabel = std::string(redist::relabel_method_names().name_of(c.relabel))};
      TimedCall call = prepare(source, dest, options, rank);
      std::size_t same = 0;
      while (same < calls.size() && !(calls[same].placed.indexing == options.indexing &&
                                      calls[same].placed.schedule == options.schedule &&
                                      same_placement(calls[same].placed.ranks, call.placed.ranks, dest.processors()))) {
        ++same;
      }
      if (same == calls.size()) {
        calls.push_back(std::move(call));
        labels.push_back(label(options));
      }
      call_of.push_back(same);
      candidate_labels.push_back(label(options));
    }
    std::size_t pick = 0;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      if (candidate_labels[c] == picked) pick = call_of[c];
    }
    // The control: the pick again, a call of its own in every round, its data its own.
    TimedCall control = calls[pick];
    control.best = 1e300;
    control.times.clear();
    calls.push_back(std::move(control));
    time_in_rounds(source, dest, calls, s.repeat);
    for (const TimedCall& call : calls) all_right = all_right && everywhere(call.right);
    const std::span<const TimedCall> candidate_calls(calls.data(), calls.size() - 1);
    const Verdict fastest = judge(candidate_calls, pick, fastest_round), median = judge(candidate_calls, pick, median_round);
    within += fastest.within_10_percent();
    worst += fastest.worst_picked();
    within_median += median.within_10_percent();
    worst_median += median.worst_picked();
    ratios.push_back(fastest.picked / fastest.best);
    const double control_fastest = fastest_round(calls.back()) / fastest.picked, control_median = median_round(calls.back()) / median.picked;
    control_apart += std::abs(control_fastest - 1) > 0.1;
    control_apart_median += std::abs(control_median - 1) > 0.1;
    if (rank == 0) {
      std::printf("| P=%lld r=%lld Q=%lld s=%lld N=%lld | %zu | %zu | %s | %.3e | %s | %.3e | %.3e | %.2f | %.2f | %.2f | %.2f |\n",
                  static_cast<long long>(p.P), static_cast<long long>(p.r), static_cast<long long>(p.Q),
                  static_cast<long long>(p.s), static_cast<long long>(p.N), candidates.size(), candidate_calls.size(), picked.c_str(),
                  fastest.picked, labels[fastest.best_call].c_str(), fastest.best, fastest.worst, fastest.picked / fastest.best,
                  median.picked / median.best, control_fastest, control_median);
      std::fflush(stdout);
    }
  }
  if (rank == 0) {
    std::printf("auto within 10%% of the measured best in %d of %d pairs (median auto/best %.2f); the measured worst in %d\n",
                within, s.pairs, median_of(ratios), worst);
    std::printf("by median rounds: within 10%% in %d of %d pairs; the measured worst in %d\n", within_median, s.pairs, worst_median);
    std::printf("control (the pick timed twice): more than 10%% apart in %d of %d pairs by fastest round, %d by median round\n",
                control_apart, s.pairs, control_apart_median);
  }
  // What choosing costs at a large size, against the redistribution it picked.
  std::vector<double> costs;
  for (int k = 0; k < 3; ++k) {
    const Pair p = random_pair(static_cast<std::uint64_t>(k) + 1000, ranks, s.big_mib << 17);
    const redist::Layout source = redist::BlockCyclic(p.N, p.r, p.P), dest = redist::BlockCyclic(p.N, p.s, p.Q);
    redist::mpi::Options asked{.indexing = "auto", .schedule = "auto", .relabel = "auto"};
    asked.model = model;
    double choosing = 1e300;
    redist::mpi::Options chosen;
    for (int t = 0; t < s.repeat; ++t) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      chosen = redist::mpi::choose(MPI_COMM_WORLD, source, dest, asked);
      choosing = std::min(choosing, slowest(MPI_Wtime() - start));
    }
    std::vector<TimedCall> chosen_call = {prepare(source, dest, chosen, rank)};
    time_in_rounds(source, dest, chosen_call, s.repeat);
    const double moving = chosen_call[0].best;
    all_right = all_right && everywhere(chosen_call[0].right);
    costs.push_back(choosing / moving);
    if (rank == 0) {
      std::printf("%lld MiB, P=%lld r=%lld Q=%lld s=%lld: choosing %s took %.3e s, the redistribution %.3e s: %.1f%%\n",
                  static_cast<long long>(s.big_mib), static_cast<long long>(p.P), static_cast<long long>(p.r),
                  static_cast<long long>(p.Q), static_cast<long long>(p.s), label(chosen).c_str(), choosing, moving,
                  100 * choosing / moving);
    }
  }
  if (rank == 0) std::printf("median cost of choosing: %.1f%% of the redistribution\n", 100 * median_of(costs));
  MPI_Finalize();
  return all_right ? 0 : 1;
}
