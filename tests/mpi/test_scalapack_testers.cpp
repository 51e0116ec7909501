// The calls ScaLAPACK's own testers make, on 4 ranks, to redist and to ScaLAPACK on the same
// inputs, compared byte for byte:
//  - REDIST's x?gemr and x?trmr drivers with lines of GEMR2D.dat and TRMR2D.dat: a 4 x 1 union
//    context, grids from Cblacs_gridinit over the first ranks, descriptors in which DTYPE_ is left
//    uninitialised on some ranks (ScaLAPACK never reads it), LLD_ exactly the local rows (0 on a
//    process row holding none), CTXT_ of no grid on a rank outside one, and the round trip
//    A -> B -> A the drivers check;
//  - UPLO and DIAG letters other than U, L and N, read as ScaLAPACK reads them;
//  - calls with M or N 0 and descriptors of garbage (ScaLAPACK reads nothing then);
//  - p?tran on the PBLAS tester's descriptors: eleven entries (DTYPE_ 2, IMB_ and INB_ as large as
//    the other blocks, smaller, or holding the whole extent), LLD_ the local rows plus a gap,
//    alpha 2 and beta 3, mixed with nine-entry ones.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <complex>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/scalapack/scalapack.hpp"
#include "stock_scalapack.hpp"

extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
MPI_Comm Cblacs2sys_handle(int system_handle);
void pstran_(int*, int*, float*, float*, int*, int*, int*, float*, float*, int*, int*, int*);
void pdtran_(int*, int*, double*, double*, int*, int*, int*, double*, double*, int*, int*, int*);
void pctranu_(int*, int*, std::complex<float>*, std::complex<float>*, int*, int*, int*, std::complex<float>*,
              std::complex<float>*, int*, int*, int*);
void pztranc_(int*, int*, std::complex<double>*, std::complex<double>*, int*, int*, int*, std::complex<double>*,
              std::complex<double>*, int*, int*, int*);
}

namespace {

using redist::test::numroc;
using redist::test::Stock;

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// Whether any rank has failed so far: the ranks leave a loop of collective calls together.
bool any_rank_failed() {
  int mine = ::testing::Test::HasFailure() ? 1 : 0, any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any != 0;
}


// A grid as the drivers make it: Cblacs_gridinit "R" over the first rows x cols ranks.
struct Grid {
  int context = -1, rows = 0, cols = 0, my_row = -1, my_col = -1;
  Grid(int r, int c) : rows(r), cols(c) {
    Cblacs_get(0, 0, &context);
    Cblacs_gridinit(&context, "R", r, c);
    int nr = 0, nc = 0;
    Cblacs_gridinfo(context, &nr, &nc, &my_row, &my_col);
    if (my_row >= r || my_col >= c) my_row = my_col = -1;
  }
  ~Grid() {
    if (context >= 0) Cblacs_gridexit(context);
  }
  Grid(const Grid&) = delete;
  Grid& operator=(const Grid&) = delete;
  bool inside() const { return my_row >= 0; }
  MPI_Comm comm_of_grid() const {  // BLACS' communicator of the grid
    int handle = -1;
    Cblacs_get(context, 10, &handle);
    return Cblacs2sys_handle(handle);
  }
};


int global_of(int l, int nb, int p, int src, int np) { return ((l / nb) * np + (p - src + np) % np) * nb + l % nb; }

// What the drivers leave in DTYPE_ (never set on rank 0) and, outside a grid, in LLD_.
constexpr int kUninitialised = -858993460;  // 0xCCCCCCCC

// One matrix as a REDIST driver holds it: an MDESC (nine ints) and a local block of exactly
// LLD_ = local rows (no padding: 0 on a process row without rows).
struct DriverMatrix {
  int desc[9];
  int local_rows = 0, local_cols = 0;
  const Grid& grid;
  DriverMatrix(const Grid& g, int m, int n, int sr, int sc, int mb, int nb) : grid(g) {
    const int me = world_rank();
    const int dtype = me == 0 ? 0 : me == 3 ? kUninitialised : 1;
    int lld = kUninitialised;
    if (g.inside()) {
      local_rows = numroc(m, mb, g.my_row, sr, g.rows);
      local_cols = numroc(n, nb, g.my_col, sc, g.cols);
      lld = local_rows;
    }
    // Outside the grid the drivers pass CTXT_ -1 (what Cblacs_gridinit gave); rank 3 passes a
    // handle of no grid instead, which ScaLAPACK reads alike.
    const int context = g.inside() || me != 3 ? g.context : 4711;
    const int values[9] = {dtype, context, m, n, mb, nb, sr, sc, lld};
    std::copy(values, values + 9, desc);
  }
  std::size_t elements() const { return static_cast<std::size_t>(local_rows) * static_cast<std::size_t>(local_cols); }
  int global_row(int l) const { return global_of(l, desc[4], grid.my_row, desc[6], grid.rows); }
  int global_col(int l) const { return global_of(l, desc[5], grid.my_col, desc[7], grid.cols); }
};

template <class T>
T value_of(int i, int j) {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
    return T(static_cast<typename T::value_type>(i) + 0.5f, static_cast<typename T::value_type>(j) - 0.25f);
  } else {
    return static_cast<T>(i * 1000 + j) + static_cast<T>(std::is_integral_v<T> ? 0 : 0.5);
  }
}

