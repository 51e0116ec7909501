// The message layer (docs/ARCHITECTURE.md §3): the only thing redistribution algorithms talk to. One Transport
// is the view of one rank. It is implemented over SimGrid (sim/, simulated time) and over MPI
// (mpi/, wall time); algorithms written against it run unchanged on both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "redist/core/int_math.hpp"
#include "redist/transport/copy_loop.hpp"
#include "redist/transport/run.hpp"
#include "redist/transport/work.hpp"

namespace redist {

using Rank = int;
using Tag = int;
inline constexpr Rank kAnySource = -1;

/// Handle of a pending isend/irecv. A completed request is reset to kNullRequest by wait_any/wait_all.
using Request = std::int64_t;
inline constexpr Request kNullRequest = -1;

/// Memory for message buffers, handed out by Transport::message_memory and given back by its deleter.
using MessageMemory = std::unique_ptr<std::byte[], std::function<void(std::byte*)>>;

/// A message's place in a rank's local storage as the transport describes it to move the message
/// in place (Transport::describe_message): MPI's derived datatype, the simulator's run list.
class MessagePlace {
 public:
  virtual ~MessagePlace() = default;
};

/// What a completed request reports (for a receive: who sent it and how many bytes arrived).
struct Completion {
  std::size_t index = 0;  ///< position of the completed request in the span given to wait_any
  Rank source = -1;       ///< sender of a completed receive; -1 for a send
  Index bytes = 0;        ///< bytes transferred
};

/// What reserve_publication throws on every rank, before anything is written, when the memory it
/// needs cannot be had (MPI's shared window): the exchange then travels as messages.
class PublicationUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Transport {
 public:
  virtual ~Transport() = default;

  virtual Rank rank() const = 0;
  virtual Rank size() const = 0;

  /// True when payloads are phantom: sizes travel and are timed, no bytes are materialised, and
  /// the data pointers given to isend/irecv may be null.
  virtual bool phantom() const = 0;

  /// Starts sending `bytes` bytes from `data` to rank `to`. `data` must stay valid until completion.
  virtual Request isend(Rank to, const std::byte* data, Index bytes, Tag tag) = 0;
  /// Starts receiving at most `capacity` bytes into `data` from rank `from` (or kAnySource).
  /// Messages between one pair of ranks with the same tag arrive in the order they were sent.
  virtual Request irecv(Rank from, std::byte* data, Index capacity, Tag tag) = 0;

  /// A message that travels straight out of the sender's storage into the receiver's, its
  /// `elements` elements of `elem_bytes` bytes lying in `runs` of that storage, with no pack or
  /// unpack of the caller's: described once (kept with the plan, used by every exchange of it).
  /// Null where the transport cannot move this message so: the caller packs it. The default:
  /// null for every message.
  virtual std::shared_ptr<const MessagePlace> describe_message(std::span<const Run> runs, Index elements,
                                                               Index elem_bytes) {
    (void)runs, (void)elements, (void)elem_bytes;
    return nullptr;
  }
  /// Starts sending, or receiving, the message `place` describes, its runs counted from `local`
  /// (the rank's source, or destination, storage): isend and irecv for a described message.
  virtual Request isend_in_place(Rank to, const std::byte* local, const MessagePlace& place, Tag tag) {
    (void)to, (void)local, (void)place, (void)tag;
    throw std::logic_error("isend_in_place on a transport that describes no message");
  }
  virtual Request irecv_in_place(Rank from, std::byte* local, const MessagePlace& place, Tag tag) {
    (void)from, (void)local, (void)place, (void)tag;
    throw std::logic_error("irecv_in_place on a transport that describes no message");
  }

  /// Blocks until one request of `requests` that is not kNullRequest completes; resets it to
  /// kNullRequest and reports it. Requests complete in arrival order (paper 000's Krr unpacks so).
  /// Precondition: at least one request is pending.
  virtual Completion wait_any(std::span<Request> requests) = 0;
  /// Blocks until at least one request of `requests` completes, then reports every one complete by
  /// then (MPI_Waitsome), each reset to kNullRequest: messages that arrived together can be handled
  /// together. The default reports one, as wait_any (the simulator: arrivals one at a time).
  virtual std::vector<Completion> wait_some(std::span<Request> requests) { return {wait_any(requests)}; }
  /// Blocks until every request completes; all are reset to kNullRequest.
  virtual void wait_all(std::span<Request> requests) = 0;
  virtual void barrier() = 0;

  /// Optional hardware collective (the CM-5 control network): over ALL ranks, in rank order, writes
  /// the element-wise exclusive prefix sum of `values` into `prefix` and their sum into `total`.
  /// Every rank calls it with vectors of the same length. Returns false, touching nothing, when the
  /// platform has no such network: the caller then runs a point-to-point algorithm instead.
  virtual bool control_prefix_reduction_sum(std::span<const Index> values, std::span<Index> prefix,
                                            std::span<Index> total) {
    (void)values, (void)prefix, (void)total;
    return false;
  }

