// PACK and UNPACK of Fortran 90/HPF on a block-cyclic array (paper 001 §4 and §6): ranking, then the
// many-to-many exchange by linear permutation scheduling. The result vector of PACK (the input vector
// of UNPACK) is block-cyclic(W') over all P processors, BLOCK by default as in the paper.
// Schemes (§6.1, §6.2, costs of §6.4 counted as work):
//  - SSS, simple storage: the initial scan records every true element (local offset, slice, rank in
//    its slice); the final step reads the records back, computes each rank and destination; messages
//    are (datum, global rank) pairs;
//  - CSS, compact storage: nothing recorded; the final step compares PS_c with PS_f slice by slice,
//    and message composition rescans only slices holding true elements, until all are collected;
//  - CMS, compact message: CSS's storage with messages of segments (base rank, count, data...), one per
//    run of consecutive ranks with one destination.
// UNPACK (SSS or CSS storage) is two-stage: requests of global ranks to the owners of V, then replies
// with the values in request order ((value, rank) pairs under WorkModel::Paper, as the paper's
// programs send every datum, section 6.4.1); false positions take the field array's values.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "redist/core/name_table.hpp"
#include "redist/layout/block_cyclic.hpp"
#include "redist/pack/geometry.hpp"
#include "redist/pack/paper_work.hpp"
#include "redist/transport/phases.hpp"
#include "redist/pack/prefix_reduction_sum.hpp"

namespace redist::pack {

enum class Scheme { Simple, CompactStorage, CompactMessage };
const NameTable<Scheme>& scheme_names();            ///< "sss", "css", "cms"
Scheme scheme_from_name(const std::string& name);  ///< throws std::invalid_argument for an unknown name
const char* scheme_name(Scheme scheme);

/// The vector of `length` elements block-cyclic(block) over `procs`; block 0 means BLOCK.
BlockCyclic vector_layout(Index length, Index block, Index procs);

struct PackOptions {
  Scheme scheme = Scheme::Simple;
  PrsAlgorithm prs = PrsAlgorithm::Auto;
  Index vector_block = 0;  ///< W' of the result vector; 0 = BLOCK
  WorkModel accounting = WorkModel::Redist;  ///< whose local work is charged (paper_work.hpp)
};

struct PackResult {
  std::vector<Index> vector;  ///< this rank's part of V, in local order of vector_layout(size, ...)
  Index size = 0;             ///< Size: elements of V
  Phases times;  ///< prs, comm and total of this rank
};

/// PACK of this rank's local arrays `values` and `mask` (local storage order). Every rank calls it.
/// Message tags 100..199 (ranking) and 200 are used.
PackResult pack(Transport& transport, const Geometry& geometry, std::span<const Index> values,
                std::span<const std::uint8_t> mask, const PackOptions& options);

struct UnpackOptions {
  Scheme scheme = Scheme::Simple;  ///< Simple or CompactStorage
  PrsAlgorithm prs = PrsAlgorithm::Auto;
  Index vector_length = 0;  ///< N' ≥ Size
  Index vector_block = 0;   ///< W'; 0 = BLOCK
  WorkModel accounting = WorkModel::Redist;  ///< whose local work is charged (paper_work.hpp)
};

struct UnpackResult {
  std::vector<Index> array;  ///< this rank's part of A, local storage order
  Index size = 0;            ///< Size: true elements of the mask
  Phases times;  ///< prs, comm and total of this rank
};

/// UNPACK(V, MASK, FIELD): `vector` is this rank's part of V laid out by
/// vector_layout(options.vector_length, options.vector_block, P). Throws std::invalid_argument (on every
/// rank alike) when the mask has more true elements than V. Tags 100..199, 300 and 301 are used.
UnpackResult unpack(Transport& transport, const Geometry& geometry, std::span<const Index> vector,
                    std::span<const std::uint8_t> mask, std::span<const Index> field, const UnpackOptions& options);

}  // namespace redist::pack
