#include "redist/indexing/cyclic_pair.hpp"

#include <stdexcept>
#include <string>

namespace redist {
namespace {

const BlockCyclic& one_dimensional(const Layout& layout, std::string_view method, const char* which) {
  const auto* cyclic = std::get_if<BlockCyclic>(&layout.variant());
  if (cyclic == nullptr) {
    throw std::invalid_argument("indexing method '" + std::string(method) + "' handles 1-D block-cyclic layouts only (the " +
                                which + " layout is not)");
  }
  return *cyclic;
}

}  // namespace

CyclicPair cyclic_pair(const Layout& source, const Layout& dest, std::string_view method) {
  const BlockCyclic& from = one_dimensional(source, method, "source");
  const BlockCyclic& to = one_dimensional(dest, method, "destination");
  if (from.size() != to.size()) {
    throw std::invalid_argument("source and destination layouts describe arrays of " + std::to_string(from.size()) +
                                " and " + std::to_string(to.size()) + " elements");
  }
  return {from, to, checked_lcm(from.period(), to.period(), "global complete cycle")};
}

}  // namespace redist
