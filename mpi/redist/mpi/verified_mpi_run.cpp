#include "redist/mpi/verified_mpi_run.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "redist/indexing/submatrix_plan.hpp"
#include "redist/mpi/mpi_transport.hpp"
#include "redist/mpi/pdgemr2d.hpp"
#include "redist/mpi/plan.hpp"
#include "redist/mpi/shared_array.hpp"
#include "redist/redistribute/redistribution_plan.hpp"
#include "redist/redistribute/verified_run.hpp"

namespace redist::mpi {
namespace {

struct Roles {
  std::optional<Index> source, dest;
};

Roles roles(MPI_Comm comm, const Layout& source, const Layout& dest, const RankMap& ranks) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return {ranks.source_of(rank, source.processors()), ranks.dest_of(rank, dest.processors())};
}

// The global index of every element of processor `proc`'s local storage, in storage order. For
// multi-dimensional layouts from per-dimension tables: a call of global_index per element would
// cost more than the redistribution being measured.
std::vector<Index> global_indices(const Layout& layout, std::optional<Index> proc) {
  std::vector<Index> out;
  if (!proc) return out;
  const Index count = layout.local_size(*proc);
  out.reserve(static_cast<std::size_t>(count));
  const auto* multi = std::get_if<MultiDimLayout>(&layout.variant());
  if (multi == nullptr) {
    for (Index l = 0; l < count; ++l) out.push_back(layout.global_index(*proc, l));
    return out;
  }
  const std::size_t n = multi->rank();
  const auto shape = multi->shape(), local = multi->local_shape(*proc), grid = multi->grid_coords(*proc);
  std::vector<std::vector<Index>> table(n);  // table[d][i]: global coordinate i's contribution
  Index weight = 1;
  for (std::size_t d = n; d-- > 0;) {  // row-major weights of the global identity
    for (Index i = 0; i < local[d]; ++i) table[d].push_back(multi->dim(d).layout().global_index(grid[d], i) * weight);
    weight *= shape[d];
  }
  if (count == 0) return out;
  std::vector<Index> at(n, 0);
  const bool row_major = multi->storage() == StorageOrder::RowMajor;
  for (Index l = 0; l < count; ++l) {
    Index g = 0;
    for (std::size_t d = 0; d < n; ++d) g += table[d][static_cast<std::size_t>(at[d])];
    out.push_back(g);
    for (std::size_t k = 0; k < n; ++k) {  // next local coordinates, fastest dimension first
      const std::size_t d = row_major ? n - 1 - k : k;
      if (++at[d] < local[d]) break;
      at[d] = 0;
    }
  }
  return out;
}

std::size_t local_bytes(const Layout& layout, std::optional<Index> proc, Index elem_bytes) {
  return proc ? static_cast<std::size_t>(layout.local_size(*proc) * elem_bytes) : 0;
}

// A rank's source elements in private memory or in a SharedArray (collective then).
template <class T>
class SourceBuffer {
 public:
  SourceBuffer(MPI_Comm comm, std::size_t elements, SourceStorage storage) {
    if (storage == SourceStorage::Shared) {
      shared_ = std::make_unique<SharedArray<T>>(comm, static_cast<Index>(elements));
    } else {
      private_.resize(elements);
    }
  }
  std::span<T> span() { return shared_ ? shared_->span() : std::span<T>(private_); }

 private:
  std::vector<T> private_;
  std::unique_ptr<SharedArray<T>> shared_;
};

// Keeps, over repetitions, the phases of the one whose slowest rank was fastest.
void keep_fastest(MPI_Comm comm, const Phases& mine, std::optional<Phases>& best) {
  double local[5] = {mine.index, mine.pack, mine.comm, mine.unpack, mine.total};
  double most[5];
  MPI_Allreduce(local, most, 5, MPI_DOUBLE, MPI_MAX, comm);
  if (!best || most[4] < best->total) {
    best = Phases{.index = most[0], .pack = most[1], .comm = most[2], .unpack = most[3], .total = most[4]};
  }
}

double slowest(MPI_Comm comm, double seconds) {
  double most = 0;
  MPI_Allreduce(&seconds, &most, 1, MPI_DOUBLE, MPI_MAX, comm);
  return most;
}

bool everywhere(MPI_Comm comm, bool mine) {
  int local = mine ? 1 : 0, all = 0;
  MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_MIN, comm);
  return all == 1;
}

