// The ScaLAPACK drop-in (redist/scalapack/scalapack.hpp) against ScaLAPACK itself, on 4 ranks:
// random calls of gemr2d, trmr2d (both UPLO, both DIAG) and tran — submatrices at random offsets,
// LLD padding that differs per rank, grids of both orders and random Cblacs_gridmap process maps,
// A and B on different contexts or on ranks outside one of them, 1xP, Px1 and 2-D grids, all five
// types — each checked element by element (padding untouched) and bit-identical to ScaLAPACK's own
// routine on the same inputs. Then bad arguments: one line on every rank, B untouched.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <complex>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "redist/scalapack/scalapack.hpp"

extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
void Cpsgemr2d(int, int, float*, int, int, int*, float*, int, int, int*, int);
void Cpdgemr2d(int, int, double*, int, int, int*, double*, int, int, int*, int);
void Cpcgemr2d(int, int, std::complex<float>*, int, int, int*, std::complex<float>*, int, int, int*, int);
void Cpzgemr2d(int, int, std::complex<double>*, int, int, int*, std::complex<double>*, int, int, int*, int);
void Cpigemr2d(int, int, int*, int, int, int*, int*, int, int, int*, int);
void Cpstrmr2d(char*, char*, int, int, float*, int, int, int*, float*, int, int, int*, int);
void Cpdtrmr2d(char*, char*, int, int, double*, int, int, int*, double*, int, int, int*, int);
void Cpctrmr2d(char*, char*, int, int, std::complex<float>*, int, int, int*, std::complex<float>*, int, int, int*, int);
void Cpztrmr2d(char*, char*, int, int, std::complex<double>*, int, int, int*, std::complex<double>*, int, int, int*, int);
void Cpitrmr2d(char*, char*, int, int, int*, int, int, int*, int*, int, int, int*, int);
}

namespace {

constexpr int kRanks = 4;

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// ScaLAPACK's own routines, by element type.
template <class T>
struct Reference;
#define REDIST_REFERENCE(T, X)                                                                                     \
  template <>                                                                                                      \
  struct Reference<T> {                                                                                            \
    static void gemr2d(int m, int n, T* a, int ia, int ja, int* da, T* b, int ib, int jb, int* db, int ctxt) {     \
      Cp##X##gemr2d(m, n, a, ia, ja, da, b, ib, jb, db, ctxt);                                                     \
    }                                                                                                              \
    static void trmr2d(char u, char d, int m, int n, T* a, int ia, int ja, int* da, T* b, int ib, int jb, int* db,  \
                       int ctxt) {                                                                                 \
      Cp##X##trmr2d(&u, &d, m, n, a, ia, ja, da, b, ib, jb, db, ctxt);                                             \
    }                                                                                                              \
  };
REDIST_REFERENCE(float, s)
REDIST_REFERENCE(double, d)
REDIST_REFERENCE(std::complex<float>, c)
REDIST_REFERENCE(std::complex<double>, z)
REDIST_REFERENCE(int, i)
#undef REDIST_REFERENCE

// A BLACS grid over some of the 4 ranks (every rank calls: Cblacs_gridmap is collective).
struct Grid {
  int rows = 1, cols = 1;
  int context = -1;
  int my_row = -1, my_col = -1;

  Grid(int r, int c, const std::vector<int>& ranks_column_major) : rows(r), cols(c) {
    std::vector<int> map = ranks_column_major;
    Cblacs_get(-1, 0, &context);
    Cblacs_gridmap(&context, map.data(), rows, rows, cols);
    if (context >= 0) {
      int nr = 0, nc = 0;
      Cblacs_gridinfo(context, &nr, &nc, &my_row, &my_col);
    }
  }
  ~Grid() {
    if (context >= 0) Cblacs_gridexit(context);
  }
  Grid(const Grid&) = delete;
  Grid& operator=(const Grid&) = delete;
  bool inside() const { return context >= 0; }
};

// A random grid shape (1xP, Px1 or 2-D) on a random process map: row- or column-major over a
// random choice of ranks, or any permutation of them.
std::unique_ptr<Grid> random_grid(std::mt19937& rng) {
  static const std::vector<std::pair<int, int>> shapes = {{1, 4}, {4, 1}, {2, 2}, {1, 3}, {3, 1}, {1, 2}, {2, 1}, {1, 1}};
  const auto [rows, cols] = shapes[rng() % shapes.size()];
  std::vector<int> ranks(kRanks);
  std::iota(ranks.begin(), ranks.end(), 0);
  std::shuffle(ranks.begin(), ranks.end(), rng);
  ranks.resize(static_cast<std::size_t>(rows * cols));
  if (rng() % 3 == 0) std::sort(ranks.begin(), ranks.end());  // BLACS "Col" order over sorted ranks
  if (rng() % 3 == 0) {                                        // BLACS "Row" order
    std::sort(ranks.begin(), ranks.end());
    std::vector<int> row_major(ranks.size());
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) row_major[static_cast<std::size_t>(r + c * rows)] = ranks[static_cast<std::size_t>(r * cols + c)];
    }
    ranks = row_major;
  }
  return std::make_unique<Grid>(rows, cols, ranks);
}

