// The ScaLAPACK drop-in (redist::scalapack::gemr2d) against ScaLAPACK's own pdgemr2d on small
// matrices, where the per-call cost decides: 200-1000 rows and columns of doubles over 4 ranks,
// grids 1x4, 4x1, 2x2, 1x3 and 3x1 (a 3-process grid leaves rank 3 out: it passes CTXT_ = -1), and
// submatrices at an offset in arrays with LLD padding. Both are called with the same arguments,
// as a ScaLAPACK program calls them, again and again: redist keeps its plan between calls. Each
// time is the median over samples of `--calls` consecutive calls (the slowest rank's), samples
// alternating the libraries in a rotating order. Both results are checked element by element first.
//
// With REDIST_MODEL naming a machine model (the .model.json `redist calibrate` writes), redist runs
// twice per case, samples interleaved: as by default and as `auto` chose on the model (whole dense
// matrices only; other calls keep the default); each case then prints the method chosen and its
// time beside the default, and what the first two calls with new plans take, default and auto.
//
//   mpirun -np 4 bench_scalapack_small [--samples 15] [--calls 20] [--json FILE] [--only TEXT]
// (--only: the cases whose name contains TEXT)
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mpi_timing.hpp"
#include "redist/scalapack/scalapack.hpp"
#include "redist/scalapack/submatrix_call.hpp"

extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
void Cpdgemr2d(int m, int n, double* a, int ia, int ja, int* desca, double* b, int ib, int jb, int* descb, int context);
}

namespace {

using redist::bench::median_of;
using redist::bench::slowest;

// A BLACS grid in row-major order over ranks 0, 1, ... (rows x cols of them).
struct Grid {
  int rows, cols, context = -1, my_row = -1, my_col = -1;
  Grid(int r, int c) : rows(r), cols(c) {
    std::vector<int> map(static_cast<std::size_t>(r * c));
    for (int i = 0; i < r; ++i) {
      for (int j = 0; j < c; ++j) map[static_cast<std::size_t>(i + j * r)] = i * c + j;
    }
    Cblacs_get(-1, 0, &context);
    Cblacs_gridmap(&context, map.data(), r, r, c);
    if (context >= 0) Cblacs_gridinfo(context, &rows, &cols, &my_row, &my_col);
  }
  ~Grid() {
    if (context >= 0) Cblacs_gridexit(context);
  }
};

int numroc(int n, int nb, int p, int first, int procs) {
  const int dist = (procs + p - first) % procs, blocks = n / nb, extra = blocks % procs;
  return (blocks / procs) * nb + (dist < extra ? nb : dist == extra ? n % nb : 0);
}

// A matrix on a grid: descriptor and local array, each element its global index (padding -1).
struct Matrix {
  int desc[9] = {1, -1, 0, 0, 1, 1, 0, 0, 1};
  std::vector<double> local;
  std::vector<int> rows, cols;  // global index of each local row and column

