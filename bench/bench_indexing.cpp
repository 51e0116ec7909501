// Host time of the indexing methods and of pack/unpack (paper 000's setting: P = 50 sources,
// Q = 40 destinations, BC(10) <-> BC(2), k = 5).
//  - BM_Index: rank 0's send and receive index sets, counted without materialising runs (what a
//    phantom simulation does), N = 2^20 .. 2^27. Krr stays flat in N; `vs_naive` is the naive
//    owner scan's time on the same problem, measured in the same run, over this method's time.
//  - BM_Plan: the same with runs materialised (real payload): O(N) for every method.
//  - BM_Pack / BM_Unpack: copying rank 0's messages along runs of L contiguous elements, all
//    messages at once (pack_messages / unpack_messages), against one memcpy of the same bytes
//    measured in the same run (`vs_memcpy`, target >= 0.5 for L >= 8). BM_UnpackEach: one message
//    at a time, as an exchange unpacks a message that arrives alone (messages that arrive together
//    are unpacked in one sweep, as BM_Unpack). Regular runs are strided records (append_piece).
//  - BM_LocalCopy: rank 0's local part of CYCLIC(r) over 2 -> CYCLIC(s) over 2 (Prylli's plan, 2^22
//    elements), copied once (copy_local) against packing it and unpacking it (`vs_pack_unpack`,
//    the time of the two over the copy's, measured in the same run) and against one memcpy of the
//    same bytes (`vs_memcpy`). (r, s) = (1, 3) pairs pieces of one length offset by part of a
//    piece; (2, 3) and (3, 5) short pieces of unequal lengths; (64, 96) long ones.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "redist/indexing/indexing_methods.hpp"
#include "redist/indexing/krr_indexing.hpp"
#include "redist/indexing/naive_indexing.hpp"
#include "redist/layout/multi_dim.hpp"
#include "redist/redistribute/local_copy.hpp"
#include "redist/redistribute/message_packing.hpp"

