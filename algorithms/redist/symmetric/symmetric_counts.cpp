#include "redist/symmetric/symmetric_counts.hpp"

#include <algorithm>

#include "redist/core/checks.hpp"

namespace redist {
namespace {

// Indices in [0, end) that processor q owns under `layout` (block 0 on processor 0).
Index owned_before(const BlockCyclic& layout, Index q, Index end) {
  const Index period = layout.period(), b = layout.block_size();
  return (end / period) * b + std::clamp(end % period - q * b, Index{0}, b);
}

void check_pair(const SymmetricProblem& problem, Index p, Index q) {
  problem.validate();
  require_in_range(p, problem.procs, "source processor");
  require_in_range(q, problem.procs, "destination processor");
}

}  // namespace

Index lines_moved(const SymmetricProblem& problem, Index p, Index q) {
  check_pair(problem, p, q);
  const BlockCyclic source = problem.source(), dest = problem.dest();
  Index lines = 0;
  for (Index start = p * problem.x; start < problem.n; start += source.period()) {
    const Index end = std::min(start + problem.x, problem.n);
    lines += owned_before(dest, q, end) - owned_before(dest, q, start);
  }
  return lines;
}

Index message_elements(const SymmetricProblem& problem, SymmetricMethod method, Index p, Index q) {
  if (p == q) return 0;
  const Index full = lines_moved(problem, p, q) * problem.n;
  return method == SymmetricMethod::Traditional ? full : full - sra_avoided_elements(problem, p, q);
}

Index sra_avoided_elements(const SymmetricProblem& problem, Index p, Index q) {
  if (p == q) return 0;
  return lines_moved(problem, p, q) * problem.source().local_size(q);
}

}  // namespace redist
