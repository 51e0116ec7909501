#include "redist/indexing/matrix_copy_request.hpp"

#include <stdexcept>
#include <string>
#include <tuple>

namespace redist {

MatrixCopy requested_matrix_copy(const MatrixCopyRequest& request) {
  MatrixCopy copy{request.from, request.to};
  std::tie(copy.to.rows, copy.to.cols) = request.dst_matrix.value_or(std::pair{request.from.rows, request.from.cols});
  const auto [ia, ja] = request.src_at.value_or(std::pair<Index, Index>{1, 1});
  const auto [ib, jb] = request.dst_at.value_or(std::pair<Index, Index>{1, 1});
  copy.from_row0 = ia - 1;
  copy.from_col0 = ja - 1;
  copy.to_row0 = ib - 1;
  copy.to_col0 = jb - 1;
  std::tie(copy.rows, copy.cols) =
      request.sub.value_or(std::pair{request.from.rows - copy.from_row0, request.from.cols - copy.from_col0});
  if (const std::string problem = matrix_copy_problem(copy); !problem.empty()) throw std::invalid_argument(problem);
  return copy;
}

}  // namespace redist
