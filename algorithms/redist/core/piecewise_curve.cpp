#include "redist/core/piecewise_curve.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "redist/core/finite_number.hpp"

namespace redist {
namespace {

double number(std::string_view text, std::string_view curve) {
  const auto value = finite_number(text);
  if (!value) throw std::invalid_argument("'" + std::string(text) + "' is not a number in '" + std::string(curve) + "'");
  return *value;
}

void check(const std::vector<double>& starts, const std::vector<double>& values, bool zero_allowed,
           std::string_view text) {
  if (starts.empty() || starts.size() != values.size()) throw std::invalid_argument("an empty curve");
  for (std::size_t k = 0; k < starts.size(); ++k) {
    if (!std::isfinite(starts[k]) || (k == 0 ? starts[k] != 0 : starts[k] <= starts[k - 1])) {
      throw std::invalid_argument("sizes must start at 0 and increase in '" + std::string(text) + "'");
    }
    if (!std::isfinite(values[k]) || values[k] < 0 || (values[k] == 0 && !zero_allowed)) {
      throw std::invalid_argument(std::string(zero_allowed ? "values must not be negative" : "values must be positive") +
                                  " in '" + std::string(text) + "'");
    }
  }
}

}  // namespace

PiecewiseCurve PiecewiseCurve::parse(std::string_view text, bool zero_allowed) {
  PiecewiseCurve out;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find(';'), rest.size());
    const std::string_view piece = rest.substr(0, end);
    rest = end < rest.size() ? rest.substr(end + 1) : std::string_view();
    const std::size_t colon = piece.find(':');
    if (colon == std::string_view::npos) {
      throw std::invalid_argument("'" + std::string(piece) + "' is not size:value in '" + std::string(text) + "'");
    }
    out.starts_.push_back(number(piece.substr(0, colon), text));
    out.values_.push_back(number(piece.substr(colon + 1), text));
  }
  check(out.starts_, out.values_, zero_allowed, text);
  return out;
}

PiecewiseCurve PiecewiseCurve::from_points(std::vector<double> starts, std::vector<double> values, bool zero_allowed) {
  PiecewiseCurve out;
  out.starts_ = std::move(starts);
  out.values_ = std::move(values);
  check(out.starts_, out.values_, zero_allowed, "points");
  return out;
}

double PiecewiseCurve::at(double size) const {
  const auto after = std::upper_bound(starts_.begin(), starts_.end(), size);
  return values_[static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, after - starts_.begin() - 1))];
}

double PiecewiseCurve::between_points(double size) const {
  const auto after = std::upper_bound(starts_.begin(), starts_.end(), size);
  const auto i = static_cast<std::size_t>(after - starts_.begin());
  // Before the second start (the first is 0), past the last, or next to a value of 0: held.
  if (i < 2 || i == starts_.size() || !(values_[i - 1] > 0 && values_[i] > 0)) return at(size);
  const double fraction = std::log(size / starts_[i - 1]) / std::log(starts_[i] / starts_[i - 1]);
  return values_[i - 1] * std::pow(values_[i] / values_[i - 1], fraction);
}

std::string PiecewiseCurve::text() const {
  // Shortest text that reads back as the same double.
  const auto shortest = [](double value) {
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
  };
  std::string out;
  for (std::size_t k = 0; k < starts_.size(); ++k) {
    out += (k == 0 ? "" : ";") + shortest(starts_[k]) + ":" + shortest(values_[k]);
  }
  return out;
}

}  // namespace redist
