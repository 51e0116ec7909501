// What `redist simulate --json` and `redist-mpi run --json` print (docs/ARCHITECTURE.md §7): one
// writer, so that a simulated run and a measured one have the same shape.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/experiments/phase.hpp"
#include "redist/indexing/matrix_copy.hpp"

namespace redist {

struct RedistributionRun {
  std::string platform;           ///< the platform file's stem, or "mpi"
  std::optional<int> ranks;       ///< ranks started (MPI runs)
  Index P = 0, Q = 0;
  nlohmann::ordered_json layouts = nlohmann::ordered_json::object();  ///< {"r","s"}, or 2-D: rows, cols, src, dst
  Index N = 0;
  Phases phases;                  ///< each the maximum over ranks
  Index messages = 0, bytes = 0;  ///< between distinct ranks, all ranks together
  std::optional<bool> verified;   ///< empty (null) on phantom runs
  Index elem_bytes = 8;
  std::string indexing, schedule, placement;
  bool phantom = false;
};

/// The phases a redistribution reports: index, pack, comm, unpack, total.
const std::vector<Phase>& redistribution_phases();

/// The layouts' fields of a 2-D run: {"rows", "cols", "src": {"grid", "block", "first"}, "dst": {...}},
/// each side with "order": "row-major" where its storage is, "at": [IA, JA] where its submatrix does
/// not start at (1, 1), and "matrix": [M, N] (dst) where B's size is not A's; "sub": [m, n] where
/// the copy is not of the whole matrices.
nlohmann::ordered_json matrix_copy_json(const MatrixCopy& copy);

/// {"platform", ["ranks",] "P", "Q", <layouts>, "N", "phases", "messages", "bytes", "verified",
///  "elem_bytes", "indexing", "schedule", "placement", "phantom"}
nlohmann::ordered_json redistribution_json(const RedistributionRun& run);

}  // namespace redist
