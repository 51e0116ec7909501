// The one reader of a 2-D copy's optional fields (redist/indexing/matrix_copy_request.hpp), which
// `redist simulate` and `redist-mpi run` share: what an absent field means, and which copies are
// refused with which line.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "redist/indexing/matrix_copy_request.hpp"

namespace redist {
namespace {

MatrixCopyRequest request_of_a_20_by_30_matrix() {
  return {ScalapackDescriptor{.rows = 20, .cols = 30, .row_block = 4, .col_block = 3, .grid_rows = 2, .grid_cols = 1},
          ScalapackDescriptor{.rows = 0, .cols = 0, .row_block = 5, .col_block = 2, .grid_rows = 1, .grid_cols = 2}};
}

std::string refusal(const MatrixCopyRequest& request) {
  try {
    requested_matrix_copy(request);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(MatrixCopyRequest, AbsentFieldsAreTheWholeMatricesFromTheFirstElement) {
  const MatrixCopy whole = requested_matrix_copy(request_of_a_20_by_30_matrix());
  EXPECT_TRUE(whole.whole());
  EXPECT_EQ(whole.to.rows, 20);  // B takes A's size
  EXPECT_EQ(whole.to.cols, 30);
  EXPECT_EQ(whole.to.row_block, 5);  // and keeps its own blocks and grid
  EXPECT_EQ(whole.to.grid_cols, 2);
}

TEST(MatrixCopyRequest, ASubmatrixDefaultsToTheRestOfAFromItsFirstElement) {
  MatrixCopyRequest request = request_of_a_20_by_30_matrix();
  request.src_at = {{5, 7}};
  request.dst_matrix = {{40, 40}};
  request.dst_at = {{2, 3}};
  const MatrixCopy copy = requested_matrix_copy(request);
  EXPECT_FALSE(copy.whole());
  EXPECT_EQ(copy.from_row0, 4);  // 1-based IA, JA, IB, JB
  EXPECT_EQ(copy.from_col0, 6);
  EXPECT_EQ(copy.to_row0, 1);
  EXPECT_EQ(copy.to_col0, 2);
  EXPECT_EQ(copy.rows, 16);  // rows 5-20 of A
  EXPECT_EQ(copy.cols, 24);  // columns 7-30
  EXPECT_EQ(copy.to.rows, 40);
  request.sub = {{3, 4}};
  const MatrixCopy small = requested_matrix_copy(request);
  EXPECT_EQ(small.rows, 3);
  EXPECT_EQ(small.cols, 4);
}

TEST(MatrixCopyRequest, CopiesOutsideAMatrixOrOfRowMajorStorageAreRefusedByName) {
  MatrixCopyRequest outside_a = request_of_a_20_by_30_matrix();
  outside_a.src_at = {{15, 1}};
  outside_a.sub = {{10, 10}};
  EXPECT_EQ(refusal(outside_a), "source: rows 15-24 x columns 1-10 lie outside its 20 x 30 matrix");
  MatrixCopyRequest outside_b = request_of_a_20_by_30_matrix();
  outside_b.dst_matrix = {{8, 30}};
  outside_b.sub = {{10, 10}};
  EXPECT_EQ(refusal(outside_b), "destination: rows 1-10 x columns 1-10 lie outside its 8 x 30 matrix");
  MatrixCopyRequest before = request_of_a_20_by_30_matrix();
  before.dst_at = {{0, 1}};
  before.sub = {{2, 2}};
  EXPECT_NE(refusal(before).find("destination: the submatrix starts before"), std::string::npos);
  MatrixCopyRequest empty = request_of_a_20_by_30_matrix();
  empty.sub = {{0, 5}};
  EXPECT_NE(refusal(empty).find("it must have rows and columns"), std::string::npos);
  MatrixCopyRequest row_major = request_of_a_20_by_30_matrix();
  row_major.from.order = StorageOrder::RowMajor;
  EXPECT_EQ(refusal(row_major), "");  // whole matrices may be stored row-major
  row_major.sub = {{2, 2}};
  EXPECT_NE(refusal(row_major).find("column-major"), std::string::npos);
  MatrixCopyRequest bad_b = request_of_a_20_by_30_matrix();
  bad_b.to.grid_cols = 0;
  EXPECT_EQ(refusal(bad_b).rfind("destination: ", 0), 0u);
}

}  // namespace
}  // namespace redist
