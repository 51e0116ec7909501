#include "redist/layout/two_level_mapping.hpp"

#include "redist/core/checks.hpp"

namespace redist {

void TwoLevelMapping::validate() const {
  require_positive(size, "array size");
  require_positive(stride, "alignment stride");
  require_non_negative(offset, "alignment offset");
  require_positive(block, "block size");
  require_positive(procs, "processor count");
  checked_add(checked_mul(stride, size - 1, "last template cell"), offset, "last template cell");
  // Every table index stays below one data distribution pattern, at most P·x elements.
  checked_mul(block, procs, "block size x processor count");
}

}  // namespace redist
