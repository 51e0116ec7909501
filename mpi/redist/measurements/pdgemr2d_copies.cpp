#include "redist/measurements/pdgemr2d_copies.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/pdgemr2d/pdgemr2d_copy.hpp"

extern "C" {
int Csys2blacs_handle(MPI_Comm comm);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridexit(int context);
void Cpdgemr2d(int m, int n, double* a, int ia, int ja, int* desca, double* b, int ib, int jb, int* descb,
               int context);
}

namespace redist::measurements {
namespace {

// One rank alone, phantom: what redist's pdgemr2d charges for a copy on a 1 x 1 grid (it sends
// nothing, so no message call is ever made).
class CountingAlone final : public Transport {
 public:
  Rank rank() const override { return 0; }
  Rank size() const override { return 1; }
  bool phantom() const override { return true; }
  Request isend(Rank, const std::byte*, Index, Tag) override { throw std::logic_error("a rank alone sends nothing"); }
  Request irecv(Rank, std::byte*, Index, Tag) override { throw std::logic_error("a rank alone receives nothing"); }
  Completion wait_any(std::span<Request>) override { throw std::logic_error("a rank alone waits for nothing"); }
  void wait_all(std::span<Request>) override { throw std::logic_error("a rank alone waits for nothing"); }
  void barrier() override {}
  void charge(const Work& w) override { work += w; }
  double now() const override { return 0; }
  Work work;
};

struct Shape {
  int rows, cols;      // the matrix, stored with LLD = rows
  int row0, col0;      // where the submatrix starts (0-based)
  int sub_rows, sub_cols;
};

}  // namespace

nlohmann::ordered_json measure_pdgemr2d_copies() {
  // About 1 Mi elements each (8 MiB), columns from 4 to 2048 elements long; the
  // block sizes do not matter on one process (pdgemr2d takes the whole dimension as one block).
  const std::vector<Shape> shapes = {{2048, 512, 0, 0, 2048, 512}, {512, 2048, 3, 5, 500, 2040},
                                     {64, 16384, 0, 0, 64, 16384},  {16, 65536, 1, 0, 12, 65536},
                                     {4, 262144, 0, 7, 4, 262000}};
  int context = Csys2blacs_handle(MPI_COMM_SELF);
  Cblacs_gridinit(&context, "R", 1, 1);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const Shape& s : shapes) {
    std::vector<double> a(static_cast<std::size_t>(s.rows) * static_cast<std::size_t>(s.cols), 1.0);
    std::vector<double> b(a.size(), 0.0);
    int desc[9] = {1, context, s.rows, s.cols, 32, 32, 0, 0, s.rows};
    double best = 1e300;
    // One untimed call first (the allocator's first use of these sizes), then the fastest of
    // repeated calls, as validate times them: what a call touches stays in the caches where it fits.
    for (int k = -1; k < 5; ++k) {
      MPI_Barrier(MPI_COMM_WORLD);
      const auto start = std::chrono::steady_clock::now();
      Cpdgemr2d(s.sub_rows, s.sub_cols, a.data(), s.row0 + 1, s.col0 + 1, desc, b.data(), s.row0 + 1, s.col0 + 1, desc, context);
      if (k >= 0) best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    const StoredMatrix stored{BlockCyclic(s.rows, 32, 1), BlockCyclic(s.cols, 32, 1), s.rows, {0}};
    SubmatrixCopy copy{stored, stored, s.row0, s.col0, s.row0, s.col0, s.sub_rows, s.sub_cols};
    CountingAlone counter;
    pdgemr2d_copy(counter, copy, {}, {}, 8);
    nlohmann::ordered_json counts = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < kWorkKinds; ++k) {
      const auto kind = static_cast<WorkKind>(k);
      if (counter.work.count(kind) != 0) counts[std::string(price_property(kind))] = counter.work.count(kind);
    }
    // A and B, and pdgemr2d's send and receive buffers, each as large as the submatrix.
    const double touched = 8.0 * (static_cast<double>(2 * a.size()) + 2.0 * s.sub_rows * s.sub_cols);
    rows.push_back({{"work", counts}, {"seconds", best}, {"touched", touched}});
  }
  Cblacs_gridexit(context);
  return rows;
}

}  // namespace redist::measurements
