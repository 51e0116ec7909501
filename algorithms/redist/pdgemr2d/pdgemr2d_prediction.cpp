#include "redist/pdgemr2d/pdgemr2d_prediction.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "redist/indexing/touched_bytes.hpp"
#include "redist/pdgemr2d/blacs_combine.hpp"
#include "redist/pdgemr2d/call_buffer.hpp"
#include "redist/pdgemr2d/pdgemr2d_geometry.hpp"
#include "redist/pdgemr2d/pdgemr2d_intervals.hpp"
#include "redist/pdgemr2d/pdgemr2d_setup.hpp"
#include "redist/predict/predicted_comm.hpp"

namespace redist {
namespace {

const MultiDimLayout& two_dimensional(const Layout& layout, const char* side) {
  const auto* m = std::get_if<MultiDimLayout>(&layout.variant());
  if (m == nullptr || m->rank() != 2) {
    throw std::invalid_argument(std::string("pdgemr2d: the ") + side + " layout is not a two-dimensional matrix");
  }
  if (m->storage() != StorageOrder::ColumnMajor) {
    throw std::invalid_argument(std::string("pdgemr2d: the ") + side + " layout is not stored column-major");
  }
  return *m;
}

StoredMatrix stored(const MultiDimLayout& m, const std::vector<Rank>& grid_ranks, Rank me) {
  StoredMatrix out{m.dim(0).layout(), m.dim(1).layout(), 1, grid_ranks};
  if (const Index process = out.process_of(me); process >= 0) {
    out.leading_dim = std::max<Index>(1, out.rows.local_size(process / out.cols.procs()));
  }
  return out;
}

// One rank's clock through the loop, and its phases so far.
struct RankClock {
  double now = 0;
  Phases phases;
};

// A message of one half-step: who sends, who receives, how many bytes.
struct Pending {
  Rank from = 0, to = 0;
  Index bytes = 0;
};

}  // namespace

SubmatrixCopy whole_matrix_copy(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me) {
  const MultiDimLayout& a = two_dimensional(source, "source");
  const MultiDimLayout& b = two_dimensional(dest, "destination");
  if (a.shape() != b.shape()) throw std::invalid_argument("pdgemr2d: the layouts are of different shapes");
  std::vector<Rank> from_ranks, to_ranks;
  for (Index p = 0; p < a.processors(); ++p) from_ranks.push_back(ranks.source_rank(p));
  for (Index q = 0; q < b.processors(); ++q) to_ranks.push_back(ranks.dest_rank(q));
  SubmatrixCopy copy{stored(a, from_ranks, me), stored(b, to_ranks, me)};
  copy.rows = a.shape()[0];
  copy.cols = a.shape()[1];
  return copy;
}

Prediction predict_pdgemr2d(const Layout& source, const Layout& dest, Index elem_bytes, const RankMap& ranks,
                            const MachineModel& model) {
  const SubmatrixCopy copy = whole_matrix_copy(source, dest, ranks, 0);
  return predict_pdgemr2d(copy, elem_bytes, static_cast<Rank>(ranks.ranks_needed(source.processors(), dest.processors())), model);
}

Prediction predict_pdgemr2d(const SubmatrixCopy& copy, Index elem_bytes, Rank ranks, const MachineModel& machine) {
  SubmatrixCopy checked = copy;  // the leading dimensions are each rank's own: take them as large as needed
  checked.from.leading_dim = std::max<Index>(1, copy.from.rows.size());
  checked.to.leading_dim = std::max<Index>(1, copy.to.rows.size());
  check_pdgemr2d_copy(checked, 0);
  for (const std::vector<Rank>* grid : {&copy.from.grid_ranks, &copy.to.grid_ranks}) {
    for (const Rank r : *grid) {
      if (r >= ranks) throw std::invalid_argument("pdgemr2d: grid rank " + std::to_string(r) + " of " + std::to_string(ranks) + " ranks");
    }
  }
  const std::optional<MachineModel> oversubscribed = machine.run_by(ranks);
  const MachineModel& model = oversubscribed ? *oversubscribed : machine;
  Prediction out;
  out.candidate = {kPdgemr2dName, kPdgemr2dName, RelabelMethod::None};
  if (copy.rows == 0 || copy.cols == 0) return out;

  const auto count = static_cast<std::size_t>(ranks);
  std::vector<RankClock> clock(count);
  const std::vector<double> by_rank = touched_bytes(copy, ranks, elem_bytes);
  std::vector<double> touched;  // by each rank's node, its calls' bytes (touched_bytes.hpp)
  for (Rank r = 0; r < ranks; ++r) {
    touched.push_back(model.over_node(r, ranks, [&](Index other) { return by_rank[static_cast<std::size_t>(other)]; }));
  }
  // A rank's local work: at the machine's prices (its node's memory shared by the ranks copying at
  // once), stretched where its host holds more ranks than cores.
  const auto local = [&](Rank r, const Work& work, double Phases::*phase) {
    const Index on_host = ranks / model.hosts + (model.host_of(r) < ranks % model.hosts ? 1 : 0);
    const double stretch = std::max(1.0, static_cast<double>(on_host) / static_cast<double>(model.cores));
    const double seconds =
        model.run_seconds_for(work, model.copying_with(r, ranks), CopyLoop::Pack, touched[static_cast<std::size_t>(r)]) *
        stretch;
    clock[static_cast<std::size_t>(r)].now += seconds;
    clock[static_cast<std::size_t>(r)].phases.*phase += seconds;
  };
  // Blocking messages started together: each starts once its sender has posted it and its receiver
  // waits for it; both ranks go on when it is through, or the sender once it is completed where the
  // receiver's CPU copies it (a rank that sends and receives at once, as in the parameter
  // exchange's swaps, when both are).
  const auto exchange = [&](const std::vector<Pending>& pending) {
    std::vector<RankMessage> all;
    for (const Pending& p : pending) all.push_back({p.from, p.to, p.bytes});
    std::vector<double> until(count, -1);
    for (const Pending& p : pending) {
      const MessageSeconds s = message_seconds_among({p.from, p.to, p.bytes}, all, model);
      const double through = std::max(clock[static_cast<std::size_t>(p.from)].now + s.posting,
                                      clock[static_cast<std::size_t>(p.to)].now) + s.crossing;
      double& sender = until[static_cast<std::size_t>(p.from)];
      double& receiver = until[static_cast<std::size_t>(p.to)];
      sender = std::max(sender, s.send_waits_for_completion ? through + s.completing : through);
      receiver = std::max(receiver, through + s.completing);
    }
    for (std::size_t r = 0; r < count; ++r) {
      if (until[r] < 0) continue;
      clock[r].phases.comm += until[r] - clock[r].now;
      clock[r].now = until[r];
    }
  };

  // The parameter exchange: every rank's vector, round by round.
  const Index parameter_bytes = static_cast<Index>((20 + 2 * count) * sizeof(BlacsInt));
  for (const auto& round : blacs_combine_rounds(ranks)) {
    std::vector<Pending> pending;
    for (const BlacsCombineMessage& m : round) pending.push_back({m.from, m.to, parameter_bytes});
    exchange(pending);
    for (const BlacsCombineMessage& m : round) {
      if (m.round >= 0 || m.round == -1) local(m.to, Work(WorkKind::ElementScanned, 20 + 2 * static_cast<Index>(count)), &Phases::comm);
    }
  }
  std::vector<Pdgemr2dGeometry> geometry;
  std::vector<CallBuffers> pages;  // the buffers' first touches
  for (Rank r = 0; r < ranks; ++r) {
    geometry.push_back(pdgemr2d_geometry(checked, r, ranks));
    const Pdgemr2dGeometry& g = geometry.back();
    local(r, pdgemr2d_setup_work(g, ranks), &Phases::index);
    pages.push_back(call_buffers(g.from.in_grid ? g.from.buffer_elements * elem_bytes : 0,
                                 g.to.in_grid ? g.to.buffer_elements * elem_bytes : 0));
  }
  const Index steps = geometry.front().steps();
  for (Index step = 0; step < steps; ++step) {
    // What each rank sends and receives at this step.
    std::vector<Index> sent(count, 0), received(count, 0), partner(count, -1);
    std::vector<Pdgemr2dMessage> incoming(count);
    for (Rank r = 0; r < ranks; ++r) {
      const Pdgemr2dGeometry& g = geometry[static_cast<std::size_t>(r)];
      if (g.slot < 0) continue;
      partner[static_cast<std::size_t>(r)] = pdgemr2d_partner(steps, g.slot, step);
    }
    // Half-step 0 and 1: a rank's work before its operation of that half, then the messages.
    for (int half = 0; half < 2; ++half) {
      std::vector<Pending> pending;
      for (Rank r = 0; r < ranks; ++r) {
        const auto at = static_cast<std::size_t>(r);
        const Pdgemr2dGeometry& g = geometry[at];
        if (g.slot < 0) continue;
        const Index other = partner[at];
        const Index to_process = g.from.in_grid ? g.receiver[static_cast<std::size_t>(other)] : -1;
        const Index from_process = g.to.in_grid ? g.sender[static_cast<std::size_t>(other)] : -1;
        const bool to_self = other == g.slot && g.from.in_grid && g.to.in_grid;
        const bool receive_first = g.slot > other;
        if (half == 0 && to_process >= 0) {
          const Pdgemr2dMessage m = pdgemr2d_send_message(g, to_process);
          local(r, m.scan, &Phases::index);
          local(r, pdgemr2d_copy_work(m, elem_bytes), &Phases::pack);
          sent[at] = m.elements();
          local(r, pages[at].send.write(sent[at] * elem_bytes), &Phases::pack);
        }
        // The receive of this half: its scan, and the copy to itself.
        if (from_process >= 0 && (half == 0) == receive_first) {
          incoming[at] = pdgemr2d_receive_message(g, from_process);
          local(r, incoming[at].scan, &Phases::index);
          received[at] = incoming[at].elements();
          if (to_self && received[at] > 0) local(r, pdgemr2d_self_copy_work(received[at], elem_bytes), &Phases::unpack);
          // MPI writes the receive buffer as the message arrives; Clacpy as it copies to itself.
          local(r, pages[at].receive.write(received[at] * elem_bytes), to_self ? &Phases::unpack : &Phases::comm);
        }
        // The send of this half (the receiver's receive of the same message is in the same half).
        if (to_process >= 0 && (half == 0) == !receive_first && sent[at] > 0 && !to_self) {
          pending.push_back({r, g.to_ranks[static_cast<std::size_t>(to_process)], sent[at] * elem_bytes});
        }
      }
      exchange(pending);
    }
    for (Rank r = 0; r < ranks; ++r) {
      const auto at = static_cast<std::size_t>(r);
      const Pdgemr2dGeometry& g = geometry[at];
      if (g.slot < 0 || !g.to.in_grid || g.sender[static_cast<std::size_t>(partner[at])] < 0) continue;
      local(r, pdgemr2d_copy_work(incoming[at], elem_bytes), &Phases::unpack);
    }
  }
  for (const RankClock& c : clock) {
    Phases p = c.phases;
    p.total = c.now;
    out.phases = slowest(out.phases, with_derived(p));
  }
  return out;
}

}  // namespace redist