namespace redist {
namespace {

// Thread CPU time: the machine may be shared, and both sides of every ratio are measured alike.
double cpu_now() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
constexpr Index kP = 50, kQ = 40;

struct Problem {
  Layout source;
  Layout dest;
};

// direction 0: BC(10) over 50 -> BC(2) over 40 (kr -> r); 1: the reverse (r -> kr).
Problem problem(int direction, Index N) {
  if (direction == 0) return {BlockCyclic(N, 10, kP), BlockCyclic(N, 2, kQ)};
  return {BlockCyclic(N, 2, kQ), BlockCyclic(N, 10, kP)};
}

// Mean CPU time of `body` over at least `runs` runs and 0.2 s, after one untimed run (the
// allocator settles its thresholds on the first large blocks): the in-run baseline.
double mean_seconds(const std::function<void()>& body, int runs = 3) {
  body();
  const double start = cpu_now();
  int done = 0;
  while (done < runs || cpu_now() - start < 0.2) {
    body();
    ++done;
  }
  return (cpu_now() - start) / done;
}

double naive_seconds(int direction, Index N, bool materialise) {
  static std::map<std::tuple<int, Index, bool>, double> cache;
  const auto key = std::make_tuple(direction, N, materialise);
  if (!cache.contains(key)) {
    const Problem pr = problem(direction, N);
    cache[key] = mean_seconds([&] {
      Work work;
      benchmark::DoNotOptimize(naive_plan(pr.source, pr.dest, RankMap::shared(), 0, materialise, work));
    });
  }
  return cache[key];
}

void run_index(benchmark::State& state, bool materialise) {
  const IndexingMethod& method = indexing_methods().at(static_cast<std::size_t>(state.range(0)));
  const int direction = static_cast<int>(state.range(1));
  const Index N = Index{1} << state.range(2);
  const Problem pr = problem(direction, N);
  Work work;
  double seconds = 0;
  for (auto _ : state) {
    work = Work{};
    const double start = cpu_now();
    benchmark::DoNotOptimize(make_plan(method, pr.source, pr.dest, RankMap::shared(), 0, materialise, work));
    seconds += cpu_now() - start;
  }
  const double mean = seconds / static_cast<double>(state.iterations());
  state.SetLabel(std::string(method.name) + (direction == 0 ? " kr->r" : " r->kr"));
  state.counters["vs_naive"] = naive_seconds(direction, N, materialise) / mean;
  state.counters["table_entries"] = static_cast<double>(work.count(WorkKind::TableEntry));
  state.counters["intersections"] = static_cast<double>(work.count(WorkKind::Intersection));
  state.counters["index_ops"] = static_cast<double>(work.count(WorkKind::IndexOp));
}

void BM_Index(benchmark::State& state) { run_index(state, false); }
void BM_Plan(benchmark::State& state) { run_index(state, true); }

void index_arguments(benchmark::internal::Benchmark* b) {
  for (Index method = 0; method < static_cast<Index>(indexing_methods().size()); ++method) {
    for (Index direction = 0; direction < 2; ++direction) {
      for (Index log_n = 20; log_n <= 27; ++log_n) b->Args({method, direction, log_n});
    }
  }
}

BENCHMARK(BM_Index)->Apply(index_arguments)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Plan)->Apply(index_arguments)->Unit(benchmark::kMillisecond);

// Rank 0's send plan of BC(5L) over 50 -> BC(L) over 40: every run is L elements long.
struct CopyCase {
  RankPlan plan;
  std::vector<std::byte> local, buffer;
  std::vector<std::byte*> message_buffers;  ///< where each message starts in `buffer`
};

CopyCase copy_case(Index L, Index elem_bytes) {
  const Index N = (Index{1} << 21) * kP;  // 2^21 elements a rank: 8 or 16 MiB, beyond L1/L2
  const BlockCyclic source(N, 5 * L, kP);
  Work work;
  CopyCase c{krr_plan(source, BlockCyclic(N, L, kQ), RankMap::disjoint(kP), 0, true, work), {}, {}, {}};
  c.local.assign(static_cast<std::size_t>(source.local_size(0) * elem_bytes), std::byte{1});
  c.buffer.assign(c.local.size(), std::byte{0});
  std::byte* at = c.buffer.data();
  for (const PeerPlan& peer : c.plan.sends) {
    c.message_buffers.push_back(at);
    at += peer.elements * elem_bytes;
  }
  return c;
}

double memcpy_seconds(std::size_t bytes) {
  static std::map<std::size_t, double> cache;
  if (!cache.contains(bytes)) {
    std::vector<std::byte> from(bytes, std::byte{1}), to(bytes);
    cache[bytes] = mean_seconds([&] {
      std::memcpy(to.data(), from.data(), bytes);
      benchmark::DoNotOptimize(to.data());
    });
  }
  return cache[bytes];
}

enum class Copy { Pack, Unpack, UnpackEach };

void run_copy(benchmark::State& state, Copy mode) {
  const Index L = state.range(0), eb = state.range(1);
  CopyCase c = copy_case(L, eb);
  const std::vector<const std::byte*> messages(c.message_buffers.begin(), c.message_buffers.end());
  double seconds = 0;
  for (auto _ : state) {
    const double start = cpu_now();
    if (mode == Copy::Pack) {
      pack_messages(c.plan.sends, c.local, eb, c.message_buffers);
    } else if (mode == Copy::Unpack) {
      unpack_messages(c.plan.sends, messages, eb, c.local);
    } else {
      for (std::size_t k = 0; k < c.plan.sends.size(); ++k) unpack(c.plan.sends[k], c.message_buffers[k], eb, c.local);
    }
    benchmark::DoNotOptimize(c.buffer.data());
    benchmark::DoNotOptimize(c.local.data());
    seconds += cpu_now() - start;
  }
  const double mean = seconds / static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(c.local.size()));
  state.counters["vs_memcpy"] = memcpy_seconds(c.local.size()) / mean;
}

