#include "redist/pdgemr2d/pdgemr2d_copy.hpp"

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/pdgemr2d/blacs_combine.hpp"
#include "redist/pdgemr2d/call_buffer.hpp"
#include "redist/pdgemr2d/pdgemr2d_geometry.hpp"
#include "redist/pdgemr2d/pdgemr2d_intervals.hpp"
#include "redist/pdgemr2d/pdgemr2d_setup.hpp"

namespace redist {
namespace {

constexpr Tag kStepTag = 0;

// The last local offset (plus one) that a side's intervals reach in storage of leading dimension `lld`.
Index storage_needed(const Pdgemr2dPlace& place, const Pdgemr2dDimension& rows, const Pdgemr2dDimension& cols) {
  const Index local_rows = BlockCyclic(rows.offset + rows.extent, std::max<Index>(1, rows.block), rows.procs, rows.first).local_size(place.row);
  const Index local_cols = BlockCyclic(cols.offset + cols.extent, std::max<Index>(1, cols.block), cols.procs, cols.first).local_size(place.col);
  if (local_rows == 0 || local_cols == 0) return 0;
  return place.base + (local_cols - 1) * place.leading_dim + local_rows;
}

// block2buff / buff2block: the message's rectangles, column by column, element by element, between
// storage at `base` (leading dimension `lld`) and the packed buffer. `to_buffer` packs.
void copy_rectangles(const Pdgemr2dMessage& m, std::byte* storage, Index base, Index lld, std::byte* buffer,
                     Index elem_bytes, bool to_buffer) {
  const auto size = static_cast<std::size_t>(elem_bytes);
  Index packed = 0;
  for (const Pdgemr2dInterval& c : m.cols) {
    for (const Pdgemr2dInterval& r : m.rows) {
      for (Index j = 0; j < c.length; ++j) {
        std::byte* column = storage + (base + (c.local + j) * lld + r.local) * elem_bytes;
        for (Index i = 0; i < r.length; ++i, ++packed) {
          std::byte* element = column + i * elem_bytes;
          std::byte* slot = buffer + packed * elem_bytes;
          if (to_buffer) {
            std::memcpy(slot, element, size);
          } else {
            std::memcpy(element, slot, size);
          }
        }
      }
    }
  }
}

struct Buffer {
  std::unique_ptr<std::byte[]> bytes;
  std::byte* data() const { return bytes.get(); }
};

// setmemory: a fresh buffer of `elements`, none when empty or phantom.
Buffer allocate(Index elements, Index elem_bytes, bool phantom) {
  if (phantom || elements == 0) return {};
  return {std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(elements * elem_bytes))};
}

}  // namespace

