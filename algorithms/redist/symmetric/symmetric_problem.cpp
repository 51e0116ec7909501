#include "redist/symmetric/symmetric_problem.hpp"

#include <stdexcept>

#include "redist/core/checks.hpp"

namespace redist {

Orientation orientation_from_name(const std::string& name) {
  if (name == "row") return Orientation::RowWise;
  if (name == "column") return Orientation::ColumnWise;
  throw std::invalid_argument("orientation must be row or column, got '" + name + "'");
}

SymmetricMethod symmetric_method_from_name(const std::string& name) {
  if (name == "tr") return SymmetricMethod::Traditional;
  if (name == "sra") return SymmetricMethod::Sra;
  throw std::invalid_argument("method must be tr or sra, got '" + name + "'");
}

void SymmetricProblem::validate() const {
  require_positive(n, "matrix order n");
  require_positive(procs, "processor count P");
  require_positive(x, "source block size x");
  require_positive(y, "destination block size y");
  checked_mul(n, n, "n x n matrix elements");
  source();  // the layouts' own checks (block x P overflow)
  dest();
}

}  // namespace redist
