// The drop-in with a machine model (REDIST_MODEL): for whole matrices stored densely, `auto` chooses
// at the second call with the same arguments the indexing and schedule fastest at each call of a
// kept plan (a redist::mpi::Plan runs them, or the default plan where the choice is its own
// exchange, async); other calls take the default submatrix plan; either way the result is ScaLAPACK's, byte for byte. REDIST_SCALAPACK_LOG says which ran.
// On 4 ranks; the model and the log are set here before the first call (the model is read once,
// so each test runs in a process of its own: tests/mpi/CMakeLists.txt runs one per mpirun).
//
// A model that cannot be used (missing, not a regular file, truncated, set on some ranks only, a
// different file on one rank) changes nothing but the method: every call runs the default and
// moves the data as ScaLAPACK does, the job says why once on stderr, and no rank waits for another.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "redist/predict/machine_model_json.hpp"
#include "redist/scalapack/scalapack.hpp"
#include "stock_scalapack.hpp"

extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
}

namespace {

using redist::test::numroc;

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// One host per rank over a switch, where scanning elements is dear (as the MPI API's auto tests).
redist::MachineModel small_machine(redist::Index hosts) {
  redist::MachineModel m;
  m.prices.seconds[static_cast<std::size_t>(redist::WorkKind::ElementScanned)] = 1e-8;
  m.prices.seconds[static_cast<std::size_t>(redist::WorkKind::ByteCopied)] = 1e-10;
  m.prices.send_overhead = m.prices.recv_overhead = 1e-6;
  m.hosts = hosts;
  m.links.push_back({1e9, true});
  for (redist::Index h = 0; h < hosts; ++h) m.links.push_back({1e10, true});
  for (redist::Index a = 0; a < hosts; ++a) {
    for (redist::Index b = 0; b < hosts; ++b) {
      m.routes.push_back(a == b ? redist::ModelRoute{{static_cast<std::size_t>(1 + a)}, 0} : redist::ModelRoute{{0}, 2e-6});
    }
  }
  return m;
}

struct Grid {
  int context = -1, rows, cols, my_row = -1, my_col = -1;
  Grid(int r, int c, std::vector<int> ranks_column_major) : rows(r), cols(c) {
    Cblacs_get(-1, 0, &context);
    Cblacs_gridmap(&context, ranks_column_major.data(), r, r, c);
    if (context >= 0) {
      int nr = 0, nc = 0;
      Cblacs_gridinfo(context, &nr, &nc, &my_row, &my_col);
    }
  }
  ~Grid() {
    if (context >= 0) Cblacs_gridexit(context);
  }
  bool inside() const { return context >= 0; }
};


struct Matrix {
  int desc[9] = {1, -1, 0, 0, 1, 1, 0, 0, 1};
  int rows = 0, cols = 0, lld = 1;
  Matrix(const Grid& g, int m, int n, int mb, int nb, int sr, int sc, int padding) {
    if (g.inside()) {
      rows = numroc(m, mb, g.my_row, sr, g.rows);
      cols = numroc(n, nb, g.my_col, sc, g.cols);
      lld = std::max(1, rows) + padding;
    }
    const int v[9] = {1, g.inside() ? g.context : -1, m, n, mb, nb, sr, sc, lld};
    std::copy(v, v + 9, desc);
  }
  std::size_t storage() const { return std::max<std::size_t>(1, static_cast<std::size_t>(lld) * cols); }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

template <class T>
void compare(const Grid& ga, const Grid& gb, int m, int n, int ia, int ib, int padding, int context) {
  Matrix a(ga, ia - 1 + m, ia - 1 + n, 3, 5, 0, ga.cols - 1, padding), b(gb, ib - 1 + m, ib - 1 + n, 4, 2, gb.rows - 1, 0, 0);
  std::vector<T> local_a(a.storage());
  for (std::size_t k = 0; k < local_a.size(); ++k) local_a[k] = T(static_cast<double>(k) + 1000.0 * world_rank() + 0.5);
  std::vector<T> a_stock = local_a, b_stock(b.storage(), T(-1)), b_redist = b_stock;
  if constexpr (std::is_same_v<T, double>) {
    Cpdgemr2d(m, n, a_stock.data(), ia, ia, a.desc, b_stock.data(), ib, ib, b.desc, context);
  } else {
    Cpzgemr2d(m, n, a_stock.data(), ia, ia, a.desc, b_stock.data(), ib, ib, b.desc, context);
  }
  // Twice, as a program repeats a call: `auto` chooses on a plan's second use.
  for (int call = 1; call <= 2; ++call) {
    std::fill(b_redist.begin(), b_redist.end(), T(-1));
    redist::scalapack::gemr2d<T>(m, n, local_a.data(), ia, ia, a.desc, b_redist.data(), ib, ib, b.desc, context);
    EXPECT_EQ(std::memcmp(b_redist.data(), b_stock.data(), b_stock.size() * sizeof(T)), 0)
        << "call " << call << " m " << m << " n " << n << " ia " << ia << " ib " << ib << " padding " << padding
        << " rank " << world_rank();
  }
}

TEST(ScalapackWithModel, AutoRunsWholeMatricesAndResultsStayScalapacks) {
  const std::string model = "scalapack_auto_test.model.json", log = "scalapack_auto_test.log";
  if (world_rank() == 0) {
    std::ofstream(model) << redist::machine_model_to_json(small_machine(4));
    std::remove(log.c_str());
  }
  MPI_Barrier(MPI_COMM_WORLD);
  setenv("REDIST_MODEL", model.c_str(), 1);
  setenv("REDIST_SCALAPACK_LOG", log.c_str(), 1);
  Grid all(1, 4, {0, 1, 2, 3});
  Grid ga(2, 2, {3, 1, 2, 0});  // a permuted map: A's processors are not ranks 0, 1, 2, 3 in order
  Grid gb(4, 1, {1, 2, 3, 0});
  Grid gc(1, 3, {2, 0, 1});  // rank 3 outside
  compare<double>(ga, gb, 37, 29, 1, 1, 0, all.context);                // whole, dense: auto
  compare<std::complex<double>>(gb, ga, 37, 29, 1, 1, 0, all.context);  // whole, dense: auto
  compare<double>(ga, gc, 40, 23, 1, 1, 0, all.context);                // whole, dense, rank 3 outside B: auto
  compare<double>(ga, gb, 37, 29, 1, 1, 2, all.context);                // padded LLD_: the default
  compare<double>(ga, gb, 20, 11, 3, 2, 0, all.context);                // a submatrix: the default
  compare<double>(ga, gb, 37, 29, 1, 1, 0, all.context);                // the kept plan again: auto twice
  MPI_Barrier(MPI_COMM_WORLD);
  unsetenv("REDIST_SCALAPACK_LOG");
  if (world_rank() != 0) return;
  const std::string text = slurp(log);
  std::size_t by_model = 0, by_default = 0;
  // auto's choice: a Plan with a scheduled exchange, or the default's own exchange (async), which
  // the default plan runs.
  for (const char* chosen : {"chosen on the machine model: indexing ", "(auto chose indexing "}) {
    for (std::size_t at = text.find(chosen); at != std::string::npos; at = text.find(chosen, at + 1)) ++by_model;
  }
  for (std::size_t at = text.find("submatrix plan (the default)"); at != std::string::npos;
       at = text.find("submatrix plan (the default)", at + 1)) {
    ++by_default;
  }
  // On four ranks: the three whole dense copies the default at their first call and auto at
  // their second, the kept plan auto both times; the padded and the submatrix copy the default.
  EXPECT_EQ(by_model, 5u * 4u) << text;
  EXPECT_EQ(by_default, 7u * 4u) << text;
  EXPECT_EQ(text.find("indexing auto"), std::string::npos) << "auto was not resolved:\n" << text;
  EXPECT_EQ(text.find("schedule auto"), std::string::npos) << "auto was not resolved:\n" << text;
  std::remove(model.c_str());
  std::remove(log.c_str());
}

// What a process writes on stderr while it lives, kept in a file of its own.
class StderrCapture {
 public:
  explicit StderrCapture(std::string path) : path_(std::move(path)) {
    std::fflush(stderr);
    saved_ = dup(2);
    const int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 2);
    close(fd);
  }
  std::string finish() {
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    const std::string text = slurp(path_);
    std::remove(path_.c_str());
    return text;
  }

