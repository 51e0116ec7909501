#include "redist/mpi/shared_window_exchange.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/mpi/communicator_cache.hpp"
#include "redist/mpi/mpi_check.hpp"
#include "redist/mpi/shared_array.hpp"
#include "redist/mpi/shared_window.hpp"
#include "redist/redistribute/local_copy.hpp"
#include "redist/redistribute/message_packing.hpp"

namespace redist::mpi {
namespace {

// What a communicator keeps between calls: a duplicate of it for the window's synchronisation,
// whether its ranks share a node, and the window (each rank's segment: what publish() writes).
struct SharedArea {
  MPI_Comm comm = MPI_COMM_NULL;
  bool one_node = false;
  SharedWindow shared;
  Index capacity = 0;  // this rank's segment, bytes
  Index calls = 0;     // redistributions on the communicator since it was made or released

  void free_window() {
    free_shared_window(shared);
    capacity = 0;
  }
  ~SharedArea() {
    free_window();
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

// The area kept with each communicator that redistributed through shared memory: freed with it,
// or at the start of MPI_Finalize while MPI still works (communicator_cache.hpp).
CommunicatorCache<SharedArea>& areas() {
  static CommunicatorCache<SharedArea> cache;
  return cache;
}

// Collective on the first call for `comm`.
SharedArea& shared_area(MPI_Comm comm) {
  return areas().get(comm, [comm] {
    auto area = std::make_unique<SharedArea>();
    check_mpi(MPI_Comm_dup(comm, &area->comm), "MPI_Comm_dup");
    MPI_Comm_set_errhandler(area->comm, MPI_ERRORS_RETURN);
    area->one_node = on_one_node(area->comm);
    return area;
  });
}

// Maps the pages of this rank's fresh segment at once, rather than one page fault at a time while
// packing (measured once: bench_mpi_vs_pdgemr2d's first calls through a fresh window about 10%
// faster; populating the segments a rank only reads made them slower). Best effort: kernels before
// Linux 5.14 refuse, and the pages fault in as usual.
void prefault(std::byte* segment, std::size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  if (bytes == 0) return;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto first = reinterpret_cast<std::uintptr_t>(segment) & ~(page - 1);
  const auto end = reinterpret_cast<std::uintptr_t>(segment) + bytes;
  madvise(reinterpret_cast<void*>(first), end - first, MADV_POPULATE_WRITE);
#else
  (void)segment, (void)bytes;
#endif
}

// Collective: a fresh window whose segment on this rank holds at least `bytes` (every rank makes
// it anew when any rank needs more than it has).
void grow(SharedArea& area, Index bytes) {
  const Index capacity = std::max(bytes, area.capacity);
  area.free_window();
  area.shared = allocate_shared_window(area.comm, capacity);
  area.capacity = capacity;
  prefault(area.shared.mine, static_cast<std::size_t>(capacity));
}

bool receives_from_others(const RankPlan& plan, Rank me) {
  return std::ranges::any_of(plan.receives, [me](const PeerPlan& from) { return from.peer != me; });
}

bool sends_to_others(const RankPlan& plan, Rank me) {
  return std::ranges::any_of(plan.sends, [me](const PeerPlan& to) { return to.peer != me; });
}

// What a rank says of the one-copy exchange: which shared storage it reads from and publishes out
// of (its id), that it needs none (it neither sends nor receives), or that it cannot take part.
constexpr std::int64_t kNeedsNoStorage = -1;
constexpr std::int64_t kNoStorage = -2;

// The storage this rank's part of the one-copy exchange uses, kNeedsNoStorage or kNoStorage. A
// sender's source must lie in it; a rank that only receives reads its peers' segments of the one
// storage on the communicator it holds.
std::int64_t storage_claim(const SharedArea& area, bool sends, bool receives, std::span<const std::byte> source_local) {
  if (!sends && !receives) return kNeedsNoStorage;
  const auto on_this_comm = [&](const SharedStorage* s) {
    int relation = MPI_UNEQUAL;
    MPI_Comm_compare(s->comm(), area.comm, &relation);
    return relation == MPI_IDENT || relation == MPI_CONGRUENT;  // same ranks, numbered alike
  };
  if (!source_local.empty()) {
    const SharedStorage* holder = shared_storage_holding(source_local.data(), static_cast<Index>(source_local.size()));
    if (holder != nullptr && on_this_comm(holder)) return static_cast<std::int64_t>(holder->id());
    if (sends) return kNoStorage;
  }
  const SharedStorage* only = nullptr;
  for (const SharedStorage* s : shared_storages()) {
    if (!on_this_comm(s)) continue;
    if (only != nullptr) return kNoStorage;  // which one the senders use is not known here
    only = s;
  }
  return only != nullptr ? static_cast<std::int64_t>(only->id()) : kNoStorage;
}

// Collective: whether every rank can take the one-copy exchange (all sources in one shared
// storage), and a segment large enough on every rank for the exchange chosen (`packed` bytes
// without it, `once` bytes with it). Its MPI_Allreduce is also what keeps a rank from overwriting
// its segment while another still reads the last call's messages from it. Returns the storage's
// id, or 0: every message packed.
std::uint64_t agree_and_reserve(SharedArea& area, Index packed, Index once, std::int64_t claim) {
  const bool reads_or_sends = claim != kNeedsNoStorage;
  std::array<std::int64_t, 5> mine = {packed > area.capacity, once > area.capacity, claim == kNoStorage,
                                      reads_or_sends ? claim : std::numeric_limits<std::int64_t>::min(),
                                      reads_or_sends ? -claim : std::numeric_limits<std::int64_t>::min()};
  std::array<std::int64_t, 5> all{};
  check_mpi(MPI_Allreduce(mine.data(), all.data(), 5, MPI_INT64_T, MPI_MAX, area.comm), "MPI_Allreduce");
  const auto [grow_two, grow_one, refused, highest, minus_lowest] = all;
  const bool nobody_reads = highest == std::numeric_limits<std::int64_t>::min();
  const bool one_copy_agreed = refused == 0 && !nobody_reads && highest == -minus_lowest;
  if (one_copy_agreed ? grow_one != 0 : grow_two != 0) grow(area, one_copy_agreed ? once : packed);
  return one_copy_agreed ? static_cast<std::uint64_t>(highest) : 0;
}

// Every rank's writes to its segment visible to all, and all ranks past this point.
void synchronise(const SharedArea& area) {
  check_mpi(MPI_Win_sync(area.shared.window), "MPI_Win_sync");
  check_mpi(MPI_Barrier(area.comm), "MPI_Barrier");
  check_mpi(MPI_Win_sync(area.shared.window), "MPI_Win_sync");
}

}  // namespace

Index shared_window_bytes(MPI_Comm comm) {
  const SharedArea* area = areas().find(comm);
  return area != nullptr ? area->capacity : 0;
}

void release_shared_memory(MPI_Comm comm) {
  SharedArea* area = areas().find(comm);
  if (area == nullptr) return;
  area->free_window();
  area->calls = 0;
}

Index once_piece_bytes() {
  const char* setting = std::getenv("REDIST_MPI_ONCE_PIECE_BYTES");
  if (setting == nullptr) return 64;
  Index bytes = -1;
  const std::string text(setting);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bytes);
  if (error != std::errc{} || end != text.data() + text.size() || bytes < 0) {
    throw std::invalid_argument("REDIST_MPI_ONCE_PIECE_BYTES is '" + text + "', not a number of bytes (0 or more)");
  }
  return bytes;
}

bool shared_memory_wanted() {
  const char* setting = std::getenv("REDIST_MPI_SHARED_MEMORY");
  return setting == nullptr || std::string(setting) != "0";
}

bool use_shared_memory(MPI_Comm comm, const RankPlan& plan, std::span<const std::byte> source_local) {
  SharedArea& area = shared_area(comm);  // collective on the first call: made whatever the setting
  const bool repeated = area.calls++ > 0;
  if (!area.one_node || !shared_memory_wanted()) return false;
  if (repeated) return true;
  // A first call copies once through a window of run lists, not of data, when every source can
  // take part: worth one more collective.
  int me = 0;
  MPI_Comm_rank(area.comm, &me);
  int refused = storage_claim(area, sends_to_others(plan, me), receives_from_others(plan, me), source_local) == kNoStorage;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &refused, 1, MPI_INT, MPI_MAX, area.comm), "MPI_Allreduce");
  return refused == 0;
}