  Matrix(const Grid& g, int m, int n, int mb, int nb, int padding) {
    int lld = 1;
    if (g.context >= 0) {
      for (int i = 0; i < m; ++i) {
        if ((i / mb) % g.rows == g.my_row) rows.push_back(i);
      }
      for (int j = 0; j < n; ++j) {
        if ((j / nb) % g.cols == g.my_col) cols.push_back(j);
      }
      lld = std::max(1, numroc(m, mb, g.my_row, 0, g.rows)) + padding;
    }
    const int values[9] = {1, g.context, m, n, mb, nb, 0, 0, lld};
    std::copy(values, values + 9, desc);
    local.assign(static_cast<std::size_t>(lld) * std::max<std::size_t>(1, cols.size()), -1.0);
  }
  void number(int n) {
    for (std::size_t c = 0; c < cols.size(); ++c) {
      for (std::size_t r = 0; r < rows.size(); ++r) local[r + c * static_cast<std::size_t>(desc[8])] = rows[r] * 1.0 * n + cols[c];
    }
  }
};

struct Case {
  const char* name;
  int m, n;                 // matrix
  int ar, ac, amb, anb;     // source grid and blocks
  int br, bc, bmb, bnb;     // destination
  int sub_m = 0, sub_n = 0, offset = 0, padding = 0;  // a submatrix at (1+offset, 1+offset), or the whole matrix
};

const std::vector<Case> kCases = {
    {"200 1x4 8x8 -> 4x1 8x8", 200, 200, 1, 4, 8, 8, 4, 1, 8, 8},
    {"200 2x2 16x16 -> 1x3 4x4", 200, 200, 2, 2, 16, 16, 1, 3, 4, 4},
    {"200 3x1 1x1 -> 2x2 32x32", 200, 200, 3, 1, 1, 1, 2, 2, 32, 32},
    {"300 4x1 20x20 -> 3x1 7x7", 300, 300, 4, 1, 20, 20, 3, 1, 7, 7},
    {"500 2x2 64x64 -> 4x1 32x32", 500, 500, 2, 2, 64, 64, 4, 1, 32, 32},
    {"500 1x3 10x10 -> 1x4 10x10", 500, 500, 1, 3, 10, 10, 1, 4, 10, 10},
    {"500 4x1 1x1 -> 1x4 1x1", 500, 500, 4, 1, 1, 1, 1, 4, 1, 1},
    {"700 3x1 50x50 -> 2x2 16x16", 700, 700, 3, 1, 50, 50, 2, 2, 16, 16},
    {"1000 2x2 32x32 -> 2x2 48x48", 1000, 1000, 2, 2, 32, 32, 2, 2, 48, 48},
    {"1000 1x4 64x64 -> 4x1 64x64", 1000, 1000, 1, 4, 64, 64, 4, 1, 64, 64},
    {"1000 4x1 8x8 -> 1x3 100x100", 1000, 1000, 4, 1, 8, 8, 1, 3, 100, 100},
    {"sub 700x500 of 1000, LLD +3: 2x2 32x32 -> 1x4 24x24", 1000, 1000, 2, 2, 32, 32, 1, 4, 24, 24, 700, 500, 37, 3},
    {"sub 300x300 of 600, LLD +1: 1x3 16x16 -> 3x1 5x5", 600, 600, 1, 3, 16, 16, 3, 1, 5, 5, 300, 300, 11, 1},
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int samples = 15, calls = 20;
  std::string json_path, only;
  bool all_correct = true;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--samples") samples = std::stoi(argv[i + 1]);
    if (flag == "--calls") calls = std::stoi(argv[i + 1]);
    if (flag == "--json") json_path = argv[i + 1];
    if (flag == "--only") only = argv[i + 1];
  }
  if (ranks != 4) {
    if (rank == 0) std::fprintf(stderr, "bench_scalapack_small: run with mpirun -np 4\n");
    MPI_Finalize();
    return 1;
  }
  {  // the grids go before MPI_Finalize
  Grid all(1, 4);
  const bool with_model = std::getenv("REDIST_MODEL") != nullptr && *std::getenv("REDIST_MODEL") != '\0';
  if (rank == 0) {
    std::printf("%-52s %12s %12s %9s%s\n", "case (doubles, grids, blocks)", "pdgemr2d us", "redist us", "ratio",
                with_model ? "   auto us  auto/default  new def us new auto us  chosen" : "");
  }
  std::vector<double> ratios;
  nlohmann::json out = nlohmann::json::array();
  for (const Case& c : kCases) {
    if (!only.empty() && std::string(c.name).find(only) == std::string::npos) continue;
    Grid ga(c.ar, c.ac), gb(c.br, c.bc);
    Matrix a(ga, c.m, c.n, c.amb, c.anb, c.padding), b(gb, c.m, c.n, c.bmb, c.bnb, c.padding);
    a.number(c.n);
    const int m = c.sub_m > 0 ? c.sub_m : c.m, n = c.sub_n > 0 ? c.sub_n : c.n, at = 1 + c.offset;
    const auto scalapack = [&] { Cpdgemr2d(m, n, a.local.data(), at, at, a.desc, b.local.data(), at, at, b.desc, all.context); };
    const auto by_redist = [&] {
      redist::scalapack::gemr2d<double>(m, n, a.local.data(), at, at, a.desc, b.local.data(), at, at, b.desc, all.context);
    };
    const auto by_redist_auto = [&] {  // the model's choice (use_machine_model: plans kept apart)
      redist::scalapack::use_machine_model(true);
      by_redist();
      redist::scalapack::use_machine_model(false);
    };
    redist::scalapack::use_machine_model(false);  // by_redist: the default
    // Correct first: every element of sub(B) holds its global index, the rest of B stays -1.
    bool correct = true;
    std::vector<std::function<void()>> runs = {scalapack, by_redist};
    if (with_model) runs.push_back(by_redist_auto);
    std::string chosen;
    for (const auto& run : runs) {  // twice: auto chooses on a plan's second use
      std::fill(b.local.begin(), b.local.end(), -1.0);
      run();
      std::fill(b.local.begin(), b.local.end(), -1.0);
      run();
      for (std::size_t k = 0; k < b.local.size(); ++k) {
        const std::size_t lld = static_cast<std::size_t>(b.desc[8]), r = k % lld, col = k / lld;
        double expected = -1;
        if (r < b.rows.size() && col < b.cols.size()) {
          const int i = b.rows[r], j = b.cols[col];
          if (i >= at - 1 && i < at - 1 + m && j >= at - 1 && j < at - 1 + n) expected = i * 1.0 * c.n + j;
        }
        correct = correct && b.local[k] == expected;
      }
      chosen = redist::scalapack::last_method();
    }
    all_correct = redist::bench::everywhere(correct) && all_correct;
    // Samples alternate the libraries (and auto's plans), in a rotating order: the machine's speed
    // drifts, and each gets its share of every phase of it.
    std::vector<std::vector<double>> times(runs.size());
    for (int s = 0; s < samples; ++s) {
      for (std::size_t k = 0; k < runs.size(); ++k) {
        const std::size_t which = (k + static_cast<std::size_t>(s)) % runs.size();
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        for (int call = 0; call < calls; ++call) runs[which]();
        times[which].push_back(slowest(MPI_Wtime() - start) / calls);
      }
    }
    const std::vector<double>&t_scalapack = times[0], &t_redist = times[1];
    // What new plans cost: the first two calls with the same arguments, every plan released before
    // (a call made once pays for its plan; auto chooses at a plan's second use), the median of 5.
    std::vector<double> new_default, new_auto;
    for (int s = 0; with_model && s < 5; ++s) {
      for (int which = 0; which < 2; ++which) {
        redist::scalapack::release_plans();
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        for (int call = 0; call < 2; ++call) (which == 0 ? runs[1] : runs[2])();
        (which == 0 ? new_default : new_auto).push_back(slowest(MPI_Wtime() - start));
      }
    }
    const double ts = median_of(t_scalapack), tr = median_of(t_redist);
    ratios.push_back(ts / tr);
    nlohmann::json row = {{"case", c.name}, {"pdgemr2d_seconds", ts}, {"redist_seconds", tr}, {"ratio", ts / tr}};
    if (rank == 0) std::printf("%-52s %12.1f %12.1f %9.2f", c.name, ts * 1e6, tr * 1e6, ts / tr);
    if (with_model) {
      const double ta = median_of(times[2]);
      const double nd = median_of(new_default), na = median_of(new_auto);
      if (rank == 0) std::printf(" %10.1f %13.2f %10.1f %10.1f  %s", ta * 1e6, ta / tr, nd * 1e6, na * 1e6, chosen.c_str());
      row["auto_seconds"] = ta;
      row["new_plan_default_seconds"] = nd;
      row["new_plan_auto_seconds"] = na;
      row["auto_method"] = chosen;
    }
    if (rank == 0) std::printf("%s\n", correct ? "" : "  WRONG");
    out.push_back(row);
  }
  const double median = median_of(ratios), least = *std::min_element(ratios.begin(), ratios.end());
  if (rank == 0) {
    std::printf("pdgemr2d / redist: median %.2f, least %.2f over %zu cases; %s\n", median, least, ratios.size(),
                all_correct ? "every result checked" : "SOME RESULTS WRONG");
    if (!json_path.empty()) {
      std::ofstream(json_path) << nlohmann::json{{"cases", out}, {"median_ratio", median}, {"least_ratio", least},
                                                 {"all_correct", all_correct}}.dump(2) << "\n";
    }
  }
  redist::scalapack::release_plans();
  }
  MPI_Finalize();
  return all_correct ? 0 : 1;
}
