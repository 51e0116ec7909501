#include "redist/mpi/shared_window_publication.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "redist/mpi/communicator_cache.hpp"
#include "redist/mpi/mpi_check.hpp"
#include "redist/mpi/shared_array.hpp"
#include "redist/redistribute/shared_memory_exchange.hpp"

namespace redist::mpi {
namespace {

// The publication kept with each communicator that redistributed through shared memory: freed with
// it, or at the start of MPI_Finalize while MPI still works (communicator_cache.hpp).
CommunicatorCache<WindowPublication>& publications() {
  static CommunicatorCache<WindowPublication> cache;
  return cache;
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

// What a rank says of the one-copy exchange: which shared storage it reads from and publishes out
// of (its id), that it needs none (it neither sends nor receives), or that it cannot take part.
constexpr std::int64_t kNeedsNoStorage = -1;
constexpr std::int64_t kNoStorage = -2;

}  // namespace

WindowPublication& WindowPublication::of(MPI_Comm comm) {
  return publications().get(comm, [comm] { return std::make_unique<WindowPublication>(comm); });
}

WindowPublication::WindowPublication(MPI_Comm comm) {
  check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  one_node_ = on_one_node(comm_);
}

WindowPublication::~WindowPublication() {
  free_window();
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void WindowPublication::free_window() {
  free_shared_window(shared_);
  capacity_ = 0;
}

void WindowPublication::release() {
  free_window();
  calls_ = 0;
  unavailable_ = false;
}

// Collective: a fresh window whose segment on this rank holds at least `bytes` (every rank makes
// it anew when any rank needs more than it has). Where it cannot be had, on every rank: the
// communicator moves its data as messages from now on (until release()), and the exchange that
// asked throws SharedMemoryUnavailable before it has written anything, for its caller to send
// messages instead. Said once per process, by the communicator's rank 0.
void WindowPublication::grow(Index bytes) {
  const Index capacity = std::max(bytes, capacity_);
  free_window();
  std::string why;
  std::optional<SharedWindow> made = try_allocate_shared_window(comm_, capacity, why);
  if (!made) {
    unavailable_ = true;
    int me = 0;
    MPI_Comm_rank(comm_, &me);
    static bool told = false;
    if (me == 0 && !told) {
      told = true;
      std::fprintf(stderr, "redist: shared memory cannot be had (%s): the data moves as MPI messages\n", why.c_str());
    }
    throw SharedMemoryUnavailable(why);
  }
  shared_ = std::move(*made);
  capacity_ = capacity;
  prefault(shared_.mine, static_cast<std::size_t>(capacity));
}

// The storage this rank's part of the one-copy exchange uses, kNeedsNoStorage or kNoStorage. A
// sender's source must lie in it; a rank that only receives reads its peers' segments of the one
// storage on the communicator it holds.
std::int64_t WindowPublication::storage_claim(bool sends, bool receives, std::span<const std::byte> source) const {
  if (!sends && !receives) return kNeedsNoStorage;
  const auto on_this_comm = [&](const SharedStorage* s) {
    int relation = MPI_UNEQUAL;
    MPI_Comm_compare(s->comm(), comm_, &relation);
    return relation == MPI_IDENT || relation == MPI_CONGRUENT;  // same ranks, numbered alike
  };
  if (!source.empty()) {
    const SharedStorage* holder = shared_storage_holding(source.data(), static_cast<Index>(source.size()));
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

// Its MPI_Allreduce is also what keeps a rank from overwriting its segment while another still
// reads the last call's messages from it.
bool WindowPublication::reserve(const Transport::PublicationNeeds& needs) {
  const std::int64_t claim = storage_claim(needs.sends, needs.receives, needs.source);
  const bool reads_or_sends = claim != kNeedsNoStorage;
  std::array<std::int64_t, 5> mine = {needs.packed_bytes > capacity_, needs.in_place_bytes > capacity_,
                                      claim == kNoStorage,
                                      reads_or_sends ? claim : std::numeric_limits<std::int64_t>::min(),
                                      reads_or_sends ? -claim : std::numeric_limits<std::int64_t>::min()};
  std::array<std::int64_t, 5> all{};
  check_mpi(MPI_Allreduce(mine.data(), all.data(), 5, MPI_INT64_T, MPI_MAX, comm_), "MPI_Allreduce");
  const auto [grow_two, grow_one, refused, highest, minus_lowest] = all;
  const bool nobody_reads = highest == std::numeric_limits<std::int64_t>::min();
  const bool one_copy_agreed = refused == 0 && !nobody_reads && highest == -minus_lowest;
  if (one_copy_agreed ? grow_one != 0 : grow_two != 0) grow(one_copy_agreed ? needs.in_place_bytes : needs.packed_bytes);
  // Held by every rank that sends or receives (its claim); the others only copy their local part.
  storage_ = nullptr;
  for (const SharedStorage* s : shared_storages()) {
    if (one_copy_agreed && s->id() == static_cast<std::uint64_t>(highest)) storage_ = s;
  }
  return one_copy_agreed;
}

// The window's memory barrier orders all of this process's stores, those to the storage too.
void WindowPublication::synchronise() const {
  check_mpi(MPI_Win_sync(shared_.window), "MPI_Win_sync");
  check_mpi(MPI_Barrier(comm_), "MPI_Barrier");
  check_mpi(MPI_Win_sync(shared_.window), "MPI_Win_sync");
}

const std::byte* WindowPublication::source_of(Rank rank) const {
  if (storage_ == nullptr) throw std::logic_error("a source read in place where no SharedArray was agreed on");
  return storage_->segment_of(rank);
}

// Reading other ranks' source storage: every rank done with it before any returns, as its caller
// may write it next. Otherwise no barrier: no rank writes its segment again before the next
// reserve(), whose MPI_Allreduce no rank leaves before every rank has entered it, done reading.
void WindowPublication::finish(bool sources_read) const {
  check_mpi(MPI_Win_sync(shared_.window), "MPI_Win_sync");
  if (sources_read) check_mpi(MPI_Barrier(comm_), "MPI_Barrier");
}

Index shared_window_bytes(MPI_Comm comm) {
  const WindowPublication* publication = publications().find(comm);
  return publication != nullptr ? publication->capacity() : 0;
}

void release_shared_memory(MPI_Comm comm) {
  if (WindowPublication* publication = publications().find(comm)) publication->release();
}

Index once_piece_bytes() {
  const char* setting = std::getenv("REDIST_MPI_ONCE_PIECE_BYTES");
  if (setting == nullptr) return kOncePieceBytes;
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

bool use_shared_memory(MPI_Comm comm, const Transport::PublicationAsk& ask) {
  WindowPublication& publication = WindowPublication::of(comm);  // collective on the first call: made whatever the setting
  const bool repeated = publication.calls_++ > 0;
  if (!publication.one_node_ || !shared_memory_wanted() || publication.unavailable_) return false;
  if (repeated) return true;
  // A first call copies once through a window of run lists, not of data, when every source can
  // take part: worth one more collective.
  int refused = publication.storage_claim(ask.sends, ask.receives, ask.source) == kNoStorage;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &refused, 1, MPI_INT, MPI_MAX, publication.comm_), "MPI_Allreduce");
  return refused == 0;
}

}  // namespace redist::mpi
