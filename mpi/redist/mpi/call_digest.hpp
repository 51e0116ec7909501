// A 64-bit digest of what a call was asked to do — its layouts, options and machine model, taken
// from their fields, not from a text of them — so that the ranks check cheaply, in the one
// collective of agree_on_input (agreement.hpp), that they all asked for the same thing.
#pragma once

#include <cstdint>
#include <string_view>

#include "redist/layout/layout.hpp"
#include "redist/redistribute/redistribute.hpp"

namespace redist::mpi {

/// FNV-1a over the values added, in order.
class Digest {
 public:
  Digest& add(std::uint64_t value);
  Digest& add(std::int64_t value) { return add(static_cast<std::uint64_t>(value)); }
  Digest& add(int value) { return add(static_cast<std::uint64_t>(static_cast<std::int64_t>(value))); }
  Digest& add(bool value) { return add(std::uint64_t{value}); }
  Digest& add(double value);
  /// Its length first, so that ("ab", "c") and ("a", "bc") differ.
  Digest& add(std::string_view text);
  Digest& add(const char* text) { return add(std::string_view(text)); }
  Digest& add(const Layout& layout);
  Digest& add(const MachineModel& model);
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ULL;
};

/// The digest of a redistribution call: both layouts and every option (the machine model's
/// values included).
std::uint64_t call_digest(const Layout& source, const Layout& dest, const RedistributeOptions& options);

/// The digest of a text.
std::uint64_t text_digest(std::string_view text);

}  // namespace redist::mpi
