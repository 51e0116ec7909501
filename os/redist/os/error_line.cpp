#include "redist/os/error_line.hpp"

#include <cstdio>

namespace redist::os {
namespace {

std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string as_error_line(std::string_view message, std::size_t max_chars) {
  std::string line = escaped(message);
  if (line.size() <= max_chars) return line;
  const std::size_t keep = max_chars / 2;
  const std::size_t left_out = line.size() - 2 * keep;
  return line.substr(0, keep) + "...[" + std::to_string(left_out) + " characters left out]..." +
         line.substr(line.size() - keep);
}

}  // namespace redist::os