template <class T>
std::vector<T> filled(const DriverMatrix& a) {
  std::vector<T> v(std::max<std::size_t>(1, a.elements()), T(-1));
  for (int j = 0; j < a.local_cols; ++j) {
    for (int i = 0; i < a.local_rows; ++i) {
      v[static_cast<std::size_t>(i + j * a.local_rows)] = value_of<T>(a.global_row(i), a.global_col(j));
    }
  }
  return v;
}

// A line of GEMR2D.dat or TRMR2D.dat: m n m0 n0 sr0 sc0 i0 j0 p0 q0 nbr0 nbc0, the same for B.
struct DriverCase {
  int m, n, m0, n0, sr0, sc0, i0, j0, p0, q0, nbr0, nbc0, m1, n1, sr1, sc1, i1, j1, p1, q1, nbr1, nbc1;
};

std::string describe(const DriverCase& c) {
  return "m " + std::to_string(c.m) + " n " + std::to_string(c.n) + " A " + std::to_string(c.m0) + "x" +
         std::to_string(c.n0) + " on " + std::to_string(c.p0) + "x" + std::to_string(c.q0) + " B " +
         std::to_string(c.m1) + "x" + std::to_string(c.n1) + " on " + std::to_string(c.p1) + "x" + std::to_string(c.q1);
}

// Is element (gi, gj) of A (0-based) one the call copies? The drivers' own rule.
bool copied(const DriverCase& c, const char* uplo, const char* diag, int gi, int gj) {
  gi -= c.i0 - 1;
  gj -= c.j0 - 1;
  if (gi < 0 || gj < 0 || gi >= c.m || gj >= c.n) return false;
  if (uplo == nullptr) return true;
  const int unit = std::toupper(static_cast<unsigned char>(*diag)) == 'U';
  if (std::toupper(static_cast<unsigned char>(*uplo)) == 'U') return gi <= gj + std::max(0, c.m - c.n) - unit;
  return gi >= gj - std::max(0, c.n - c.m) + unit;
}

// The driver's round trip A -> B -> A, by ScaLAPACK and by redist; uplo null: p?gemr2d.
template <class T>
void driver_round_trip(const DriverCase& c, int union_context, const char* uplo, const char* diag,
                       bool driver_check = true) {
  const std::string what = describe(c) + (uplo ? std::string(" uplo ") + uplo + " diag " + diag : "") + " (" +
                           typeid(T).name() + ")";
  Grid g0(c.p0, c.q0), g1(c.p1, c.q1);
  DriverMatrix a(g0, c.m0, c.n0, c.sr0, c.sc0, c.nbr0, c.nbc0), b(g1, c.m1, c.n1, c.sr1, c.sc1, c.nbr1, c.nbc1);
  const std::vector<T> original = filled<T>(a);
  std::vector<T> a_stock = original, a_redist = original;
  std::vector<T> b_stock(std::max<std::size_t>(1, b.elements()), T(-1)), b_redist = b_stock;
  std::vector<T> back_stock(original.size(), T(-1)), back_redist = back_stock;
  T* const pa_stock = g0.inside() ? a_stock.data() : nullptr;
  T* const pa_redist = g0.inside() ? a_redist.data() : nullptr;
  if (uplo == nullptr) {
    Stock<T>::gemr2d(c.m, c.n, pa_stock, c.i0, c.j0, a.desc, b_stock.data(), c.i1, c.j1, b.desc, union_context);
    Stock<T>::gemr2d(c.m, c.n, b_stock.data(), c.i1, c.j1, b.desc, back_stock.data(), c.i0, c.j0, a.desc, union_context);
    redist::scalapack::gemr2d<T>(c.m, c.n, pa_redist, c.i0, c.j0, a.desc, b_redist.data(), c.i1, c.j1, b.desc,
                                 union_context);
    redist::scalapack::gemr2d<T>(c.m, c.n, b_redist.data(), c.i1, c.j1, b.desc, back_redist.data(), c.i0, c.j0, a.desc,
                                 union_context);
  } else {
    Stock<T>::trmr2d(uplo, diag, c.m, c.n, pa_stock, c.i0, c.j0, a.desc, b_stock.data(), c.i1, c.j1, b.desc,
                     union_context);
    Stock<T>::trmr2d(uplo, diag, c.m, c.n, b_stock.data(), c.i1, c.j1, b.desc, back_stock.data(), c.i0, c.j0, a.desc,
                     union_context);
    redist::scalapack::trmr2d<T>(*uplo, *diag, c.m, c.n, pa_redist, c.i0, c.j0, a.desc, b_redist.data(), c.i1, c.j1,
                                 b.desc, union_context);
    redist::scalapack::trmr2d<T>(*uplo, *diag, c.m, c.n, b_redist.data(), c.i1, c.j1, b.desc, back_redist.data(), c.i0,
                                 c.j0, a.desc, union_context);
  }
  // The driver's check: back in A, every copied element and -1 elsewhere.
  int errors = 0;
  for (int j = 0; j < a.local_cols; ++j) {
    for (int i = 0; i < a.local_rows; ++i) {
      const std::size_t k = static_cast<std::size_t>(i + j * a.local_rows);
      const T expected = copied(c, uplo, diag, a.global_row(i), a.global_col(j)) ? original[k] : T(-1);
      errors += std::memcmp(&back_redist[k], &expected, sizeof(T)) != 0;
    }
  }
  if (driver_check) {
    EXPECT_EQ(errors, 0) << what << ": the driver's check fails on rank " << world_rank();
  }
  EXPECT_EQ(std::memcmp(b_redist.data(), b_stock.data(), b_stock.size() * sizeof(T)), 0)
      << what << ": B differs from ScaLAPACK's on rank " << world_rank();
  EXPECT_EQ(std::memcmp(back_redist.data(), back_stock.data(), back_stock.size() * sizeof(T)), 0)
      << what << ": A's round trip differs from ScaLAPACK's on rank " << world_rank();
}

