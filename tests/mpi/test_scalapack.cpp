// The ScaLAPACK drop-in (redist/scalapack/scalapack.hpp) against ScaLAPACK itself, on 4 ranks:
// random calls of gemr2d, trmr2d (both UPLO, both DIAG) and tran — submatrices at random offsets,
// LLD padding that differs per rank, grids of both orders and random Cblacs_gridmap process maps,
// A and B on different contexts or on ranks outside one of them, 1xP, Px1 and 2-D grids, all five
// types — each checked element by element (padding untouched) and bit-identical to ScaLAPACK's own
// routine on the same inputs. Then bad arguments: one line on every rank, B untouched.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <complex>
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "redist/scalapack/redist_scalapack.h"
#include "redist/scalapack/scalapack.hpp"
#include "stock_scalapack.hpp"

extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
void pstran_(int*, int*, float*, float*, int*, int*, int*, float*, float*, int*, int*, int*);
void pdtran_(int*, int*, double*, double*, int*, int*, int*, double*, double*, int*, int*, int*);
void pctranu_(int*, int*, std::complex<float>*, std::complex<float>*, int*, int*, int*, std::complex<float>*,
              std::complex<float>*, int*, int*, int*);
void pctranc_(int*, int*, std::complex<float>*, std::complex<float>*, int*, int*, int*, std::complex<float>*,
              std::complex<float>*, int*, int*, int*);
void pztranu_(int*, int*, std::complex<double>*, std::complex<double>*, int*, int*, int*, std::complex<double>*,
              std::complex<double>*, int*, int*, int*);
void pztranc_(int*, int*, std::complex<double>*, std::complex<double>*, int*, int*, int*, std::complex<double>*,
              std::complex<double>*, int*, int*, int*);
}

template <class T>
constexpr bool kIsComplex = false;
template <class R>
constexpr bool kIsComplex<std::complex<R>> = true;

namespace {

using redist::test::numroc;
using redist::test::Stock;

constexpr int kRanks = 4;

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}


// ScaLAPACK's p?tran (conjugate: p?tranc), by element type.
template <class T>
constexpr bool kComplex = std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

