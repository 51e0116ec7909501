#include "layout_options.hpp"

#include <stdexcept>

#include "redist/core/int_math.hpp"
#include "redist/experiments/experiment_schema.hpp"
#include "redist/indexing/matrix_copy_request.hpp"

namespace redist::mpi::cli {
namespace {

// "AxB" or "A,B" -> two whole numbers, read as the simulator's 2-D parameters are.
std::pair<Index, Index> pair_of(const std::string& text, char separator, const char* option) {
  const auto numbers = parse_pair(text, separator);
  if (!numbers) throw std::invalid_argument(std::string(option) + " '" + text + "' is not of the form A" + separator + "B");
  return *numbers;
}

// An optional "AxB" or "A,B": absent when not given.
std::optional<std::pair<Index, Index>> optional_pair_of(const std::string& text, char separator, const char* option) {
  if (text.empty()) return std::nullopt;
  return pair_of(text, separator, option);
}

void require(bool given, const char* what) {
  if (!given) throw std::invalid_argument(std::string("missing ") + what);
}

}  // namespace

void LayoutOptions::add_to(CLI::App& app) {
  app.add_option("-P", P, "1-D: source processors");
  app.add_option("-r", r, "1-D: source block size");
  app.add_option("-Q", Q, "1-D: destination processors");
  app.add_option("-s", s, "1-D: destination block size");
  app.add_option("-N", N, "1-D: array size in elements");
  app.add_option("--rows", rows, "2-D: matrix rows (M)");
  app.add_option("--cols", cols, "2-D: matrix columns (N)");
  app.add_option("--src-grid", src_grid, "2-D: source process grid, PrxPc");
  app.add_option("--src-block", src_block, "2-D: source blocks, MBxNB");
  app.add_option("--src-first", src_first, "2-D: source process holding block (0,0), RSRC,CSRC")->capture_default_str();
  app.add_option("--dst-grid", dst_grid, "2-D: destination process grid, PrxPc");
  app.add_option("--dst-block", dst_block, "2-D: destination blocks, MBxNB");
  app.add_option("--dst-first", dst_first, "2-D: destination first process, RSRC,CSRC")->capture_default_str();
  for (auto [order, side] : {std::pair{&src_order, "source"}, std::pair{&dst_order, "destination"}}) {
    app.add_option(order == &src_order ? "--src-order" : "--dst-order", *order,
                   std::string("2-D: ") + side + " local storage, column-major (ScaLAPACK's) or row-major")
        ->check(CLI::IsMember({"column-major", "row-major"}))
        ->capture_default_str();
  }
  app.add_option("--dst-matrix", dst_matrix, "2-D: B's rows x columns, MxN, where they differ from A's");
  app.add_option("--src-at", src_at, "2-D: sub(A)'s first row and column IA,JA, from 1 (default 1,1)");
  app.add_option("--dst-at", dst_at, "2-D: sub(B)'s first row and column IB,JB, from 1 (default 1,1)");
  app.add_option("--sub", sub,
                 "2-D: the mxn submatrix copied (default: the rest of A from IA,JA); a submatrix runs the ScaLAPACK "
                 "drop-in's submatrix plan and its default exchange");
  app.add_option("--placement", placement, "source and destination processors: shared ranks or disjoint")
      ->check(CLI::IsMember({"shared", "disjoint"}))
      ->capture_default_str();
}

MatrixCopy LayoutOptions::matrix_copy() const {
  require(rows != kNotGiven && cols != kNotGiven, "--rows or --cols");
  require(!src_grid.empty() && !src_block.empty() && !dst_grid.empty() && !dst_block.empty(),
          "--src-grid, --src-block, --dst-grid or --dst-block");
  const auto describe = [&](const std::string& grid, const std::string& block, const std::string& first,
                            const std::string& order, const char* side) {
    const auto [pr, pc] = pair_of(grid, 'x', (std::string("--") + side + "-grid").c_str());
    const auto [mb, nb] = pair_of(block, 'x', (std::string("--") + side + "-block").c_str());
    const auto [rsrc, csrc] = pair_of(first, ',', (std::string("--") + side + "-first").c_str());
    return ScalapackDescriptor{rows, cols, mb, nb, pr, pc, rsrc, csrc,
                               order == "row-major" ? StorageOrder::RowMajor : StorageOrder::ColumnMajor};
  };
  MatrixCopyRequest request{describe(src_grid, src_block, src_first, src_order, "src"),
                            describe(dst_grid, dst_block, dst_first, dst_order, "dst")};
  request.dst_matrix = optional_pair_of(dst_matrix, 'x', "--dst-matrix");
  request.src_at = optional_pair_of(src_at, ',', "--src-at");
  request.dst_at = optional_pair_of(dst_at, ',', "--dst-at");
  request.sub = optional_pair_of(sub, 'x', "--sub");
  try {
    return requested_matrix_copy(request);
  } catch (const OverflowError& e) {  // agreed, as layouts() says
    throw std::invalid_argument(e.what());
  }
}

std::pair<Layout, Layout> LayoutOptions::layouts() const {
  // Every rank was given the same options (argument_agreement.hpp), so a layout too large for 64-bit
  // indices fails alike on every rank: an agreed refusal (std::invalid_argument, said once by rank 0),
  // not one rank's error, which would end the job through MPI_Abort and its banner.
  try {
    if (two_dimensional()) {
      const MatrixCopy copy = matrix_copy();
      return {scalapack_layout(copy.from), scalapack_layout(copy.to)};
    }
    for (const auto& [given, option] : {std::pair{&dst_matrix, "--dst-matrix"}, std::pair{&src_at, "--src-at"},
                                        std::pair{&dst_at, "--dst-at"}, std::pair{&sub, "--sub"}}) {
      if (!given->empty()) throw std::invalid_argument(std::string(option) + " is a 2-D option: it needs --rows and --cols");
    }
    require(P != kNotGiven && r != kNotGiven && Q != kNotGiven && s != kNotGiven && N != kNotGiven,
            "-P, -r, -Q, -s or -N (or the 2-D options)");
    return {BlockCyclic(N, r, P), BlockCyclic(N, s, Q)};
  } catch (const OverflowError& e) {
    throw std::invalid_argument(e.what());
  }
}

RankMap LayoutOptions::ranks(Index source_processors) const {
  return placement == "shared" ? RankMap::shared() : RankMap::disjoint(source_processors);
}

}  // namespace redist::mpi::cli