  /// True when every rank can read every other rank's memory (the ranks of one node, as MPI-3
  /// shared windows give them): messages then need not travel, each rank publishes them in an area
  /// its peers read (the calls below). False by default.
  virtual bool shares_memory() const { return false; }

  // Shared publication, where publication_offer() offers it for an exchange: for every exchange
  // where shares_memory(), or call by call (MPI's layer answers shares_memory() false, as its
  // messages do travel, and offers its shared window to redist's own exchanges where its ranks
  // share a node). Each rank owns one publication area, which it writes and every rank reads.
  // One exchange (redistribute/shared_memory_exchange.hpp) is:
  //   reserve_publication, write publication_area(), synchronise_publication, read
  //   published_area(peer) (and shared_source(peer)), finish_reading.
  // Every rank makes each collective call the same number of times, in the same order.

  /// What this rank brings to publication_offer: what it exchanges.
  struct PublicationAsk {
    bool sends = false;     ///< this rank has messages for other ranks ...
    bool receives = false;  ///< ... or from them
    std::span<const std::byte> source;  ///< this rank's source storage (empty when it has none)
  };
  /// The message layer's answer for one exchange.
  struct PublicationOffer {
    bool offered = false;  ///< the exchange goes through shared publication
    /// From how many bytes a piece a message is copied once (shared_memory_exchange.hpp's
    /// copied_once); empty: the exchange's own threshold.
    std::optional<Index> once_piece_bytes;
  };
  /// Asked by redistribute's execute() before each exchange without steps that shared publication
  /// could carry (any work's where shares_memory(), redist's own elsewhere): whether this one goes
  /// through it. Collective where the layer agrees on the answer (MPI). Default: shares_memory().
  virtual PublicationOffer publication_offer(const PublicationAsk& ask) {
    (void)ask;
    return {shares_memory(), std::nullopt};
  }

  /// What this rank brings to reserve_publication.
  struct PublicationNeeds {
    Index packed_bytes = 0;    ///< area needed with every message packed
    Index in_place_bytes = 0;  ///< area needed when the sources are readable in place (copy once)
    bool sends = false;        ///< this rank has messages for other ranks ...
    bool receives = false;     ///< ... or from them (a rank with neither takes no side on copying once)
    std::span<const std::byte> source;  ///< this rank's source storage (empty when it has none)
  };
  /// Collective over all ranks. Agrees whether every rank that sends or receives has its source
  /// in storage the other ranks read in place (shared_source): true, the ranks may copy messages
  /// once, straight out of their senders' sources. Then makes this rank's area at least
  /// `in_place_bytes` (true) or `packed_bytes` (false); growing it may lose what it held. No rank
  /// returns before every rank has entered it: once it returns, no rank still reads what the
  /// previous exchange published, and a rank may overwrite its area.
  virtual bool reserve_publication(const PublicationNeeds& needs) {
    (void)needs;
    throw std::logic_error("reserve_publication on a transport whose ranks share no memory");
  }
  /// This rank's area, as large as reserve_publication made it; null in phantom runs.
  virtual std::byte* publication_area() { return nullptr; }
  /// Rank `from`'s area as this rank reads it; null in phantom runs.
  virtual const std::byte* published_area(Rank from) const {
    (void)from;
    return nullptr;
  }
  /// Collective over all ranks: what every rank wrote to its area, and to its source storage
  /// before reserve_publication, visible to all, and all ranks past this point.
  virtual void synchronise_publication() {}
  /// Where the storage that holds rank `from`'s source begins as this rank reads it, once
  /// reserve_publication agreed on sources read in place: a sender publishes its source's offset
  /// from its own, a receiver reads at that offset from its sender's. Null in phantom runs.
  virtual const std::byte* shared_source(Rank from) const {
    (void)from;
    return nullptr;
  }
  /// Ends this rank's reading of the others' areas (and, when `sources_read`, their sources).
  /// Collective when `sources_read` (every rank passes the agreed value): no rank returns while
  /// another still reads its source, which its caller may write next. Otherwise local: the next
  /// reserve_publication keeps areas from being overwritten while still read.
  virtual void finish_reading(bool sources_read) { (void)sources_read; }

  /// At least `bytes` bytes for message buffers (uninitialised). The default allocates them afresh.
  /// A transport whose rank owns its process (MPI) may hand out memory kept from earlier calls:
  /// fresh memory costs a page fault per page on first touch, about as much as copying into it.
  virtual MessageMemory message_memory(std::size_t bytes) {
    return MessageMemory(new std::byte[bytes], [](std::byte* p) { delete[] p; });
  }

  /// Declares modelled local work: simulated computation on the simulator, nothing on MPI (the
  /// real time is spent anyway).
  virtual void charge(const Work& work) = 0;
  /// charge() for an unpacking's work: messages that have arrived copied into local storage by
  /// `loop` (one message's, or several in one sweep: unpack_loop), whose copies a node's memory
  /// model prices by that loop (node_memory.hpp); charge() prices copies as packs.
  virtual void charge_unpack(const Work& work, CopyLoop /*loop*/) { charge(work); }
  /// Seconds: the simulated clock, or MPI_Wtime.
  virtual double now() const = 0;
};

}  // namespace redist
