#include "redist/mpi/mpi_transport.hpp"

#include <climits>
#include <stdexcept>
#include <string>

#include "redist/mpi/message_memory_cache.hpp"
#include "redist/mpi/mpi_check.hpp"
#include "redist/mpi/run_datatype.hpp"
#include "redist/mpi/shared_window_publication.hpp"

namespace redist::mpi {
namespace {

// MPI counts are int: a message beyond 2^31 - 1 bytes would need derived datatypes.
int byte_count(Index bytes, const char* call) {
  if (bytes < 0 || bytes > INT_MAX) {
    throw std::length_error(std::string(call) + " of " + std::to_string(bytes) +
                                " bytes: MPI messages are limited to 2^31 - 1 bytes");
  }
  return static_cast<int>(bytes);
}

}  // namespace

MpiTransport::MpiTransport(MPI_Comm comm) : given_(comm) {
  check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  int* upper = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm_, MPI_TAG_UB, &upper, &found);
  if (found && upper != nullptr) tag_upper_bound_ = *upper;
}

MpiTransport::~MpiTransport() {
  // A transport kept past MPI_Finalize (a Plan destroyed at the end of main) has nothing left to free.
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  // Requests still pending belong to a run that failed; cancel receives so the free is legal.
  for (Slot& s : slots_) {
    if (!s.in_use || s.request == MPI_REQUEST_NULL) continue;
    if (s.receive) MPI_Cancel(&s.request);
    MPI_Request_free(&s.request);
  }
  MPI_Comm_free(&comm_);
}

void MpiTransport::check_peer(Rank peer, const char* call) const {
  if (peer < 0 || peer >= size_) {
    throw std::invalid_argument(std::string(call) + " with rank " + std::to_string(peer) + " of " +
                                std::to_string(size_));
  }
}

void MpiTransport::check_tag(Tag tag) const {
  if (tag < 0 || tag > tag_upper_bound_) {
    throw std::invalid_argument("tag " + std::to_string(tag) + " outside MPI's range 0.." +
                                std::to_string(tag_upper_bound_));
  }
}

Request MpiTransport::isend(Rank to, const std::byte* data, Index bytes, Tag tag) {
  check_peer(to, "isend");
  check_tag(tag);
  const int count = byte_count(bytes, "isend");
  if (count > 0 && data == nullptr) throw std::invalid_argument("isend from null data: MPI payloads are real");
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Isend(data, count, MPI_BYTE, to, tag, comm_, &request), "MPI_Isend");
  return post(false, request);
}

Request MpiTransport::irecv(Rank from, std::byte* data, Index capacity, Tag tag) {
  if (from != kAnySource) check_peer(from, "irecv");
  check_tag(tag);
  const int count = byte_count(capacity, "irecv");
  if (count > 0 && data == nullptr) throw std::invalid_argument("irecv into null data: MPI payloads are real");
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Irecv(data, count, MPI_BYTE, from == kAnySource ? MPI_ANY_SOURCE : from, tag, comm_, &request),
        "MPI_Irecv");
  return post(true, request);
}

std::shared_ptr<const MessagePlace> MpiTransport::describe_message(std::span<const Run> runs, Index, Index elem_bytes) {
  auto place = std::make_shared<DatatypePlace>();
  place->type = RunDatatype::of(runs, elem_bytes);
  if (!place->type.valid()) return nullptr;
  return place;
}

Request MpiTransport::isend_in_place(Rank to, const std::byte* local, const MessagePlace& place, Tag tag) {
  check_peer(to, "isend");
  check_tag(tag);
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Isend(local, 1, dynamic_cast<const DatatypePlace&>(place).type.get(), to, tag, comm_, &request),
            "MPI_Isend");
  return post(false, request);
}

Request MpiTransport::irecv_in_place(Rank from, std::byte* local, const MessagePlace& place, Tag tag) {
  check_peer(from, "irecv");
  check_tag(tag);
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Irecv(local, 1, dynamic_cast<const DatatypePlace&>(place).type.get(), from, tag, comm_, &request),
            "MPI_Irecv");
  return post(true, request);
}

Request MpiTransport::post(bool receive, MPI_Request request) {
  Request id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    id = static_cast<Request>(slots_.size());
    slots_.emplace_back();
  }
  slots_[static_cast<std::size_t>(id)] = {request, receive, true};
  return id;
}

MpiTransport::Slot& MpiTransport::slot(Request request) {
  if (request < 0 || request >= static_cast<Request>(slots_.size()) || !slots_[static_cast<std::size_t>(request)].in_use) {
    throw std::invalid_argument("unknown request " + std::to_string(request));
  }
  return slots_[static_cast<std::size_t>(request)];
}