namespace {

// What a sender publishes per peer in its segment: its message there, as a run list of its source
// storage (copied once: the receiver reads the elements straight out of that storage) or packed
// (then unpacked: two copies), or nothing (`at` -1).
struct PublishedMessage {
  Index at = -1;   // bytes from the segment's start to the runs or the packed elements
  Index runs = 0;  // run records, when the message is copied once
  Index elements = 0;
  Index once = 0;  // 1: copied once, from the runs; 0: packed
};

// A segment starts with where its rank's source lies in the shared storage, then a
// PublishedMessage per rank.
Index published_header_bytes(Rank size) {
  return static_cast<Index>(sizeof(Index) + static_cast<std::size_t>(size) * sizeof(PublishedMessage));
}

bool copy_once(const PeerPlan& message, Index elem_bytes, Index min_piece_bytes) {
  const Index pieces = piece_count(message.runs);
  return pieces > 0 && message.elements * elem_bytes >= min_piece_bytes * pieces;
}

// A rank's messages to other ranks, each marked for a copy once should the ranks agree on it, and
// the bytes of its segment either way.
struct Outgoing {
  std::vector<const PeerPlan*> messages;
  std::vector<bool> once;
  Index data_bytes = 0;    // the messages' elements
  Index segment_once = 0;  // a segment with the messages marked once as run lists, the others packed
};

Outgoing outgoing_messages(const RankPlan& plan, Rank me, Rank size, Index elem_bytes) {
  Outgoing out;
  out.segment_once = published_header_bytes(size);
  const Index min_piece_bytes = once_piece_bytes();
  for (const PeerPlan& to : plan.sends) {
    if (to.peer == me) continue;
    const Index bytes = to.elements * elem_bytes;
    out.messages.push_back(&to);
    out.once.push_back(copy_once(to, elem_bytes, min_piece_bytes));
    out.data_bytes += bytes;
    out.segment_once += out.once.back() ? static_cast<Index>(to.runs.size() * sizeof(Run)) : bytes;
  }
  return out;
}

// This rank's half before the barrier: its segment holds where its source lies in `storage`, a
// PublishedMessage per rank, then the run lists of the messages copied once, then the packed
// messages (without a storage — some source is not in one SharedArray — every message is packed).
// The local part is copied here when its source side is the scattered one.
void publish(std::byte* segment, const SharedStorage* storage, Rank me, Rank size, const Outgoing& out, const LocalPart& local, Index elem_bytes, std::span<const std::byte> source_local,
             std::span<std::byte> dest_local) {
  std::vector<PublishedMessage> table(static_cast<std::size_t>(size));
  std::vector<const PeerPlan*> packed;
  std::vector<std::byte*> buffers;
  Index bytes = published_header_bytes(size);
  for (std::size_t k = 0; k < out.messages.size(); ++k) {  // run lists first: Run records stay aligned
    const PeerPlan& to = *out.messages[k];
    if (storage == nullptr || !out.once[k]) continue;
    table[static_cast<std::size_t>(to.peer)] = {bytes, static_cast<Index>(to.runs.size()), to.elements, 1};
    std::memcpy(segment + bytes, to.runs.data(), to.runs.size() * sizeof(Run));
    bytes += static_cast<Index>(to.runs.size() * sizeof(Run));
  }
  for (std::size_t k = 0; k < out.messages.size(); ++k) {
    const PeerPlan& to = *out.messages[k];
    if (storage != nullptr && out.once[k]) continue;
    table[static_cast<std::size_t>(to.peer)] = {bytes, 0, to.elements, 0};
    packed.push_back(&to);
    buffers.push_back(segment + bytes);
    bytes += to.elements * elem_bytes;
  }
  const Index source_at = storage != nullptr && !out.messages.empty() ? source_local.data() - storage->segment_of(me) : 0;
  std::memcpy(segment, &source_at, sizeof(Index));
  std::memcpy(segment + sizeof(Index), table.data(), table.size() * sizeof(PublishedMessage));
  if (!local.empty() && !local_part_in_unpack(*local.send, *local.receive)) {
    pack_messages(packed, source_local, elem_bytes, buffers, *local.send, *local.receive, dest_local);
  } else {
    pack_messages(packed, source_local, elem_bytes, buffers);
  }
}

// This rank's half after the barrier: every message to it unpacked out of its sender's segment or
// copied straight out of its sender's storage, and the local part if its destination side is the
// scattered one, in one sweep of destination storage. Returns the bytes copied once.
Index take(const SharedArea& area, const SharedStorage* storage, Rank me, const RankPlan& plan, const LocalPart& local,
           Index elem_bytes, std::span<const std::byte> source_local, std::span<std::byte> dest_local) {
  std::vector<const PeerPlan*> unpacked;
  std::vector<const std::byte*> data;
  std::vector<DirectCopy> copies;
  Index copied_once = 0;
  for (const PeerPlan& from : plan.receives) {
    if (from.peer == me) continue;
    const std::byte* segment = area.shared.segments[static_cast<std::size_t>(from.peer)];
    PublishedMessage message;
    std::memcpy(&message, segment + sizeof(Index) + static_cast<std::size_t>(me) * sizeof(PublishedMessage),
                sizeof(PublishedMessage));
    if (message.at < 0 || message.elements != from.elements) {
      throw std::logic_error("rank " + std::to_string(from.peer) + " published " + std::to_string(message.elements) +
                             " elements for rank " + std::to_string(me) + ", which expects " + std::to_string(from.elements));
    }
    if (message.once == 0) {
      unpacked.push_back(&from);
      data.push_back(segment + message.at);
      continue;
    }
    Index source_at = 0;
    std::memcpy(&source_at, segment, sizeof(Index));
    const auto* runs = reinterpret_cast<const Run*>(segment + message.at);
    copies.push_back({&from, {runs, static_cast<std::size_t>(message.runs)}, storage->segment_of(from.peer) + source_at});
    copied_once += from.elements * elem_bytes;
  }
  if (!local.empty() && local_part_in_unpack(*local.send, *local.receive)) {
    check_local_part(*local.send, *local.receive);
    copies.push_back({local.receive, local.send->runs, source_local.data()});
  }
  unpack_and_copy(unpacked, data, copies, elem_bytes, dest_local);
  return copied_once;
}

// The exchange through the window: publish, barrier, take.
void exchange_through_window(SharedArea& area, const SharedStorage* storage, Rank me, Rank size, const RankPlan& plan,
                             const Outgoing& out, Index elem_bytes, std::span<const std::byte> source_local,
                             std::span<std::byte> dest_local, RedistributeReport& report) {
  const LocalPart local = local_part(plan, me);
  const double pack_start = MPI_Wtime();
  publish(area.shared.mine, storage, me, size, out, local, elem_bytes, source_local, dest_local);
  report.phases.pack = MPI_Wtime() - pack_start;
  // Every message packed or its runs published; every rank's source storage as its caller left it
  // (the window's memory barrier orders all of this process's stores, those to the storage too).
  synchronise(area);
  const double unpack_start = MPI_Wtime();
  report.bytes_copied_once += take(area, storage, me, plan, local, elem_bytes, source_local, dest_local);
  report.phases.unpack = MPI_Wtime() - unpack_start;
  check_mpi(MPI_Win_sync(area.shared.window), "MPI_Win_sync");
  // Reading other ranks' source storage: every rank done with it before any returns, as its
  // caller may write it next. Otherwise no barrier: no rank writes its segment again before the
  // next call's agree_and_reserve(), whose MPI_Allreduce no rank leaves before every rank has
  // entered it, done reading.
  if (storage != nullptr) check_mpi(MPI_Barrier(area.comm), "MPI_Barrier");
}

}  // namespace

