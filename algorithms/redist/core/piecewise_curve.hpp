// A value that depends on a size by ranges: "size:value;size:value", each value applying from its
// size (bytes) up to the next one's. The network's factor curves and the memory's copy bandwidths
// are written so (docs/ARCHITECTURE.md §4).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace redist {

class PiecewiseCurve {
 public:
  PiecewiseCurve() = default;
  /// Parses "size:value;..." (sizes strictly increasing from 0, values finite and positive, or also
  /// 0 with `zero_allowed`); throws std::invalid_argument naming what is wrong.
  static PiecewiseCurve parse(std::string_view text, bool zero_allowed);
  /// The curve through these points (sizes from 0, increasing; values as parse() requires).
  static PiecewiseCurve from_points(std::vector<double> starts, std::vector<double> values, bool zero_allowed);

  /// The value at `size`.
  double at(double size) const;
  /// The value at `size` read between the curve's points rather than held from each: from the
  /// second start on, geometric in both size and value between neighbouring starts (a rate that
  /// falls by a factor over a doubling of size falls by its square root over half of it); held
  /// before the second start and after the last.
  double between_points(double size) const;
  bool empty() const { return starts_.empty(); }
  const std::vector<double>& starts() const { return starts_; }
  const std::vector<double>& values() const { return values_; }
  /// The text parse() reads, every value at full precision.
  std::string text() const;
  friend bool operator==(const PiecewiseCurve&, const PiecewiseCurve&) = default;

 private:
  std::vector<double> starts_;
  std::vector<double> values_;
};

}  // namespace redist
