// Whether a run moves real bytes: one type and one default for scenarios (`payload:`) and the
// commands that simulate one run (`--payload`, `--phantom`).
#pragma once

#include "redist/core/int_math.hpp"
#include "redist/core/name_table.hpp"

namespace redist {

/// Real: bytes moved and verified. Phantom: sizes only (data pointers may be null). Auto: phantom
/// above 64 MiB per array, where the timing needs no bytes and real ones would only cost memory.
enum class Payload { Real, Phantom, Auto };

/// The default everywhere (docs/ARCHITECTURE.md §6): real, verified data where it fits easily.
inline constexpr Payload kDefaultPayload = Payload::Auto;

/// "real", "phantom", "auto".
const NameTable<Payload>& payload_names();

/// Whether a run whose array holds `bytes` bytes goes phantom.
bool runs_phantom(Payload payload, Index bytes);

}  // namespace redist
