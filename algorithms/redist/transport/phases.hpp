// Seconds spent in the phases of a run (Transport::now(): simulated or wall-clock). One type for every
// algorithm, from the rank that times it to the report: a phase an algorithm does not have stays 0.
// A run's phases are each the maximum over its ranks, as the papers time them (MPI_Wtime on every
// processor, the maximum taken); their names are in experiments/redist/experiments/phase.hpp.
#pragma once

#include <algorithm>
#include <array>

#include "redist/transport/transport.hpp"

namespace redist {

struct Phases {
  double index = 0;   ///< computing send and receive sets
  double pack = 0;    ///< packing send buffers (and the local copy of data that stays on the rank)
  double comm = 0;    ///< exchanging messages, excluding unpacking done on arrival; PACK/UNPACK: the
                      ///< many-to-many personalised communication (both stages for UNPACK)
  double unpack = 0;  ///< unpacking received messages
  double prs = 0;     ///< PACK/UNPACK: vector prefix-reduction-sums (ranking's intermediate steps)
  double redist = 0;  ///< PACK: preliminary redistribution of a cyclic input (paper 001 §6.3), when used
  double total = 0;   ///< the whole call
  // Derived from one rank's own phases (with_derived), before the maximum over ranks is taken:
  double local = 0;   ///< PACK/UNPACK's local computation: total − prs − comm − redist
  double comp = 0;    ///< paper 002's computation: index + pack + unpack

  bool operator==(const Phases&) const = default;
};

/// Every field, in declaration order: for what treats them alike (maximum, mean, process boundary).
inline constexpr std::array<double Phases::*, 9> kPhaseFields = {
    &Phases::index, &Phases::pack,  &Phases::comm,  &Phases::unpack, &Phases::prs,
    &Phases::redist, &Phases::total, &Phases::local, &Phases::comp};

/// One rank's measured phases with `local` and `comp` computed from them.
inline Phases with_derived(Phases rank) {
  rank.local = rank.total - rank.prs - rank.comm - rank.redist;
  rank.comp = rank.index + rank.pack + rank.unpack;
  return rank;
}

/// Phase by phase, the larger of `a` and `b` (folded over ranks: the slowest rank of each phase).
inline Phases slowest(Phases a, const Phases& b) {
  for (const auto field : kPhaseFields) a.*field = std::max(a.*field, b.*field);
  return a;
}

/// Adds the time from construction to destruction to `into` (after settling charged work first:
/// now() already counts it).
class PhaseClock {
 public:
  PhaseClock(const Transport& transport, double& into) : transport_(transport), into_(into), start_(transport.now()) {}
  ~PhaseClock() { into_ += transport_.now() - start_; }
  PhaseClock(const PhaseClock&) = delete;
  PhaseClock& operator=(const PhaseClock&) = delete;

 private:
  const Transport& transport_;
  double& into_;
  double start_;
};

}  // namespace redist
