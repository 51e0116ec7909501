// Paper 003's hole compression for one processor, computed and shown: the class table (Fig. 4), its
// compression table (Fig. 6) and its compressed local array (Figs. 2(b) and 8), as text or JSON
// (`redist holes`).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/layout/compression_table.hpp"
#include "redist/layout/two_level_mapping.hpp"

namespace redist {

struct HolesResult {
  TwoLevelMapping mapping;
  Index rank;
  ClassTable classes;
  CompressionTable table;
  std::vector<Index> local;
};

/// The tables and local array of processor `rank`. Throws std::invalid_argument naming the option
/// (-P, --block, --stride, --offset, -n, --rank) at fault, or when the local array has more than
/// 2^24 elements (it is printed whole).
HolesResult compute_holes(const TwoLevelMapping& mapping, Index rank);

/// {"class_table":[..],"compression_table":[..],"local_array":[..]}.
nlohmann::ordered_json holes_json(const HolesResult& r);

/// The mapping, its class table, the processor's compression table and its local array, as text.
std::string holes_text(const HolesResult& r);

}  // namespace redist