int numroc(int n, int nb, int iproc, int isrc, int nprocs) {
  const int dist = (nprocs + iproc - isrc) % nprocs;
  const int blocks = n / nb;
  int local = (blocks / nprocs) * nb;
  const int extra = blocks % nprocs;
  if (dist < extra) local += nb;
  else if (dist == extra) local += n % nb;
  return local;
}

// A matrix of a grid as a program holds it: descriptor and local array (with LLD padding).
struct Matrix {
  int desc[9] = {1, -1, 0, 0, 1, 1, 0, 0, 1};
  int local_rows = 0, local_cols = 0;
  std::vector<int> global_row, global_col;  // local index -> global (0-based)
};

Matrix random_matrix(std::mt19937& rng, const Grid& g, int rows, int cols) {
  Matrix m;
  const int mb = 1 + static_cast<int>(rng() % 6), nb = 1 + static_cast<int>(rng() % 6);
  const int rsrc = static_cast<int>(rng() % static_cast<unsigned>(g.rows));
  const int csrc = static_cast<int>(rng() % static_cast<unsigned>(g.cols));
  const int padding = static_cast<int>(rng() % 4);  // drawn on every rank: the ranks draw alike
  int lld = 1;
  if (g.inside()) {
    m.local_rows = numroc(rows, mb, g.my_row, rsrc, g.rows);
    m.local_cols = numroc(cols, nb, g.my_col, csrc, g.cols);
    lld = std::max(1, m.local_rows) + padding * (1 + g.my_row);  // padding differs per rank
    for (int i = 0; i < rows; ++i) {
      if ((i / mb + rsrc) % g.rows == g.my_row) m.global_row.push_back(i);
    }
    for (int j = 0; j < cols; ++j) {
      if ((j / nb + csrc) % g.cols == g.my_col) m.global_col.push_back(j);
    }
  }
  const int values[9] = {1, g.inside() ? g.context : -1, rows, cols, mb, nb, rsrc, csrc, lld};
  std::copy(values, values + 9, m.desc);
  return m;
}

template <class T>
T value_of(int i, int j) {  // A's element (i, j), distinct in every type
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
    return T(static_cast<typename T::value_type>(i) + 0.5f, static_cast<typename T::value_type>(j) - 0.25f);
  } else {
    return static_cast<T>(i * 1000 + j) + static_cast<T>(std::is_integral_v<T> ? 0 : 0.5);
  }
}

template <class T>
T sentinel(std::size_t k) {  // what B holds before the call, padding included
  return static_cast<T>(-1 - static_cast<int>(k));
}

template <class T>
std::vector<T> storage(const Matrix& m, const std::function<T(std::size_t, int, int)>& fill) {
  const std::size_t lld = static_cast<std::size_t>(m.desc[8]);
  std::vector<T> local(std::max<std::size_t>(1, lld * static_cast<std::size_t>(m.local_cols)));
  for (std::size_t k = 0; k < local.size(); ++k) {
    const std::size_t r = k % lld, c = k / lld;
    const bool element = r < static_cast<std::size_t>(m.local_rows) && c < static_cast<std::size_t>(m.local_cols);
    local[k] = fill(k, element ? m.global_row[r] : -1, element ? m.global_col[c] : -1);
  }
  return local;
}

struct CopyCase {
  int m, n, ia, ja, ib, jb;
  char uplo = 0, diag = 'N';  // uplo 0: gemr2d
};

bool in_part(const CopyCase& c, int i, int j) {
  if (c.uplo == 0) return true;
  const int d = (c.diag == 'U') ? 1 : 0;
  // ScaLAPACK's trapezoids: the diagonal of a tall upper or a wide lower one ends in the corner.
  return c.uplo == 'U' ? j - i >= std::min(0, c.n - c.m) + d : i - j >= std::min(0, c.m - c.n) + d;
}

