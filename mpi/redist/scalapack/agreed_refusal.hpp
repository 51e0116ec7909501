// A drop-in call refused by all its ranks together, with the same line on each: a C or Fortran
// caller's line is printed by one of them (the lowest rank of the call), not once per rank, and
// every rank still returns. A refusal a rank finds alone (its ICTXT names no context it is part of)
// is a plain std::invalid_argument, printed by that rank.
#pragma once

#include <stdexcept>
#include <string>

namespace redist::scalapack {

class AgreedRefusal : public std::invalid_argument {
 public:
  AgreedRefusal(const std::string& what, bool teller) : std::invalid_argument(what), teller_(teller) {}
  /// Whether this rank is the one of the call that says it.
  bool teller() const noexcept { return teller_; }

 private:
  bool teller_;
};

}  // namespace redist::scalapack
