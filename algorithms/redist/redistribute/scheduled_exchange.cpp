#include "redist/redistribute/scheduled_exchange.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

namespace redist {
namespace {

// Plan entries are indexed by rank (a plan has at most one entry per rank, and ranks are ints): the
// tables below hold one per rank and step, P·Q of them in a simulated all-to-all, so they stay small.
using PlanEntry = std::int32_t;
constexpr PlanEntry kNoMessage = -1;

constexpr Rank kNoRank = -1;

// This rank's part of one step: the plan entries it sends and receives, if any, and the ranks it
// exchanges an empty message with (a caterpillar's pair without data, IdlePairs::ExchangeEmpty).
struct StepRole {
  PlanEntry send = kNoMessage;
  PlanEntry receive = kNoMessage;
  Rank empty_to = kNoRank;
  Rank empty_from = kNoRank;
};

// Plan index of the message exchanged with each rank, kNoMessage for none or for the rank itself.
std::vector<PlanEntry> by_peer(const std::vector<PeerPlan>& peers, Rank me, Rank size) {
  std::vector<PlanEntry> index(static_cast<std::size_t>(size), kNoMessage);
  for (std::size_t k = 0; k < peers.size(); ++k) {
    if (peers[k].peer != me) index[static_cast<std::size_t>(peers[k].peer)] = static_cast<PlanEntry>(k);
  }
  return index;
}

// Takes the plan entry for `peer` (each message goes in exactly one step).
PlanEntry take(std::vector<PlanEntry>& index, Rank peer) {
  return std::exchange(index[static_cast<std::size_t>(peer)], kNoMessage);
}

void require_all_taken(const std::vector<PlanEntry>& index, const char* direction, Rank me) {
  for (std::size_t peer = 0; peer < index.size(); ++peer) {
    if (index[peer] != kNoMessage) {
      throw std::logic_error("the schedule misses the message " + std::string(direction) + " rank " +
                             std::to_string(peer) + " of rank " + std::to_string(me));
    }
  }
}

// For each source and each destination processor, the (step, peer) pairs it takes part in: built
// once per schedule, so that a rank finds its own steps without scanning every message (P·Q of them
// in an all-to-all, for each of the P ranks).
struct StepPeer {
  std::uint32_t step;
  std::int32_t peer;  ///< the processor at the other end
  bool empty;         ///< an empty message (length 0)
};

struct ProcessorSteps {
  std::vector<std::vector<StepPeer>> sends;     ///< by source: peer = destination
  std::vector<std::vector<StepPeer>> receives;  ///< by destination: peer = source
};

ProcessorSteps index_by_processor(const Schedule& schedule) {
  constexpr auto kMaxSteps = static_cast<std::size_t>(std::numeric_limits<std::uint32_t>::max());
  constexpr auto kMaxProcessors = static_cast<Index>(std::numeric_limits<std::int32_t>::max());
  if (schedule.steps.size() > kMaxSteps || schedule.P > kMaxProcessors || schedule.Q > kMaxProcessors) {
    throw std::invalid_argument("a schedule of " + std::to_string(schedule.steps.size()) + " steps over " +
                                std::to_string(schedule.P) + " -> " + std::to_string(schedule.Q) +
                                " processors is too large to run");
  }
  ProcessorSteps index{std::vector<std::vector<StepPeer>>(static_cast<std::size_t>(schedule.P)),
                       std::vector<std::vector<StepPeer>>(static_cast<std::size_t>(schedule.Q))};
  // Sized exactly first: at 4096 ranks the lists hold 2 · 16.8 million entries, and growth by
  // doubling would hold up to twice that.
  std::vector<std::size_t> sends(index.sends.size()), receives(index.receives.size());
  for (const auto& step : schedule.steps) {
    for (const auto& m : step.messages) {
      ++sends[static_cast<std::size_t>(m.src)];
      ++receives[static_cast<std::size_t>(m.dst)];
    }
  }
  for (std::size_t p = 0; p < sends.size(); ++p) index.sends[p].reserve(sends[p]);
  for (std::size_t q = 0; q < receives.size(); ++q) index.receives[q].reserve(receives[q]);
  for (std::size_t k = 0; k < schedule.steps.size(); ++k) {
    for (const auto& m : schedule.steps[k].messages) {
      const auto step = static_cast<std::uint32_t>(k);
      index.sends[static_cast<std::size_t>(m.src)].push_back({step, static_cast<std::int32_t>(m.dst), m.length == 0});
      index.receives[static_cast<std::size_t>(m.dst)].push_back({step, static_cast<std::int32_t>(m.src), m.length == 0});
    }
  }
  return index;
}

// The index of the schedule most recently used (every rank of a simulated run uses the same one).
std::shared_ptr<const ProcessorSteps> processor_steps(const std::shared_ptr<const Schedule>& schedule) {
  static std::mutex mutex;
  static std::shared_ptr<const Schedule> indexed;  // held, so its address cannot be reused meanwhile
  static std::shared_ptr<const ProcessorSteps> index;
  const std::lock_guard lock(mutex);
  if (indexed != schedule) {
    index = std::make_shared<const ProcessorSteps>(index_by_processor(*schedule));
    indexed = schedule;
  }
  return index;
}

std::vector<StepRole> roles_of(const std::shared_ptr<const Schedule>& schedule, const RankPlan& plan,
                               const RankMap& ranks, Rank me, Rank size) {
  auto sends = by_peer(plan.sends, me, size);
  auto receives = by_peer(plan.receives, me, size);
  const auto index = processor_steps(schedule);
  std::vector<StepRole> roles(schedule->steps.size());
  // One end of this rank's scheduled pairs: an empty message, or the plan entry the pair carries.
  const auto assign = [me](const std::vector<StepPeer>& steps, auto rank_of, auto empty_end, auto entry_end,
                           std::vector<PlanEntry>& entries, std::vector<StepRole>& out) {
    for (const auto& [step, peer, empty] : steps) {
      const Rank other = rank_of(peer);
      if (other == me) continue;
      if (empty) {
        out[step].*empty_end = other;
      } else {
        out[step].*entry_end = take(entries, other);
      }
    }
  };
  if (const auto p = ranks.source_of(me, schedule->P)) {
    assign(index->sends[static_cast<std::size_t>(*p)], [&](Index q) { return ranks.dest_rank(q); },
           &StepRole::empty_to, &StepRole::send, sends, roles);
  }
  if (const auto q = ranks.dest_of(me, schedule->Q)) {
    assign(index->receives[static_cast<std::size_t>(*q)], [&](Index p) { return ranks.source_rank(p); },
           &StepRole::empty_from, &StepRole::receive, receives, roles);
  }
  require_all_taken(sends, "to", me);
  require_all_taken(receives, "from", me);
  return roles;
}

// One step: post the receive, send, wait for both. Returns whether a message with data arrived.
bool run_step(Transport& transport, const RankPlan& plan, ExchangeBuffers& buffers, const StepRole& role,
              ExchangeTimes& times) {
  std::array<Request, 2> pending{};
  std::size_t count = 0;
  if (role.empty_from != kNoRank) pending[count++] = transport.irecv(role.empty_from, nullptr, 0, kDataTag);
  if (role.empty_to != kNoRank) {
    pending[count++] = transport.isend(role.empty_to, nullptr, 0, kDataTag);
    ++times.messages_sent;
  }
  if (role.receive != kNoMessage) {
    const auto k = static_cast<std::size_t>(role.receive);
    pending[count++] = transport.irecv(plan.receives[k].peer, buffers.recv_data(k), buffers.recv_bytes(k), kDataTag);
  }
  if (role.send != kNoMessage) {
    const auto k = static_cast<std::size_t>(role.send);
    pending[count++] = transport.isend(plan.sends[k].peer, buffers.send_data(k), buffers.send_bytes(k), kDataTag);
    ++times.messages_sent;
    times.bytes_sent += buffers.send_bytes(k);
  }
  if (count == 0) return false;
  transport.wait_all(std::span<Request>(pending.data(), count));
  return role.receive != kNoMessage;
}

}  // namespace

ExchangeTimes exchange_scheduled(Transport& transport, const RankPlan& plan, ExchangeBuffers& buffers,
                                 const UnpackMessages& unpack_messages, const std::shared_ptr<const Schedule>& schedule,
                                 const RankMap& ranks, StepProcedure procedure) {
  const Rank me = transport.rank();
  const std::vector<StepRole> roles = roles_of(schedule, plan, ranks, me, transport.size());
  ExchangeTimes times;
  const auto timed_unpack = [&](std::size_t k, const std::byte* data) {
    const double before = transport.now();
    unpack_messages({&k, 1}, {&data, 1});
    times.unpack += transport.now() - before;
  };
  const auto self_send = peer_index(plan.sends, me), self_recv = peer_index(plan.receives, me);
  const bool has_self = self_send && self_recv;
  const std::byte* self_data = has_self ? buffers.send_data(*self_send) : nullptr;

  transport.barrier();
  const double start = transport.now();
  if (procedure == StepProcedure::Paper004) {
    for (const StepRole& role : roles) run_step(transport, plan, buffers, role, times);
    times.comm = transport.now() - start;
    // Every buffer, the local part included, in plan order.
    for (std::size_t k = 0; k < plan.receives.size(); ++k) {
      if (k == self_recv) {
        if (has_self) timed_unpack(k, self_data);
      } else {
        timed_unpack(k, buffers.recv_data(k));
      }
    }
    return times;
  }
  // The data that stays on this rank is copied straight from its send buffer.
  if (has_self) timed_unpack(*self_recv, self_data);
  for (const StepRole& role : roles) {
    if (run_step(transport, plan, buffers, role, times)) {
      const auto k = static_cast<std::size_t>(role.receive);
      timed_unpack(k, buffers.recv_data(k));
    }
  }
  times.comm = transport.now() - start - times.unpack;
  return times;
}

}  // namespace redist
