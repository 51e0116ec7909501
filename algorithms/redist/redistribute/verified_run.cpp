#include "redist/redistribute/verified_run.hpp"

#include <cstring>
#include <vector>

#include "redist/core/splitmix.hpp"

namespace redist {
namespace {

std::vector<std::byte> local_array(const Layout& layout, std::optional<Index> proc, Index elem_bytes) {
  return std::vector<std::byte>(proc ? static_cast<std::size_t>(layout.local_size(*proc) * elem_bytes) : 0);
}

}  // namespace

void fill_element(Index g, std::byte* out, Index elem_bytes) {
  for (Index done = 0, salt = 0; done < elem_bytes; done += 8, ++salt) {
    const std::uint64_t value = splitmix64(static_cast<std::uint64_t>(g) * 31 + static_cast<std::uint64_t>(salt));
    std::memcpy(out + done, &value, static_cast<std::size_t>(std::min<Index>(8, elem_bytes - done)));
  }
}

VerifiedReport redistribute_and_verify(Transport& transport, const Layout& source, const Layout& dest,
                                       const RedistributeOptions& options) {
  const Index eb = options.elem_bytes;
  VerifiedReport result;
  if (transport.phantom()) {
    result.report = redistribute(transport, source, dest, {}, {}, options);
    return result;
  }
  const auto p = options.ranks.source_of(transport.rank(), source.processors());
  const auto q = options.ranks.dest_of(transport.rank(), dest.processors());
  auto source_local = local_array(source, p, eb);
  auto dest_local = local_array(dest, q, eb);
  if (p) {
    for (Index l = 0; l < source.local_size(*p); ++l) fill_element(source.global_index(*p, l), &source_local[static_cast<std::size_t>(l * eb)], eb);
  }
  result.report = redistribute(transport, source, dest, source_local, dest_local, options);
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