void exchange_shared_memory(MPI_Comm comm, const RankPlan& plan, Index elem_bytes,
                            std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                            RedistributeReport& report) {
  SharedArea& area = shared_area(comm);
  int me = 0, size = 0;
  MPI_Comm_rank(area.comm, &me);
  MPI_Comm_size(area.comm, &size);
  const double start = MPI_Wtime();

  const Outgoing out = outgoing_messages(plan, me, size, elem_bytes);
  report.messages_sent += static_cast<Index>(out.messages.size());
  report.bytes_sent += out.data_bytes;
  const std::int64_t claim = storage_claim(area, !out.messages.empty(), receives_from_others(plan, me), source_local);
  const std::uint64_t storage_id = agree_and_reserve(area, published_header_bytes(size) + out.data_bytes, out.segment_once, claim);
  // Held by every rank that sends or receives (its claim); the others only copy their local part.
  const SharedStorage* storage = nullptr;
  for (const SharedStorage* s : shared_storages()) {
    if (storage_id != 0 && s->id() == storage_id) storage = s;
  }
  exchange_through_window(area, storage, me, size, plan, out, elem_bytes, source_local, dest_local, report);
  report.phases.comm = MPI_Wtime() - start - report.phases.pack - report.phases.unpack;
}

}  // namespace redist::mpi