Completion MpiTransport::finish(std::size_t index, Request id, const MPI_Status& status, std::span<Request> requests) {
  Slot& s = slot(id);
  Completion done{index, -1, 0};
  if (s.receive) {
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    done.source = status.MPI_SOURCE;
    done.bytes = count;
  }
  s = Slot{};
  free_.push_back(id);
  requests[index] = kNullRequest;
  return done;
}

bool MpiTransport::gather_requests(std::span<Request> requests) {
  scratch_.assign(requests.size(), MPI_REQUEST_NULL);
  bool any = false;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (requests[i] == kNullRequest) continue;
    scratch_[i] = slot(requests[i]).request;
    any = true;
  }
  return any;
}

Completion MpiTransport::wait_any(std::span<Request> requests) {
  if (!gather_requests(requests)) throw std::logic_error("wait_any without any pending request");
  int index = MPI_UNDEFINED;
  MPI_Status status;
  const int code = MPI_Waitany(static_cast<int>(scratch_.size()), scratch_.data(), &index, &status);
  if (index == MPI_UNDEFINED) {
    check_mpi(code, "MPI_Waitany");
    throw std::logic_error("wait_any: MPI reports no active request");
  }
  // MPI has released the request, failed or not: so do we, before reporting a failure.
  const auto i = static_cast<std::size_t>(index);
  slot(requests[i]).request = MPI_REQUEST_NULL;
  const Completion done = finish(i, requests[i], status, requests);
  check_mpi(code, "receive");
  return done;
}

std::vector<Completion> MpiTransport::wait_some(std::span<Request> requests) {
  if (!gather_requests(requests)) throw std::logic_error("wait_some without any pending request");
  int count = MPI_UNDEFINED;
  std::vector<int> indices(requests.size());
  std::vector<MPI_Status> statuses(requests.size());
  const int code = MPI_Waitsome(static_cast<int>(scratch_.size()), scratch_.data(), &count, indices.data(),
                                statuses.data());
  if (count == MPI_UNDEFINED) {
    check_mpi(code, "MPI_Waitsome");
    throw std::logic_error("wait_some: MPI reports no active request");
  }
  // MPI has released the completed requests, failed or not: so do we, before reporting a failure.
  std::vector<Completion> done;
  for (int j = 0; j < count; ++j) {
    const auto i = static_cast<std::size_t>(indices[static_cast<std::size_t>(j)]);
    slot(requests[i]).request = MPI_REQUEST_NULL;
    done.push_back(finish(i, requests[i], statuses[static_cast<std::size_t>(j)], requests));
  }
  check_mpi(code, "receive");
  return done;
}

void MpiTransport::wait_all(std::span<Request> requests) {
  scratch_.assign(requests.size(), MPI_REQUEST_NULL);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (requests[i] != kNullRequest) scratch_[i] = slot(requests[i]).request;
  }
  std::vector<MPI_Status> statuses(requests.size());
  const int code = MPI_Waitall(static_cast<int>(scratch_.size()), scratch_.data(), statuses.data());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (requests[i] == kNullRequest) continue;
    slot(requests[i]).request = scratch_[i];  // MPI_REQUEST_NULL once complete
    if (scratch_[i] == MPI_REQUEST_NULL) finish(i, requests[i], statuses[i], requests);
  }
  check_mpi(code, "MPI_Waitall");
}

MessageMemory MpiTransport::message_memory(std::size_t bytes) { return cached_message_memory(bytes); }

void MpiTransport::barrier() { check_mpi(MPI_Barrier(comm_), "MPI_Barrier"); }

Transport::PublicationOffer MpiTransport::publication_offer(const PublicationAsk& ask) {
  if (!use_shared_memory(given_, ask)) return {};
  return {true, once_piece_bytes()};
}

bool MpiTransport::reserve_publication(const PublicationNeeds& needs) {
  window_ = &WindowPublication::of(given_);
  return window_->reserve(needs);
}

std::byte* MpiTransport::publication_area() { return window_->area(); }

const std::byte* MpiTransport::published_area(Rank from) const { return window_->area_of(from); }

void MpiTransport::synchronise_publication() { window_->synchronise(); }

const std::byte* MpiTransport::shared_source(Rank from) const { return window_->source_of(from); }

void MpiTransport::finish_reading(bool sources_read) {
  window_->finish(sources_read);
  window_ = nullptr;
}

}  // namespace redist::mpi
