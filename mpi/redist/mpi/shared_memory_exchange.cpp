#include "redist/mpi/shared_memory_exchange.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/mpi/mpi_check.hpp"
#include "redist/redistribute/local_copy.hpp"
#include "redist/redistribute/message_packing.hpp"

namespace redist::mpi {
namespace {

// What a communicator keeps between calls: a duplicate of it for the window's synchronisation,
// whether its ranks share a node, and the window (each rank's segment: a table of where its
// message to each rank starts, then the packed messages).
struct SharedArea {
  MPI_Comm comm = MPI_COMM_NULL;
  bool one_node = false;
  MPI_Win window = MPI_WIN_NULL;
  Index capacity = 0;             // this rank's segment, bytes
  Index calls = 0;                // redistributions on the communicator since it was made or released
  std::vector<std::byte*> bases;  // every rank's segment, as mapped in this process

  void free_window() {
    if (window == MPI_WIN_NULL) return;
    MPI_Win_unlock_all(window);
    MPI_Win_free(&window);
    capacity = 0;
    bases.clear();
  }
  ~SharedArea() {
    free_window();
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

// The communicators that hold an area. MPI_Finalize deletes MPI_COMM_SELF's attributes first,
// while MPI still works; MPI_COMM_WORLD's later, when freeing a window may no longer be possible.
// So an attribute on MPI_COMM_SELF frees every area still held, at the start of MPI_Finalize.
std::vector<MPI_Comm>& holders() {
  static std::vector<MPI_Comm> comms;
  return comms;
}

int delete_area(MPI_Comm comm, int, void* area, void*) {
  delete static_cast<SharedArea*>(area);
  std::erase(holders(), comm);
  return MPI_SUCCESS;
}

int area_keyval();

int free_all_areas(MPI_Comm, int, void*, void*) {
  while (!holders().empty()) MPI_Comm_delete_attr(holders().back(), area_keyval());
  return MPI_SUCCESS;
}

int create_keyval(MPI_Comm_delete_attr_function* on_delete) {
  int keyval = MPI_KEYVAL_INVALID;
  check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_delete, &keyval, nullptr), "MPI_Comm_create_keyval");
  return keyval;
}

int area_keyval() {
  static const int keyval = [] {
    const int at_finalize = create_keyval(free_all_areas);
    check_mpi(MPI_Comm_set_attr(MPI_COMM_SELF, at_finalize, nullptr), "MPI_Comm_set_attr");
    return create_keyval(delete_area);
  }();
  return keyval;
}

// The area kept with `comm`, or null.
SharedArea* find_area(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  check_mpi(MPI_Comm_get_attr(comm, area_keyval(), &value, &found), "MPI_Comm_get_attr");
  return found ? static_cast<SharedArea*>(value) : nullptr;
}

// Collective on the first call for `comm`.
SharedArea& shared_area(MPI_Comm comm) {
  if (SharedArea* kept = find_area(comm)) return *kept;
  auto* area = new SharedArea;
  check_mpi(MPI_Comm_dup(comm, &area->comm), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(area->comm, MPI_ERRORS_RETURN);
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(area->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int node_size = 0, size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_size(area->comm, &size);
  MPI_Comm_free(&node);
  area->one_node = node_size == size;
  check_mpi(MPI_Comm_set_attr(comm, area_keyval(), area), "MPI_Comm_set_attr");
  holders().push_back(comm);
  return *area;
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

// Collective: a segment of at least `bytes` on this rank (the window is made anew, on every rank,
// when any rank needs more than it has). Its MPI_Allreduce is also what keeps a rank from
// overwriting its segment while another still reads the last call's messages from it.
void reserve(SharedArea& area, Index bytes) {
  int grow = bytes > area.capacity ? 1 : 0, any = 0;
  check_mpi(MPI_Allreduce(&grow, &any, 1, MPI_INT, MPI_MAX, area.comm), "MPI_Allreduce");
  if (any == 0) return;
  const Index capacity = std::max(bytes, area.capacity);
  area.free_window();
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");  // each segment on its own pages
  std::byte* base = nullptr;
  const int code = MPI_Win_allocate_shared(static_cast<MPI_Aint>(capacity), 1, info, area.comm, &base, &area.window);
  MPI_Info_free(&info);
  check_mpi(code, "MPI_Win_allocate_shared");
  check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, area.window), "MPI_Win_lock_all");
  area.capacity = capacity;
  int size = 0, me = 0;
  MPI_Comm_size(area.comm, &size);
  MPI_Comm_rank(area.comm, &me);
  area.bases.assign(static_cast<std::size_t>(size), nullptr);
  for (int r = 0; r < size; ++r) {
    MPI_Aint segment = 0;
    int unit = 0;
    check_mpi(MPI_Win_shared_query(area.window, r, &segment, &unit, &area.bases[static_cast<std::size_t>(r)]),
              "MPI_Win_shared_query");
  }
  prefault(area.bases[static_cast<std::size_t>(me)], static_cast<std::size_t>(capacity));
}

// Every rank's writes to its segment visible to all, and all ranks past this point.
void synchronise(const SharedArea& area) {
  check_mpi(MPI_Win_sync(area.window), "MPI_Win_sync");
  check_mpi(MPI_Barrier(area.comm), "MPI_Barrier");
  check_mpi(MPI_Win_sync(area.window), "MPI_Win_sync");
}

}  // namespace

Index shared_window_bytes(MPI_Comm comm) {
  const SharedArea* area = find_area(comm);
  return area != nullptr ? area->capacity : 0;
}

void release_shared_memory(MPI_Comm comm) {
  SharedArea* area = find_area(comm);
  if (area == nullptr) return;
  area->free_window();
  area->calls = 0;
}

bool shared_memory_wanted() {
  const char* setting = std::getenv("REDIST_MPI_SHARED_MEMORY");
  return setting == nullptr || std::string(setting) != "0";
}

bool use_shared_memory(MPI_Comm comm) {
  SharedArea& area = shared_area(comm);  // collective on the first call: made whatever the setting
  const bool repeated = area.calls++ > 0;
  return area.one_node && shared_memory_wanted() && repeated;
}

void exchange_shared_memory(MPI_Comm comm, const RankPlan& plan, Index elem_bytes,
                            std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                            RedistributeReport& report) {
  SharedArea& area = shared_area(comm);
  int me = 0, size = 0;
  MPI_Comm_rank(area.comm, &me);
  MPI_Comm_size(area.comm, &size);
  const double start = MPI_Wtime();

  // This rank's segment: where its message to each rank starts (-1: none), then the messages.
  const Index table_bytes = static_cast<Index>(size) * static_cast<Index>(sizeof(Index));
  Index bytes = table_bytes;
  std::vector<Index> offsets(static_cast<std::size_t>(size), -1);
  std::vector<const PeerPlan*> outgoing;
  for (const PeerPlan& to : plan.sends) {
    if (to.peer == me) continue;
    offsets[static_cast<std::size_t>(to.peer)] = bytes;
    bytes += to.elements * elem_bytes;
    outgoing.push_back(&to);
    ++report.messages_sent;
    report.bytes_sent += to.elements * elem_bytes;
  }
  reserve(area, bytes);
  std::byte* const mine = area.bases[static_cast<std::size_t>(me)];
  std::memcpy(mine, offsets.data(), static_cast<std::size_t>(table_bytes));
  std::vector<std::byte*> buffers;
  for (const PeerPlan* to : outgoing) buffers.push_back(mine + offsets[static_cast<std::size_t>(to->peer)]);
  // The local part is copied in whichever sweep visits its scattered side in storage order.
  const LocalPart local = local_part(plan, me);
  const bool local_in_unpack = !local.empty() && local_part_in_unpack(*local.send, *local.receive);
  const double pack_start = MPI_Wtime();
  if (!local.empty() && !local_in_unpack) {
    pack_messages(outgoing, source_local, elem_bytes, buffers, *local.send, *local.receive, dest_local);
  } else {
    pack_messages(outgoing, source_local, elem_bytes, buffers);
  }
  report.phases.pack = MPI_Wtime() - pack_start;

  synchronise(area);  // every message packed
  std::vector<const PeerPlan*> incoming;
  std::vector<const std::byte*> data;
  for (const PeerPlan& from : plan.receives) {
    if (from.peer == me) continue;
    const std::byte* segment = area.bases[static_cast<std::size_t>(from.peer)];
    Index offset = 0;
    std::memcpy(&offset, segment + static_cast<std::size_t>(me) * sizeof(Index), sizeof(Index));
    if (offset < 0) throw std::logic_error("rank " + std::to_string(from.peer) + " packed nothing for rank " + std::to_string(me));
    incoming.push_back(&from);
    data.push_back(segment + offset);
  }
  const double unpack_start = MPI_Wtime();
  if (local_in_unpack) {
    unpack_messages(incoming, data, elem_bytes, dest_local, *local.send, *local.receive, source_local);
  } else {
    unpack_messages(incoming, data, elem_bytes, dest_local);
  }
  const double unpacking = MPI_Wtime() - unpack_start;
  // No barrier here: no rank writes its segment again before the next call's reserve(), whose
  // MPI_Allreduce no rank leaves before every rank has entered it, done reading.
  check_mpi(MPI_Win_sync(area.window), "MPI_Win_sync");

  report.phases.unpack = unpacking;
  report.phases.comm = MPI_Wtime() - start - report.phases.pack - unpacking;
}

}  // namespace redist::mpi
