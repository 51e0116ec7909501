#include "redist/symmetric/symmetric_problem.hpp"

#include <stdexcept>

#include "redist/core/checks.hpp"

namespace redist {

const NameTable<Orientation>& orientation_names() {
  static const NameTable<Orientation> table("orientation",
                                            {{Orientation::RowWise, "row"}, {Orientation::ColumnWise, "column"}});
  return table;
}

const NameTable<SymmetricMethod>& symmetric_method_names() {
  static const NameTable<SymmetricMethod> table("method",
                                                {{SymmetricMethod::Traditional, "tr"}, {SymmetricMethod::Sra, "sra"}});
  return table;
}

Orientation orientation_from_name(const std::string& name) { return orientation_names().from_name(name); }

SymmetricMethod symmetric_method_from_name(const std::string& name) { return symmetric_method_names().from_name(name); }

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
