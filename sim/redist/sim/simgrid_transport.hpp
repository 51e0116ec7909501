// The message layer over SimGrid S4U: one transport per rank, living in that rank's actor.
//
// Timing model: a message is transferred when both its send and its receive have been posted
// (rendezvous, SimGrid's mailbox semantics and MPI's protocol for large messages); posting a send
// costs the host's cost.send_overhead of CPU time first, completing a receive costs
// cost.recv_overhead after arrival; charge() turns counted work into CPU time at the host's prices.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Host.hpp>

#include "redist/sim/matcher.hpp"
#include "redist/sim/request_table.hpp"
#include "redist/sim/world.hpp"
#include "redist/transport/transport.hpp"

namespace redist::sim {

class SimGridTransport final : public Transport {
 public:
  /// Must be created inside the actor of `rank`.
  SimGridTransport(World& world, Rank rank);
  ~SimGridTransport() override;
  SimGridTransport(const SimGridTransport&) = delete;
  SimGridTransport& operator=(const SimGridTransport&) = delete;

  Rank rank() const override { return rank_; }
  Rank size() const override { return world_.size(); }
  bool phantom() const override { return world_.phantom(); }

  Request isend(Rank to, const std::byte* data, Index bytes, Tag tag) override;
  Request irecv(Rank from, std::byte* data, Index capacity, Tag tag) override;
  Completion wait_any(std::span<Request> requests) override;
  void wait_all(std::span<Request> requests) override;
  void barrier() override;
  /// A message in place: its bytes travel as any message's; with real payloads the runs are
  /// gathered into, and scattered out of, buffers of the transport's, uncharged (the copies a
  /// message-passing library makes within its transfer, which the network's price covers).
  std::shared_ptr<const MessagePlace> describe_message(std::span<const Run> runs, Index elements,
                                                       Index elem_bytes) override;
  Request isend_in_place(Rank to, const std::byte* local, const MessagePlace& place, Tag tag) override;
  Request irecv_in_place(Rank from, std::byte* local, const MessagePlace& place, Tag tag) override;
  bool shares_memory() const override { return world_.shared_memory(); }
  /// Shared publication: every rank's area is memory of this process, which all actors read (only
  /// sizes in phantom runs). Each collective costs what the MPI implementation's costs: the
  /// agreement (one MPI_Allreduce of a few words) and each barrier cost a barrier() on the platform.
  bool reserve_publication(const PublicationNeeds& needs) override;
  std::byte* publication_area() override;
  const std::byte* published_area(Rank from) const override;
  void synchronise_publication() override { barrier(); }
  const std::byte* shared_source(Rank from) const override;
  void finish_reading(bool sources_read) override;
  bool control_prefix_reduction_sum(std::span<const Index> values, std::span<Index> prefix,
                                    std::span<Index> total) override;
  void charge(const Work& work) override;
  void charge_unpack(const Work& work, CopyLoop loop) override;
  double now() const override;

  /// Requests posted and not yet completed by wait_any/wait_all.
  std::size_t pending() const { return requests_.size(); }
  /// What this rank is blocked on, e.g. "in wait_all for a receive from rank 1 (tag 7)".
  std::string describe_wait() const;
  /// Simulates the CPU work charged and not yet simulated (see compute()).
  void settle();
  /// The rank's body has returned: simulates what is left and gives its core up to the ranks still
  /// running on it.
  void finish();

 private:
  struct PendingRequest {
    simgrid::s4u::CommPtr comm;
    bool receive = false;
    Rank peer = kAnySource;
    Tag tag = 0;
    Traffic traffic = Traffic::User;
    Index bytes = 0;                        ///< sent bytes, or receive capacity
    std::shared_ptr<ReceiveStatus> status;  ///< receives only
    std::optional<Channel> release;         ///< channel to return to the pool on completion
    Channel acknowledgement = -1;           ///< sends copied by CPUs: the channel their acknowledgement comes on
    void* landing = nullptr;                ///< where SimGrid drops the (unused) pointer payload
    std::vector<std::byte> staging;         ///< a message in place's bytes, gathered or to scatter
    const MessagePlace* scatter = nullptr;  ///< a receive in place: where its bytes go, from...
    std::byte* scatter_local = nullptr;     ///< ... this storage
  };

  /// The rank blocks in `call` (begin) and goes on (end): named for deadlock reports, its core given
  /// up meanwhile.
  void begin_wait(const char* call);
  void end_wait();
  /// Whether a message between this rank and `peer` is copied by their CPUs (oversubscribed host).
  bool copied_by_cpus(Rank peer, Traffic traffic) const;
  Request post_send(Rank to, const std::byte* data, Index bytes, Tag tag, Traffic traffic);
  Request post_receive(Rank from, std::byte* data, Index capacity, Tag tag, Traffic traffic);

  /// Position of the request whose message arrived first, blocking until one has.
  std::size_t first_arrival(std::span<Request> requests, const char* call);
  Completion complete(std::span<Request> requests, std::size_t index);
  void complete_all(std::span<Request> requests, const char* call);

  void dissemination_barrier();
  void control_barrier(double latency);
  /// Occupies this rank's CPU for `seconds` (shown as computation in traces).
  /// Charges CPU seconds. On a host of its own, a rank's work is simulated lazily, in one execution,
  /// when it next sends, receives, blocks or finishes (settle()): each SimGrid execution costs host
  /// time, and its local work runs in sequence anyway. now() counts the backlog, so phase timers
  /// are exact.
  void compute(double seconds);
  /// charge() and charge_unpack(): the copies' bytes through the node's memory, by `loop`, the rest
  /// on the CPU.
  void charge_copies(const Work& work, CopyLoop loop);
  /// `work` priced on the CPU, its copies (ranks_per_core.hpp's split_copies) the rank's copy slowdown
  /// times longer, the rest its work slowdown times.
  double cpu_seconds(const Work& work) const;

  World& world_;
  Rank rank_;
  simgrid::s4u::Host* host_;
  const WorkPrices& prices_;
  RequestTable<PendingRequest> requests_;
  std::vector<simgrid::s4u::ActivityPtr> unfinished_;  // first_arrival's, kept to reuse its memory
  // What the rank is blocked in, for deadlock reports.
  const char* blocked_call_ = nullptr;
  double cpu_backlog_ = 0;  // CPU seconds charged, not yet simulated
  // Lazy only on a host of its own: ranks sharing a core slow each other down, which only
  // simulating each piece of work as it comes accounts for.
  bool lazy_cpu_;
  bool trace_cpu_;  // CPU work as executions, visible in the trace
  std::optional<CoreTurn> turn_;  // where the rank takes its core in turn with others
  std::span<const Request> blocked_on_;
};

}  // namespace redist::sim
