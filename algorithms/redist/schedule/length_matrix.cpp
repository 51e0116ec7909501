#include "redist/schedule/length_matrix.hpp"

#include <algorithm>

#include "redist/core/checks.hpp"

namespace redist {

LengthMatrix::LengthMatrix(Index P, Index Q) : P_(P), Q_(Q) {
  require_positive(P, "P (source processors)");
  require_positive(Q, "Q (destination processors)");
  lengths_.assign(static_cast<std::size_t>(checked_mul(P, Q, "P*Q")), 0);
}

LengthMatrix::LengthMatrix(const CommGrid& grid) : P_(grid.P()), Q_(grid.Q()), lengths_(grid.lengths()) {}

Index LengthMatrix::max_length() const {
  return lengths_.empty() ? 0 : *std::max_element(lengths_.begin(), lengths_.end());
}

}  // namespace redist
