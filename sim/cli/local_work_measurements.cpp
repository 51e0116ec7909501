#include "local_work_measurements.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>

#include "redist/indexing/krr_indexing.hpp"
#include "redist/indexing/pitfalls_indexing.hpp"
#include "redist/indexing/prylli_indexing.hpp"
#include "redist/redistribute/naive_indexing.hpp"
#include "redist/redistribute/pack.hpp"

namespace redist::cli {
namespace {

// Fastest of `times` runs of `body`, in seconds.
double fastest(int times, const std::function<void()>& body) {
  double best = 1e300;
  for (int k = 0; k < times; ++k) {
    const auto start = std::chrono::steady_clock::now();
    body();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

double copy_seconds_per_byte() {
  const std::size_t bytes = std::size_t{64} << 20;
  std::vector<char> from(bytes, 1), to(bytes, 2);
  const double seconds = fastest(5, [&] { std::memcpy(to.data(), from.data(), bytes); });
  return seconds / static_cast<double>(bytes);
}

// Runs of one 8-byte element every other element: per-run start-up dominates.
double run_start_seconds(double byte_copied) {
  const Index runs = Index{1} << 21, elem = 8;
  PeerPlan plan;
  for (Index k = 0; k < runs; ++k) plan.runs.push_back({2 * k, 1});
  plan.elements = plan.run_count = runs;
  std::vector<std::byte> local(static_cast<std::size_t>(2 * runs * elem)), buffer(static_cast<std::size_t>(runs * elem));
  const double seconds = fastest(5, [&] { pack(plan, local, elem, buffer.data()); });
  return std::max(0.0, (seconds - static_cast<double>(runs * elem) * byte_copied) / static_cast<double>(runs));
}

using Planner = RankPlan (*)(const Layout&, const Layout&, const RankMap&, Rank, bool, Work&);

struct Pair {
  Index N, P, r, Q, s;
};

}  // namespace

LocalWork measure_local_work() {
  LocalWork out;
  out.byte_copied = copy_seconds_per_byte();
  out.run_copied = run_start_seconds(out.byte_copied);
  const std::vector<Pair> pairs = {{1 << 20, 4, 1, 4, 8}, {1 << 20, 4, 64, 2, 8}, {1 << 21, 2, 16, 4, 4},
                                   {1 << 20, 8, 3, 6, 7}, {1 << 19, 3, 100, 5, 1}, {1 << 21, 4, 1024, 4, 2}};
  const std::vector<std::pair<Planner, bool>> planners = {
      {&naive_plan, true}, {&krr_plan, false}, {&pitfalls_plan, true}, {&prylli_plan, true}};
  for (const Pair& p : pairs) {
    const Layout source = BlockCyclic(p.N, p.r, p.P), dest = BlockCyclic(p.N, p.s, p.Q);
    for (const auto& [planner, any_blocks] : planners) {
      if (!any_blocks && p.r % p.s != 0 && p.s % p.r != 0) continue;  // Krr: kr <-> r only
      Work work;
      const double seconds = fastest(3, [&] {
        work = Work();
        planner(source, dest, RankMap::shared(), 0, true, work);
      });
      IndexMeasurement m;
      for (const WorkKind kind : kIndexKinds) m.counts.push_back(static_cast<double>(work.count(kind)));
      m.seconds = seconds;
      out.index.push_back(m);
    }
  }
  return out;
}

}  // namespace redist::cli