// The drivers' union context: Cblacs_gridinit(&gcontext, "R", nprocs, 1).
struct DriverContext {
  Grid grid{world_size(), 1};
};

// Lines of GEMR2D.dat (the first ten, and some of each size up to 1000).
const std::vector<DriverCase> kGemrLines = {
    {200, 200, 200, 200, 0, 0, 1, 1, 1, 4, 3, 6, 200, 200, 0, 0, 1, 1, 1, 4, 5, 3},
    {200, 200, 200, 200, 0, 0, 1, 1, 4, 1, 7, 9, 200, 200, 0, 0, 1, 1, 4, 1, 4, 9},
    {200, 200, 200, 200, 0, 0, 1, 1, 4, 1, 2, 9, 200, 200, 0, 0, 1, 1, 2, 2, 7, 7},
    {200, 200, 200, 200, 0, 0, 1, 1, 2, 2, 6, 3, 200, 200, 0, 0, 1, 1, 2, 2, 5, 9},
    {200, 200, 200, 200, 0, 0, 1, 1, 2, 2, 9, 10, 200, 200, 0, 0, 1, 1, 1, 4, 3, 4},
    {200, 200, 200, 200, 0, 0, 1, 1, 2, 2, 1, 10, 200, 200, 0, 0, 1, 1, 1, 3, 1, 4},
    {200, 200, 200, 200, 0, 0, 1, 1, 1, 4, 14, 6, 200, 200, 0, 0, 1, 1, 1, 3, 8, 5},
    {200, 200, 200, 200, 0, 0, 1, 1, 1, 3, 6, 4, 200, 200, 0, 0, 1, 1, 4, 1, 2, 2},
    {200, 200, 200, 200, 0, 0, 1, 1, 4, 1, 3, 10, 200, 200, 0, 0, 1, 1, 1, 4, 11, 5},
    {200, 200, 200, 200, 0, 0, 1, 1, 2, 2, 10, 3, 200, 200, 0, 0, 1, 1, 1, 3, 11, 7},
    {300, 300, 300, 300, 0, 0, 1, 1, 3, 1, 10, 11, 300, 300, 0, 0, 1, 1, 1, 3, 10, 3},
    {500, 500, 500, 500, 0, 0, 1, 1, 1, 4, 14, 9, 500, 500, 0, 0, 1, 1, 1, 4, 17, 11},
    {700, 700, 700, 700, 0, 0, 1, 1, 2, 2, 17, 14, 700, 700, 0, 0, 1, 1, 3, 1, 8, 21},
    {1000, 1000, 1000, 1000, 0, 0, 1, 1, 4, 1, 8, 31, 1000, 1000, 0, 0, 1, 1, 2, 2, 17, 22},
};

// TRMR2D.dat, every line (with UP and UNIT).
struct TrmrLine {
  DriverCase c;
  int up, unit;
};
const std::vector<TrmrLine> kTrmrLines = {
    {{12, 20, 81, 79, 0, 0, 18, 52, 1, 1, 6, 8, 56, 103, 1, 1, 42, 34, 2, 2, 8, 8}, 1, 0},
    {{59, 79, 98, 100, 0, 1, 13, 22, 1, 2, 8, 1, 62, 173, 0, 0, 4, 25, 1, 2, 9, 8}, 1, 0},
    {{22, 25, 87, 121, 0, 1, 17, 15, 2, 2, 12, 51, 90, 157, 1, 1, 19, 11, 2, 2, 36, 91}, 1, 0},
    {{1, 13, 1, 109, 0, 0, 1, 51, 2, 2, 8, 9, 134, 123, 0, 1, 15, 74, 1, 2, 16, 8}, 0, 0},
    {{129, 11, 187, 74, 0, 0, 1, 11, 2, 2, 7, 8, 185, 94, 0, 0, 27, 20, 2, 1, 8, 21}, 1, 1},
    {{43, 10, 45, 27, 1, 0, 2, 4, 2, 1, 10, 2, 149, 96, 0, 0, 78, 70, 1, 1, 9, 9}, 1, 0},
    {{1, 27, 80, 29, 0, 1, 72, 1, 2, 2, 19, 8, 41, 43, 1, 0, 18, 10, 2, 1, 8, 9}, 0, 0},
    {{29, 5, 37, 40, 0, 1, 1, 29, 1, 2, 17, 9, 46, 86, 0, 0, 5, 81, 2, 1, 7, 9}, 0, 1},
    {{59, 25, 91, 151, 0, 1, 20, 62, 2, 2, 5, 150, 81, 89, 0, 0, 5, 9, 1, 1, 9, 12}, 0, 0},
    {{31, 76, 114, 95, 0, 1, 79, 17, 1, 2, 8, 49, 169, 169, 0, 1, 50, 16, 1, 2, 9, 8}, 1, 0},
    {{12, 127, 22, 191, 1, 1, 11, 21, 2, 2, 8, 1, 28, 193, 1, 0, 11, 46, 2, 1, 9, 8}, 1, 1},
};