void BM_Pack(benchmark::State& state) { run_copy(state, Copy::Pack); }
void BM_Unpack(benchmark::State& state) { run_copy(state, Copy::Unpack); }
void BM_UnpackEach(benchmark::State& state) { run_copy(state, Copy::UnpackEach); }

void copy_arguments(benchmark::internal::Benchmark* b) {
  for (Index eb : {4, 8}) {
    for (Index L : {1, 2, 4, 8, 16, 64, 256}) b->Args({L, eb});
  }
}

BENCHMARK(BM_Pack)->Apply(copy_arguments)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Unpack)->Apply(copy_arguments)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_UnpackEach)->Apply(copy_arguments)->Unit(benchmark::kMillisecond);

// Rank 0's messages of BLOCK over 2 -> CYCLIC(L) over Q: Q messages whose L-element pieces
// interleave in every line of local storage (16 MiB), packed in one sweep; Q = 16 takes two passes
// over each line (kStreamsAtOnce). vs_memcpy: a memcpy of the same bytes over its time.
void BM_PackInterleaved(benchmark::State& state) {
  const Index Q = state.range(0), L = state.range(1), eb = 8, per_rank = Index{1} << 21;
  Work work;
  const RankPlan plan = krr_plan(BlockCyclic(2 * per_rank, per_rank, 2), BlockCyclic(2 * per_rank, L, Q),
                                 RankMap::disjoint(2), 0, true, work);
  const std::vector<std::byte> local(static_cast<std::size_t>(per_rank * eb), std::byte{1});
  std::vector<std::byte> buffer(local.size());
  std::vector<std::byte*> messages;
  std::byte* at = buffer.data();
  for (const PeerPlan& peer : plan.sends) {
    messages.push_back(at);
    at += peer.elements * eb;
  }
  double seconds = 0;
  for (auto _ : state) {
    const double start = cpu_now();
    pack_messages(plan.sends, local, eb, messages);
    benchmark::DoNotOptimize(buffer.data());
    seconds += cpu_now() - start;
  }
  const double mean = seconds / static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(local.size()));
  state.counters["vs_memcpy"] = memcpy_seconds(local.size()) / mean;
}

BENCHMARK(BM_PackInterleaved)->ArgsProduct({{4, 8, 16}, {1, 2}})->Unit(benchmark::kMillisecond);

void BM_LocalCopy(benchmark::State& state) {
  const Index r = state.range(0), s = state.range(1), eb = 8, N = Index{1} << 22;
  const BlockCyclic source(N, r, 2), dest(N, s, 2);
  Work work;
  const RankPlan plan = make_plan(indexing_method("prylli"), source, dest, RankMap::shared(), 0, true, work);
  const LocalPart part = local_part(plan, 0);
  const std::vector<std::byte> from(static_cast<std::size_t>(source.local_size(0) * eb), std::byte{1});
  std::vector<std::byte> to(static_cast<std::size_t>(dest.local_size(0) * eb));
  std::vector<std::byte> message(static_cast<std::size_t>(part.send->elements * eb));
  double seconds = 0;
  for (auto _ : state) {
    const double start = cpu_now();
    copy_local(*part.send, *part.receive, from, to, eb);
    benchmark::DoNotOptimize(to.data());
    seconds += cpu_now() - start;
  }
  const double mean = seconds / static_cast<double>(state.iterations());
  const double apart = mean_seconds([&] {
    pack(*part.send, from, eb, message.data());
    unpack(*part.receive, message.data(), eb, to);
    benchmark::DoNotOptimize(to.data());
  });
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(message.size()));
  state.counters["vs_pack_unpack"] = apart / mean;
  state.counters["vs_memcpy"] = memcpy_seconds(message.size()) / mean;
}

BENCHMARK(BM_LocalCopy)->Args({1, 3})->Args({2, 3})->Args({3, 5})->Args({64, 96})->Unit(benchmark::kMillisecond);

