#include "redist/calibration/random_validation_cases.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "redist/core/splitmix.hpp"
#include "redist/indexing/indexing_methods.hpp"
#include "redist/schedule/schedule_choice.hpp"

namespace redist::calibration {
namespace {

constexpr std::array<const char*, 3> kRelabels = {"none", "exact", "greedy"};

// What a case draws from: the registries' entries that ask to be validated, in registry order.
struct Drawn {
  std::string name;
  ValidationShape shape;
};

std::vector<Drawn> drawn_indexings() {
  std::vector<Drawn> out;
  for (const IndexingMethod& method : indexing_methods()) {
    if (method.validation != ValidationShape::None) out.push_back({std::string(method.name), method.validation});
  }
  return out;
}

std::vector<Drawn> drawn_schedules() {
  std::vector<Drawn> out;
  for (const ScheduleChoice choice : schedule_names().values()) {
    const ValidationShape shape = validation_shape(choice);
    if (shape != ValidationShape::None) out.push_back({std::string(name_of(choice)), shape});
  }
  return out;
}

// The splitmix64 sequence (Steele, Lea, Flood 2014): splitmix64(x) adds the golden gamma itself.
class Draws {
 public:
  explicit Draws(std::uint64_t seed) : state_(seed) {}
  /// A whole number from lo to hi, both included (the modulo's bias is below 2^-50 here).
  Index between(Index lo, Index hi) {
    const std::uint64_t value = splitmix64(state_);
    state_ += 0x9e3779b97f4a7c15ULL;
    return lo + static_cast<Index>(value % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool one_in(Index n) { return between(1, n) == 1; }

 private:
  std::uint64_t state_;
};

// Half small (1 to 8: many short runs), half large (up to kMaxValidationBlock).
Index block_size(Draws& draw) { return draw.one_in(2) ? draw.between(1, 8) : draw.between(9, kMaxValidationBlock); }

// 1 to 16 MiB, each doubling as likely: 2^k to 2^(k+1) elements for k from 17 to 20.
Index array_size(Draws& draw) {
  const Index low = kMinValidationElements << draw.between(0, 3);
  return draw.between(low, 2 * low - 1);
}

// P and Q within the ranks a placement allows (at most `max_ranks`), and at least two ranks.
void processors(Draws& draw, ValidationCase& c, Index max_ranks) {
  do {
    c.P = draw.between(1, c.disjoint ? max_ranks - 1 : max_ranks);
    c.Q = draw.between(1, c.disjoint ? max_ranks - c.P : max_ranks);
  } while (c.ranks() < 2);
}

// Block sizes one of which is k times the other, the larger at most kMaxValidationBlock.
void dividing_blocks(Draws& draw, ValidationCase& c, Index max_k) {
  const Index k = draw.between(2, max_k);
  const Index small = draw.one_in(2) ? draw.between(1, 8) : draw.between(1, kMaxValidationBlock / k);
  const bool decreasing = draw.one_in(2);  // kr -> r, else r -> kr
  c.r = decreasing ? k * small : small;
  c.s = decreasing ? small : k * small;
}

ValidationCase draw_case(Draws& draw, int i, const std::vector<Drawn>& indexings, const std::vector<Drawn>& schedules,
                         Index max_ranks) {
  ValidationCase c;
  const Drawn& indexing = indexings[static_cast<std::size_t>(i) % indexings.size()];
  const Drawn& schedule = schedules[static_cast<std::size_t>(i) % schedules.size()];
  c.indexing = indexing.name;
  c.schedule = schedule.name;
  c.relabel = kRelabels[static_cast<std::size_t>(i) % kRelabels.size()];
  c.disjoint = c.relabel == "none" && draw.one_in(2) && max_ranks > 2;
  const auto needs = [&](ValidationShape shape) { return indexing.shape == shape || schedule.shape == shape; };
  if (needs(ValidationShape::SquareDividing)) {  // P = Q processors, block ratio K from 2 to P
    c.P = c.Q = draw.between(2, c.disjoint ? max_ranks / 2 : max_ranks);
    dividing_blocks(draw, c, c.P);
  } else {
    processors(draw, c, max_ranks);
    if (needs(ValidationShape::DividingBlocks)) {
      dividing_blocks(draw, c, 16);
    } else {
      c.r = block_size(draw);
      c.s = block_size(draw);
    }
  }
  c.N = array_size(draw);
  return c;
}

// The entries that take any block sizes: those a random pair of 2-D descriptors suits.
std::vector<Drawn> taking_any_blocks(std::vector<Drawn> entries) {
  std::erase_if(entries, [](const Drawn& d) { return d.shape != ValidationShape::AnyBlocks; });
  return entries;
}

// One side's descriptor of `processes` processes: a random factoring into a grid, blocks small or
// large, any first process, a quarter of them stored row-major.
ScalapackDescriptor draw_descriptor(Draws& draw, Index processes, Index rows, Index cols) {
  std::vector<Index> divisors;
  for (Index d = 1; d <= processes; ++d) {
    if (processes % d == 0) divisors.push_back(d);
  }
  ScalapackDescriptor d{.rows = rows, .cols = cols};
  d.grid_rows = divisors[static_cast<std::size_t>(draw.between(0, static_cast<Index>(divisors.size()) - 1))];
  d.grid_cols = processes / d.grid_rows;
  d.row_block = block_size(draw);
  d.col_block = block_size(draw);
  d.first_row = draw.between(0, d.grid_rows - 1);
  d.first_col = draw.between(0, d.grid_cols - 1);
  if (draw.one_in(4)) d.order = StorageOrder::RowMajor;
  return d;
}

ValidationCase draw_matrix_case(Draws& draw, int i, const std::vector<Drawn>& indexings,
                                const std::vector<Drawn>& schedules, Index max_ranks) {
  ValidationCase c;
  c.indexing = indexings[static_cast<std::size_t>(i) % indexings.size()].name;
  c.schedule = schedules[static_cast<std::size_t>(i) % schedules.size()].name;
  c.relabel = kRelabels[static_cast<std::size_t>(i) % kRelabels.size()];
  c.disjoint = c.relabel == "none" && draw.one_in(3) && max_ranks > 2;
  processors(draw, c, max_ranks);
  const Index elements = array_size(draw);
  const Index rows = draw.between(32, 2048), cols = std::max<Index>(1, elements / rows);
  const ScalapackDescriptor from = draw_descriptor(draw, c.P, rows, cols);
  c.matrix = MatrixCopy::whole(from, draw_descriptor(draw, c.Q, rows, cols));
  return c;
}

// Makes `c` a copy of sub(A) into sub(B), drawn from `draw` (a stream of its own, so that the draws
// of the matrices stay those of whole cases): m x n from a quarter of A's rows and columns to all
// but one (never the whole matrix), anywhere in A; B of its own size, from m x n to A's, on the
// destination grid drawn for the case, sub(B) anywhere in it. ScaLAPACK's storage (column-major)
// on both sides; the drop-in's plan, which takes no indexing, schedule or relabelling.
void make_submatrix_copy(Draws& draw, ValidationCase& c) {
  MatrixCopy& m = *c.matrix;
  const Index rows = m.from.rows, cols = m.from.cols;
  m.rows = draw.between(std::max<Index>(1, rows / 4), std::max<Index>(1, rows - 1));
  m.cols = draw.between(std::max<Index>(1, cols / 4), std::max<Index>(1, cols - 1));
  m.from_row0 = draw.between(0, rows - m.rows);
  m.from_col0 = draw.between(0, cols - m.cols);
  m.to.rows = draw.between(m.rows, rows);
  m.to.cols = draw.between(m.cols, cols);
  m.to_row0 = draw.between(0, m.to.rows - m.rows);
  m.to_col0 = draw.between(0, m.to.cols - m.cols);
  m.from.order = m.to.order = StorageOrder::ColumnMajor;
  c.indexing = "submatrix";
  c.schedule = "async";
  c.relabel = "none";
}

}  // namespace

std::vector<ValidationCase> random_validation_cases(int count, std::uint64_t seed, Index max_ranks) {
  Draws draw(seed);
  const std::vector<Drawn> indexings = drawn_indexings(), schedules = drawn_schedules();
  std::vector<ValidationCase> cases;
  for (int i = 0; i < count; ++i) cases.push_back(draw_case(draw, i, indexings, schedules, max_ranks));
  return cases;
}

std::vector<ValidationCase> random_matrix_validation_cases(int count, std::uint64_t seed, Index max_ranks) {
  Draws draw(seed ^ 0x2d2d2d2d2d2d2d2dULL);  // streams of their own: the 1-D cases of a seed stay as they were
  Draws submatrix_draw(seed ^ 0x5b5b5b5b5b5b5b5bULL);  // and the submatrices': each matrix drawn as before
  const std::vector<Drawn> indexings = taking_any_blocks(drawn_indexings());
  const std::vector<Drawn> schedules = taking_any_blocks(drawn_schedules());
  std::vector<ValidationCase> cases;
  for (int i = 0; i < count; ++i) {
    ValidationCase c = draw_matrix_case(draw, i, indexings, schedules, max_ranks);
    if (submatrix_draw.one_in(3)) make_submatrix_copy(submatrix_draw, c);
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace redist::calibration