// One copy of sub(A) into sub(B) as the ScaLAPACK drop-in makes and runs it on a call it has not
// kept (submatrix_call.cpp): the submatrix plan from the rank's SubmatrixCopy, held in a Plan on
// `transport`, executed by the default exchange. Its index phase is the planning.
RedistributeReport copy_by_submatrix_plan(const std::shared_ptr<MpiTransport>& transport, const SubmatrixCopy& mine,
                                          std::span<const std::byte> a, std::span<std::byte> b, Index elem_bytes) {
  // The index phase is the plan's computation, as a whole matrix's make_plan is timed; the Plan's
  // agreement and its communicator's set-up are outside the phases, as there.
  const double start = MPI_Wtime();
  RedistributionPlan messages = plan_of_messages(submatrix_plan(mine, transport->rank()), elem_bytes, "submatrix");
  const double planned = MPI_Wtime() - start;
  Plan plan(transport, std::move(messages));
  // Each buffer spans what the plan reads or writes of the local storage, as the drop-in's do.
  const RedistributionPlan& p = plan.planned();
  RedistributeReport report = plan.execute_agreed(a.first(static_cast<std::size_t>(p.source_elements * elem_bytes)),
                                                  b.first(static_cast<std::size_t>(p.dest_elements * elem_bytes)));
  report.phases.index = planned;
  report.phases.total += planned;
  return report;
}

// copy_by_submatrix_plan `repeat` times, B set back to what the caller filled it with before each
// (so that each is checked on its own), the fastest kept (keep_fastest: phases the maximum over ranks).
MatrixCopyMove repeated_submatrix_copies(const std::shared_ptr<MpiTransport>& transport, Index elem_bytes, int repeat,
                                         std::optional<Phases>& fastest) {
  return [transport, elem_bytes, repeat, &fastest](Transport&, const SubmatrixCopy& mine, std::span<const std::byte> a,
                                                    std::span<std::byte> b) {
    const std::vector<std::byte> filled(b.begin(), b.end());
    RedistributeReport report;
    for (int k = 0; k < repeat; ++k) {
      std::copy(filled.begin(), filled.end(), b.begin());
      report = copy_by_submatrix_plan(transport, mine, a, b, elem_bytes);
      keep_fastest(transport->comm(), report.phases, fastest);
    }
    return report;
  };
}

}  // namespace

MpiRunSummary verified_matrix_copy(MPI_Comm comm, const MatrixCopy& copy, const RankMap& ranks, Index elem_bytes,
                                   int repeat) {
  const auto transport = std::make_shared<MpiTransport>(comm);
  std::optional<Phases> fastest;
  const VerifiedReport mine = copy_and_verify(*transport, copy, ranks, elem_bytes,
                                              repeated_submatrix_copies(transport, elem_bytes, repeat, fastest));
  MpiRunSummary summary;
  summary.phases = fastest.value_or(Phases{});
  const RedistributeReport& r = mine.report;
  Index local[5] = {r.messages_sent, r.bytes_sent, mine.misplaced, r.bytes_kept, r.bytes_copied_once}, total[5];
  MPI_Allreduce(local, total, 5, MPI_INT64_T, MPI_SUM, comm);
  summary.messages = total[0];
  summary.bytes = total[1];
  summary.misplaced = total[2];
  summary.verified = total[2] == 0;
  summary.bytes_kept = total[3];
  summary.bytes_copied_once = total[4];
  return summary;
}

