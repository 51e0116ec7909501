#include "redist/mpi/call_digest.hpp"

#include <bit>
#include <type_traits>
#include <variant>

namespace redist::mpi {
namespace {

void add_cyclic(Digest& digest, const BlockCyclic& l) {
  digest.add(l.size()).add(l.block_size()).add(l.procs()).add(l.first_proc());
}

void add_curve(Digest& digest, const PiecewiseCurve& curve) {
  digest.add(static_cast<std::uint64_t>(curve.starts().size()));
  for (std::size_t k = 0; k < curve.starts().size(); ++k) digest.add(curve.starts()[k]).add(curve.values()[k]);
}

}  // namespace

Digest& Digest::add(std::uint64_t value) {
  for (int byte = 0; byte < 8; ++byte) {
    hash_ ^= (value >> (8 * byte)) & 0xffU;
    hash_ *= 1099511628211ULL;
  }
  return *this;
}

Digest& Digest::add(double value) { return add(std::bit_cast<std::uint64_t>(value)); }

Digest& Digest::add(std::string_view text) {
  add(static_cast<std::uint64_t>(text.size()));
  for (const char c : text) {
    hash_ ^= static_cast<unsigned char>(c);
    hash_ *= 1099511628211ULL;
  }
  return *this;
}

Digest& Digest::add(const Layout& layout) {
  add(static_cast<std::uint64_t>(layout.variant().index()));
  std::visit(
      [this](const auto& l) {
        using T = std::decay_t<decltype(l)>;
        if constexpr (std::is_same_v<T, BlockCyclic>) {
          add_cyclic(*this, l);
        } else if constexpr (std::is_same_v<T, MultiDimLayout>) {
          add(l.storage() == StorageOrder::RowMajor).add(static_cast<std::uint64_t>(l.rank()));
          for (std::size_t d = 0; d < l.rank(); ++d) {
            add(l.dim(d).is_distributed());
            add_cyclic(*this, l.dim(d).layout());
          }
        } else {
          add(l.size()).add(l.stride()).add(l.offset()).add(l.block_size()).add(l.procs());
        }
      },
      layout.variant());
  return *this;
}

Digest& Digest::add(const MachineModel& m) {
  for (const double price : m.prices.seconds) add(price);
  add(m.prices.send_overhead).add(m.prices.recv_overhead).add(m.hosts).add(m.cores);
  add(static_cast<std::uint64_t>(m.links.size()));
  for (const ModelLink& link : m.links) {
    add(link.bandwidth).add(link.shared).add(link.oversubscribed_bandwidth);
    // Only where declared: the digests of models without the curve stay as they were.
    if (!link.oversubscribed_bandwidths.empty()) add_curve(*this, link.oversubscribed_bandwidths);
  }
  add(static_cast<std::uint64_t>(m.routes.size()));
  for (const ModelRoute& route : m.routes) {
    add(route.latency).add(static_cast<std::uint64_t>(route.links.size()));
    for (const std::size_t link : route.links) add(static_cast<std::uint64_t>(link));
  }
  add(m.barrier_latency).add(m.shared_memory).add(m.memory.has_value());
  if (m.memory) {
    add_curve(*this, m.memory->copy_bandwidth);
    add_curve(*this, m.memory->node_bandwidth);
  }
  if (!m.copy_slowdowns.empty()) add_curve(*this, m.copy_slowdowns);
  return *this;
}

std::uint64_t call_digest(const Layout& source, const Layout& dest, const RedistributeOptions& o) {
  Digest digest;
  digest.add(source).add(dest).add(o.elem_bytes).add(o.indexing).add(o.schedule).add(o.relabel).add(o.work);
  digest.add(static_cast<int>(o.step_procedure)).add(o.model != nullptr);
  if (o.model) digest.add(*o.model);
  digest.add(o.ranks.source_first).add(o.ranks.dest_first).add(static_cast<std::uint64_t>(o.ranks.dest_ranks.size()));
  for (const Index rank : o.ranks.dest_ranks) digest.add(rank);
  return digest.value();
}

std::uint64_t text_digest(std::string_view text) { return Digest().add(text).value(); }

}  // namespace redist::mpi
