// A number read from text written by a person or another program (platform properties, curves):
// the whole text, locale-independent, finite.
#pragma once

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

namespace redist {

/// The value of `text` when it is exactly one finite number (no units, no spaces, no junk); empty
/// otherwise.
inline std::optional<double> finite_number(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace redist