 private:
  std::string path_;
  int saved_ = -1;
};

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Each rank's REDIST_MODEL, set before any call: the drop-in's copies, each twice (auto would
// choose at the second), move the data as ScaLAPACK does, and the whole job says `reason` once.
void runs_the_default_and_says_so_once(const std::string& my_model, const std::string& reason) {
  if (my_model.empty()) {
    unsetenv("REDIST_MODEL");
  } else {
    setenv("REDIST_MODEL", my_model.c_str(), 1);
  }
  StderrCapture capture("scalapack_model_stderr." + std::to_string(world_rank()));
  {
    Grid all(1, 4, {0, 1, 2, 3});
    Grid ga(2, 2, {3, 1, 2, 0});
    Grid gb(4, 1, {1, 2, 3, 0});
    compare<double>(ga, gb, 37, 29, 1, 1, 0, all.context);  // whole, dense: where auto would choose
    compare<double>(gb, ga, 37, 29, 1, 1, 0, all.context);
    compare<double>(ga, gb, 20, 11, 3, 2, 0, all.context);  // a submatrix
  }
  const std::string said = capture.finish();
  unsetenv("REDIST_MODEL");
  int lines = static_cast<int>(occurrences(said, "redist: REDIST_MODEL not used ("));
  MPI_Allreduce(MPI_IN_PLACE, &lines, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(lines, 1) << "rank " << world_rank() << " wrote: " << said;
  if (!said.empty()) {
    EXPECT_NE(said.find(reason), std::string::npos) << said;
  }
}

std::string write_on_rank_0(const std::string& path, const std::string& text) {
  if (world_rank() == 0) std::ofstream(path) << text;
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

TEST(ScalapackModelUnusable, MissingOnEveryRank) {
  runs_the_default_and_says_so_once("/nonexistent/model.json", "machine model /nonexistent/model.json: no such file");
}

TEST(ScalapackModelUnusable, NotARegularFile) {
  runs_the_default_and_says_so_once("/dev/zero", "machine model /dev/zero: not a regular file");
}

TEST(ScalapackModelUnusable, Truncated) {
  const std::string whole = redist::machine_model_to_json(small_machine(4));
  const std::string path = write_on_rank_0("scalapack_model_truncated.model.json", whole.substr(0, whole.size() / 2));
  runs_the_default_and_says_so_once(path, "not JSON");
  if (world_rank() == 0) std::remove(path.c_str());
}

TEST(ScalapackModelUnusable, SetOnSomeRanksOnly) {
  const std::string path =
      write_on_rank_0("scalapack_model_some.model.json", redist::machine_model_to_json(small_machine(4)));
  runs_the_default_and_says_so_once(world_rank() < 2 ? path : "", "rank 2 of the call has none, rank 0 has one");
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::remove(path.c_str());
}

TEST(ScalapackModelUnusable, AnotherFileOnOneRank) {
  const std::string one = write_on_rank_0("scalapack_model_one.model.json", redist::machine_model_to_json(small_machine(4)));
  const std::string other =
      write_on_rank_0("scalapack_model_other.model.json", redist::machine_model_to_json(small_machine(2)));
  runs_the_default_and_says_so_once(world_rank() == 3 ? other : one, "rank 3 of the call read another file than rank 0");
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    std::remove(one.c_str());
    std::remove(other.c_str());
  }
}

}  // namespace