template <class T>
void every_gemr_line(int union_context) {
  for (const DriverCase& c : kGemrLines) {
    if (c.m0 > 500 && !std::is_same_v<T, double>) continue;  // the largest lines once
    driver_round_trip<T>(c, union_context, nullptr, nullptr);
    if (any_rank_failed()) return;
  }
}

TEST(ScalapackAsItsTesters, GemrDriverLinesWithDtypeUninitialised) {
  ASSERT_EQ(world_size(), 4);
  DriverContext all;
  every_gemr_line<float>(all.grid.context);
  every_gemr_line<double>(all.grid.context);
  every_gemr_line<std::complex<float>>(all.grid.context);
  every_gemr_line<std::complex<double>>(all.grid.context);
  every_gemr_line<int>(all.grid.context);
}

template <class T>
void every_trmr_line(int union_context) {
  for (const TrmrLine& line : kTrmrLines) {
    driver_round_trip<T>(line.c, union_context, line.up ? "UPPER" : "LOWER", line.unit ? "UNIT" : "NONUNIT");
    if (any_rank_failed()) return;
  }
}

// Line 4 has a 1-row A on a 2 x 2 grid: process row 1 holds no row, its LLD_ is 0.
TEST(ScalapackAsItsTesters, TrmrDriverLinesWithLldZeroOnEmptyProcessRows) {
  DriverContext all;
  every_trmr_line<float>(all.grid.context);
  every_trmr_line<double>(all.grid.context);
  every_trmr_line<std::complex<float>>(all.grid.context);
  every_trmr_line<std::complex<double>>(all.grid.context);
  every_trmr_line<int>(all.grid.context);
}

// ScaLAPACK reads UPLO as 'U' (either case) or lower, and DIAG as 'N' or unit for an upper
// trapezoid but 'U' or not unit for a lower one: redist reads them alike.
TEST(ScalapackAsItsTesters, TrmrLettersAsScalapackReadsThem) {
  DriverContext all;
  for (const char* uplo : {"u", "l", "x", " "}) {
    for (const char* diag : {"u", "n", "q", " "}) {
      for (const std::size_t line : {2u, 4u, 10u}) {
        // The drivers' own check reads DIAG differently from ScaLAPACK for an upper trapezoid:
        // only the comparison with ScaLAPACK holds for every letter.
        driver_round_trip<double>(kTrmrLines[line].c, all.grid.context, uplo, diag, false);
        if (any_rank_failed()) return;
      }
    }
  }
}

