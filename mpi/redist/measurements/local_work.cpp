#include "redist/measurements/local_work.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/measurements/copy_bandwidth.hpp"
#include "redist/measurements/first_touch.hpp"
#include "redist/measurements/pdgemr2d_copies.hpp"
#include "redist/indexing/indexing_methods.hpp"
#include "redist/layout/scalapack_descriptor.hpp"
#include "redist/redistribute/message_packing.hpp"
#include "redist/redistribute/relabelling.hpp"

namespace redist::measurements {
namespace {

// Fastest of `times` runs of `body`, in seconds, `warm_up` run (untimed) before each. Every rank
// starts each run together, so that the work shares the node's memory as a redistribution's does.
double fastest(int times, const std::function<void()>& body, const std::function<void()>& warm_up = {}) {
  double best = 1e300;
  for (int k = 0; k < times; ++k) {
    if (warm_up) warm_up();
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    body();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

nlohmann::ordered_json row(const Work& work, double seconds) {
  nlohmann::ordered_json counts = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < kWorkKinds; ++k) {
    const auto kind = static_cast<WorkKind>(k);
    if (work.count(kind) != 0) counts[std::string(price_property(kind))] = work.count(kind);
  }
  return {{"work", counts}, {"seconds", seconds}};
}

// Message buffers for `peers`, one after another in `memory`.
std::vector<std::byte*> buffers_for(const std::vector<PeerPlan>& peers, Index elem, std::vector<std::byte>& memory) {
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
}

Work copies_of(const std::vector<PeerPlan>& peers, Index elem) {
  Work work;
  for (const PeerPlan& peer : peers) work += copy_work(peer, elem);
  return work;
}

// Packs rank 0's messages as an exchange does (all at once), then unpacks its receives both ways
// the exchanges do: message by message (unpack: a scheduled exchange's, messages arriving one at a
// time) and all at once in one sweep of destination storage (unpack_messages: the shared-memory
// exchange's, redist's default on one node), each out of buffers just written, as receives leave
// them. The sweep fills each destination line whole for all messages and costs more a piece
// (1.0-1.65 × the one-by-one time on one rank, pieces of 8 to 256 bytes). Each the fastest of
// repeated copies, as repeated calls run them: what they touch stays in the caches where it fits
// (each row's "touched": its storage and buffers, which the node's memory model prices it by).
void measure_copies(const RankPlan& plan, Index source_elements, Index dest_elements, nlohmann::ordered_json& out) {
  constexpr Index elem = 8;
  std::vector<std::byte> source(static_cast<std::size_t>(source_elements * elem), std::byte{1});
  std::vector<std::byte> dest(static_cast<std::size_t>(dest_elements * elem));
  std::vector<std::byte> send_memory, recv_memory;
  const std::vector<std::byte*> sends = buffers_for(plan.sends, elem, send_memory);
  const std::vector<std::byte*> receive_buffers = buffers_for(plan.receives, elem, recv_memory);
  const std::vector<const std::byte*> receives(receive_buffers.begin(), receive_buffers.end());
  const auto received = [&] { std::fill(recv_memory.begin(), recv_memory.end(), std::byte{3}); };
  const double pack = fastest(5, [&] { pack_messages(plan.sends, source, elem, sends); });
  const double one_by_one = fastest(
      5, [&] {
        for (std::size_t k = 0; k < plan.receives.size(); ++k) unpack(plan.receives[k], receives[k], elem, dest);
      },
      received);
  const auto bytes = [](const std::vector<std::byte>& a, const std::vector<std::byte>& b) {
    return static_cast<double>(a.size() + b.size());
  };
  out.push_back(row(copies_of(plan.sends, elem), pack));
  out.back()["direction"] = "pack";
  out.back()["touched"] = bytes(source, send_memory);
  out.push_back(row(copies_of(plan.receives, elem), one_by_one));
  out.back()["direction"] = "unpack";
  out.back()["touched"] = bytes(recv_memory, dest);
  if (unpack_loop(plan.receives.size()) != CopyLoop::UnpackSweep) return;
  const double swept = fastest(5, [&] { unpack_messages(plan.receives, receives, elem, dest); }, received);
  out.push_back(row(copies_of(plan.receives, elem), swept));
  out.back()["direction"] = "sweep";
  out.back()["touched"] = bytes(recv_memory, dest);
}

// Relabelling is index work too (plan_redistribution times it with the plan): both methods.
void measure_relabelling(const Layout& source, const Layout& dest, nlohmann::ordered_json& out) {
  for (const RelabelMethod method : {RelabelMethod::Exact, RelabelMethod::Greedy}) {
    Work work;
    const double seconds = fastest(
        5, [&] {
          work = Work();
          relabelled_ranks(source, dest, method, work);
        });
    out.push_back(row(work, seconds));
  }
}

struct Pair {
  Index N, P, r, Q, s;
};

// 2-D copies as the MPI API and the drop-in make them: strided records of short pieces down the
// columns (a few rows of each block column), single columns dealt over a grid, row-major storage,
// blocks cut into blocks, a first process other than (0, 0). Their plans are products of 1-D ones
// (tensor_plan.hpp), with pieces and strides no 1-D plan has: where the storage orders differ,
// pieces of one element a leading dimension apart.
std::vector<std::pair<ScalapackDescriptor, ScalapackDescriptor>> matrix_pairs() {
  using D = ScalapackDescriptor;
  const auto row_major = StorageOrder::RowMajor;
  return {{D{1500, 1200, 100, 100, 2, 2}, D{1500, 1200, 4, 8, 4, 1}},
          {D{1200, 1500, 1, 1, 1, 4}, D{1200, 1500, 50, 50, 2, 2}},
          {D{1600, 1000, 170, 7, 2, 1, 1, 0, row_major}, D{1600, 1000, 8, 5, 1, 2}},
          {D{2000, 800, 64, 64, 2, 2}, D{2000, 800, 40, 24, 2, 2, 1, 1}}};
}

nlohmann::ordered_json measure() {
  nlohmann::ordered_json index = nlohmann::ordered_json::array(), copies = nlohmann::ordered_json::array();
  const std::vector<Pair> pairs = {{1 << 20, 4, 1, 4, 8}, {1 << 20, 4, 64, 2, 8}, {1 << 21, 2, 16, 4, 4},
                                   {1 << 20, 8, 3, 6, 7}, {1 << 19, 3, 100, 5, 1}, {1 << 21, 4, 1024, 4, 2},
                                   {1 << 21, 2, 5, 2, 3},  // irregular pieces, long lists
                                   // Periods of 10^5 elements and more, a few in the array: the interval
                                   // scans' intersections are then as many as the runs they list.
                                   {1 << 20, 6, 270, 7, 7}, {1 << 20, 5, 331, 7, 97}, {1 << 20, 7, 1000, 3, 1}};
  // Sizes a period does not divide: relabelling counts the rest stretch by stretch.
  const std::vector<Pair> uneven = {{523387, 4, 358, 4, 225}, {1048573, 3, 97, 5, 61}};
  for (const Pair& p : uneven) measure_relabelling(BlockCyclic(p.N, p.r, p.P), BlockCyclic(p.N, p.s, p.Q), index);
  std::vector<std::pair<Layout, Layout>> layouts;
  for (const Pair& p : pairs) {
    const Layout source = BlockCyclic(p.N, p.r, p.P), dest = BlockCyclic(p.N, p.s, p.Q);
    measure_relabelling(source, dest, index);
    layouts.emplace_back(source, dest);
  }
  for (const auto& [from, to] : matrix_pairs()) layouts.emplace_back(scalapack_layout(from), scalapack_layout(to));
  for (const auto& [source, dest] : layouts) {
    for (const IndexingMethod& method : indexing_methods()) {
      if (!method_takes(method, source, dest)) continue;  // Krr: kr <-> r only
      Work work;
      RankPlan plan;
      const double seconds = fastest(
          3, [&] {
            work = Work();
            plan = make_plan(method, source, dest, RankMap::shared(), 0, true, work);
            work += listing_work(plan);
          });
      index.push_back(row(work, seconds));
      measure_copies(plan, source.local_size(0), dest.local_size(0), copies);
    }
  }
  return {{"index", index}, {"copies", copies}, {"pdgemr2d", measure_pdgemr2d_copies()}};
}

}  // namespace

// Each row's seconds replaced by their mean over the ranks, on rank 0.
void average_over_ranks(nlohmann::ordered_json& json) {
  std::vector<double> seconds;
  for (const char* part : {"index", "copies", "pdgemr2d"}) {
    for (const auto& r : json[part]) seconds.push_back(r["seconds"].get<double>());
  }
  std::vector<double> sums(seconds.size());
  MPI_Reduce(seconds.data(), sums.data(), static_cast<int>(seconds.size()), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::size_t k = 0;
  for (const char* part : {"index", "copies", "pdgemr2d"}) {
    for (auto& r : json[part]) r["seconds"] = sums[k++] / ranks;
  }
}

int run_local_work(const LocalWorkOptions& options) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  nlohmann::ordered_json json = measure();
  average_over_ranks(json);
  json["copy_bandwidth"] = measure_copy_bandwidth();
  json["first_touch"] = measure_first_touch();
  if (rank != 0) return 0;
  if (options.json) {
    std::cout << json.dump() << std::endl;
  } else {
    for (const char* part : {"index", "copies", "pdgemr2d"}) {
      std::cout << part << ":\n";
      for (const auto& r : json[part]) std::cout << "  " << r["seconds"] << " s\t" << r["work"].dump() << "\n";
    }
    std::cout << "copy bandwidth, bytes per second a rank (ranks copying at once, bytes each):\n";
    for (const auto& r : json["copy_bandwidth"]) std::cout << "  " << r.dump() << "\n";
    std::cout << "memory written first (mapped, written, unmapped) and again, seconds:\n  " << json["first_touch"].dump() << "\n";
  }
  return 0;
}

}  // namespace redist::measurements