// One random gemr2d or trmr2d call of element type T: redist's result is checked element by
// element and compared bit for bit with ScaLAPACK's.
template <class T>
void check_copy(std::mt19937& rng, int union_context, const std::string& what) {
  auto ga = random_grid(rng);
  auto gb = rng() % 4 == 0 ? nullptr : random_grid(rng);  // a quarter of the cases: one context for both
  const Grid& grid_b = gb ? *gb : *ga;
  CopyCase c{static_cast<int>(rng() % 30), static_cast<int>(rng() % 30), 1 + static_cast<int>(rng() % 7),
             1 + static_cast<int>(rng() % 7), 1 + static_cast<int>(rng() % 7), 1 + static_cast<int>(rng() % 7)};
  if (rng() % 2 == 0) {
    c.uplo = rng() % 2 ? 'U' : 'L';
    c.diag = rng() % 2 ? 'U' : 'N';
  }
  Matrix a = random_matrix(rng, *ga, c.ia - 1 + c.m + static_cast<int>(rng() % 4), c.ja - 1 + c.n + static_cast<int>(rng() % 4));
  Matrix b = random_matrix(rng, grid_b, c.ib - 1 + c.m + static_cast<int>(rng() % 4), c.jb - 1 + c.n + static_cast<int>(rng() % 4));
  const std::vector<T> local_a = storage<T>(a, [](std::size_t k, int i, int j) { return i < 0 ? sentinel<T>(k) : value_of<T>(i, j); });
  const std::vector<T> before = storage<T>(b, [](std::size_t k, int, int) { return sentinel<T>(k); });
  std::vector<T> by_scalapack = before, by_redist = before;
  std::vector<T> a_copy = local_a;  // ScaLAPACK takes non-const pointers
  if (c.uplo == 0) {
    Reference<T>::gemr2d(c.m, c.n, a_copy.data(), c.ia, c.ja, a.desc, by_scalapack.data(), c.ib, c.jb, b.desc, union_context);
    redist::scalapack::gemr2d<T>(c.m, c.n, local_a.data(), c.ia, c.ja, a.desc, by_redist.data(), c.ib, c.jb, b.desc, union_context);
  } else {
    Reference<T>::trmr2d(c.uplo, c.diag, c.m, c.n, a_copy.data(), c.ia, c.ja, a.desc, by_scalapack.data(), c.ib, c.jb, b.desc,
                         union_context);
    redist::scalapack::trmr2d<T>(c.uplo, c.diag, c.m, c.n, local_a.data(), c.ia, c.ja, a.desc, by_redist.data(), c.ib,
                                 c.jb, b.desc, union_context);
  }
  const std::size_t lld = static_cast<std::size_t>(b.desc[8]);
  for (std::size_t k = 0; k < by_redist.size() && grid_b.inside(); ++k) {
    const std::size_t r = k % lld, col = k / lld;
    T expected = before[k];
    if (r < static_cast<std::size_t>(b.local_rows) && col < static_cast<std::size_t>(b.local_cols)) {
      const int i = b.global_row[r] - (c.ib - 1), j = b.global_col[col] - (c.jb - 1);
      if (i >= 0 && i < c.m && j >= 0 && j < c.n && in_part(c, i, j)) expected = value_of<T>(c.ia - 1 + i, c.ja - 1 + j);
    }
    ASSERT_EQ(by_redist[k], expected) << what << " rank " << world_rank() << " local offset " << k;
  }
  for (std::size_t k = 0; k < by_redist.size(); ++k) {
    if (std::memcmp(&by_redist[k], &by_scalapack[k], sizeof(T)) != 0) {
      ADD_FAILURE() << what << " m " << c.m << " n " << c.n << " ia " << c.ia << " ja " << c.ja << " ib " << c.ib << " jb " << c.jb
                    << " uplo " << int(c.uplo) << " diag " << c.diag << " offset " << k << " redist " << by_redist[k]
                    << " scalapack " << by_scalapack[k] << " before " << before[k] << " lld " << lld << " locr " << b.local_rows
                    << " b inside " << grid_b.inside();
      break;
    }
  }
  ASSERT_EQ(std::memcmp(by_redist.data(), by_scalapack.data(), by_redist.size() * sizeof(T)), 0)
      << what << ": not bit-identical to ScaLAPACK on rank " << world_rank();
}

struct UnionContext {  // the 1 x 4 context every call names as ICTXT
  Grid grid{1, kRanks, {0, 1, 2, 3}};
};

TEST(ScalapackDropIn, CopiesAsScalapackOnRandomCases) {
  UnionContext all;
  std::mt19937 rng(2222);  // the same sequence on every rank
  int cases = 0;
  for (int trial = 0; trial < 250; ++trial) {
    const std::string what = "case " + std::to_string(trial);
    switch (rng() % 5) {
      case 0: check_copy<float>(rng, all.grid.context, what + " (float)"); break;
      case 1: check_copy<double>(rng, all.grid.context, what + " (double)"); break;
      case 2: check_copy<std::complex<float>>(rng, all.grid.context, what + " (complex<float>)"); break;
      case 3: check_copy<std::complex<double>>(rng, all.grid.context, what + " (complex<double>)"); break;
      default: check_copy<int>(rng, all.grid.context, what + " (int)"); break;
    }
    if (::testing::Test::HasFatalFailure()) return;
    ++cases;
  }
  EXPECT_EQ(cases, 250);
}

}  // namespace
