// Text that ends up in a JSON file must be UTF-8: nlohmann's writer throws on any other byte, and a
// report written after every run would then fail last. Outputs are checked with these before work
// starts (file names, method names, platform paths), with one message naming what holds the byte.
#pragma once

#include <cstddef>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace redist::os {

/// The offset of the first byte of `text` that does not belong to a well-formed UTF-8 sequence
/// (overlong forms, surrogates and values above U+10FFFF included), or nothing.
inline std::optional<std::size_t> first_non_utf8_byte(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;
    } else {
      return i;
    }
    if (i + length > text.size()) return i;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xBF)) return i;
    }
    i += length;
  }
  return std::nullopt;
}

/// "" when `text` is UTF-8, else "byte 0xFF at offset 3 of 'na?me' is not UTF-8".
inline std::string utf8_problem(std::string_view text) {
  const auto at = first_non_utf8_byte(text);
  if (!at) return {};
  std::string shown(text);
  for (auto& c : shown) {
    if (static_cast<unsigned char>(c) >= 0x80 || static_cast<unsigned char>(c) < 0x20) c = '?';
  }
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[*at])));
  return "byte " + std::string(byte) + " at offset " + std::to_string(*at) + " of '" + shown + "' is not UTF-8";
}

/// Throws std::invalid_argument "WHAT: byte 0xFF at offset 3 of 'na?me' is not UTF-8 (REASON)".
inline void require_utf8(std::string_view text, const std::string& what,
                         const std::string& reason = "the JSON reports are UTF-8") {
  const auto problem = utf8_problem(text);
  if (!problem.empty()) throw std::invalid_argument(what + ": " + problem + " (" + reason + ")");
}

}  // namespace redist::os