ReferenceComparison compare_copy_with_pdgemr2d(const MatrixCopy& copy, const RankMap& ranks, int repeat) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  constexpr Index kDoubleBytes = sizeof(double);
  const auto transport = std::make_shared<MpiTransport>(comm);
  ReferenceComparison result;
  std::vector<std::byte> by_redist, by_scalapack;  // this rank's B after each
  // pdgemr2d first (verified_mpi_run.hpp)
  Pdgemr2d scalapack(copy, ranks.source_first, ranks.dest_first);
  result.pdgemr2d_seconds = 1e300;
  // The test values are doubles' bit patterns: pdgemr2d copies them as they are (no arithmetic).
  const VerifiedReport reference = copy_and_verify(
      *transport, copy, ranks, kDoubleBytes,
      [&](Transport& t, const SubmatrixCopy& mine, std::span<const std::byte> a, std::span<std::byte> b) {
        const std::vector<std::byte> filled(b.begin(), b.end());
        const bool holds_a = mine.from.process_of(t.rank()) >= 0, holds_b = mine.to.process_of(t.rank()) >= 0;
        for (int k = 0; k < repeat; ++k) {
          std::copy(filled.begin(), filled.end(), b.begin());
          MPI_Barrier(comm);
          const double start = MPI_Wtime();
          scalapack.run(holds_a ? reinterpret_cast<const double*>(a.data()) : nullptr,
                        holds_b ? reinterpret_cast<double*>(b.data()) : nullptr);
          result.pdgemr2d_seconds = std::min(result.pdgemr2d_seconds, slowest(comm, MPI_Wtime() - start));
        }
        by_scalapack.assign(b.begin(), b.end());
        return RedistributeReport{};
      });
  std::optional<Phases> fastest;
  const MatrixCopyMove redist_copies = repeated_submatrix_copies(transport, kDoubleBytes, repeat, fastest);
  const VerifiedReport redist = copy_and_verify(
      *transport, copy, ranks, kDoubleBytes,
      [&](Transport& t, const SubmatrixCopy& mine, std::span<const std::byte> a, std::span<std::byte> b) {
        const RedistributeReport report = redist_copies(t, mine, a, b);
        by_redist.assign(b.begin(), b.end());
        return report;
      });
  result.redist_seconds = fastest.value_or(Phases{}).total;
  result.verified = everywhere(comm, redist.misplaced == 0 && reference.misplaced == 0);
  result.identical = everywhere(comm, by_redist == by_scalapack);
  std::array<Index, 2> mine_moved{redist.report.bytes_sent, redist.report.bytes_copied_once}, all_moved{};
  MPI_Allreduce(mine_moved.data(), all_moved.data(), 2, MPI_INT64_T, MPI_SUM, comm);
  result.bytes_moved = all_moved[0];
  result.bytes_copied_once = all_moved[1];
  return result;
}

