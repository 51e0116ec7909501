#include "redist/pack/schemes.hpp"

#include <algorithm>
#include <stdexcept>

#include "redist/pack/linear_exchange.hpp"
#include "redist/pack/phase_timing.hpp"
#include "redist/pack/ranking.hpp"

namespace redist::pack {
namespace {

constexpr Tag kPackTag = 200, kRequestTag = 300, kReplyTag = 301;

// What the simple storage scheme records for each true element in the initial step.
struct Record {
  Index offset;    ///< local offset of the element
  Index slice;     ///< its slice (tile number on dimension 0 and the higher local indices)
  Index in_slice;  ///< its rank among the true elements of the slice
};

struct Scan {
  std::vector<Index> slice_count;
  std::vector<Record> records;  ///< SSS only
};

// Initial step. SSS writes one record per true element (the paper's d+3 items: one table entry).
Scan initial_scan(Transport& t, const Geometry& g, std::span<const std::uint8_t> mask, Scheme scheme,
                  WorkModel accounting) {
  Work work;
  Scan scan{count_slices(g, mask, work), {}};
  if (accounting == WorkModel::Paper) {
    Index true_elements = 0;
    for (Index n : scan.slice_count) true_elements += n;
    work = paper_initial_scan(static_cast<Index>(g.rank()), g.local_size(), true_elements, scheme == Scheme::Simple);
  }
  if (scheme == Scheme::Simple) {
    const auto w0 = static_cast<std::size_t>(g.block(0));
    Index in_slice = 0;
    for (std::size_t offset = 0; offset < mask.size(); ++offset) {
      if (offset % w0 == 0) in_slice = 0;
      if (mask[offset]) {
        scan.records.push_back({static_cast<Index>(offset), static_cast<Index>(offset / w0), in_slice++});
      }
    }
    if (accounting == WorkModel::Redist) work.add(WorkKind::TableEntry, static_cast<Index>(scan.records.size()));
  }
  t.charge(work);
  return scan;
}

// Calls fn(dest, first_rank, count, local offset of the first element in the slice's true elements)
// for each run of consecutive ranks [base, base + n) with one owner in `v`.
template <typename Fn>
void for_each_segment(const BlockCyclic& v, Index base, Index n, Fn&& fn) {
  Index done = 0;
  while (done < n) {
    const Index rank = base + done;
    const Index run = std::min(n - done, v.block_size() - rank % v.block_size());
    fn(v.owner(rank), rank, run, done);
    done += run;
  }
}

// Calls fn(offset) for the true elements of slice s in order, scanning it only until all are found.
template <typename Fn>
Index scan_slice(const Geometry& g, std::span<const std::uint8_t> mask, Index slice, Index count, Fn&& fn) {
  Index offset = slice * g.block(0), found = 0, scanned = 0;
  for (; found < count; ++offset, ++scanned) {
    if (mask[static_cast<std::size_t>(offset)]) {
      fn(offset);
      ++found;
    }
  }
  return scanned;
}

// Final step and message composition of PACK.
std::vector<Words> compose(Transport& t, const Geometry& g, std::span<const Index> values, std::span<const std::uint8_t> mask,
                           const Scan& scan, const Ranking& ranking, const BlockCyclic& v, Scheme scheme,
                           WorkModel accounting) {
  const auto slices = static_cast<Index>(ranking.slice_count.size());
  std::vector<Words> out(static_cast<std::size_t>(t.size()));
  Work work;
  if (scheme == Scheme::Simple) {
    for (const Record& r : scan.records) {
      const Index rank = ranking.slice_base[static_cast<std::size_t>(r.slice)] + r.in_slice;
      auto& to = out[static_cast<std::size_t>(v.owner(rank))];
      to.push_back(values[static_cast<std::size_t>(r.offset)]);
      to.push_back(rank);
    }
    const auto e = static_cast<Index>(scan.records.size());
    work.add(WorkKind::TableEntry, e).add(WorkKind::IndexOp, e).add(WorkKind::ByteCopied, 2 * kWord * e);
    if (accounting == WorkModel::Paper) {  // and PS_f's and A_l's offsets from each record's saved indices
      work = paper_compose(slices, 0, e, 0, 0, true, false);
      work += paper_record_offsets(static_cast<Index>(g.rank()), 2 * e);
    }
    t.charge(work);
    return out;
  }
  // CSS / CMS: the sendl vector from PS_c and PS_f, one entry per segment of each slice.
  Index segments = 0, scanned = 0, elements = 0, busy = 0;
  for (Index s = 0; s < static_cast<Index>(ranking.slice_count.size()); ++s) {
    const Index n = ranking.slice_count[static_cast<std::size_t>(s)];
    if (n == 0) continue;
    ++busy;
    std::vector<Index> slice_values;
    scanned += scan_slice(g, mask, s, n, [&](Index offset) { slice_values.push_back(values[static_cast<std::size_t>(offset)]); });
    elements += n;
    for_each_segment(v, ranking.slice_base[static_cast<std::size_t>(s)], n, [&](Index dest, Index first, Index count, Index skip) {
      ++segments;
      auto& to = out[static_cast<std::size_t>(dest)];
      if (scheme == Scheme::CompactMessage) {
        to.push_back(first);
        to.push_back(count);
        to.insert(to.end(), slice_values.begin() + skip, slice_values.begin() + skip + count);
      } else {
        for (Index k = 0; k < count; ++k) {
          to.push_back(slice_values[static_cast<std::size_t>(skip + k)]);
          to.push_back(first + k);
        }
      }
    });
  }
  work.add(WorkKind::IndexOp, slices + segments).add(WorkKind::ElementScanned, scanned);
  if (scheme == Scheme::CompactMessage) {
    work.add(WorkKind::ByteCopied, kWord * (elements + 2 * segments));
  } else {
    work.add(WorkKind::ByteCopied, 2 * kWord * elements);
  }
  if (accounting == WorkModel::Paper) {
    work = paper_compose(slices, busy, elements, scanned, segments, false, scheme == Scheme::CompactMessage);
    work += paper_slice_coordinates(static_cast<Index>(g.rank()), busy);
  }
  t.charge(work);
  return out;
}

// Message decomposition of PACK: every datum lands at its rank's local index of V.
void decompose(Transport& t, const std::vector<Words>& in, const BlockCyclic& v, Scheme scheme, std::vector<Index>& local,
               WorkModel accounting) {
  Work work;
  Index received = 0, segments = 0;
  for (const Words& message : in) {
    if (scheme == Scheme::CompactMessage) {
      for (std::size_t k = 0; k < message.size();) {
        const Index first = message[k], count = message[k + 1];
        if (count <= 0 || k + 2 + static_cast<std::size_t>(count) > message.size()) throw std::runtime_error("malformed PACK segment");
        std::copy_n(message.begin() + static_cast<std::ptrdiff_t>(k + 2), count,
                    local.begin() + v.local_index(first));
        work.add(WorkKind::RunCopied, 1).add(WorkKind::ByteCopied, kWord * (count + 2));
        received += count;
        ++segments;
        k += 2 + static_cast<std::size_t>(count);
      }
    } else {
      for (std::size_t k = 0; k + 1 < message.size(); k += 2) {
        local[static_cast<std::size_t>(v.local_index(message[k + 1]))] = message[k];
      }
      work.add(WorkKind::ByteCopied, kWord * static_cast<Index>(message.size()));
      received += static_cast<Index>(message.size() / 2);
    }
  }
  if (accounting == WorkModel::Paper) work = paper_decompose(received, segments, scheme == Scheme::CompactMessage);
  t.charge(work);
}

void require_sizes(const Geometry& g, std::size_t a, std::size_t mask) {
  const auto l = static_cast<std::size_t>(g.local_size());
  if (a != l || mask != l) {
    throw std::invalid_argument("local arrays of " + std::to_string(a) + " and " + std::to_string(mask) +
                                " elements, the geometry holds " + std::to_string(l) + " per processor");
  }
}

}  // namespace

const NameTable<Scheme>& scheme_names() {
  static const NameTable<Scheme> table(
      "scheme", {{Scheme::Simple, "sss"}, {Scheme::CompactStorage, "css"}, {Scheme::CompactMessage, "cms"}});
  return table;
}

Scheme scheme_from_name(const std::string& name) { return scheme_names().from_name(name); }

const char* scheme_name(Scheme scheme) { return scheme_names().name_of(scheme).data(); }

BlockCyclic vector_layout(Index length, Index block, Index procs) {
  if (block < 0) throw std::invalid_argument("the vector's block size must not be negative");
  if (length == 0) return BlockCyclic(1, 1, procs);  // an empty vector: any layout holds nothing
  return block == 0 ? BlockCyclic::block(length, procs) : BlockCyclic(length, block, procs);
}

PackResult pack(Transport& t, const Geometry& g, std::span<const Index> values, std::span<const std::uint8_t> mask,
                const PackOptions& options) {
  require_sizes(g, values.size(), mask.size());
  if (g.processors() != t.size()) throw std::invalid_argument("the grid's processors must be the transport's ranks");
  PackResult result;
  const double start = t.now();
  const Scan scan = initial_scan(t, g, mask, options.scheme, options.accounting);
  const Ranking ranking = finish_ranking(t, g, scan.slice_count, options.prs, result.times, options.accounting);
  result.size = ranking.size;
  const BlockCyclic v = vector_layout(ranking.size, options.vector_block, t.size());
  result.vector.assign(static_cast<std::size_t>(ranking.size == 0 ? 0 : v.local_size(t.rank())), 0);
  if (ranking.size > 0) {
    auto out = compose(t, g, values, mask, scan, ranking, v, options.scheme, options.accounting);
    std::vector<Index> capacity(static_cast<std::size_t>(t.size()), 3 * static_cast<Index>(result.vector.size()));
    std::vector<Words> in;
    start_timed_phase(t, options.accounting);
    {
      PhaseClock clock(t, result.times.comm);
      in = linear_permutation_exchange(t, out, capacity, kPackTag);
    }
    decompose(t, in, v, options.scheme, result.vector, options.accounting);
  }
  result.times.total = t.now() - start;
  return result;
}

UnpackResult unpack(Transport& t, const Geometry& g, std::span<const Index> vector, std::span<const std::uint8_t> mask,
                    std::span<const Index> field, const UnpackOptions& options) {
  require_sizes(g, field.size(), mask.size());
  if (options.scheme == Scheme::CompactMessage) throw std::invalid_argument("UNPACK has the sss and css schemes only");
  if (g.processors() != t.size()) throw std::invalid_argument("the grid's processors must be the transport's ranks");
  const BlockCyclic v = vector_layout(options.vector_length, options.vector_block, t.size());
  const auto held = static_cast<std::size_t>(options.vector_length == 0 ? 0 : v.local_size(t.rank()));
  if (vector.size() != held) throw std::invalid_argument("this rank's part of V must have " + std::to_string(held) + " elements");
  UnpackResult result;
  const double start = t.now();
  const Scan scan = initial_scan(t, g, mask, options.scheme, options.accounting);
  const bool paper = options.accounting == WorkModel::Paper;
  const Ranking ranking = finish_ranking(t, g, scan.slice_count, options.prs, result.times, options.accounting);
  result.size = ranking.size;
  if (ranking.size > options.vector_length) {
    throw std::invalid_argument("the mask has " + std::to_string(ranking.size) + " true elements, V only " +
                                std::to_string(options.vector_length));
  }
  // Stage 1: requests (global ranks) to the owners of V, in scan order.
  std::vector<Words> requests(static_cast<std::size_t>(t.size()));
  Work work;
  if (options.scheme == Scheme::Simple) {
    for (const Record& r : scan.records) {
      const Index rank = ranking.slice_base[static_cast<std::size_t>(r.slice)] + r.in_slice;
      requests[static_cast<std::size_t>(v.owner(rank))].push_back(rank);
    }
    const auto e = static_cast<Index>(scan.records.size());
    work.add(WorkKind::TableEntry, e).add(WorkKind::IndexOp, e).add(WorkKind::ByteCopied, kWord * e);
    if (paper) {  // PS_f's offset from each record's saved indices
      work = paper_compose(static_cast<Index>(ranking.slice_count.size()), 0, e, 0, 0, true, false);
      work += paper_record_offsets(static_cast<Index>(g.rank()), e);
    }
  } else {
    Index segments = 0, elements = 0, busy = 0;
    for (std::size_t s = 0; s < ranking.slice_count.size(); ++s) {
      if (ranking.slice_count[s] == 0) continue;
      ++busy;
      elements += ranking.slice_count[s];
      for_each_segment(v, ranking.slice_base[s], ranking.slice_count[s], [&](Index dest, Index first, Index count, Index) {
        ++segments;
        for (Index k = 0; k < count; ++k) requests[static_cast<std::size_t>(dest)].push_back(first + k);
      });
    }
    work.add(WorkKind::IndexOp, static_cast<Index>(ranking.slice_count.size()) + segments)
        .add(WorkKind::ByteCopied, kWord * elements);
    // The requests need no rescan: the ranks follow from PS_c and PS_f alone.
    if (paper) work = paper_compose(static_cast<Index>(ranking.slice_count.size()), busy, elements, 0, segments, false, false);
  }
  t.charge(work);
  std::vector<Index> asked(requests.size());
  for (std::size_t q = 0; q < requests.size(); ++q) asked[q] = static_cast<Index>(requests[q].size());
  std::vector<Words> received;
  start_timed_phase(t, options.accounting);
  {
    PhaseClock clock(t, result.times.comm);
    received = linear_permutation_exchange(t, requests, std::vector<Index>(requests.size(), static_cast<Index>(held)), kRequestTag);
  }
  // Stage 2: replies with the requested values, in request order. The paper's programs send every
  // datum with its global rank (section 6.4.1: "a communication message consists of the pair (datum
  // value, global rank)", the same structure for both storage schemes), so their replies are pairs.
  const Index reply_words = paper ? 2 : 1;
  work = Work();
  for (Words& message : received) {
    Words reply;
    reply.reserve(message.size() * static_cast<std::size_t>(reply_words));
    for (Index rank : message) {
      reply.push_back(vector[static_cast<std::size_t>(v.local_index(rank))]);
      if (paper) reply.push_back(rank);
    }
    message = std::move(reply);
    work.add(WorkKind::ByteCopied, 2 * kWord * static_cast<Index>(message.size()));
  }
  if (paper) {  // each request read, its value fetched, the pair written
    Index pairs = 0;
    for (const Words& message : received) pairs += static_cast<Index>(message.size()) / 2;
    work = Work(WorkKind::ElementScanned, 3 * pairs);
  }
  t.charge(work);
  for (Index& words : asked) words *= reply_words;
  std::vector<Words> replies;
  start_timed_phase(t, options.accounting);
  {
    PhaseClock clock(t, result.times.comm);
    replies = linear_permutation_exchange(t, received, asked, kReplyTag);
  }
  // Decomposition: A = FIELD, then the true positions from the replies, walked in request order.
  result.array.assign(field.begin(), field.end());
  std::vector<std::size_t> cursor(replies.size(), 0);
  work = Work(WorkKind::ByteCopied, kWord * static_cast<Index>(field.size()));
  const auto take = [&](Index offset, Index rank) {
    const auto owner = static_cast<std::size_t>(v.owner(rank));
    const std::size_t at = static_cast<std::size_t>(reply_words) * cursor[owner]++;
    if (paper && replies[owner].at(at + 1) != rank) throw std::logic_error("UNPACK reply out of request order");
    result.array[static_cast<std::size_t>(offset)] = replies[owner].at(at);
  };
  if (options.scheme == Scheme::Simple) {
    for (const Record& r : scan.records) take(r.offset, ranking.slice_base[static_cast<std::size_t>(r.slice)] + r.in_slice);
    const auto e = static_cast<Index>(scan.records.size());
    work.add(WorkKind::TableEntry, e).add(WorkKind::IndexOp, e).add(WorkKind::ByteCopied, kWord * e);
    if (paper) {  // FIELD copied; pair read, value stored at the offset of the record's saved indices
      work = Work(WorkKind::ElementScanned, static_cast<Index>(field.size()) + 2 * e);
      work += paper_record_offsets(static_cast<Index>(g.rank()), e);
    }
  } else {
    Index scanned = 0, elements = 0, busy = 0;
    for (std::size_t s = 0; s < ranking.slice_count.size(); ++s) {
      const Index n = ranking.slice_count[s];
      if (n == 0) continue;
      ++busy;
      Index rank = ranking.slice_base[s];
      scanned += scan_slice(g, mask, static_cast<Index>(s), n, [&](Index offset) { take(offset, rank++); });
      elements += n;
    }
    // Owners of a slice's ranks change only at its segments: one owner computation per segment.
    work.add(WorkKind::ElementScanned, scanned).add(WorkKind::ByteCopied, kWord * elements);
    if (paper) {  // FIELD copied; each busy slice located and rescanned, its values stored
      work = Work(WorkKind::ElementScanned, static_cast<Index>(field.size()) + scanned + elements);
      work += paper_slice_coordinates(static_cast<Index>(g.rank()), busy);
    }
  }
  t.charge(work);
  result.times.total = t.now() - start;
  return result;
}

}  // namespace redist::pack
