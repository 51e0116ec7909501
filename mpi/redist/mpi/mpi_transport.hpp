// The message layer over MPI (docs/ARCHITECTURE.md §3, §8): one MpiTransport is one rank of a communicator.
// Algorithms of algorithms/ run on it unchanged, on real data and in wall-clock time.
//
// Contract differences from the simulator: payloads are always real (phantom payloads are not
// supported: MPI moves bytes), charge() does nothing (the real time is spent anyway), and
// wait_any completes a request that has arrived — the first in the span among those complete when
// it looks — which is arrival order up to messages that land during the same poll.
#pragma once

#include <mpi.h>

#include <vector>

#include "redist/transport/transport.hpp"

namespace redist::mpi {

class WindowPublication;

class MpiTransport final : public Transport {
 public:
  /// Uses a duplicate of `comm`, so that redist's tags never meet the application's messages.
  /// Errors of MPI calls on it are returned and thrown as std::runtime_error.
  explicit MpiTransport(MPI_Comm comm);
  ~MpiTransport() override;
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;

  Rank rank() const override { return rank_; }
  Rank size() const override { return size_; }
  bool phantom() const override { return false; }

  Request isend(Rank to, const std::byte* data, Index bytes, Tag tag) override;
  Request irecv(Rank from, std::byte* data, Index capacity, Tag tag) override;
  /// A derived datatype of the runs (run_datatype.hpp), whose displacements are bytes from the
  /// storage: MPI reads or writes the pieces in place. Null when a piece or a count exceeds int.
  std::shared_ptr<const MessagePlace> describe_message(std::span<const Run> runs, Index elements,
                                                       Index elem_bytes) override;
  Request isend_in_place(Rank to, const std::byte* local, const MessagePlace& place, Tag tag) override;
  Request irecv_in_place(Rank from, std::byte* local, const MessagePlace& place, Tag tag) override;
  Completion wait_any(std::span<Request> requests) override;
  /// MPI_Waitsome: every request complete when it looks.
  std::vector<Completion> wait_some(std::span<Request> requests) override;
  void wait_all(std::span<Request> requests) override;
  void barrier() override;
  /// Shared publication through the shared window kept with the communicator the transport was
  /// made on (shared_window_publication.hpp), for when its ranks share a node. shares_memory()
  /// stays false: the window is offered call by call to redist's own exchange (use_shared_memory:
  /// a fresh window's page faults cost about as much as the exchange), with MPI's once-copy
  /// threshold (once_piece_bytes), and the algorithms' other exchanges (schedules, papers'
  /// programs) travel as MPI messages. Collective over window_comm().
  PublicationOffer publication_offer(const PublicationAsk& ask) override;
  bool reserve_publication(const PublicationNeeds& needs) override;
  std::byte* publication_area() override;
  const std::byte* published_area(Rank from) const override;
  void synchronise_publication() override;
  const std::byte* shared_source(Rank from) const override;
  void finish_reading(bool sources_read) override;
  /// The communicator the transport was made on: its shared window is the publication's.
  MPI_Comm window_comm() const { return given_; }
  /// From the process's cache (message_memory_cache.hpp): one rank per process, many calls.
  MessageMemory message_memory(std::size_t bytes) override;
  void charge(const Work&) override {}
  double now() const override { return MPI_Wtime(); }

  /// The (duplicated) communicator the transport talks on.
  MPI_Comm comm() const { return comm_; }

 private:
  struct Slot {
    MPI_Request request = MPI_REQUEST_NULL;
    bool receive = false;
    bool in_use = false;
  };
  Request post(bool receive, MPI_Request request);
  Slot& slot(Request request);
  /// The MPI requests of `requests` into scratch_ (MPI_REQUEST_NULL for kNullRequest); false if none.
  bool gather_requests(std::span<Request> requests);
  Completion finish(std::size_t index, Request id, const MPI_Status& status, std::span<Request> requests);
  void check_peer(Rank peer, const char* call) const;
  void check_tag(Tag tag) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Comm given_ = MPI_COMM_NULL;
  WindowPublication* window_ = nullptr;  // the publication of the exchange under way
  Rank rank_ = 0;
  Rank size_ = 0;
  int tag_upper_bound_ = 32767;
  std::vector<Slot> slots_;
  std::vector<Request> free_;
  std::vector<MPI_Request> scratch_;  // the MPI requests of one wait_any call
};

}  // namespace redist::mpi
