// ScaLAPACK's pdgemr2d run by the simulator (redist/pdgemr2d/pdgemr2d_copy.hpp over the SimGrid
// transport): real data verified element by element on the bundled platforms, the same inputs giving
// the same times, phantom runs timed as real ones, and its prediction (pdgemr2d_prediction.hpp)
// close to what the simulator finds.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "redist/pdgemr2d/pdgemr2d_copy.hpp"
#include "redist/pdgemr2d/pdgemr2d_prediction.hpp"
#include "redist/sim/engine.hpp"
#include "redist/sim/machine_model_from_platform.hpp"

namespace redist {
namespace {

std::string platform_path(const char* file) { return std::string(REDIST_SOURCE_DIR) + "/platforms/" + file; }

Layout matrix(Index rows, Index cols, Index mb, Index nb, Index pr, Index pc, Index rsrc = 0, Index csrc = 0) {
  return MultiDimLayout({DimMapping::distributed(BlockCyclic(rows, mb, pr, rsrc)), DimMapping::distributed(BlockCyclic(cols, nb, pc, csrc))},
                        StorageOrder::ColumnMajor);
}

std::int64_t identity(Index row, Index col) { return row * 1000003 + col + 1; }
constexpr std::int64_t kUntouched = -7;

// One rank's run: its A filled, the copy, its B checked element by element; the phases as text.
std::string run_rank(Transport& t, const SubmatrixCopy& whole, bool phantom) {
  const Rank me = t.rank();
  SubmatrixCopy copy = whole;
  const auto storage = [me](StoredMatrix& m) -> Index {
    const Index p = m.process_of(me);
    if (p < 0) return 0;
    m.leading_dim = std::max<Index>(1, m.rows.local_size(p / m.cols.procs())) + 1;  // one row of padding
    return m.leading_dim * m.cols.local_size(p % m.cols.procs());
  };
  std::vector<std::int64_t> a(static_cast<std::size_t>(storage(copy.from)), kUntouched);
  std::vector<std::int64_t> b(static_cast<std::size_t>(storage(copy.to)), kUntouched);
  const auto each = [me](const StoredMatrix& m, Index rows, Index cols, auto&& visit) {
    for (Index i = 0; i < rows; ++i) {
      for (Index j = 0; j < cols; ++j) {
        const Index p = m.rows.owner(i) * m.cols.procs() + m.cols.owner(j);
        if (m.grid_ranks[static_cast<std::size_t>(p)] != me) continue;
        visit(i, j, static_cast<std::size_t>(m.rows.local_index(i) + m.cols.local_index(j) * m.leading_dim));
      }
    }
  };
  each(copy.from, copy.from.rows.size(), copy.from.cols.size(), [&](Index i, Index j, std::size_t at) { a[at] = identity(i, j); });
  const RedistributeReport report =
      phantom ? pdgemr2d_copy(t, copy, {}, {}, 8)
              : pdgemr2d_copy(t, copy, std::as_bytes(std::span(a)), std::as_writable_bytes(std::span(b)), 8);
  bool verified = true;
  if (!phantom) {
    each(copy.to, copy.to.rows.size(), copy.to.cols.size(), [&](Index i, Index j, std::size_t at) {
      const Index si = i - copy.to_row0, sj = j - copy.to_col0;
      const bool inside = si >= 0 && si < copy.rows && sj >= 0 && sj < copy.cols;
      verified = verified && b[at] == (inside ? identity(copy.from_row0 + si, copy.from_col0 + sj) : kUntouched);
    });
  }
  char text[200];
  std::snprintf(text, sizeof text, "%d %.17g %.17g %.17g %.17g %.17g", verified ? 1 : 0, report.phases.index,
                report.phases.pack, report.phases.comm, report.phases.unpack, report.phases.total);
  return text;
}

struct Simulated {
  std::vector<std::string> ranks;
  bool verified = true;
  double total = 0;
};

Simulated simulate_copy(const char* platform, const SubmatrixCopy& copy, Rank ranks, bool phantom) {
  sim::SimulationOptions options;
  options.platform_file = platform_path(platform);
  options.ranks = ranks;
  options.phantom = phantom;
  Simulated out;
  out.ranks = sim::simulate(options, [&](Transport& t) { return run_rank(t, copy, phantom); });
  for (const std::string& line : out.ranks) {
    std::istringstream in(line);
    int ok = 0;
    double index = 0, pack = 0, comm = 0, unpack = 0, total = 0;
    in >> ok >> index >> pack >> comm >> unpack >> total;
    out.verified = out.verified && ok == 1;
    out.total = std::max(out.total, total);
  }
  return out;
}

struct Pair {
  const char* name;
  Layout from, to;
  RankMap ranks;
};

// Pairs of the kind bench_mpi_vs_pdgemr2d moves, smaller; one on disjoint ranks.
std::vector<Pair> pairs() {
  return {{"2x2 64x64 -> 4x1 32x32", matrix(512, 384, 64, 64, 2, 2), matrix(512, 384, 32, 32, 4, 1), RankMap::shared()},
          {"2x2 8x8 -> 1x4 1x1", matrix(300, 200, 8, 8, 2, 2), matrix(300, 200, 1, 1, 1, 4), RankMap::shared()},
          {"2x3 5x7 -> 3x2 11x4, RSRC/CSRC", matrix(333, 222, 5, 7, 2, 3, 1, 2), matrix(333, 222, 11, 4, 3, 2, 2, 0),
           RankMap::shared()},
          {"2x2 16x16 -> 2x2 3x5 on other ranks", matrix(256, 256, 16, 16, 2, 2), matrix(256, 256, 3, 5, 2, 2), RankMap{0, 4}}};
}

TEST(SimulatedPdgemr2d, VerifiesIsDeterministicAndPhantomTakesAsLong) {
  for (const char* platform : {"sp2.xml", "modern-100g.xml", "paragon.xml"}) {
    for (const Pair& pair : pairs()) {
      SCOPED_TRACE(std::string(platform) + ": " + pair.name);
      const auto ranks = static_cast<Rank>(pair.ranks.ranks_needed(pair.from.processors(), pair.to.processors()));
      const SubmatrixCopy copy = whole_matrix_copy(pair.from, pair.to, pair.ranks, 0);
      const Simulated real = simulate_copy(platform, copy, ranks, false);
      EXPECT_TRUE(real.verified);
      EXPECT_GT(real.total, 0);
      EXPECT_EQ(simulate_copy(platform, copy, ranks, false).ranks, real.ranks);  // same inputs, same times
      EXPECT_EQ(simulate_copy(platform, copy, ranks, true).total, real.total);
    }
  }
}

// A submatrix at an offset inside blocks, copied to another offset: verified, every element.
TEST(SimulatedPdgemr2d, SubmatrixAtOffsetsVerifies) {
  SubmatrixCopy copy{{BlockCyclic(90, 7, 2, 1), BlockCyclic(80, 6, 2, 1), 1, {3, 1, 0, 2}},
                     {BlockCyclic(100, 5, 3, 2), BlockCyclic(95, 9, 1, 0), 1, {2, 0, 1}}};
  copy.from_row0 = 13, copy.from_col0 = 4, copy.to_row0 = 3, copy.to_col0 = 11;
  copy.rows = 70, copy.cols = 61;
  const Simulated run = simulate_copy("linux-fe-2003.xml", copy, 4, false);
  EXPECT_TRUE(run.verified);
}

// The prediction follows the simulated run's step loop with the same work and messages: within 1%
// of its total where no two messages share a link (full-bisection networks), 5% on the Paragon's mesh.
TEST(SimulatedPdgemr2d, PredictionIsCloseToTheSimulation) {
  for (const char* platform : {"sp2.xml", "modern-100g.xml", "linux-fe-2003.xml", "cm5.xml", "paragon.xml"}) {
    for (const Pair& pair : pairs()) {
      SCOPED_TRACE(std::string(platform) + ": " + pair.name);
      const auto ranks = static_cast<Rank>(pair.ranks.ranks_needed(pair.from.processors(), pair.to.processors()));
      const SubmatrixCopy copy = whole_matrix_copy(pair.from, pair.to, pair.ranks, 0);
      const double simulated = simulate_copy(platform, copy, ranks, true).total;
      const MachineModel model = sim::machine_model_from_platform(platform_path(platform), ranks);
      // The Paragon's mesh shares links between messages that do not start together in the run,
      // though the prediction takes a half-step's messages to: 2.2% at most here.
      const double tolerance = std::string(platform) == "paragon.xml" ? 0.05 : 0.01;
      const Prediction predicted = predict_pdgemr2d(pair.from, pair.to, 8, pair.ranks, model);
      EXPECT_EQ(predicted.candidate.indexing, kPdgemr2dName);
      EXPECT_NEAR(predicted.phases.total / simulated, 1, tolerance) << predicted.phases.total << " predicted, " << simulated << " simulated";
      std::printf("%s, %s: predicted / simulated %.4f\n", platform, pair.name, predicted.phases.total / simulated);
    }
  }
}

// modern-100g.xml with every host pricing a first touch at `price` seconds a byte, in a file of its own.
std::string platform_with_faults(double price) {
  std::ifstream in(platform_path("modern-100g.xml"));
  std::stringstream text;
  text << in.rdbuf();
  std::string xml = text.str();
  const std::string anchor = "<prop id=\"cost.element_copied\"";
  char added[80];
  std::snprintf(added, sizeof added, "<prop id=\"cost.byte_faulted\" value=\"%.17g\"/>", price);
  for (std::size_t at = xml.find(anchor); at != std::string::npos; at = xml.find(anchor, at + std::string(added).size() + anchor.size())) {
    xml.insert(at, added);
  }
  const std::string path = (std::filesystem::temp_directory_path() / "redist-test-faulting-100g.xml").string();
  std::ofstream(path) << xml;
  return path;
}

TEST(SimulatedPdgemr2d, BuffersMallocMapsAnewFaultEveryCallInTheSimulationAndThePrediction) {
  // 4096 x 4096 doubles on 2 x 2: 32 MiB a rank, so both buffers are mapped anew by every call;
  // each rank sends two 16 MiB messages and receives two.
  const Layout from = matrix(4096, 4096, 64, 64, 2, 2), to = matrix(4096, 4096, 64, 64, 4, 1);
  const SubmatrixCopy copy = whole_matrix_copy(from, to, RankMap::shared(), 0);
  constexpr double kPrice = 1e-9;
  const std::string faulting = platform_with_faults(kPrice);
  sim::SimulationOptions options;
  options.ranks = 4;
  options.phantom = true;
  const auto slowest = [&](const std::string& platform) {
    options.platform_file = platform;
    double total = 0;
    for (const std::string& line : sim::simulate(options, [&](Transport& t) { return run_rank(t, copy, true); })) {
      std::istringstream fields(line);
      double value = 0;
      for (int k = 0; k < 6; ++k) fields >> value;
      total = std::max(total, value);
    }
    return total;
  };
  const double without = slowest(platform_path("modern-100g.xml")), with = slowest(faulting);
  // At least the slowest rank's own first touches (its send buffer's 16 MiB and its receive
  // buffer's), at most every rank's, one after another (the blocking steps chain them).
  const double one_buffer = 16.0 * (1 << 20) * kPrice;
  EXPECT_GE(with - without, 2 * one_buffer * 0.999);
  EXPECT_LE(with - without, 4 * 2 * one_buffer);
  const Prediction predicted = predict_pdgemr2d(from, to, 8, RankMap::shared(), sim::machine_model_from_platform(faulting, 4));
  EXPECT_NEAR(predicted.phases.total / with, 1, 0.01);
  std::filesystem::remove(faulting);
}

}  // namespace
}  // namespace redist
