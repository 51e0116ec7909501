#include "redist/calibration/random_validation_cases.hpp"

#include <array>

#include "redist/core/splitmix.hpp"

namespace redist::calibration {
namespace {

// The methods papers 000 and 004 compare (indexing_methods() may hold more, registered by a program).
constexpr std::array<const char*, 4> kIndexings = {"naive", "krr", "pitfalls", "prylli"};
constexpr std::array<const char*, 5> kSchedules = {"async", "caterpillar", "walker-otto", "stepwise", "greedy"};
constexpr std::array<const char*, 3> kRelabels = {"none", "exact", "greedy"};

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

// P and Q within the ranks a placement allows, and at least two ranks.
void processors(Draws& draw, ValidationCase& c) {
  do {
    c.P = draw.between(1, c.disjoint ? kMaxValidationRanks - 1 : kMaxValidationRanks);
    c.Q = draw.between(1, c.disjoint ? kMaxValidationRanks - c.P : kMaxValidationRanks);
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

ValidationCase draw_case(Draws& draw, int i) {
  ValidationCase c;
  c.indexing = kIndexings[static_cast<std::size_t>(i) % kIndexings.size()];
  c.schedule = kSchedules[static_cast<std::size_t>(i) % kSchedules.size()];
  c.relabel = kRelabels[static_cast<std::size_t>(i) % kRelabels.size()];
  c.disjoint = c.relabel == "none" && draw.one_in(2);
  const bool walker_otto = c.schedule == std::string("walker-otto");
  if (walker_otto) {  // P = Q processors, block ratio K from 2 to P
    c.P = c.Q = draw.between(2, c.disjoint ? kMaxValidationRanks / 2 : kMaxValidationRanks);
    dividing_blocks(draw, c, c.P);
  } else {
    processors(draw, c);
    if (c.indexing == std::string("krr")) {
      dividing_blocks(draw, c, 16);
    } else {
      c.r = block_size(draw);
      c.s = block_size(draw);
    }
  }
  c.N = array_size(draw);
  return c;
}

}  // namespace

std::vector<ValidationCase> random_validation_cases(int count, std::uint64_t seed) {
  Draws draw(seed);
  std::vector<ValidationCase> cases;
  for (int i = 0; i < count; ++i) cases.push_back(draw_case(draw, i));
  return cases;
}

}  // namespace redist::calibration
