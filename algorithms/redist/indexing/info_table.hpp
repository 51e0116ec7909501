// Packing and unpacking information tables (paper 000, Figs. 3, 5 and 6): per message, the classes
// a processor copies from (PIT, sender) or to (UPIT, receiver) one local complete cycle, each as
// (CS, FI) — class size and local offset of its first element. Later cycles repeat the table
// shifted by the cycle length, so a processor packs and unpacks straight from it.
#pragma once

#include <vector>

#include "redist/indexing/rank_plan.hpp"

namespace redist {

struct TableClass {
  Index size;   ///< CS: elements in the class
  Index first;  ///< FI: local offset of its first element within the cycle
  friend bool operator==(const TableClass&, const TableClass&) = default;
};

struct TableMessage {
  Index peer;  ///< processor number of the destination (PIT) or source (UPIT)
  std::vector<TableClass> classes;  ///< by increasing FI: the order of the message's contents
};

/// How the elements of a class lie in local storage.
enum class ClassShape {
  Contiguous,  ///< CS consecutive elements (the r-block side: UPIT of kr -> r, PIT of r -> kr)
  Strided,     ///< chunks of `chunk` elements `stride` apart (the kr-block side, Observation 3.3)
};

struct InfoTable {
  Index period = 0;  ///< the local complete cycle the offsets refer to (LCC_s or LCC_d)
  ClassShape shape = ClassShape::Contiguous;
  Index chunk = 0;   ///< Strided: elements per chunk (r)
  Index stride = 0;  ///< Strided: distance between chunks (Q·r for a PIT, P·r for a UPIT)
  std::vector<TableMessage> messages;  ///< by increasing peer; peers without data have none

  /// Number of (CS, FI) entries.
  Index entries() const;
  /// The pieces one cycle of `message` is copied in: one per class, or one per chunk when strided.
  RunList pieces(const TableMessage& message) const;
};

}  // namespace redist
