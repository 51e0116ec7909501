// The indexing methods in the full redistribution: real data arrives where it belongs for every
// method and schedule, and the asynchronous exchange unpacks in arrival order for Krr and in
// source-rank order for PITFALLS and Prylli (paper 000, section 5).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <string>

#include "every_indexing_method.hpp"
#include "redist/redistribute/async_exchange.hpp"
#include "redist/schedule/schedule_choice.hpp"
#include "redist/redistribute/message_packing.hpp"
#include "redist/redistribute/verified_run.hpp"
#include "thread_transport.hpp"

namespace redist {
namespace {

struct Case {
  std::string name;
  BlockCyclic source;
  BlockCyclic dest;
  RankMap ranks;
};

// All kr <-> r, so that every method, Krr included, takes them.
std::vector<Case> cases() {
  return {
      {"Fig. 1 with a ragged tail, shared ranks", BlockCyclic(93, 10, 2), BlockCyclic(93, 2, 4), RankMap::shared()},
      {"r -> kr, disjoint ranks", BlockCyclic(250, 2, 4), BlockCyclic(250, 10, 3), RankMap::disjoint(4)},
      {"overlapping ranks, block 0 elsewhere", BlockCyclic(301, 3, 5, 2), BlockCyclic(301, 6, 3, 1), RankMap{0, 2}},
      {"array shorter than a cycle", BlockCyclic(37, 12, 3), BlockCyclic(37, 4, 5), RankMap{2, 0}},
      {"P = Q (Walker-Otto's case)", BlockCyclic(100, 6, 4), BlockCyclic(100, 2, 4), RankMap::shared()},
  };
}

TEST(IndexedExchange, EveryMethodAndScheduleMovesRealData) {
  for (const IndexingMethod& method : test::every_indexing_method()) {
    const std::string indexing(method.name);
    for (const ScheduleChoice choice : schedule_names().values()) {
      const std::string schedule(name_of(choice));
      for (const Case& c : cases()) {
        if (choice == Strategy::WalkerOtto && c.source.procs() != c.dest.procs()) continue;
        const Rank size = static_cast<Rank>(c.ranks.ranks_needed(c.source.procs(), c.dest.procs()));
        test::ThreadWorld world(size);
        std::atomic<Index> misplaced = 0, checked = 0;
        world.run([&](Transport& transport) {
          const auto result = redistribute_and_verify(
              transport, c.source, c.dest, {.elem_bytes = 4, .indexing = indexing, .schedule = schedule, .ranks = c.ranks});
          misplaced += result.misplaced;
          checked += result.verified.value_or(false) ? 1 : 0;
        });
        EXPECT_EQ(misplaced.load(), 0) << indexing << " / " << schedule << ": " << c.name;
        EXPECT_EQ(checked.load(), size) << indexing << " / " << schedule << ": " << c.name;
      }
    }
  }
}

// One rank whose receives complete in a scripted order of source ranks, `together` at a time for
// wait_some; sends complete at once.
class ScriptedTransport : public Transport {
 public:
  ScriptedTransport(Rank me, Rank size, std::vector<Rank> arrivals, std::size_t together = 1)
      : me_(me), size_(size), arrivals_(std::move(arrivals)), together_(together) {}

  Rank rank() const override { return me_; }
  Rank size() const override { return size_; }
  bool phantom() const override { return true; }
  Request isend(Rank, const std::byte*, Index, Tag) override { return next_++; }
  Request irecv(Rank from, std::byte*, Index, Tag) override {
    source_of_[next_] = from;
    return next_++;
  }
  Completion wait_any(std::span<Request> requests) override {
    for (const Rank from : arrivals_) {
      for (std::size_t i = 0; i < requests.size(); ++i) {
        if (requests[i] == kNullRequest || !source_of_.contains(requests[i]) || source_of_[requests[i]] != from) continue;
        requests[i] = kNullRequest;
        arrivals_.erase(std::find(arrivals_.begin(), arrivals_.end(), from));
        return {i, from, 0};
      }
    }
    for (std::size_t i = 0; i < requests.size(); ++i) {
      if (requests[i] != kNullRequest) {
        requests[i] = kNullRequest;
        return {i, -1, 0};  // a send
      }
    }
    throw std::logic_error("wait_any with nothing pending");
  }
  std::vector<Completion> wait_some(std::span<Request> requests) override {
    std::vector<Completion> done{wait_any(requests)};
    while (done.size() < together_ && !arrivals_.empty()) done.push_back(wait_any(requests));
    return done;
  }
  void wait_all(std::span<Request> requests) override { std::fill(requests.begin(), requests.end(), kNullRequest); }
  void barrier() override {}
  void charge(const Work&) override {}
  double now() const override { return 0; }