MpiRunSummary verified_redistribute(MPI_Comm comm, const Layout& source, const Layout& dest, const Options& options,
                                    int repeat, SourceStorage storage) {
  const Index eb = options.elem_bytes > 0 ? options.elem_bytes : 1;  // redistribute() reports a bad size
  const Roles me = roles(comm, source, dest, options.ranks);
  SourceBuffer<std::byte> source_buffer(comm, local_bytes(source, me.source, eb), storage);
  const std::span<std::byte> from = source_buffer.span();
  std::vector<std::byte> to(local_bytes(dest, me.dest, eb));
  if (options.elem_bytes > 0) {
    const auto globals = global_indices(source, me.source);
    for (std::size_t l = 0; l < globals.size(); ++l) fill_element(globals[l], &from[l * static_cast<std::size_t>(eb)], eb);
  }
  MpiRunSummary summary;
  std::optional<Phases> best;
  RedistributeReport report;
  for (int k = 0; k < repeat; ++k) {
    std::fill(to.begin(), to.end(), std::byte{0xA5});  // each repetition checked on its own
    report = redistribute(comm, source, dest, from, to, options);
    keep_fastest(comm, report.phases, best);
  }
  summary.phases = best.value_or(Phases{});
  Index misplaced = 0;
  if (me.dest) {
    std::vector<std::byte> expected(static_cast<std::size_t>(eb));
    const auto globals = global_indices(dest, me.dest);
    for (std::size_t l = 0; l < globals.size(); ++l) {
      fill_element(globals[l], expected.data(), eb);
      misplaced += std::memcmp(expected.data(), &to[l * static_cast<std::size_t>(eb)], expected.size()) != 0;
    }
  }
  Index local[4] = {report.messages_sent, report.bytes_sent, misplaced, report.bytes_kept}, total[4];
  MPI_Allreduce(local, total, 4, MPI_INT64_T, MPI_SUM, comm);
  summary.messages = total[0];
  summary.bytes = total[1];
  summary.misplaced = total[2];
  summary.verified = total[2] == 0;
  MPI_Allreduce(&report.bytes_copied_once, &summary.bytes_copied_once, 1, MPI_INT64_T, MPI_SUM, comm);
  summary.bytes_kept = total[3];
  return summary;
}

ReferenceComparison compare_with_pdgemr2d(const ScalapackDescriptor& from_desc, const ScalapackDescriptor& to_desc,
                                          const Options& options, int repeat, SourceStorage storage) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const Layout source = scalapack_layout(from_desc), dest = scalapack_layout(to_desc);
  Options typed = options;
  typed.elem_bytes = sizeof(double);
  const Roles me = roles(comm, source, dest, options.ranks);
  const auto source_globals = global_indices(source, me.source);
  SourceBuffer<double> source_buffer(comm, source_globals.size(), storage);
  const std::span<double> a = source_buffer.span();
  std::copy(source_globals.begin(), source_globals.end(), a.begin());
  std::vector<double> by_redist(me.dest ? static_cast<std::size_t>(dest.local_size(*me.dest)) : 0);
  std::vector<double> by_scalapack(by_redist.size(), -1.0);

  ReferenceComparison result;
  // pdgemr2d first (verified_mpi_run.hpp)
  Pdgemr2d scalapack(from_desc, options.ranks.source_first, to_desc, options.ranks.dest_first);
  result.pdgemr2d_seconds = 1e300;
  for (int k = 0; k < repeat; ++k) {
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    scalapack.run(me.source ? a.data() : nullptr, me.dest ? by_scalapack.data() : nullptr);
    result.pdgemr2d_seconds = std::min(result.pdgemr2d_seconds, slowest(comm, MPI_Wtime() - start));
  }
  result.redist_seconds = 1e300;
  std::array<Index, 2> mine_moved{};
  for (int k = 0; k < repeat; ++k) {
    std::fill(by_redist.begin(), by_redist.end(), -1.0);  // each repetition checked on its own
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    const RedistributeReport report = redistribute<double>(comm, source, dest, a, by_redist, typed);
    mine_moved = {report.bytes_sent, report.bytes_copied_once};
    result.redist_seconds = std::min(result.redist_seconds, slowest(comm, MPI_Wtime() - start));
  }
  bool correct = true;
  const auto dest_globals = global_indices(dest, me.dest);
  for (std::size_t l = 0; l < by_redist.size(); ++l) correct = correct && by_redist[l] == static_cast<double>(dest_globals[l]);
  const bool same = by_redist.empty() ||
                    std::memcmp(by_redist.data(), by_scalapack.data(), by_redist.size() * sizeof(double)) == 0;
  result.identical = everywhere(comm, same);
  result.verified = everywhere(comm, correct);
  std::array<Index, 2> all_moved{};
  MPI_Allreduce(mine_moved.data(), all_moved.data(), 2, MPI_INT64_T, MPI_SUM, comm);
  result.bytes_moved = all_moved[0];
  result.bytes_copied_once = all_moved[1];
  return result;
}

}  // namespace redist::mpi
