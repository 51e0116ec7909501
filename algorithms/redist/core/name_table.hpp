// Choices named on the command line and in scenarios (indexing method, schedule, pack scheme, ...):
// one table per choice, looked up both ways, with one error message for a name nobody knows.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace redist {

/// "a, b, c": the names of a table's entries (anything with a `name`), in table order.
template <class Entries>
std::string joined_names(const Entries& entries) {
  std::string known;
  for (const auto& entry : entries) known += (known.empty() ? "" : ", ") + std::string(entry.name);
  return known;
}

/// The entry called `name`. Throws std::invalid_argument("unknown <what> '<name>' (known: a, b)").
template <class Entries>
const auto& find_by_name(const Entries& entries, std::string_view name, std::string_view what) {
  for (const auto& entry : entries) {
    if (entry.name == name) return entry;
  }
  throw std::invalid_argument("unknown " + std::string(what) + " '" + std::string(name) +
                              "' (known: " + joined_names(entries) + ")");
}

/// The names of the values of an enumeration `E`.
template <class E>
class NameTable {
 public:
  struct Entry {
    E value;
    std::string_view name;
  };

  /// `what` names the choice in error messages ("strategy", "pack scheme").
  NameTable(std::string_view what, std::vector<Entry> entries) : what_(what), entries_(std::move(entries)) {}

  /// Throws std::invalid_argument for an unknown name (find_by_name).
  E from_name(std::string_view name) const { return find_by_name(entries_, name, what_).value; }

  std::string_view name_of(E value) const {
    for (const Entry& entry : entries_) {
      if (entry.value == value) return entry.name;
    }
    throw std::logic_error("a " + std::string(what_) + " without a name");
  }

  /// Every value, in table order.
  std::vector<E> values() const {
    std::vector<E> out;
    for (const Entry& entry : entries_) out.push_back(entry.value);
    return out;
  }

  /// "a, b, c" (for help texts).
  std::string known() const { return joined_names(entries_); }

 private:
  std::string_view what_;
  std::vector<Entry> entries_;
};

}  // namespace redist