template <class T>
void reference_tran(bool conjugate, int m, int n, T alpha, T* a, int ia, int ja, int* da, T beta, T* c, int ic, int jc,
                    int* dc) {
  if constexpr (std::is_same_v<T, float>) pstran_(&m, &n, &alpha, a, &ia, &ja, da, &beta, c, &ic, &jc, dc);
  if constexpr (std::is_same_v<T, double>) pdtran_(&m, &n, &alpha, a, &ia, &ja, da, &beta, c, &ic, &jc, dc);
  if constexpr (std::is_same_v<T, std::complex<float>>) {
    (conjugate ? pctranc_ : pctranu_)(&m, &n, &alpha, a, &ia, &ja, da, &beta, c, &ic, &jc, dc);
  }
  if constexpr (std::is_same_v<T, std::complex<double>>) {
    (conjugate ? pztranc_ : pztranu_)(&m, &n, &alpha, a, &ia, &ja, da, &beta, c, &ic, &jc, dc);
  }
}

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
    Stock<T>::gemr2d(c.m, c.n, a_copy.data(), c.ia, c.ja, a.desc, by_scalapack.data(), c.ib, c.jb, b.desc, union_context);
    redist::scalapack::gemr2d<T>(c.m, c.n, local_a.data(), c.ia, c.ja, a.desc, by_redist.data(), c.ib, c.jb, b.desc, union_context);
  } else {
    Stock<T>::trmr2d(&c.uplo, &c.diag, c.m, c.n, a_copy.data(), c.ia, c.ja, a.desc, by_scalapack.data(), c.ib, c.jb, b.desc,
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

template <class T>
T random_scalar(std::mt19937& rng) {  // 0, 1 and general values: ScaLAPACK's kernels treat them apart
  static const double values[] = {0.0, 1.0, 1.7, 0.3, -2.5};
  const double re = values[rng() % 5], im = rng() % 2 ? 0.0 : values[rng() % 5];
  if constexpr (!kComplex<T>) {
    return static_cast<T>(re);
  } else {
    return T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(im));
  }
}

// How far redist's element may be from alpha · a + beta · c computed here (ScaLAPACK's rounding is
// checked bit for bit separately): exact for int, a few units in the last place otherwise.
template <class T>
double tolerance(T expected) {
  if constexpr (std::is_integral_v<T>) {
    return 0;
  } else if constexpr (kComplex<T>) {
    return 8 * std::numeric_limits<typename T::value_type>::epsilon() * (1 + std::abs(expected));
  } else {
    return 8 * std::numeric_limits<T>::epsilon() * (1 + std::abs(expected));
  }
}

// One random tran (or tranc) call: sub(C) := beta sub(C) + alpha op(sub(A)), A and C on one
// context (p?tran's rule). Checked element by element — sub(C) against the formula, the rest of C,
// padding included, untouched; a C of NaNs with beta 0 must not leak (C is not read) — and bit for
// bit against ScaLAPACK (which has no integer p?tran: int is checked by the formula alone).
template <class T>
void check_tran(std::mt19937& rng, bool conjugate, const std::string& what) {
  auto grid = random_grid(rng);
  const int m = static_cast<int>(rng() % 25), n = static_cast<int>(rng() % 25);  // sub(C) is m x n
  const int ia = 1 + static_cast<int>(rng() % 6), ja = 1 + static_cast<int>(rng() % 6);
  const int ic = 1 + static_cast<int>(rng() % 6), jc = 1 + static_cast<int>(rng() % 6);
  const T alpha = random_scalar<T>(rng), beta = random_scalar<T>(rng);
  const bool nan_in_c = rng() % 3 == 0 && beta == T(0) && !std::is_integral_v<T>;
  Matrix a = random_matrix(rng, *grid, ia - 1 + n + static_cast<int>(rng() % 3), ja - 1 + m + static_cast<int>(rng() % 3));
  Matrix c = random_matrix(rng, *grid, ic - 1 + m + static_cast<int>(rng() % 3), jc - 1 + n + static_cast<int>(rng() % 3));
  if (!grid->inside()) return;  // p?tran: every caller is in the grid
  std::vector<T> local_a = storage<T>(a, [](std::size_t k, int i, int j) { return i < 0 ? sentinel<T>(k) : value_of<T>(i, j); });
  const std::vector<T> before = storage<T>(c, [&](std::size_t k, int i, int j) {
    const bool inside = i >= ic - 1 && i < ic - 1 + m && j >= jc - 1 && j < jc - 1 + n;
    if constexpr (!std::is_integral_v<T>) {
      if (inside && nan_in_c) return T(std::numeric_limits<double>::quiet_NaN());
    }
    if (i < 0) return sentinel<T>(k);
    return std::is_integral_v<T> ? value_of<T>(j + 3, i + 7) : value_of<T>(j + 3, i + 7) * T(0.5f);
  });
  std::vector<T> by_scalapack = before, by_redist = before;
  std::vector<T> a_copy = local_a;
  if constexpr (!std::is_integral_v<T>) {
    reference_tran<T>(conjugate, m, n, alpha, a_copy.data(), ia, ja, a.desc, beta, by_scalapack.data(), ic, jc, c.desc);
  }
  // tranc is instantiated for the complex types alone (p?tranc): named only where T is one, so that no
  // build references an instantiation that does not exist, whatever it optimises away.
  bool conjugated = false;
  if constexpr (kIsComplex<T>) {
    if (conjugate) {
      redist::scalapack::tranc<T>(m, n, alpha, local_a.data(), ia, ja, a.desc, beta, by_redist.data(), ic, jc, c.desc);
      conjugated = true;
    }
  }
  if (!conjugated) {
    redist::scalapack::tran<T>(m, n, alpha, local_a.data(), ia, ja, a.desc, beta, by_redist.data(), ic, jc, c.desc);
  }
  const std::size_t lld = static_cast<std::size_t>(c.desc[8]);
  for (std::size_t k = 0; k < by_redist.size(); ++k) {
    const std::size_t r = k % lld, col = k / lld;
    bool inside = false;
    int i = -1, j = -1;
    if (r < static_cast<std::size_t>(c.local_rows) && col < static_cast<std::size_t>(c.local_cols)) {
      i = c.global_row[r] - (ic - 1), j = c.global_col[col] - (jc - 1);
      inside = i >= 0 && i < m && j >= 0 && j < n;
    }
    if (!inside) {
      ASSERT_EQ(std::memcmp(&by_redist[k], &before[k], sizeof(T)), 0) << what << ": wrote outside sub(C) at " << k;
      continue;
    }
    T a_ji = value_of<T>(ia - 1 + j, ja - 1 + i);  // op(sub(A))(i, j) = sub(A)(j, i)
    if constexpr (kComplex<T>) {
      if (conjugate) a_ji = std::conj(a_ji);
    }
    const T expected = beta == T(0) ? alpha * a_ji : alpha * a_ji + beta * before[k];
    ASSERT_LE(std::abs(by_redist[k] - expected), tolerance(expected)) << what << " at (" << i << ", " << j << ")";
  }
  if constexpr (std::is_integral_v<T>) return;
  for (std::size_t k = 0; k < by_redist.size(); ++k) {
    ASSERT_EQ(std::memcmp(&by_redist[k], &by_scalapack[k], sizeof(T)), 0)
        << what << ": not bit-identical to ScaLAPACK at local offset " << k << " on rank " << world_rank() << " (m " << m
        << " n " << n << " alpha " << alpha << " beta " << beta << ")";
  }
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

TEST(ScalapackDropIn, TransposesAsScalapackOnRandomCases) {
  std::mt19937 rng(2223);
  for (int trial = 0; trial < 140; ++trial) {
    const std::string what = "case " + std::to_string(trial);
    switch (rng() % 7) {
      case 6: check_tran<int>(rng, false, what + " (int)"); break;
      case 0: check_tran<float>(rng, false, what + " (pstran)"); break;
      case 1: check_tran<double>(rng, false, what + " (pdtran)"); break;
      case 2: check_tran<std::complex<float>>(rng, false, what + " (pctranu)"); break;
      case 3: check_tran<std::complex<float>>(rng, true, what + " (pctranc)"); break;
      case 4: check_tran<std::complex<double>>(rng, false, what + " (pztranu)"); break;
      default: check_tran<std::complex<double>>(rng, true, what + " (pztranc)"); break;
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Bad arguments: every rank of the context gets the same one line (routine, rank, argument), and
// B is left as it was.
struct BadCall {
  Grid a_grid{2, 2, {0, 1, 2, 3}};        // BLACS "Col" order over ranks 0-3
  Grid b_grid{1, 4, {2, 0, 3, 1}};        // a permuted map
  UnionContext all;
  Matrix a, b;
  std::vector<double> local_a, local_b, before;

  BadCall() {
    std::mt19937 rng(7);
    a = random_matrix(rng, a_grid, 12, 10);
    b = random_matrix(rng, b_grid, 12, 10);
    local_a = storage<double>(a, [](std::size_t k, int i, int j) { return i < 0 ? sentinel<double>(k) : value_of<double>(i, j); });
    before = local_b = storage<double>(b, [](std::size_t k, int, int) { return sentinel<double>(k); });
  }

  // The message every rank got (checked the same on all), B untouched.
  std::string message_of(const std::function<void()>& call) {
    std::string message;
    try {
      call();
    } catch (const std::invalid_argument& e) {
      message = e.what();
    }
    EXPECT_EQ(local_b, before) << "B was written";
    int length = static_cast<int>(message.size()), shortest = 0, longest = 0;
    MPI_Allreduce(&length, &shortest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&length, &longest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(shortest, longest) << "the ranks got different messages: " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos);
    return message;
  }

  std::string gemr2d(int m, int n, int ia, int ja, int ib, int jb) {
    return message_of([&] {
      redist::scalapack::gemr2d<double>(m, n, local_a.data(), ia, ja, a.desc, local_b.data(), ib, jb, b.desc,
                                        all.grid.context);
    });
  }
};

TEST(ScalapackDropIn, ABadArgumentGetsOneLineOnEveryRankAndBUntouched) {
  BadCall c;
  EXPECT_EQ(c.gemr2d(-1, 4, 1, 1, 1, 1), "pdgemr2d: rank 0: argument 1 (M): -1 is negative");
  EXPECT_EQ(c.gemr2d(5, 4, 9, 1, 1, 1), "pdgemr2d: rank 0: argument 4 (IA): rows 9 to 13 of A's 12");
  EXPECT_EQ(c.gemr2d(5, 4, 1, 1, 1, 8), "pdgemr2d: rank 0: argument 9 (JB): columns 8 to 11 of B's 10");
  EXPECT_EQ(c.gemr2d(5, 4, 0, 1, 1, 1), "pdgemr2d: rank 0: argument 4 (IA): 0 is below 1");
  // Rank 2's own LLD is too small; the others are fine.
  const int lld = c.a.desc[8];
  if (world_rank() == 2) c.a.desc[8] = 1;
  EXPECT_NE(c.gemr2d(5, 4, 1, 1, 1, 1).find("pdgemr2d: rank 2: argument 6 (DESCA): LLD_ 1 is below the"), std::string::npos);
  c.a.desc[8] = lld;
  // A block size of 0 on every rank of B's grid: the lowest rank names it.
  const int nb = c.b.desc[5];
  c.b.desc[5] = 0;
  EXPECT_EQ(c.gemr2d(5, 4, 1, 1, 1, 1), "pdgemr2d: rank 0: argument 10 (DESCB): NB_ 0 is not a positive block size");
  c.b.desc[5] = nb;
  // Different arguments on different ranks.
  EXPECT_EQ(c.gemr2d(5, world_rank() == 3 ? 5 : 4, 1, 1, 1, 1),
            "pdgemr2d: rank 3: argument 2 (N): 5 where rank 0 passed 4");
  const int rows = c.a.desc[2];
  if (world_rank() == 1) c.a.desc[2] = rows + 1;
  EXPECT_EQ(c.gemr2d(5, 4, 1, 1, 1, 1), "pdgemr2d: rank 1: argument 6 (DESCA): M_ is 13 where rank 0 passed 12");
  c.a.desc[2] = rows;
  // A CTXT_ naming no grid the rank is in: outside A, as ScaLAPACK reads it; A's process (1, 1)
  // then has no rank.
  const int context = c.a.desc[1];
  if (world_rank() == 3) c.a.desc[1] = 4711;
  EXPECT_EQ(c.gemr2d(5, 4, 1, 1, 1, 1),
            "pdgemr2d: argument 6 (DESCA): no rank of the context holds process (1, 1) of A's grid (its rank is not "
            "in ICTXT, or passed a CTXT_ of no grid it is in)");
  c.a.desc[1] = context;
  // trmr2d: UPLO and DIAG of different meaning on different ranks.
  EXPECT_EQ(c.message_of([&] {
              redist::scalapack::trmr2d<double>(world_rank() == 1 ? 'L' : 'U', 'N', 5, 4, c.local_a.data(), 1, 1,
                                                c.a.desc, c.local_b.data(), 1, 1, c.b.desc, c.all.grid.context);
            }),
            "pdtrmr2d: rank 1: argument 1 (UPLO): another part than rank 0's");
  // p?tran: A and C on one context.
  EXPECT_EQ(c.message_of([&] {
              redist::scalapack::tran<double>(4, 5, 1.0, c.local_a.data(), 1, 1, c.a.desc, 0.0, c.local_b.data(), 1, 1,
                                              c.b.desc);
            }),
            "pdtran: rank 0: argument 12 (DESCC): CTXT_ is not A's context (both must share one)");
  // And after all that, a good call still works.
  redist::scalapack::gemr2d<double>(5, 4, c.local_a.data(), 1, 1, c.a.desc, c.local_b.data(), 1, 1, c.b.desc,
                                    c.all.grid.context);
  for (int r = 0; r < c.b.local_rows; ++r) {
    for (int col = 0; col < c.b.local_cols; ++col) {
      const int i = c.b.global_row[static_cast<std::size_t>(r)], j = c.b.global_col[static_cast<std::size_t>(col)];
      const std::size_t k = static_cast<std::size_t>(r + col * c.b.desc[8]);
      EXPECT_EQ(c.local_b[k], i < 5 && j < 4 ? value_of<double>(i, j) : c.before[k]);
    }
  }
}

TEST(ScalapackDropIn, ARankOutsideTheContextIsToldAloneAndTheOthersCopy) {
  Grid three{1, 3, {0, 1, 2}};  // ictxt of ranks 0-2; rank 3 is outside
  Grid a_grid{3, 1, {2, 1, 0}};
  std::mt19937 rng(8);
  Matrix a = random_matrix(rng, a_grid, 9, 7), b = random_matrix(rng, three, 9, 7);
  const auto local_a = storage<double>(a, [](std::size_t k, int i, int j) { return i < 0 ? sentinel<double>(k) : value_of<double>(i, j); });
  auto local_b = storage<double>(b, [](std::size_t k, int, int) { return sentinel<double>(k); });
  std::string message;
  try {
    redist::scalapack::gemr2d<double>(9, 7, local_a.data(), 1, 1, a.desc, local_b.data(), 1, 1, b.desc, three.context);
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  if (world_rank() == 3) {
    EXPECT_EQ(message, "pdgemr2d: argument 11 (ICTXT): context -1 is not one this rank is part of");
    return;
  }
  EXPECT_EQ(message, "");
  for (int r = 0; r < b.local_rows; ++r) {
    for (int col = 0; col < b.local_cols; ++col) {
      EXPECT_EQ(local_b[static_cast<std::size_t>(r + col * b.desc[8])], value_of<double>(b.global_row[static_cast<std::size_t>(r)], b.global_col[static_cast<std::size_t>(col)]));
    }
  }
}

// What `call` writes to stderr (this process's file descriptor 2, captured in a temporary file).
std::string stderr_of(const std::function<void()>& call) {
  std::fflush(stderr);
  FILE* capture = std::tmpfile();
  const int saved = dup(2);
  dup2(fileno(capture), 2);
  call();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::rewind(capture);
  std::string text;
  for (int ch = std::fgetc(capture); ch != EOF; ch = std::fgetc(capture)) text += static_cast<char>(ch);
  std::fclose(capture);
  return text;
}

TEST(ScalapackDropIn, TheCAndFortranEntriesPrintTheLineAndReturn) {
  BadCall c;
  const int lld = c.b.desc[8];
  if (world_rank() == 1) c.b.desc[8] = 0;  // rank 1's own B
  const int m = 5, n = 4, one = 1;
  const std::string c_form = stderr_of([&] {
    redist_pdgemr2d(m, n, c.local_a.data(), 1, 1, c.a.desc, c.local_b.data(), 1, 1, c.b.desc, c.all.grid.context);
  });
  const std::string fortran_form = stderr_of([&] {
    redist_pdgemr2d_(&m, &n, c.local_a.data(), &one, &one, c.a.desc, c.local_b.data(), &one, &one, c.b.desc,
                     &c.all.grid.context);
  });
  EXPECT_EQ(c.local_b, c.before);
  // The ranks agreed on the refusal: the lowest rank of ICTXT prints it, once per job; the others
  // print nothing and return all the same.
  int lines = static_cast<int>(std::count(c_form.begin(), c_form.end(), '\n')), job_lines = 0;
  MPI_Allreduce(&lines, &job_lines, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(job_lines, 1) << "the refusal printed once per job";
  if (world_rank() == 0) {
    EXPECT_EQ(c_form.rfind("pdgemr2d: rank 1: argument 10 (DESCB): LLD_ 0 is below the ", 0), 0u) << c_form;
    EXPECT_EQ(c_form.find('\n'), c_form.size() - 1) << "one line";
  } else {
    EXPECT_EQ(c_form, "");
  }
  EXPECT_EQ(fortran_form, c_form);
  c.b.desc[8] = lld;
  // Good arguments: nothing printed, the copy made.
  EXPECT_EQ(stderr_of([&] {
              redist_pdgemr2d(m, n, c.local_a.data(), 1, 1, c.a.desc, c.local_b.data(), 1, 1, c.b.desc, c.all.grid.context);
            }),
            "");
  int changed = c.local_b != c.before ? 1 : 0, any = 0;  // the ranks holding sub(B) got it
  MPI_Allreduce(&changed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(any, 1);
}

}  // namespace
