#include "redist/pdgemr2d/pdgemr2d_setup.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace redist {
namespace {

constexpr std::size_t kParameters = 20;  // pdgemr.c's NBPARAM
constexpr BlacsInt kUnknown = 100000000;  // pdgemr.c's MAGIC_MAX: "not known here"

BlacsInt as_blacs(Index value) {
  if (value < std::numeric_limits<BlacsInt>::min() || value > std::numeric_limits<BlacsInt>::max()) {
    throw std::invalid_argument("pdgemr2d: " + std::to_string(value) + " does not fit a BLACS integer");
  }
  return static_cast<BlacsInt>(value);
}

// The 10 values describing one side, as pdgemr.c orders them (grid shape first, apart).
void describe(const StoredMatrix& m, Index row0, Index col0, BlacsInt* shape, BlacsInt* values) {
  shape[0] = as_blacs(m.rows.procs());
  shape[1] = as_blacs(m.cols.procs());
  const Index v[8] = {m.rows.size(), m.cols.size(), m.rows.block_size(), m.cols.block_size(),
                      m.rows.first_proc(), m.cols.first_proc(), row0, col0};
  for (std::size_t k = 0; k < 8; ++k) values[k] = as_blacs(v[k]);
}

}  // namespace

std::vector<BlacsInt> pdgemr2d_parameters(const SubmatrixCopy& copy, Rank me, Rank ranks) {
  std::vector<BlacsInt> p(kParameters + 2 * static_cast<std::size_t>(ranks), kUnknown);
  if (const Index process = copy.from.process_of(me); process >= 0) {
    p[kParameters + static_cast<std::size_t>(process)] = me;
    describe(copy.from, copy.from_row0, copy.from_col0, &p[0], &p[4]);
  }
  if (const Index process = copy.to.process_of(me); process >= 0) {
    p[kParameters + static_cast<std::size_t>(ranks + process)] = me;
    describe(copy.to, copy.to_row0, copy.to_col0, &p[2], &p[12]);
  }
  return p;
}

void check_pdgemr2d_parameters(const SubmatrixCopy& copy, std::span<const BlacsInt> combined, Rank ranks) {
  std::vector<BlacsInt> expected(kParameters + 2 * static_cast<std::size_t>(ranks), kUnknown);
  describe(copy.from, copy.from_row0, copy.from_col0, &expected[0], &expected[4]);
  describe(copy.to, copy.to_row0, copy.to_col0, &expected[2], &expected[12]);
  for (std::size_t k = 0; k < copy.from.grid_ranks.size(); ++k) expected[kParameters + k] = copy.from.grid_ranks[k];
  for (std::size_t k = 0; k < copy.to.grid_ranks.size(); ++k) {
    expected[kParameters + static_cast<std::size_t>(ranks) + k] = copy.to.grid_ranks[k];
  }
  if (combined.size() != expected.size() || !std::equal(combined.begin(), combined.end(), expected.begin())) {
    throw std::logic_error("pdgemr2d: the ranks' parameters do not agree on the copy");
  }
}

Work pdgemr2d_setup_work(const Pdgemr2dGeometry& g, Rank ranks) {
  Work work;
  // The parameters, the two interval tables and the caterpillar's table; a buffer per side with data.
  Index blocks = 4;
  blocks += g.from.in_grid && g.from.buffer_elements > 0 ? 1 : 0;
  blocks += g.to.in_grid && g.to.buffer_elements > 0 ? 1 : 0;
  work.add(WorkKind::Allocation, blocks);
  // Four changes of origin (four divisions and remainders each) and two buffer sizes (two local
  // sizes of three each).
  work.add(WorkKind::IndexOp, 4 * 4 + 2 * 2 * 3);
  // The parameters filled and checked, the caterpillar's tables filled and scanned (init_chenille:
  // two rank tables set and scanned three times, two slot tables set, each grid's processes placed).
  const Index n = ranks, slots = g.steps();
  const auto from = static_cast<Index>(g.from_ranks.size()), to = static_cast<Index>(g.to_ranks.size());
  work.add(WorkKind::ElementScanned, (2 * n + static_cast<Index>(kParameters)) + static_cast<Index>(kParameters) + 5 * n +
                                         2 * slots + from + to);
  return work;
}

}  // namespace redist
