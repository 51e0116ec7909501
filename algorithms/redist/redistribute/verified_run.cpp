#include "redist/redistribute/verified_run.hpp"

#include <algorithm>
#include <cstring>
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

// redistribute() as one plan executed `executions` times (see redistribute_and_verify).
RedistributeReport planned_runs(Transport& transport, const Layout& source, const Layout& dest,
                                const RedistributeOptions& options, int executions,
                                std::span<const std::byte> source_local, std::span<std::byte> dest_local) {
  if (executions < 1) throw std::invalid_argument("executions must be at least 1, not " + std::to_string(executions));
  if (executions == 1) return redistribute(transport, source, dest, source_local, dest_local, options);
  const RedistributionPlan plan = plan_redistribution(transport, source, dest, options);
  RedistributeReport mean;
  for (int k = 0; k < executions; ++k) {
    std::fill(dest_local.begin(), dest_local.end(), std::byte{0});
    const RedistributeReport one = execute(transport, plan, source_local, dest_local);
    mean.phases.pack += one.phases.pack / executions;
    mean.phases.comm += one.phases.comm / executions;
    mean.phases.unpack += one.phases.unpack / executions;
    mean.phases.total += one.phases.total / executions;
    mean.messages_sent = one.messages_sent;
    mean.bytes_sent = one.bytes_sent;
    mean.bytes_kept = one.bytes_kept;
  }
  mean.phases.index = plan.seconds;
  mean.phases.total += plan.seconds;
  return mean;
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

}  // namespace redist
