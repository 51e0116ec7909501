// A 64-bit digest of a redistribution's description (layouts and options), so that ranks can
// check cheaply that they all asked for the same thing.
#pragma once

#include <cstdint>
#include <string>

#include "redist/layout/layout.hpp"

namespace redist::mpi {

/// Every parameter of the layout, as text: equal texts describe identical mappings.
std::string describe(const Layout& layout);

/// FNV-1a of a text.
std::uint64_t fingerprint(const std::string& text);

}  // namespace redist::mpi
