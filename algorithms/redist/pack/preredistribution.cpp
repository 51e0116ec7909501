#include "redist/pack/preredistribution.hpp"

#include <stdexcept>

#include "redist/pack/linear_exchange.hpp"

namespace redist::pack {
namespace {

constexpr Tag kTag = 400;

LocalArrays selected_data(Transport& t, const Geometry& from, const Geometry& to, std::span<const Index> values,
                          std::span<const std::uint8_t> mask, bool paper) {
  const auto d = static_cast<Index>(from.rank());
  std::vector<Words> out(static_cast<std::size_t>(t.size()));
  Index sent = 0;
  for (Index offset = 0; offset < from.local_size(); ++offset) {
    if (!mask[static_cast<std::size_t>(offset)]) continue;
    const auto coords = from.global_coords(t.rank(), offset);
    auto& message = out[static_cast<std::size_t>(to.owner(coords))];
    message.push_back(from.linear_index(coords));
    message.push_back(values[static_cast<std::size_t>(offset)]);
    ++sent;
  }
  // Per true element: d coordinates, their combination into one index, d owner formulas.
  if (paper) {  // detection; every mask element tested; per true one: d indices combined, a pair written
    t.charge(paper_detection(from)
                 .add(WorkKind::ElementScanned, from.local_size() + 2 * sent)
                 .add(WorkKind::IndexOp, d * sent));
  } else {
    t.charge(Work(WorkKind::ElementScanned, from.local_size())
                 .add(WorkKind::IndexOp, (2 * d + 1) * sent)
                 .add(WorkKind::ByteCopied, 2 * kWord * sent));
  }
  const auto in = linear_permutation_exchange(t, out, std::vector<Index>(out.size(), 2 * to.local_size()), kTag);
  LocalArrays result{std::vector<Index>(static_cast<std::size_t>(to.local_size()), 0),
                     std::vector<std::uint8_t>(static_cast<std::size_t>(to.local_size()), 0)};
  Index received = 0;
  for (const Words& message : in) {
    for (std::size_t k = 0; k + 1 < message.size(); k += 2, ++received) {
      const auto offset = static_cast<std::size_t>(to.local_offset(to.coords_of_linear(message[k])));
      result.values[offset] = message[k + 1];
      result.mask[offset] = 1;
    }
  }
  // The all-false temporary mask, then per pair: d coordinates and d local indices.
  if (paper) {
    t.charge(paper_selected_receive(d, to.local_size(), received));
  } else {
    t.charge(Work(WorkKind::ByteCopied, to.local_size() + (kWord + 1) * received).add(WorkKind::IndexOp, 2 * d * received));
  }
  return result;
}

LocalArrays whole_arrays(Transport& t, const Geometry& from, const Geometry& to, std::span<const Index> values,
                         std::span<const std::uint8_t> mask, bool paper) {
  const auto d = static_cast<Index>(from.rank());
  std::vector<Words> out(static_cast<std::size_t>(t.size()));
  for (Index offset = 0; offset < from.local_size(); ++offset) {  // detection of the elements to send
    auto& message = out[static_cast<std::size_t>(to.owner(from.global_coords(t.rank(), offset)))];
    message.push_back(values[static_cast<std::size_t>(offset)]);
    message.push_back(mask[static_cast<std::size_t>(offset)]);
  }
  // The paper's code: a detection phase for the elements to send, then A and M copied out.
  t.charge(paper ? paper_detection(from).add(WorkKind::ElementScanned, 2 * from.local_size())
                 : Work(WorkKind::IndexOp, 2 * d * from.local_size()).add(WorkKind::ByteCopied, (kWord + 1) * from.local_size()));
  const auto in = linear_permutation_exchange(t, out, std::vector<Index>(out.size(), 2 * to.local_size()), kTag);
  LocalArrays result{std::vector<Index>(static_cast<std::size_t>(to.local_size())),
                     std::vector<std::uint8_t>(static_cast<std::size_t>(to.local_size()))};
  std::vector<std::size_t> cursor(in.size(), 0);
  for (Index offset = 0; offset < to.local_size(); ++offset) {  // detection of the elements received
    const auto source = static_cast<std::size_t>(from.owner(to.global_coords(t.rank(), offset)));
    result.values[static_cast<std::size_t>(offset)] = in[source].at(cursor[source]++);
    result.mask[static_cast<std::size_t>(offset)] = static_cast<std::uint8_t>(in[source].at(cursor[source]++));
  }
  // The paper's code: a second detection phase for the elements received, then A and M stored.
  t.charge(paper ? paper_detection(from).add(WorkKind::ElementScanned, 2 * to.local_size())
                 : Work(WorkKind::IndexOp, 2 * d * to.local_size()).add(WorkKind::ByteCopied, (kWord + 1) * to.local_size()));
  return result;
}

}  // namespace

const NameTable<Preredistribution>& preredistribution_names() {
  static const NameTable<Preredistribution> table("redistribution", {{Preredistribution::None, "none"},
                                                                     {Preredistribution::SelectedData, "selected"},
                                                                     {Preredistribution::WholeArrays, "whole"}});
  return table;
}

Preredistribution preredistribution_from_name(const std::string& name) {
  return preredistribution_names().from_name(name);
}

LocalArrays redistribute_to_block(Transport& t, const Geometry& from, std::span<const Index> values,
                                  std::span<const std::uint8_t> mask, Preredistribution how, WorkModel accounting) {
  const Geometry to = from.as_block();
  const bool paper = accounting == WorkModel::Paper;
  switch (how) {
    case Preredistribution::SelectedData: return selected_data(t, from, to, values, mask, paper);
    case Preredistribution::WholeArrays: return whole_arrays(t, from, to, values, mask, paper);
    case Preredistribution::None: break;
  }
  return {{values.begin(), values.end()}, {mask.begin(), mask.end()}};
}

}  // namespace redist::pack
