#include "local_work_measurements.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>

#include "redist/indexing/indexing_methods.hpp"
#include "redist/redistribute/message_packing.hpp"
#include "redist/redistribute/relabelling.hpp"

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

// Packs rank 0's messages as an exchange does (all at once), then unpacks its receives one by one.
void measure_copies(const RankPlan& plan, Index source_elements, Index dest_elements,
                    std::vector<CopyMeasurement>& out) {
  constexpr Index elem = 8;
  std::vector<std::byte> source(static_cast<std::size_t>(source_elements * elem), std::byte{1});
  std::vector<std::byte> dest(static_cast<std::size_t>(dest_elements * elem));
  const auto counted = [&](const std::vector<PeerPlan>& peers) {
    Work work;
    for (const PeerPlan& peer : peers) work += copy_work(peer, elem);
    return CopyMeasurement{static_cast<double>(work.count(WorkKind::ByteCopied)),
                           static_cast<double>(work.count(WorkKind::RunCopied)), 0};
  };
  const auto buffers_for = [&](const std::vector<PeerPlan>& peers, std::vector<std::byte>& memory) {
    Index total = 0;
    for (const PeerPlan& peer : peers) total += peer.elements * elem;
    memory.assign(static_cast<std::size_t>(total), std::byte{2});
    std::vector<std::byte*> starts;
    std::byte* at = memory.data();
    for (const PeerPlan& peer : peers) {
      starts.push_back(at);
      at += peer.elements * elem;
    }
    return starts;
  };
  std::vector<std::byte> send_memory, recv_memory;
  const std::vector<std::byte*> sends = buffers_for(plan.sends, send_memory);
  const std::vector<std::byte*> receives = buffers_for(plan.receives, recv_memory);
  CopyMeasurement pack_side = counted(plan.sends);
  pack_side.seconds = fastest(3, [&] { pack_messages(plan.sends, source, elem, sends); });
  CopyMeasurement unpack_side = counted(plan.receives);
  unpack_side.seconds = fastest(3, [&] {
    for (std::size_t k = 0; k < plan.receives.size(); ++k) unpack(plan.receives[k], receives[k], elem, dest);
  });
  out.push_back(pack_side);
  out.push_back(unpack_side);
}

// The per-run price minimising the squared relative residuals of bytes * byte_copied + runs * price.
double fit_run_price(const std::vector<CopyMeasurement>& copies, double byte_copied) {
  double numerator = 0, denominator = 0;
  for (const CopyMeasurement& c : copies) {
    const double weight = 1 / (c.seconds * c.seconds);
    numerator += weight * c.runs * (c.seconds - c.bytes * byte_copied);
    denominator += weight * c.runs * c.runs;
  }
  return denominator > 0 ? std::max(0.0, numerator / denominator) : 0.0;
}

IndexMeasurement measured(const Work& work, double seconds) {
  IndexMeasurement m;
  for (const WorkKind kind : kIndexKinds) m.counts.push_back(static_cast<double>(work.count(kind)));
  m.seconds = seconds;
  return m;
}

// Relabelling is index work too (plan_redistribution times it with the plan): both methods.
void measure_relabelling(const Layout& source, const Layout& dest, std::vector<IndexMeasurement>& out) {
  for (const RelabelMethod method : {RelabelMethod::Exact, RelabelMethod::Greedy}) {
    Work work;
    const double seconds = fastest(5, [&] {
      work = Work();
      relabelled_ranks(source, dest, method, work);
    });
    out.push_back(measured(work, seconds));
  }
}

struct Pair {
  Index N, P, r, Q, s;
};

}  // namespace

LocalWork measure_local_work() {
  LocalWork out;
  out.byte_copied = copy_seconds_per_byte();
  const std::vector<Pair> pairs = {{1 << 20, 4, 1, 4, 8}, {1 << 20, 4, 64, 2, 8}, {1 << 21, 2, 16, 4, 4},
                                   {1 << 20, 8, 3, 6, 7}, {1 << 19, 3, 100, 5, 1}, {1 << 21, 4, 1024, 4, 2},
                                   {1 << 21, 2, 5, 2, 3}};  // the last: irregular pieces, long lists
  // Sizes a period does not divide: relabelling counts the rest stretch by stretch.
  const std::vector<Pair> uneven = {{523387, 4, 358, 4, 225}, {1048573, 3, 97, 5, 61}};
  for (const Pair& p : uneven) measure_relabelling(BlockCyclic(p.N, p.r, p.P), BlockCyclic(p.N, p.s, p.Q), out.index);
  for (const Pair& p : pairs) {
    const Layout source = BlockCyclic(p.N, p.r, p.P), dest = BlockCyclic(p.N, p.s, p.Q);
    measure_relabelling(source, dest, out.index);
    for (const IndexingMethod& method : indexing_methods()) {
      if (!method_takes(method, source, dest)) continue;  // Krr: kr <-> r only
      Work work;
      RankPlan plan;
      const double seconds = fastest(3, [&] {
        work = Work();
        plan = make_plan(method, source, dest, RankMap::shared(), 0, true, work);
        work += listing_work(plan);
      });
      measure_copies(plan, source.local_size(0), dest.local_size(0), out.copies);
      out.index.push_back(measured(work, seconds));
    }
  }
  out.run_copied = fit_run_price(out.copies, out.byte_copied);
  return out;
}

}  // namespace redist::cli