 private:
  Rank me_, size_;
  std::vector<Rank> arrivals_;
  std::size_t together_;
  Request next_ = 0;
  std::map<Request, Rank> source_of_;
};

// The source ranks of each group of messages unpacked together, in unpacking order.
std::vector<std::vector<Rank>> unpack_groups(UnpackOrder order, std::size_t together) {
  RankPlan plan;
  plan.unpack_order = order;
  for (const Rank peer : {0, 1, 2, 3}) {
    plan.sends.push_back({peer, 1, 1, {}, {}});
    plan.receives.push_back({peer, 1, 1, {}, {}});
  }
  ScriptedTransport transport(/*me=*/2, 4, /*arrivals=*/{3, 1, 0}, together);
  ExchangeBuffers buffers = ExchangeBuffers::for_plan(plan, 4, transport);
  std::vector<std::vector<Rank>> groups;
  exchange_async(transport, plan, buffers, [&](std::span<const std::size_t> ks, std::span<const std::byte* const>) {
    groups.emplace_back();
    for (const std::size_t k : ks) groups.back().push_back(plan.receives[k].peer);
  });
  return groups;
}

std::vector<Rank> unpack_sequence(UnpackOrder order) {
  std::vector<Rank> sequence;
  for (const auto& group : unpack_groups(order, 1)) sequence.insert(sequence.end(), group.begin(), group.end());
  return sequence;
}

TEST(IndexedExchange, ArrivalOrderUnpacksTheLocalPartFirstThenAsMessagesArrive) {
  EXPECT_EQ(unpack_sequence(UnpackOrder::Arrival), (std::vector<Rank>{2, 3, 1, 0}));
}

TEST(IndexedExchange, SourceRankOrderWaitsForEachSourceInTurn) {
  EXPECT_EQ(unpack_sequence(UnpackOrder::SourceRank), (std::vector<Rank>{0, 1, 2, 3}));
}

TEST(IndexedExchange, MessagesThatArriveTogetherAreUnpackedTogetherInArrivalOrder) {
  EXPECT_EQ(unpack_groups(UnpackOrder::Arrival, 2), (std::vector<std::vector<Rank>>{{2}, {3, 1}, {0}}));
  // The fixed order of PITFALLS and Prylli stays one message at a time.
  EXPECT_EQ(unpack_groups(UnpackOrder::SourceRank, 2), (std::vector<std::vector<Rank>>{{0}, {1}, {2}, {3}}));
}

TEST(IndexedExchange, PackingAllMessagesAtOnceEqualsPackingEach) {
  // Runs in local order (a 1-D plan) and out of it (as column-major storage gives).
  std::vector<PeerPlan> sends = {{0, 5, 3, {{0, 1}, {40000, 3}, {90000, 1}}, {}},
                                 {1, 6, 3, {{70000, 2}, {1, 2}, {99990, 2}}, {}},
                                 {2, 0, 0, {}, {}}};
  std::vector<std::byte> local(100000 * 2);
  for (std::size_t i = 0; i < local.size(); ++i) local[i] = static_cast<std::byte>(i * 7 % 251);
  std::vector<std::byte> each(22), all(22);
  std::vector<std::byte*> buffers = {all.data(), all.data() + 10, all.data() + 22};
  pack(sends[0], local, 2, each.data());
  pack(sends[1], local, 2, each.data() + 10);
  pack_messages(sends, local, 2, buffers);
  EXPECT_EQ(all, each);

  // And back: unpacking every message at once equals unpacking each.
  std::vector<std::byte> one_by_one(local.size()), together(local.size());
  unpack(sends[0], all.data(), 2, one_by_one);
  unpack(sends[1], all.data() + 10, 2, one_by_one);
  const std::vector<const std::byte*> messages = {all.data(), all.data() + 10, all.data() + 22};
  unpack_messages(sends, messages, 2, together);
  EXPECT_EQ(together, one_by_one);
  for (const auto& peer : sends) {
    for (const auto& run : peer.runs) {
      for (Index i = run.local_start * 2; i < (run.local_start + run.length) * 2; ++i) {
        EXPECT_EQ(together[static_cast<std::size_t>(i)], local[static_cast<std::size_t>(i)]) << i;
      }
    }
  }
}

}  // namespace
}  // namespace redist
