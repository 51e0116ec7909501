// yaml-cpp keeps every entry of a mapping that repeats a key, and lookups then find the first one
// while iteration ends on the last: a repeated key silently means different things in different
// places. Scenario and sweep files refuse them instead.
#pragma once

#include <istream>
#include <optional>
#include <string>

namespace redist {

struct DuplicateKey {
  std::string key;
  int first_line = 0;   ///< 1-based
  int second_line = 0;  ///< 1-based
};

/// The first key repeated within one mapping of the YAML document read from `in` (any depth), or
/// nothing. Reads the event stream, so aliases are not expanded (an anchor bomb costs its size only).
/// Throws YAML::Exception on syntax errors.
std::optional<DuplicateKey> find_duplicate_key(std::istream& in);

}  // namespace redist