// M or N 0: ScaLAPACK returns at once, reading no descriptor, not even CTXT_; redist too.
TEST(ScalapackAsItsTesters, AnEmptyCopyReadsNoDescriptor) {
  DriverContext all;
  int garbage[9];
  std::fill(garbage, garbage + 9, kUninitialised);
  garbage[1] = 12345 + world_rank();
  std::vector<double> b(16, -1.0), b_stock = b;
  const std::vector<double> before = b;
  for (const auto& [m, n] : {std::pair{0, 5}, std::pair{5, 0}, std::pair{0, 0}}) {
    Cpdgemr2d(m, n, nullptr, 7, -3, garbage, b_stock.data(), 0, 99, garbage, all.grid.context);
    Cpdtrmr2d("U", "N", m, n, nullptr, 7, -3, garbage, b_stock.data(), 0, 99, garbage, all.grid.context);
    EXPECT_NO_THROW(redist::scalapack::gemr2d<double>(m, n, nullptr, 7, -3, garbage, b.data(), 0, 99, garbage,
                                                      all.grid.context));
    EXPECT_NO_THROW(redist::scalapack::trmr2d<double>('U', 'N', m, n, nullptr, 7, -3, garbage, b.data(), 0, 99,
                                                      garbage, all.grid.context));
  }
  EXPECT_EQ(b, before);
  EXPECT_EQ(b_stock, before);
  // Sizes that differ between ranks are still told, the same on every rank.
  std::string message;
  try {
    redist::scalapack::gemr2d<double>(world_rank() == 2 ? 3 : 0, 4, nullptr, 1, 1, garbage, b.data(), 1, 1, garbage,
                                      all.grid.context);
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  EXPECT_EQ(message, "pdgemr2d: rank 2: argument 1 (M) and argument 2 (N): 3 x 4 where rank 0 passed 0 x 4");
}

// ---- p?tran on the PBLAS tester's descriptors ----------------------------------------------

// A PBLAS tester's matrix: descriptor of 11 entries (DTYPE_ 2) or 9 (DTYPE_ 1), LLD_ the local
// rows plus the tester's gap of 10.
struct PblasMatrix {
  int desc[11] = {};
  int local_rows = 0, local_cols = 0, lld = 1;
  std::vector<int> rows, cols;  // the global rows and columns this process holds, in local order
  PblasMatrix(const Grid& g, int type, int m, int n, int imb, int inb, int mb, int nb, int sr, int sc) {
    if (type == 1) imb = mb, inb = nb;  // a nine-entry descriptor has no first block of its own
    // The process of a global index: the first block on the first process, then blocks in turn.
    // RSRC_ (CSRC_) -1: every process row (column) holds all the rows (columns).
    const auto owner = [](int i, int first_block, int block, int first, int procs, int me) {
      if (first == -1) return me;
      return i < first_block ? first : ((i - first_block) / block + 1 + first) % procs;
    };
    for (int i = 0; i < m; ++i) {
      if (owner(i, imb, mb, sr, g.rows, g.my_row) == g.my_row) rows.push_back(i);
    }
    for (int j = 0; j < n; ++j) {
      if (owner(j, inb, nb, sc, g.cols, g.my_col) == g.my_col) cols.push_back(j);
    }
    local_rows = static_cast<int>(rows.size());
    local_cols = static_cast<int>(cols.size());
    lld = std::max(1, local_rows) + 10;
    if (type == 2) {
      const int v[11] = {2, g.context, m, n, imb, inb, mb, nb, sr, sc, lld};
      std::copy(v, v + 11, desc);
    } else {
      const int v[9] = {1, g.context, m, n, mb, nb, sr, sc, lld};
      std::copy(v, v + 9, desc);
      desc[9] = desc[10] = kUninitialised;  // a nine-entry descriptor: nothing past LLD_ is read
    }
  }
  std::size_t storage() const { return std::max<std::size_t>(1, static_cast<std::size_t>(lld) * local_cols); }
  int global_row(int l) const { return rows[static_cast<std::size_t>(l)]; }
  int global_col(int l) const { return cols[static_cast<std::size_t>(l)]; }
};

template <class T>
std::vector<T> pblas_filled(const PblasMatrix& a, int seed) {
  std::vector<T> v(a.storage(), T(-7));
  for (int j = 0; j < a.local_cols; ++j) {
    for (int i = 0; i < a.local_rows; ++i) {
      v[static_cast<std::size_t>(i + j * a.lld)] = value_of<T>(a.global_row(i) + seed, a.global_col(j)) * T(0.5f);
    }
  }
  return v;
}

template <class T>
void stock_tran(int m, int n, T alpha, T* a, int ia, int ja, int* da, T beta, T* c, int ic, int jc, int* dc) {
  if constexpr (std::is_same_v<T, float>) pstran_(&m, &n, &alpha, a, &ia, &ja, da, &beta, c, &ic, &jc, dc);
  if constexpr (std::is_same_v<T, double>) pdtran_(&m, &n, &alpha, a, &ia, &ja, da, &beta, c, &ic, &jc, dc);
  if constexpr (std::is_same_v<T, std::complex<float>>) pctranu_(&m, &n, &alpha, a, &ia, &ja, da, &beta, c, &ic, &jc, dc);
  if constexpr (std::is_same_v<T, std::complex<double>>) pztranc_(&m, &n, &alpha, a, &ia, &ja, da, &beta, c, &ic, &jc, dc);
}

template <class T>
void redist_tran(int m, int n, T alpha, T* a, int ia, int ja, int* da, T beta, T* c, int ic, int jc, int* dc) {
  if constexpr (std::is_same_v<T, std::complex<double>>) {
    redist::scalapack::tranc<T>(m, n, alpha, a, ia, ja, da, beta, c, ic, jc, dc);
  } else {
    redist::scalapack::tran<T>(m, n, alpha, a, ia, ja, da, beta, c, ic, jc, dc);
  }
}

// sub(C) (m x n at ic, jc) := beta sub(C) + alpha op(sub(A)) (n x m at ia, ja) by ScaLAPACK's
// p?tran and by redist's, each on its own copy of the same filled A and C.
template <class T>
struct TranOutcome {
  std::vector<T> c_before, c_stock, c_redist, a_stock, a_redist;
  std::string refusal;  ///< redist's message, when it refused the call
};

template <class T>
TranOutcome<T> both_trans(int m, int n, T alpha, PblasMatrix& a, int ia, int ja, T beta, PblasMatrix& c, int ic, int jc) {
  TranOutcome<T> out;
  out.a_stock = out.a_redist = pblas_filled<T>(a, 0);
  out.c_before = out.c_stock = out.c_redist = pblas_filled<T>(c, 3);
  stock_tran<T>(m, n, alpha, out.a_stock.data(), ia, ja, a.desc, beta, out.c_stock.data(), ic, jc, c.desc);
  try {
    redist_tran<T>(m, n, alpha, out.a_redist.data(), ia, ja, a.desc, beta, out.c_redist.data(), ic, jc, c.desc);
  } catch (const std::invalid_argument& e) {
    out.refusal = e.what();
  }
  return out;
}

// One tester problem: sub(C) (m x n at ic, jc) := beta sub(C) + alpha op(sub(A)) (n x m at ia, ja).
struct TranProblem {
  int rows, cols;  // the grid
  int m, n, block, ia, ic;
  int type_a, type_c;
};

// First blocks (IMB_, INB_ of eleven-entry descriptors): as large as the others (the tester's
// files), smaller, or holding the whole extent.
enum class FirstBlock { Full, Smaller, Whole };

template <class T>
void tran_as_pblas(const TranProblem& p, T alpha, T beta, FirstBlock first = FirstBlock::Full) {
  Grid g(p.rows, p.cols);
  if (!g.inside()) return;  // PBLAS: every caller is in the grid
  // The tester's matrices are 31 x 31 (A) and 35 x 35 (C), larger where the problem needs it.
  const int ma = std::max(31, p.ia - 1 + p.n), na = std::max(31, p.ia - 1 + p.m);
  const int mc = std::max(35, p.ic - 1 + p.m), nc = std::max(35, p.ic - 1 + p.n);
  // IMB_ and INB_ differ from MB_ and NB_ where the grid has one process row or column.
  int imb = g.rows == 1 ? p.block + 2 : p.block, inb = g.cols == 1 ? p.block + 1 : p.block;
  if (first == FirstBlock::Smaller) {
    imb = std::max(1, p.block - 1);
    inb = std::max(1, p.block - 2);
  }
  if (first == FirstBlock::Whole) imb = inb = 1000;
  PblasMatrix a(g, p.type_a, ma, na, imb, inb, p.block, p.block, 0, 0);
  PblasMatrix c(g, p.type_c, mc, nc, imb, inb, p.block, p.block, g.rows > 1 ? 1 : 0, 0);
  const TranOutcome<T> r = both_trans<T>(p.m, p.n, alpha, a, p.ia, p.ia, beta, c, p.ic, p.ic);
  const std::string what = "grid " + std::to_string(p.rows) + "x" + std::to_string(p.cols) + " imb " +
                           std::to_string(imb) + " inb " + std::to_string(inb) + " m " + std::to_string(p.m) +
                           " n " + std::to_string(p.n) + " block " + std::to_string(p.block) + " types " +
                           std::to_string(p.type_a) + "/" + std::to_string(p.type_c) + " (" + typeid(T).name() + ")";
  EXPECT_EQ(r.refusal, "") << what;
  int changed = r.c_stock != r.c_before ? 1 : 0, any = 0;  // on the ranks holding part of sub(C)
  MPI_Allreduce(&changed, &any, 1, MPI_INT, MPI_MAX, g.comm_of_grid());
  EXPECT_EQ(any, 1) << what << ": the problem should change C";
  EXPECT_EQ(std::memcmp(r.c_redist.data(), r.c_stock.data(), r.c_stock.size() * sizeof(T)), 0)
      << what << ": C differs from ScaLAPACK's on rank " << world_rank();
}

// The grids of PDBLAS3TST.dat that 4 processes hold, its problems (M, N, blocks, IA), alpha 2
// and beta 3 as there, and alpha 1 with beta 0 as PDGEADD's copy.
const std::vector<std::pair<int, int>> kPblasGrids = {{2, 2}, {1, 2}, {2, 1}, {1, 4}, {4, 1}};
const std::vector<TranProblem> kTranProblems = {
    {0, 0, 22, 23, 4, 5, 5, 2, 2}, {0, 0, 30, 29, 5, 1, 1, 2, 2}, {0, 0, 8, 7, 6, 7, 7, 2, 1},
    {0, 0, 20, 21, 3, 7, 7, 1, 2}, {0, 0, 3, 3, 2, 1, 1, 2, 2},   {0, 0, 5, 14, 1, 12, 12, 1, 1},
    {0, 0, 11, 11, 4, 1, 1, 2, 2}, {0, 0, 8, 8, 5, 11, 11, 2, 1},
};

template <class T>
void every_tran_problem() {
  for (const auto& [rows, cols] : kPblasGrids) {
    for (TranProblem p : kTranProblems) {
      p.rows = rows;
      p.cols = cols;
      tran_as_pblas<T>(p, T(2), T(3));
      tran_as_pblas<T>(p, T(1), T(0));
      tran_as_pblas<T>(p, T(2), T(3), FirstBlock::Smaller);
      tran_as_pblas<T>(p, T(1), T(0), FirstBlock::Whole);
      if (any_rank_failed()) return;
    }
  }
}

TEST(ScalapackAsItsTesters, TranOnElevenEntryDescriptors) {
  every_tran_problem<float>();
  every_tran_problem<double>();
  every_tran_problem<std::complex<float>>();
  every_tran_problem<std::complex<double>>();
}

// PBLAS's replicated matrices (RSRC_ or CSRC_ -1: every process row, or column, holds a copy of
// all the rows, or columns) as A, as C (every copy updated), or both, on nine- and eleven-entry
// descriptors, smaller first blocks included.
template <class T>
void tran_replicated(int rows, int cols, const TranProblem& p, std::array<int, 4> sources, int first_block) {
  Grid g(rows, cols);
  if (!g.inside()) return;
  const int ma = std::max(31, p.ia - 1 + p.n), na = std::max(31, p.ia - 1 + p.m);
  const int mc = std::max(35, p.ic - 1 + p.m), nc = std::max(35, p.ic - 1 + p.n);
  const int fb = first_block;
  PblasMatrix a(g, p.type_a, ma, na, fb, fb, p.block, p.block, sources[0], sources[1]);
  PblasMatrix c(g, p.type_c, mc, nc, fb, fb, p.block, p.block, sources[2], sources[3]);
  const TranOutcome<T> r = both_trans<T>(p.m, p.n, T(2), a, p.ia, p.ia, T(3), c, p.ic, p.ic);
  const std::string what = "grid " + std::to_string(rows) + "x" + std::to_string(cols) + " sources A " +
                           std::to_string(sources[0]) + "," + std::to_string(sources[1]) + " C " +
                           std::to_string(sources[2]) + "," + std::to_string(sources[3]) + " m " +
                           std::to_string(p.m) + " n " + std::to_string(p.n) + " first block " + std::to_string(fb) +
                           " types " + std::to_string(p.type_a) + "/" + std::to_string(p.type_c);
  EXPECT_EQ(r.refusal, "") << what;
  int changed = r.c_stock != r.c_before ? 1 : 0, any = 0;  // on the ranks holding part of sub(C)
  MPI_Allreduce(&changed, &any, 1, MPI_INT, MPI_MAX, g.comm_of_grid());
  EXPECT_EQ(any, 1) << what << ": the problem should change C";
  if (sources[2] == -1 && sources[3] == -1) {
    EXPECT_EQ(changed, 1) << what << ": every copy of C should change";
  }
  EXPECT_EQ(std::memcmp(r.c_redist.data(), r.c_stock.data(), r.c_stock.size() * sizeof(T)), 0)
      << what << ": C differs from ScaLAPACK's on rank " << world_rank();
}

TEST(ScalapackAsItsTesters, TranOnReplicatedMatrices) {
  const std::vector<std::array<int, 4>> sources = {
      {-1, 0, 0, 0}, {0, -1, 0, 0}, {-1, -1, 0, 0}, {0, 0, -1, 0},   {0, 0, 0, -1},
      {0, 0, -1, -1}, {-1, 0, -1, 0}, {0, -1, -1, 0}, {-1, -1, -1, -1}};
  for (const auto& [rows, cols] : kPblasGrids) {
    for (const std::array<int, 4>& s : sources) {
      for (const TranProblem& p : {kTranProblems[0], kTranProblems[2], kTranProblems[5]}) {
        tran_replicated<double>(rows, cols, p, s, p.block);
        tran_replicated<std::complex<double>>(rows, cols, p, s, std::max(1, p.block - 1));
        if (any_rank_failed()) return;
      }
    }
  }
}

// First blocks of any size (IMB_, INB_ below, equal to or above MB_, NB_, or holding the whole
// extent; A's and C's apart), blocks, sources, offsets IA, JA, IC, JC and grids drawn at random
// (the same draws on every rank), for several alpha and beta: C byte for byte as PBLAS's p?tran
// (pdtran, pztranc; pstran and pctranu once a draw).
struct TranDraw {
  int rows, cols, m, n, ia, ja, ic, jc;
  std::array<int, 4> a_blocks, c_blocks;  // IMB_, INB_, MB_, NB_
  std::array<int, 2> a_sources, c_sources;
  int a_extra_rows, a_extra_cols, c_extra_rows, c_extra_cols;
};

template <class T>
void tran_drawn(const TranDraw& d, T alpha, T beta) {
  Grid g(d.rows, d.cols);
  if (!g.inside()) return;
  const auto& ab = d.a_blocks;
  const auto& cb = d.c_blocks;
  PblasMatrix a(g, 2, d.ia - 1 + d.n + d.a_extra_rows, d.ja - 1 + d.m + d.a_extra_cols, ab[0], ab[1], ab[2], ab[3],
                d.a_sources[0], d.a_sources[1]);
  PblasMatrix c(g, 2, d.ic - 1 + d.m + d.c_extra_rows, d.jc - 1 + d.n + d.c_extra_cols, cb[0], cb[1], cb[2], cb[3],
                d.c_sources[0], d.c_sources[1]);
  const TranOutcome<T> r = both_trans<T>(d.m, d.n, alpha, a, d.ia, d.ja, beta, c, d.ic, d.jc);
  const auto list = [](const auto& v) {
    std::string s;
    for (const int x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
  };
  const std::string what = "grid " + std::to_string(d.rows) + "x" + std::to_string(d.cols) + " m " +
                           std::to_string(d.m) + " n " + std::to_string(d.n) + " ia,ja " + std::to_string(d.ia) + "," +
                           std::to_string(d.ja) + " ic,jc " + std::to_string(d.ic) + "," + std::to_string(d.jc) +
                           " A blocks " + list(ab) + " sources " + list(d.a_sources) + " C blocks " + list(cb) +
                           " sources " + list(d.c_sources) + " (" + typeid(T).name() + ")";
  EXPECT_EQ(r.refusal, "") << what;
  EXPECT_EQ(std::memcmp(r.c_redist.data(), r.c_stock.data(), r.c_stock.size() * sizeof(T)), 0)
      << what << ": C differs from ScaLAPACK's on rank " << world_rank();
  EXPECT_EQ(std::memcmp(r.a_redist.data(), r.a_stock.data(), r.a_stock.size() * sizeof(T)), 0) << what << ": A changed";
}

std::vector<TranDraw> tran_draws(int count, unsigned seed) {
  std::mt19937 random(seed);
  const auto draw = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
  const std::vector<std::pair<int, int>> grids = {{2, 2}, {1, 2}, {2, 1}, {1, 4}, {4, 1}, {3, 1}, {1, 3}};
  // A first block: smaller, the same, larger (up to three blocks and more), or whole.
  const auto blocks = [&](int extent) {
    const int mb = draw(1, 6);
    const int kind = draw(0, 3);
    const int first = kind == 0 ? draw(1, mb) : kind == 1 ? mb : kind == 2 ? draw(mb + 1, 3 * mb + 2) : extent + draw(0, 3);
    return std::array<int, 2>{first, mb};
  };
  const auto source = [&](int procs) { return draw(0, 9) == 0 ? -1 : draw(0, procs - 1); };
  std::vector<TranDraw> out;
  for (int k = 0; k < count; ++k) {
    TranDraw d{};
    const auto [rows, cols] = grids[static_cast<std::size_t>(draw(0, static_cast<int>(grids.size()) - 1))];
    d.rows = rows;
    d.cols = cols;
    d.m = draw(1, 24);
    d.n = draw(1, 24);
    d.ia = draw(1, 9);
    d.ja = draw(1, 9);
    d.ic = draw(1, 9);
    d.jc = draw(1, 9);
    d.a_extra_rows = draw(0, 4);
    d.a_extra_cols = draw(0, 4);
    d.c_extra_rows = draw(0, 4);
    d.c_extra_cols = draw(0, 4);
    const auto ar = blocks(d.ia - 1 + d.n + d.a_extra_rows), ac = blocks(d.ja - 1 + d.m + d.a_extra_cols);
    const auto cr = blocks(d.ic - 1 + d.m + d.c_extra_rows), cc = blocks(d.jc - 1 + d.n + d.c_extra_cols);
    d.a_blocks = {ar[0], ac[0], ar[1], ac[1]};
    d.c_blocks = {cr[0], cc[0], cr[1], cc[1]};
    d.a_sources = {source(rows), source(cols)};
    d.c_sources = {source(rows), source(cols)};
    out.push_back(d);
  }
  return out;
}

TEST(ScalapackAsItsTesters, TranOnFirstBlocksOfAnySize) {
  int larger = 0;
  for (const TranDraw& d : tran_draws(240, 20261129)) {
    larger += (d.a_blocks[0] > d.a_blocks[2] || d.a_blocks[1] > d.a_blocks[3] || d.c_blocks[0] > d.c_blocks[2] ||
               d.c_blocks[1] > d.c_blocks[3]) ? 1 : 0;
    tran_drawn<double>(d, 2.0, 3.0);
    tran_drawn<double>(d, 1.0, 0.0);
    tran_drawn<double>(d, -1.5, 0.25);
    tran_drawn<double>(d, 0.0, 3.0);
    tran_drawn<std::complex<double>>(d, {2.0, -1.0}, {3.0, 0.5});
    tran_drawn<std::complex<double>>(d, {1.0, 0.0}, {0.0, 0.0});
    tran_drawn<std::complex<double>>(d, {1.0, 0.0}, {1.0, 0.0});
    tran_drawn<float>(d, 2.0f, 3.0f);
    tran_drawn<std::complex<float>>(d, {2.0f, -1.0f}, {3.0f, 0.5f});
    if (any_rank_failed()) return;
  }
  EXPECT_GT(larger, 100);  // most draws have a first block above the others somewhere
}

// PDBLAS3TST.dat's and PZBLAS3TST.dat's problems with every first block of theirs made larger,
// and smaller, than the rest, A's and C's apart, on every grid of 4 processes.
TEST(ScalapackAsItsTesters, TranTesterProblemsWithOtherFirstBlocks) {
  for (const auto& [rows, cols] : kPblasGrids) {
    for (const TranProblem& p : kTranProblems) {
      for (const std::array<int, 4>& shift : std::vector<std::array<int, 4>>{{3, 1, 0, 0}, {0, 0, 2, 5}, {4, -1, -1, 7}}) {
        TranDraw d{rows, cols, p.m, p.n, p.ia, p.ia, p.ic, p.ic, {}, {}, {0, 0}, {0, 0}, 31, 31, 35, 35};
        d.a_extra_rows = std::max(0, 31 - (p.ia - 1 + p.n));
        d.a_extra_cols = std::max(0, 31 - (p.ia - 1 + p.m));
        d.c_extra_rows = std::max(0, 35 - (p.ic - 1 + p.m));
        d.c_extra_cols = std::max(0, 35 - (p.ic - 1 + p.n));
        const auto first = [&](int s) { return std::max(1, p.block + s); };
        d.a_blocks = {first(shift[0]), first(shift[1]), p.block, p.block};
        d.c_blocks = {first(shift[2]), first(shift[3]), p.block, p.block};
        tran_drawn<double>(d, 2.0, 3.0);
        tran_drawn<double>(d, 1.0, 0.0);
        tran_drawn<std::complex<double>>(d, {2.0, 0.0}, {3.0, 0.0});
        tran_drawn<std::complex<double>>(d, {1.0, 0.0}, {0.0, 0.0});
        if (any_rank_failed()) return;
      }
    }
  }
}

// What PBLAS refuses, or redist does not take, is told on every rank in one true line.
TEST(ScalapackAsItsTesters, TranTellsWhatItDoesNotTake) {
  Grid g(2, 2);
  PblasMatrix a(g, 2, 12, 12, 3, 3, 3, 3, 0, 0), c(g, 2, 12, 12, 3, 3, 3, 3, 0, 0);
  std::vector<double> local_a = pblas_filled<double>(a, 0), local_c = pblas_filled<double>(c, 1);
  const std::vector<double> before = local_c;
  const auto message_of = [&] {
    try {
      redist::scalapack::tran<double>(5, 4, 2.0, local_a.data(), 1, 1, a.desc, 3.0, local_c.data(), 1, 1, c.desc);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  a.desc[0] = 3;
  EXPECT_EQ(message_of(), "pdtran: rank 0: argument 7 (DESCA): DTYPE_ 3 is neither 1 nor 2 (the two types PBLAS takes)");
  a.desc[0] = 2;
  a.desc[4] = 0;
  EXPECT_EQ(message_of(), "pdtran: rank 0: argument 7 (DESCA): IMB_ 0 is not a positive block size");
  a.desc[4] = 3;
  c.desc[8] = -2;
  EXPECT_EQ(message_of(), "pdtran: rank 0: argument 12 (DESCC): RSRC_ -2 is outside the 2 process rows");
  c.desc[8] = 0;
  if (world_rank() == 1) c.desc[10] = 0;
  EXPECT_EQ(message_of(), "pdtran: rank 1: argument 12 (DESCC): LLD_ 0 is below 1");
  c.desc[10] = c.lld;
  EXPECT_EQ(local_c, before);
  EXPECT_EQ(message_of(), "");
  EXPECT_NE(local_c, before);
}

}  // namespace