// Rank 0's local part copied in the pack sweep or in the unpack sweep (local_part_in_unpack), 32
// MiB a rank: what each sweep takes beyond its messages alone, all four timed in the same run.
// unpack_over_pack: the unpack sweep's extra over the pack sweep's; chosen_unpack: the rule's pick.
// Pairs: 0 2x2 2x2 -> 4x1 8x8, 1 4x1 1x1 -> 1x4 1x1, 2 CYCLIC(8)/4 -> CYCLIC(3)/4.
void BM_LocalPartSweep(benchmark::State& state) {
  const Index eb = 8, n = 4096;
  const auto grid = [](Index pr, Index pc, Index mb, Index nb) {
    return Layout(MultiDimLayout({DimMapping::distributed(BlockCyclic(4096, mb, pr)), DimMapping::distributed(BlockCyclic(4096, nb, pc))},
                                 StorageOrder::ColumnMajor));
  };
  const Layout source = state.range(0) == 0   ? grid(2, 2, 2, 2)
                        : state.range(0) == 1 ? grid(4, 1, 1, 1)
                                              : Layout(BlockCyclic(n * n, 8, 4));
  const Layout dest = state.range(0) == 0   ? grid(4, 1, 8, 8)
                      : state.range(0) == 1 ? grid(1, 4, 1, 1)
                                            : Layout(BlockCyclic(n * n, 3, 4));
  Work work;
  const RankPlan plan = make_plan(indexing_method("prylli"), source, dest, RankMap::shared(), 0, true, work);
  const LocalPart local = local_part(plan, 0);
  std::vector<const PeerPlan*> sends, receives;
  Index send_bytes = 0, receive_bytes = 0;
  for (const PeerPlan& p : plan.sends) {
    if (p.peer == 0) continue;
    sends.push_back(&p);
    send_bytes += p.elements * eb;
  }
  for (const PeerPlan& p : plan.receives) {
    if (p.peer == 0) continue;
    receives.push_back(&p);
    receive_bytes += p.elements * eb;
  }
  const std::vector<std::byte> from(static_cast<std::size_t>(source.local_size(0) * eb), std::byte{1});
  std::vector<std::byte> to(static_cast<std::size_t>(dest.local_size(0) * eb));
  std::vector<std::byte> out(static_cast<std::size_t>(send_bytes)), in(static_cast<std::size_t>(receive_bytes), std::byte{2});
  std::vector<std::byte*> outgoing;
  std::vector<const std::byte*> incoming;
  for (std::byte* at = out.data(); const PeerPlan* p : sends) {
    outgoing.push_back(at);
    at += p->elements * eb;
  }
  for (const std::byte* at = in.data(); const PeerPlan* p : receives) {
    incoming.push_back(at);
    at += p->elements * eb;
  }
  const DirectCopy copy{local.receive, local.send->runs, from.data()};
  double in_pack = 0, in_unpack = 0, pack_alone = 0, unpack_alone = 0;
  for (auto _ : state) {
    double start = cpu_now();
    pack_messages(sends, from, eb, outgoing, *local.send, *local.receive, to);
    in_pack += cpu_now() - start;
    start = cpu_now();
    pack_messages(sends, from, eb, outgoing);
    pack_alone += cpu_now() - start;
    start = cpu_now();
    unpack_and_copy(receives, incoming, {&copy, 1}, eb, to);
    in_unpack += cpu_now() - start;
    start = cpu_now();
    unpack_messages(receives, incoming, eb, to);
    unpack_alone += cpu_now() - start;
    benchmark::DoNotOptimize(to.data());
  }
  state.counters["unpack_over_pack"] = (in_unpack - unpack_alone) / (in_pack - pack_alone);
  state.counters["chosen_unpack"] = local_part_in_unpack(*local.send, *local.receive, eb) ? 1 : 0;
}

BENCHMARK(BM_LocalPartSweep)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace redist

BENCHMARK_MAIN();
