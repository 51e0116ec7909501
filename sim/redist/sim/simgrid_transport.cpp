#include "redist/sim/simgrid_transport.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <vector>

#include <xbt/config.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include "redist/redistribute/message_packing.hpp"
#include "redist/transport/ranks_per_core.hpp"
#include "redist/transport/message_regime.hpp"

namespace redist::sim {
namespace {

// SimGrid refuses a null payload pointer; the bytes travel through the matcher, not through SimGrid.
int payload_token = 0;

// A message's place as the simulator moves it in place: its runs (none in phantom runs) and the
// bytes of local storage they span, its size.
struct RunPlace final : MessagePlace {
  PeerPlan message;
  Index extent = 0;
  Index elem_bytes = 0;
  Index bytes() const { return message.elements * elem_bytes; }
};

std::string peer_name(Rank peer) { return peer == kAnySource ? "any rank" : "rank " + std::to_string(peer); }

}  // namespace

SimGridTransport::SimGridTransport(World& world, Rank rank)
    : world_(world),
      rank_(rank),
      host_(world.placement(rank).host),
      prices_(world.placement(rank).prices),
      lazy_cpu_(!world.host_is_shared(rank)),
      trace_cpu_(simgrid::config::get_value<bool>("tracing")) {
  // Every rank enters the call at time 0 and reads its clock then, whether or not it has its core:
  // MPI processes enter a call together after a barrier (7 on 2 cores within 0.1 ms of each other,
  // their first MPI calls yielding the core in turn), and one whose core is busy waits for it
  // inside the call, a wait its time counts (CoreTurn::compute takes the core when work comes).
  if (const auto& core = world.placement(rank).core) turn_.emplace(core, static_cast<long>(rank));
  world_.attach(rank_, this);
}

SimGridTransport::~SimGridTransport() { world_.detach(rank_); }

Request SimGridTransport::isend(Rank to, const std::byte* data, Index bytes, Tag tag) {
  if (to < 0 || to >= size()) {
    throw std::invalid_argument("isend to rank " + std::to_string(to) + " of " + std::to_string(size()));
  }
  if (bytes < 0) throw std::invalid_argument("isend of a negative size " + std::to_string(bytes));
  if (!phantom() && bytes > 0 && data == nullptr) throw std::invalid_argument("isend of real payload from null data");
  return post_send(to, data, bytes, tag, Traffic::User);
}

Request SimGridTransport::irecv(Rank from, std::byte* data, Index capacity, Tag tag) {
  if (from != kAnySource && (from < 0 || from >= size())) {
    throw std::invalid_argument("irecv from rank " + std::to_string(from) + " of " + std::to_string(size()));
  }
  if (capacity < 0) throw std::invalid_argument("irecv of a negative capacity " + std::to_string(capacity));
  if (!phantom() && capacity > 0 && data == nullptr) {
    throw std::invalid_argument("irecv of real payload into null data");
  }
  return post_receive(from, data, capacity, tag, Traffic::User);
}

std::shared_ptr<const MessagePlace> SimGridTransport::describe_message(std::span<const Run> runs, Index elements,
                                                                       Index elem_bytes) {
  auto place = std::make_shared<RunPlace>();
  place->message.elements = elements;
  place->elem_bytes = elem_bytes;
  if (phantom()) return place;
  place->message.runs.assign(runs.begin(), runs.end());
  for (const Run& run : runs) {
    place->extent = std::max(place->extent, (run.local_start + (run.count - 1) * run.stride + run.length) * elem_bytes);
  }
  return place;
}

Request SimGridTransport::isend_in_place(Rank to, const std::byte* local, const MessagePlace& place, Tag tag) {
  const auto& runs = dynamic_cast<const RunPlace&>(place);
  if (phantom()) return isend(to, nullptr, runs.bytes(), tag);
  std::vector<std::byte> staging(static_cast<std::size_t>(runs.bytes()));
  pack(runs.message, {local, static_cast<std::size_t>(runs.extent)}, runs.elem_bytes, staging.data());
  const Request id = isend(to, staging.data(), runs.bytes(), tag);
  requests_.at(id).staging = std::move(staging);  // the same memory, held until the send completes
  return id;
}

Request SimGridTransport::irecv_in_place(Rank from, std::byte* local, const MessagePlace& place, Tag tag) {
  const auto& runs = dynamic_cast<const RunPlace&>(place);
  if (phantom()) return irecv(from, nullptr, runs.bytes(), tag);
  std::vector<std::byte> staging(static_cast<std::size_t>(runs.bytes()));
  const Request id = irecv(from, staging.data(), runs.bytes(), tag);
  PendingRequest& request = requests_.at(id);
  request.staging = std::move(staging);
  request.scatter = &place;
  request.scatter_local = local;
  return id;
}

// Where the ranks outnumber their host's cores, a message to another rank of the host is copied by
// a CPU: the receiver's, out of the sender's memory, once the message has arrived (complete); it
// then acknowledges it, and the send completes when the acknowledgement is in (MPI's shared-memory
// transport hands a message over through its receiver's progress). In between, the message and
// its acknowledgement each take the route's latency. Only the callers' messages: the control
// messages of collectives stay flows. A message posted is never published.
bool SimGridTransport::copied_by_cpus(Rank peer, Traffic traffic) const {
  if (traffic != Traffic::User) return false;
  const RankPlacement& me = world_.placement(rank_);
  return message_regime({.shared_publication = false,
                         .same_host = peer != rank_ && world_.placement(peer).host == host_,
                         .ranks_on_host = me.ranks_on_host,
                         .cores = me.cores,
                         .copy_rate = me.message_copy_rate}) == MessageRegime::CpuCopies;
}

// Whichever half of a message is posted second meets the first in the matcher and starts its
// SimGrid communication on the first one's channel; the channel is free again once that completes.
Request SimGridTransport::post_send(Rank to, const std::byte* data, Index bytes, Tag tag, Traffic traffic) {
  compute(prices_.send_overhead);
  const bool copied = copied_by_cpus(to, traffic);
  settle();  // the message leaves once the CPU has done everything asked before
  SendSide send{rank_, tag, traffic, data, bytes};
  if (copied) send.acknowledgement = world_.take_acknowledgement();
  const auto posting = world_.matcher().post_send(to, send);
  if (posting.matched) deliver(send, *posting.matched, to, phantom());

  auto [id, request] = requests_.acquire();
  if (copied) {  // only the route's latency, and the send waits for the receiver's acknowledgement
    world_.mailbox(posting.channel)->put_init(&payload_token, 0)->detach();
    request.comm = world_.acknowledgement_mailbox(send.acknowledgement)->get_async(&request.landing);
  } else {
    request.comm = world_.mailbox(posting.channel)->put_async(&payload_token, static_cast<std::uint64_t>(bytes));
  }
  request.acknowledgement = send.acknowledgement;
  request.receive = false;
  request.peer = to;
  request.tag = tag;
  request.traffic = traffic;
  request.bytes = bytes;
  request.release = posting.matched ? std::optional(posting.channel) : std::nullopt;
  request.scatter = nullptr;
  return id;
}

Request SimGridTransport::post_receive(Rank from, std::byte* data, Index capacity, Tag tag, Traffic traffic) {
  settle();
  auto [id, request] = requests_.acquire();
  // The status outlives the request while a queued receive still points to it; else it is reused.
  if (request.status.use_count() == 1) {
    *request.status = ReceiveStatus{};
  } else {
    request.status = std::make_shared<ReceiveStatus>();
  }
  const ReceiveSide receive{from, tag, traffic, data, capacity, request.status};
  const auto posting = world_.matcher().post_receive(rank_, receive);
  if (posting.matched) deliver(*posting.matched, receive, rank_, phantom());

  request.comm = world_.mailbox(posting.channel)->get_async(&request.landing);
  request.receive = true;
  request.peer = from;
  request.tag = tag;
  request.traffic = traffic;
  request.bytes = capacity;
  request.release = posting.matched ? std::optional(posting.channel) : std::nullopt;
  request.scatter = nullptr;
  return id;
}

Completion SimGridTransport::wait_any(std::span<Request> requests) {
  return complete(requests, first_arrival(requests, "wait_any"));
}

// Completing one at a time in arrival order charges each receive's overhead as soon as its message
// is in, overlapping it with the transfers still under way, as a real progress engine would.
void SimGridTransport::wait_all(std::span<Request> requests) { complete_all(requests, "wait_all"); }

void SimGridTransport::complete_all(std::span<Request> requests, const char* call) {
  for (;;) {
    bool any = false;
    for (Request r : requests) any = any || r != kNullRequest;
    if (!any) return;
    complete(requests, first_arrival(requests, call));
  }
}

// SimGrid's wait_any reports the first finished communication in vector order, not the first to
// arrive; the finish times SimGrid records give the arrival order (ties: lowest position).
std::size_t SimGridTransport::first_arrival(std::span<Request> requests, const char* call) {
  for (;;) {
    std::optional<std::size_t> first;
    double first_time = 0;
    auto& unfinished = unfinished_;
    unfinished.clear();
    for (std::size_t i = 0; i < requests.size(); ++i) {
      if (requests[i] == kNullRequest) continue;
      const auto& comm = requests_.at(requests[i]).comm;
      const double finished_at = comm->get_finish_time();
      if (finished_at < 0) {
        unfinished.push_back(comm);
      } else if (!first || finished_at < first_time) {
        first = i;
        first_time = finished_at;
      }
    }
    if (first) return *first;
    if (unfinished.empty()) throw std::logic_error(std::string(call) + " without any pending request");
    if (cpu_backlog_ > 0) {  // work still to do before this rank can block: do it, then look again
      settle();
      continue;
    }
    begin_wait(call);
    blocked_on_ = requests;
    simgrid::s4u::Activity::wait_any(unfinished);  // Comm::wait_any would copy and cast the vector
    end_wait();
    blocked_on_ = {};
  }
}

Completion SimGridTransport::complete(std::span<Request> requests, std::size_t index) {
  const Request id = std::exchange(requests[index], kNullRequest);
  PendingRequest& request = requests_.at(id);
  request.comm->wait();  // already finished: only settles SimGrid's bookkeeping
  request.comm = nullptr;
  requests_.release(id);  // the fields read below stay as they are until the slot is taken again
  if (request.release) world_.matcher().release(*request.release);
  if (!request.receive) {
    if (request.acknowledgement >= 0) world_.release_acknowledgement(request.acknowledgement);
    request.staging = {};
    return Completion{index, -1, request.bytes};
  }
  if (!request.status->error.empty()) throw std::runtime_error(request.status->error);
  if (request.scatter != nullptr) {
    const auto& runs = dynamic_cast<const RunPlace&>(*request.scatter);
    unpack(runs.message, request.staging.data(), runs.elem_bytes,
           {request.scatter_local, static_cast<std::size_t>(runs.extent)});
    request.scatter = nullptr;
    request.staging = {};
  }
  compute(prices_.recv_overhead);
  if (const Channel acknowledgement = request.status->acknowledgement; acknowledgement >= 0) {
    compute(static_cast<double>(request.status->bytes) / world_.placement(rank_).message_copy_rate);
    settle();
    world_.acknowledgement_mailbox(acknowledgement)->put_init(&payload_token, 0)->detach();
  }
  return Completion{index, request.status->source, request.status->bytes};
}

void SimGridTransport::barrier() {
  if (const auto& latency = world_.barrier_latency()) {
    control_barrier(*latency);
  } else {
    dissemination_barrier();
  }
}

// Every rank says whether it takes part, then all meet (the allreduce's cost), then each decides
// as MPI's agreement does (in_process_publication.hpp).
bool SimGridTransport::reserve_publication(const PublicationNeeds& needs) {
  world_.publications().bring(rank_, needs);
  barrier();
  return world_.publications().agree(rank_, needs, world_.sources_shared(), phantom());
}

std::byte* SimGridTransport::publication_area() { return phantom() ? nullptr : world_.publications().area(rank_); }

const std::byte* SimGridTransport::published_area(Rank from) const {
  return phantom() ? nullptr : world_.publications().area(from);
}

// A source in shared storage is read where it lies: each rank's storage begins at its source.
const std::byte* SimGridTransport::shared_source(Rank from) const { return world_.publications().source(from); }

void SimGridTransport::finish_reading(bool sources_read) {
  if (sources_read) barrier();
}

// Hensgen, Finkel and Manber's dissemination barrier: ceil(log2 P) rounds of one zero-byte message
// each way, so a barrier costs what its messages cost on the platform.
void SimGridTransport::dissemination_barrier() {
  const Rank p = size();
  Tag round = 0;
  for (Rank distance = 1; distance < p; distance *= 2, ++round) {
    std::array<Request, 2> requests = {
        post_receive((rank_ - distance + p) % p, nullptr, 0, round, Traffic::Internal),
        post_send((rank_ + distance) % p, nullptr, 0, round, Traffic::Internal)};
    complete_all(requests, "barrier");
  }
}

// A hardware control network (the CM-5's): everyone waits for the last rank, then pays its latency.
void SimGridTransport::control_barrier(double latency) {
  settle();
  begin_wait("barrier");
  world_.control_barrier().wait();
  end_wait();
  if (latency > 0) simgrid::s4u::this_actor::sleep_for(latency);
}

// The control network combines one word per count: a scan and a reduction (the CM-5 has both, so the
// prefix-reduction-sum needs no combining trick, paper 001 footnote 2). All ranks meet, every rank
// reads the others' vectors, and all meet again before any rank may leave a new vector.
bool SimGridTransport::control_prefix_reduction_sum(std::span<const Index> values, std::span<Index> prefix,
                                                    std::span<Index> total) {
  const auto& costs = world_.control_scan();
  if (!costs) return false;
  settle();
  auto& inputs = world_.scan_inputs();
  inputs[static_cast<std::size_t>(rank_)].assign(values.begin(), values.end());
  begin_wait("control-network scan");
  world_.control_barrier().wait();
  for (std::size_t j = 0; j < values.size(); ++j) {
    Index running = 0;
    for (Rank r = 0; r < size(); ++r) {
      const auto& input = inputs[static_cast<std::size_t>(r)];
      if (input.size() != values.size()) throw std::invalid_argument("control-network scan of vectors of different lengths");
      if (r == rank_) prefix[j] = running;
      running += input[j];
    }
    total[j] = running;
  }
  world_.control_barrier().wait();
  end_wait();
  const double words = values.empty() ? 0.0 : static_cast<double>(values.size() - 1);
  const double seconds = values.empty() ? 0.0 : costs->scan_latency + costs->reduce_latency + 2 * words * costs->per_word;
  if (seconds > 0) simgrid::s4u::this_actor::sleep_for(seconds);
  return true;
}

// Where the node's memory is modelled, the bytes copied run on it after the rest of the work (the
// loops' other costs) has run on the CPU. A rank sharing its core takes its copy slowdown longer
// over its copies (bytes, runs, records, elements), its work slowdown longer over the rest.
void SimGridTransport::charge(const Work& work) { charge_copies(work, CopyLoop::Pack); }

void SimGridTransport::charge_unpack(const Work& work, CopyLoop loop) { charge_copies(work, loop); }

void SimGridTransport::charge_copies(const Work& work, CopyLoop loop) {
  const CopyResource& copies = world_.placement(rank_).copies;
  const double slowdown = world_.placement(rank_).copy_slowdown;
  const Index bytes = work.count(WorkKind::ByteCopied);
  if (copies.memory == nullptr || bytes == 0) {
    compute(cpu_seconds(work));
    return;
  }
  Work rest = work;
  rest.add(WorkKind::ByteCopied, -bytes);
  compute(cpu_seconds(rest));
  settle();
  if (turn_) turn_->hold();
  copies.copy(static_cast<double>(bytes), slowdown, loop);
}

double SimGridTransport::cpu_seconds(const Work& work) const {
  const double copy_slowdown = world_.placement(rank_).copy_slowdown;
  const double work_slowdown = world_.placement(rank_).work_slowdown;
  if (copy_slowdown == 1 && work_slowdown == 1) return prices_.seconds_for(work);  // summed as ever: runs stay byte-identical
  const auto [copied, rest] = split_copies(work);
  return work_slowdown * prices_.seconds_for(rest) + copy_slowdown * prices_.seconds_for(copied);
}

void SimGridTransport::compute(double seconds) {
  cpu_backlog_ += seconds;
  if (!lazy_cpu_) settle();
}

// On a host of its own nothing competes for the CPU: the work takes backlog seconds whatever
// SimGrid's CPU model says, and a sleep simulates that at less than half the host time of an
// execution (no CPU-model variable to create and solve). Ranks sharing a host need executions to
// slow each other down; with tracing on, executions too, so that the trace shows ranks computing.
// Sharing ranks get the host's cores in proportion to their work (the execution's priority), so
// that work started together ends together, each rank held to one core: the best a scheduler can
// do, max(longest, sum / cores), as predict_local prices it. An even share would keep a rank with
// much to do at the same pace as ranks with little until they were done, and leave cores idle
// after; a real run's fastest repetition does not (1 sender and 5 receivers on 2 cores: the
// sender's index measured 12.7-14.3 ms in the fastest of 15, 12.4 ms alone; an even share, 20.5).
void SimGridTransport::settle() {
  if (cpu_backlog_ > 0) {
    if (turn_) {
      turn_->compute(cpu_backlog_, *host_, trace_cpu_);
    } else if (!lazy_cpu_ || trace_cpu_) {
      // In microseconds, at least 1: SimGrid's solver fails on priorities of 1e-6 and below.
      simgrid::s4u::this_actor::execute(cpu_backlog_ * host_->get_speed(), std::max(1.0, cpu_backlog_ * 1e6));
    } else {
      simgrid::s4u::this_actor::sleep_for(cpu_backlog_);
    }
  }
  cpu_backlog_ = 0;
}

// A rank blocked in `call` (named in deadlock reports) gives its core up; woken, it goes on once it
// holds its core again.
void SimGridTransport::begin_wait(const char* call) {
  blocked_call_ = call;
  if (turn_) turn_->yield();
}

void SimGridTransport::end_wait() {
  if (turn_) turn_->hold();
  blocked_call_ = nullptr;
}

void SimGridTransport::finish() {
  settle();
  if (turn_) turn_->yield();
}

double SimGridTransport::now() const { return simgrid::s4u::Engine::get_clock() + cpu_backlog_; }

std::string SimGridTransport::describe_wait() const {
  if (blocked_call_ == nullptr) return "is not blocked";
  std::string text = std::string("in ") + blocked_call_;
  const char* separator = " for ";
  for (Request r : blocked_on_) {
    const PendingRequest* pending = r == kNullRequest ? nullptr : requests_.find(r);
    if (pending == nullptr) continue;
    const PendingRequest& request = *pending;
    text += separator;
    separator = ", ";
    if (request.traffic == Traffic::Internal) {
      text += std::string("barrier message ") + (request.receive ? "from " : "to ") + peer_name(request.peer);
    } else {
      text += (request.receive ? "a receive from " : "a send to ") + peer_name(request.peer) + " (tag " +
              std::to_string(request.tag) + ")";
    }
  }
  return text;
}

}  // namespace redist::sim
