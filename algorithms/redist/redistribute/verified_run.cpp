#include "redist/redistribute/verified_run.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/core/splitmix.hpp"
#include "redist/redistribute/redistribution_plan.hpp"

namespace redist {
namespace {

std::vector<std::byte> local_array(const Layout& layout, std::optional<Index> proc, Index elem_bytes) {
  return std::vector<std::byte>(proc ? static_cast<std::size_t>(layout.local_size(*proc) * elem_bytes) : 0);
}

void require_executions(int executions) {
  if (executions < 1) throw std::invalid_argument("executions must be at least 1, not " + std::to_string(executions));
}

// A plan of `plan_seconds` executed `executions` times by `execute_once`: pack, comm and unpack the
// mean execution, index the plan, the total the plan plus one mean execution.
RedistributeReport mean_of_executions(double plan_seconds, int executions,
                                      const std::function<RedistributeReport()>& execute_once) {
  RedistributeReport mean;
  for (int k = 0; k < executions; ++k) {
    const RedistributeReport one = execute_once();
    mean.phases.pack += one.phases.pack / executions;
    mean.phases.comm += one.phases.comm / executions;
    mean.phases.unpack += one.phases.unpack / executions;
    mean.phases.total += one.phases.total / executions;
    mean.messages_sent = one.messages_sent;
    mean.bytes_sent = one.bytes_sent;
    mean.bytes_kept = one.bytes_kept;
  }
  mean.phases.index = plan_seconds;
  mean.phases.total += plan_seconds;
  return mean;
}

// redistribute() as one plan executed `executions` times (see redistribute_and_verify).
RedistributeReport planned_runs(Transport& transport, const Layout& source, const Layout& dest,
                                const RedistributeOptions& options, int executions,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local) {
  require_executions(executions);
  if (executions == 1) return redistribute(transport, source, dest, source_local, dest_local, options);
  const RedistributionPlan plan = plan_redistribution(transport, source, dest, options);
  return mean_of_executions(plan.seconds, executions, [&] {
    std::fill(dest_local.begin(), dest_local.end(), std::byte{0});
    return execute(transport, plan, source_local, dest_local);
  });
}

// Every element of a process's dense local storage of `m` (column-major, LLD = local rows), by its
// offset and its row and column in the matrix.
template <class F>
void for_each_local_element(const StoredMatrix& m, Index process, F&& f) {
  const Index pr = process / m.cols.procs(), pc = process % m.cols.procs();
  const Index local_rows = m.rows.local_size(pr), local_cols = m.cols.local_size(pc);
  for (Index lj = 0; lj < local_cols; ++lj) {
    const Index col = m.cols.global_index(pc, lj);
    for (Index li = 0; li < local_rows; ++li) f(li + lj * m.leading_dim, m.rows.global_index(pr, li), col);
  }
}

Index dense_storage(const StoredMatrix& m, Index process) {
  if (process < 0) return 0;
  return m.rows.local_size(process / m.cols.procs()) * m.cols.local_size(process % m.cols.procs());
}

}  // namespace

void fill_element(Index g, std::byte* out, Index elem_bytes) {
  for (Index done = 0, salt = 0; done < elem_bytes; done += 8, ++salt) {
    const std::uint64_t value = splitmix64(static_cast<std::uint64_t>(g) * 31 + static_cast<std::uint64_t>(salt));
    std::memcpy(out + done, &value, static_cast<std::size_t>(std::min<Index>(8, elem_bytes - done)));
  }
}

VerifiedReport redistribute_and_verify(Transport& transport, const Layout& source, const Layout& dest,
                                       const RedistributeOptions& options, int executions) {
  const Index eb = options.elem_bytes;
  VerifiedReport result;
  if (transport.phantom()) {
    result.report = planned_runs(transport, source, dest, options, executions, {}, {});
    return result;
  }
  const auto p = options.ranks.source_of(transport.rank(), source.processors());
  const auto q = options.ranks.dest_of(transport.rank(), dest.processors());
  auto source_local = local_array(source, p, eb);
  auto dest_local = local_array(dest, q, eb);
  if (p) {
    for (Index l = 0; l < source.local_size(*p); ++l) fill_element(source.global_index(*p, l), &source_local[static_cast<std::size_t>(l * eb)], eb);
  }
  result.report = planned_runs(transport, source, dest, options, executions, source_local, dest_local);
  if (q) {
    std::vector<std::byte> expected(static_cast<std::size_t>(eb));
    for (Index l = 0; l < dest.local_size(*q); ++l) {
      fill_element(dest.global_index(*q, l), expected.data(), eb);
      result.misplaced += std::memcmp(expected.data(), &dest_local[static_cast<std::size_t>(l * eb)], expected.size()) != 0;
    }
  }
  result.verified = result.misplaced == 0;
  return result;
}

MatrixCopyMove redist_matrix_copy(Index elem_bytes, int executions) {
  require_executions(executions);
  return [elem_bytes, executions](Transport& transport, const SubmatrixCopy& copy, std::span<const std::byte> a,
                                  std::span<std::byte> b) {
    const double start = transport.now();
    Work counted;
    RankPlan messages = submatrix_plan(copy, transport.rank(), &counted);
    const RedistributionPlan plan = plan_of_messages(std::move(messages), elem_bytes, "submatrix");
    transport.charge(plan.accounting->index(plan.plan, counted));
    const double plan_seconds = transport.now() - start;
    // The plan's buffers span the storage its runs reach; B outside sub(B) stays as the caller left it.
    const auto reached = [&](auto span, Index elements) {
      return transport.phantom() ? span : span.first(static_cast<std::size_t>(elements * elem_bytes));
    };
    return mean_of_executions(plan_seconds, executions, [&] {
      return execute(transport, plan, reached(a, plan.source_elements), reached(b, plan.dest_elements));
    });
  };
}

VerifiedReport copy_and_verify(Transport& transport, const MatrixCopy& copy, const RankMap& ranks, Index elem_bytes,
                               const MatrixCopyMove& move) {
  const SubmatrixCopy mine = submatrix_copy(copy, ranks, transport.rank());
  VerifiedReport result;
  if (transport.phantom()) {
    result.report = move(transport, mine, {}, {});
    return result;
  }
  const Index eb = elem_bytes;
  const Index p = mine.from.process_of(transport.rank()), q = mine.to.process_of(transport.rank());
  std::vector<std::byte> a(static_cast<std::size_t>(dense_storage(mine.from, p) * eb));
  std::vector<std::byte> b(static_cast<std::size_t>(dense_storage(mine.to, q) * eb));
  // A's elements by their index in A; B's by minus one less their index in B, so that an element
  // of B the copy must not touch is told from one it wrote.
  const Index a_cols = copy.from.cols, b_cols = copy.to.cols;
  if (p >= 0) {
    for_each_local_element(mine.from, p, [&](Index at, Index row, Index col) {
      fill_element(row * a_cols + col, &a[static_cast<std::size_t>(at * eb)], eb);
    });
  }
  if (q >= 0) {
    for_each_local_element(mine.to, q, [&](Index at, Index row, Index col) {
      fill_element(-1 - (row * b_cols + col), &b[static_cast<std::size_t>(at * eb)], eb);
    });
  }
  result.report = move(transport, mine, a, b);
  if (q >= 0) {
    std::vector<std::byte> expected(static_cast<std::size_t>(eb));
    for_each_local_element(mine.to, q, [&](Index at, Index row, Index col) {
      const Index i = row - copy.to_row0, j = col - copy.to_col0;
      const bool inside = i >= 0 && i < copy.rows && j >= 0 && j < copy.cols;
      fill_element(inside ? (copy.from_row0 + i) * a_cols + (copy.from_col0 + j) : -1 - (row * b_cols + col),
                   expected.data(), eb);
      result.misplaced += std::memcmp(expected.data(), &b[static_cast<std::size_t>(at * eb)], expected.size()) != 0;
    });
  }
  result.verified = result.misplaced == 0;
  return result;
}

}  // namespace redist
