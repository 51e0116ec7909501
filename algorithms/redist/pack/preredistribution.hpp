// Paper 001 §6.3: a cyclic input makes ranking expensive (T_0 = L_0 slices of one element), so PACK
// may first redistribute to BLOCK on every dimension and rank there:
//  - selected data: only true elements travel, as (global linear index, datum) pairs; the receiver
//    starts from an all-false temporary mask and decomposes each index into d coordinates;
//  - whole arrays: the array and the mask travel whole, after communication detection on both sides
//    (each sender finds every element's destination, each receiver every element's source).
// Both use the linear permutation exchange; their results feed PACK on geometry.as_block().
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "redist/core/name_table.hpp"
#include "redist/pack/geometry.hpp"
#include "redist/pack/paper_work.hpp"
#include "redist/transport/transport.hpp"

namespace redist::pack {

enum class Preredistribution { None, SelectedData, WholeArrays };
const NameTable<Preredistribution>& preredistribution_names();            ///< "none", "selected", "whole"
Preredistribution preredistribution_from_name(const std::string& name);  ///< throws std::invalid_argument for an unknown name

struct LocalArrays {
  std::vector<Index> values;
  std::vector<std::uint8_t> mask;
};

/// This rank's arrays on `from` moved to from.as_block(). Tag 400 is used.
LocalArrays redistribute_to_block(Transport& transport, const Geometry& from, std::span<const Index> values,
                                  std::span<const std::uint8_t> mask, Preredistribution how,
                                  WorkModel accounting = WorkModel::Redist);

}  // namespace redist::pack
