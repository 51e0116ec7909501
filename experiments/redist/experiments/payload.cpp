#include "redist/experiments/payload.hpp"

namespace redist {

const NameTable<Payload>& payload_names() {
  static const NameTable<Payload> table("payload",
                                        {{Payload::Real, "real"}, {Payload::Phantom, "phantom"}, {Payload::Auto, "auto"}});
  return table;
}

bool runs_phantom(Payload payload, Index bytes) {
  constexpr Index kAutoPhantomBytes = Index{64} << 20;
  return payload == Payload::Phantom || (payload == Payload::Auto && bytes > kAutoPhantomBytes);
}

}  // namespace redist