RedistributeReport pdgemr2d_copy(Transport& transport, const SubmatrixCopy& copy, std::span<const std::byte> a_local,
                                 std::span<std::byte> b_local, Index elem_bytes) {
  const Rank me = transport.rank(), ranks = transport.size();
  check_pdgemr2d_copy(copy, me);
  if (elem_bytes <= 0) throw std::invalid_argument("pdgemr2d: elements of " + std::to_string(elem_bytes) + " bytes");
  for (const std::vector<Rank>* grid : {&copy.from.grid_ranks, &copy.to.grid_ranks}) {
    for (const Rank r : *grid) {
      if (r >= ranks) throw std::invalid_argument("pdgemr2d: grid rank " + std::to_string(r) + " of " + std::to_string(ranks) + " ranks");
    }
  }
  const bool phantom = transport.phantom();
  RedistributeReport report;
  if (copy.rows == 0 || copy.cols == 0) return report;  // pdgemr2d returns before anything
  const double start = transport.now();

  // 1. The parameters, exchanged; every rank then knows both grids.
  Pdgemr2dGeometry g;
  {
    PhaseClock clock(transport, report.phases.comm);
    std::vector<BlacsInt> parameters = pdgemr2d_parameters(copy, me, ranks);
    blacs_min_combine(transport, parameters);
    if (!phantom) check_pdgemr2d_parameters(copy, parameters, ranks);
  }
  // 2. The change of origin, the buffers and the caterpillar's slots.
  Buffer send_buffer, receive_buffer;
  CallBuffers pages;  // their first touches
  {
    PhaseClock clock(transport, report.phases.index);
    g = pdgemr2d_geometry(copy, me, ranks);
    for (const auto& [place, rows, cols, bytes] :
         {std::tuple{&g.from, &g.from_rows, &g.from_cols, a_local.size()}, std::tuple{&g.to, &g.to_rows, &g.to_cols, b_local.size()}}) {
      if (!place->in_grid || phantom) continue;
      if (static_cast<Index>(bytes) < storage_needed(*place, *rows, *cols) * elem_bytes) {
        throw std::invalid_argument("pdgemr2d: rank " + std::to_string(me) + "'s local storage holds " + std::to_string(bytes) +
                                    " bytes, too few for its part of the submatrix");
      }
    }
    send_buffer = allocate(g.from.buffer_elements, elem_bytes, phantom);
    receive_buffer = allocate(g.to.buffer_elements, elem_bytes, phantom);
    pages = call_buffers(g.from.in_grid ? g.from.buffer_elements * elem_bytes : 0,
                         g.to.in_grid ? g.to.buffer_elements * elem_bytes : 0);
    transport.charge(pdgemr2d_setup_work(g, ranks));
  }
  if (g.slot < 0) {
    report.phases.total = transport.now() - start;
    return report;
  }
  // 3. The step loop.
  auto* a = const_cast<std::byte*>(a_local.data());  // read only: the packing reads it
  std::byte* b = b_local.data();
  const bool sending = g.from.in_grid, receiving = g.to.in_grid;
  const Index steps = g.steps();
  for (Index step = 0; step < steps; ++step) {
    const Index partner = pdgemr2d_partner(steps, g.slot, step);
    const bool to_self = partner == g.slot && sending && receiving;
    const Index to_process = sending ? g.receiver[static_cast<std::size_t>(partner)] : -1;
    const Index from_process = receiving ? g.sender[static_cast<std::size_t>(partner)] : -1;
    Index sent = 0;
    Pdgemr2dMessage incoming;
    Index received = 0;
    const auto do_send = [&] {
      if (to_process < 0 || sent == 0 || to_self) return;
      PhaseClock clock(transport, report.phases.comm);
      Request r = transport.isend(g.to_ranks[static_cast<std::size_t>(to_process)], send_buffer.data(), sent * elem_bytes, kStepTag);
      transport.wait_all(std::span<Request>(&r, 1));
      ++report.messages_sent;
      report.bytes_sent += sent * elem_bytes;
    };
    const auto do_receive = [&] {
      if (from_process < 0) return;
      {
        PhaseClock clock(transport, report.phases.index);
        incoming = pdgemr2d_receive_message(g, from_process);
        transport.charge(incoming.scan);
        received = incoming.elements();
      }
      if (received == 0) return;
      if (to_self) {  // Clacpy: the send buffer into the receive buffer
        PhaseClock clock(transport, report.phases.unpack);
        if (!phantom) std::memcpy(receive_buffer.data(), send_buffer.data(), static_cast<std::size_t>(received * elem_bytes));
        transport.charge(pdgemr2d_self_copy_work(received, elem_bytes));
        transport.charge(pages.receive.write(received * elem_bytes));
        report.bytes_kept += received * elem_bytes;
        return;
      }
      PhaseClock clock(transport, report.phases.comm);
      transport.charge(pages.receive.write(received * elem_bytes));  // MPI writes it as the message arrives
      Request r = transport.irecv(g.from_ranks[static_cast<std::size_t>(from_process)], receive_buffer.data(),
                                  received * elem_bytes, kStepTag);
      transport.wait_all(std::span<Request>(&r, 1));
    };
    // sens 0: pack what goes to the partner's receiver.
    if (to_process >= 0) {
      Pdgemr2dMessage outgoing;
      {
        PhaseClock clock(transport, report.phases.index);
        outgoing = pdgemr2d_send_message(g, to_process);
        transport.charge(outgoing.scan);
      }
      PhaseClock clock(transport, report.phases.pack);
      sent = outgoing.elements();
      if (!phantom) copy_rectangles(outgoing, a, g.from.base, g.from.leading_dim, send_buffer.data(), elem_bytes, true);
      transport.charge(pdgemr2d_copy_work(outgoing, elem_bytes));
      transport.charge(pages.send.write(sent * elem_bytes));
    }
    // The higher slot receives first; the lower one (and a rank meeting itself) sends first.
    if (g.slot > partner) {
      do_receive();
      do_send();
    } else {
      do_send();
      do_receive();
    }
    if (from_process >= 0) {
      PhaseClock clock(transport, report.phases.unpack);
      if (!phantom && received > 0) copy_rectangles(incoming, b, g.to.base, g.to.leading_dim, receive_buffer.data(), elem_bytes, false);
      transport.charge(pdgemr2d_copy_work(incoming, elem_bytes));
    }
  }
  report.phases.total = transport.now() - start;
  return report;
}

}  // namespace redist
