#include "redist/pack/prefix_reduction_sum.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>

#include "redist/pack/linear_exchange.hpp"

namespace redist::pack {
namespace {

const std::byte* bytes_of(std::span<const Index> v) { return reinterpret_cast<const std::byte*>(v.data()); }
std::byte* bytes_of(std::span<Index> v) { return reinterpret_cast<std::byte*>(v.data()); }
Index byte_size(std::size_t words) { return static_cast<Index>(words) * kWord; }

void add_into(std::span<Index> into, std::span<const Index> from) {
  for (std::size_t j = 0; j < into.size(); ++j) into[j] += from[j];
}

// Sends `out` to `peer` and receives as many words from it into `in`, concurrently.
void swap_with(Transport& t, Rank peer, std::span<const Index> out, std::span<Index> in, Tag tag) {
  std::array<Request, 2> requests = {t.irecv(peer, bytes_of(in), byte_size(in.size()), tag),
                                     t.isend(peer, bytes_of(out), byte_size(out.size()), tag)};
  t.wait_all(requests);
}

void send_words(Transport& t, Rank peer, std::span<const Index> out, Tag tag) {
  std::array<Request, 1> request = {t.isend(peer, bytes_of(out), byte_size(out.size()), tag)};
  t.wait_all(request);
}

void receive_words(Transport& t, Rank peer, std::span<Index> in, Tag tag) {
  std::array<Request, 1> request = {t.irecv(peer, bytes_of(in), byte_size(in.size()), tag)};
  t.wait_all(request);
}

Index piece_begin(std::size_t length, Index members, Index k) {
  return static_cast<Index>(length) * k / members;
}

}  // namespace

const NameTable<PrsAlgorithm>& prs_algorithm_names() {
  static const NameTable<PrsAlgorithm> table(
      "prefix-reduction-sum",
      {{PrsAlgorithm::Auto, "auto"}, {PrsAlgorithm::Direct, "direct"}, {PrsAlgorithm::Split, "split"}});
  return table;
}

PrsAlgorithm prs_algorithm_from_name(const std::string& name) { return prs_algorithm_names().from_name(name); }

const char* prs_algorithm_name(PrsAlgorithm algorithm) { return prs_algorithm_names().name_of(algorithm).data(); }

PrsRoute prs_route(PrsAlgorithm algorithm, Index members, Index machine, Index length, bool has_control) {
  if (members == 1) return PrsRoute::Local;
  if (algorithm == PrsAlgorithm::Direct) return PrsRoute::Direct;
  if (algorithm == PrsAlgorithm::Split) return PrsRoute::Split;
  if (has_control && members == machine) return PrsRoute::Control;
  return members <= 4 || length < members ? PrsRoute::Direct : PrsRoute::Split;
}

void prefix_reduction_sum(Transport& transport, std::span<const Index> line, std::size_t me,
                          std::span<const Index> values, std::span<Index> prefix, std::span<Index> total,
                          PrsAlgorithm algorithm, Tag tag, Index units_per_add) {
  const auto members = static_cast<Index>(line.size());
  const auto length = static_cast<Index>(values.size());
  // Whether the platform has a control network is asked only where it could be used.
  bool control_used = false;
  if (prs_route(algorithm, members, transport.size(), length, true) == PrsRoute::Control) {
    control_used = transport.control_prefix_reduction_sum(values, prefix, total);
  }
  if (control_used) return;
  switch (prs_route(algorithm, members, transport.size(), length, false)) {
    case PrsRoute::Local:
      std::fill(prefix.begin(), prefix.end(), 0);
      std::copy(values.begin(), values.end(), total.begin());
      return;
    case PrsRoute::Direct:
      prefix_reduction_sum_direct(transport, line, me, values, prefix, total, tag, units_per_add);
      return;
    default: prefix_reduction_sum_split(transport, line, me, values, prefix, total, tag); return;
  }
}

void prefix_reduction_sum_direct(Transport& transport, std::span<const Index> line, std::size_t me,
                                 std::span<const Index> values, std::span<Index> prefix, std::span<Index> total,
                                 Tag tag, Index units_per_add) {
  const auto members = static_cast<Index>(line.size());
  const std::size_t m = values.size();
  const Index adds = units_per_add * static_cast<Index>(m);  // one element-wise vector addition
  Index cube = 1;
  while (cube * 2 <= members) cube *= 2;
  const Index surplus = members - cube;  // members 0..2·surplus-1 pair up: odd ones fold onto even ones
  const auto position = static_cast<Index>(me);
  const auto rank_of = [&](Index virtual_rank) {
    return static_cast<Rank>(line[static_cast<std::size_t>(virtual_rank < surplus ? 2 * virtual_rank : virtual_rank + surplus)]);
  };
  Work work;
  if (position < 2 * surplus && position % 2 == 1) {
    send_words(transport, static_cast<Rank>(line[me - 1]), values, tag + 1);
    std::vector<Index> back(2 * m);
    receive_words(transport, static_cast<Rank>(line[me - 1]), back, tag + 1);
    std::copy(back.begin(), back.begin() + static_cast<std::ptrdiff_t>(m), prefix.begin());
    std::copy(back.begin() + static_cast<std::ptrdiff_t>(m), back.end(), total.begin());
    transport.charge(work.add(WorkKind::ByteCopied, byte_size(2 * m)));
    return;
  }
  std::fill(prefix.begin(), prefix.end(), 0);
  std::copy(values.begin(), values.end(), total.begin());
  Index virtual_rank = position - surplus;
  std::vector<Index> partner(m);
  if (position < 2 * surplus) {
    virtual_rank = position / 2;
    receive_words(transport, static_cast<Rank>(line[me + 1]), partner, tag + 1);
    add_into(total, partner);
    work.add(WorkKind::ElementScanned, adds);
  }
  for (Index bit = 1; bit < cube; bit *= 2) {
    const Index other = virtual_rank ^ bit;
    transport.charge(work);
    work = Work();
    swap_with(transport, rank_of(other), total, partner, tag);
    if (other < virtual_rank) {
      add_into(prefix, partner);
      work.add(WorkKind::ElementScanned, adds);
    }
    add_into(total, partner);
    work.add(WorkKind::ElementScanned, adds);
  }
  if (position < 2 * surplus) {  // the folded odd partner's prefix includes this member's values
    std::vector<Index> back(2 * m);
    for (std::size_t j = 0; j < m; ++j) {
      back[j] = prefix[j] + values[j];
      back[m + j] = total[j];
    }
    work.add(WorkKind::ElementScanned, adds).add(WorkKind::ByteCopied, byte_size(m));
    transport.charge(work);
    work = Work();
    send_words(transport, static_cast<Rank>(line[me + 1]), back, tag + 1);
  }
  transport.charge(work);
}

void prefix_reduction_sum_split(Transport& transport, std::span<const Index> line, std::size_t me,
                                std::span<const Index> values, std::span<Index> prefix, std::span<Index> total,
                                Tag tag) {
  const auto members = static_cast<Index>(line.size());
  const std::size_t m = values.size();
  const auto position = static_cast<Index>(me);
  const Index mine_begin = piece_begin(m, members, position);
  const auto mine = static_cast<std::size_t>(piece_begin(m, members, position + 1) - mine_begin);
  // rows[k]: member k's values over this member's piece.
  std::vector<std::vector<Index>> rows(static_cast<std::size_t>(members), std::vector<Index>(mine));
  std::copy_n(values.begin() + mine_begin, mine, rows[me].begin());
  Work work;
  work.add(WorkKind::ByteCopied, byte_size(mine));
  for (Index step = 1; step < members; ++step) {  // linear permutation: send ahead, receive from behind
    const Index to = (position + step) % members, from = (position - step + members) % members;
    const Index to_begin = piece_begin(m, members, to), to_end = piece_begin(m, members, to + 1);
    transport.charge(work);
    work = Work();
    std::vector<Request> requests;
    if (mine > 0) requests.push_back(transport.irecv(static_cast<Rank>(line[static_cast<std::size_t>(from)]), bytes_of(std::span<Index>(rows[static_cast<std::size_t>(from)])), byte_size(mine), tag));
    if (to_end > to_begin) requests.push_back(transport.isend(static_cast<Rank>(line[static_cast<std::size_t>(to)]), bytes_of(values.subspan(static_cast<std::size_t>(to_begin), static_cast<std::size_t>(to_end - to_begin))), byte_size(static_cast<std::size_t>(to_end - to_begin)), tag));
    if (!requests.empty()) transport.wait_all(requests);
  }
  // Scan this piece over the members: replies[k] = (prefix of member k, total), both over the piece.
  std::vector<std::vector<Index>> replies(static_cast<std::size_t>(members), std::vector<Index>(2 * mine));
  for (std::size_t j = 0; j < mine; ++j) {
    Index running = 0;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      replies[k][j] = running;
      running += rows[k][j];
    }
    for (auto& reply : replies) reply[mine + j] = running;
  }
  work.add(WorkKind::ElementScanned, 2 * members * static_cast<Index>(mine));
  transport.charge(work);
  work = Work();
  const auto place = [&](Index owner, std::span<const Index> reply) {
    const Index begin = piece_begin(m, members, owner);
    const auto size = static_cast<std::size_t>(piece_begin(m, members, owner + 1) - begin);
    std::copy_n(reply.begin(), size, prefix.begin() + begin);
    std::copy_n(reply.begin() + static_cast<std::ptrdiff_t>(size), size, total.begin() + begin);
    work.add(WorkKind::ByteCopied, byte_size(2 * size));
  };
  place(position, replies[me]);
  std::vector<Index> incoming;
  for (Index step = 1; step < members; ++step) {
    const Index to = (position + step) % members, from = (position - step + members) % members;
    const auto from_size = static_cast<std::size_t>(piece_begin(m, members, from + 1) - piece_begin(m, members, from));
    incoming.assign(2 * from_size, 0);
    transport.charge(work);
    work = Work();
    std::vector<Request> requests;
    if (from_size > 0) requests.push_back(transport.irecv(static_cast<Rank>(line[static_cast<std::size_t>(from)]), bytes_of(std::span<Index>(incoming)), byte_size(incoming.size()), tag + 1));
    if (mine > 0) requests.push_back(transport.isend(static_cast<Rank>(line[static_cast<std::size_t>(to)]), bytes_of(std::span<const Index>(replies[static_cast<std::size_t>(to)])), byte_size(2 * mine), tag + 1));
    if (!requests.empty()) transport.wait_all(requests);
    if (from_size > 0) place(from, incoming);
  }
  transport.charge(work);
}

}  // namespace redist::pack
