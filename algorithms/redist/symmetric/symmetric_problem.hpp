// A symmetric n×n matrix redistributed along one dimension (paper 002): BC(x,*) -> BC(y,*), rows
// dealt CYCLIC(x) then CYCLIC(y) over the same P processors, or the column-wise BC(*,x) -> BC(*,y).
// Every process stores its lines whole (both triangles), as the paper does.
//
// Words used throughout: a *line* is a row (row-wise) or a column (column-wise) — the distributed
// dimension; a *position* is the index along a line. Element (line d, position f) is matrix element
// (d, f) row-wise and (f, d) column-wise; its transposed twin is element (line f, position d).
#pragma once

#include <string>

#include "redist/core/name_table.hpp"
#include "redist/layout/block_cyclic.hpp"

namespace redist {

enum class Orientation {
  RowWise,     ///< BC(x,*) -> BC(y,*)
  ColumnWise,  ///< BC(*,x) -> BC(*,y)
};

enum class SymmetricMethod {
  Traditional,  ///< TR: every element that changes owner is sent
  Sra,          ///< SRA: elements whose twin the destination already holds are rebuilt there, not sent
};

/// Whose work a run counts: redist's own (owners computed once per line and run), or also what
/// paper 002's listing computes per element: the owner k = (global_row / y) % numproc of every
/// element it packs and unpacks (lines 16 and 47 of Algorithm_Symmetric_Redistribution).
enum class SymmetricWork { Redist, PaperListing };

const NameTable<Orientation>& orientation_names();          ///< "row", "column"
const NameTable<SymmetricMethod>& symmetric_method_names();  ///< "tr", "sra"
/// Throw std::invalid_argument for an unknown name.
Orientation orientation_from_name(const std::string& name);
SymmetricMethod symmetric_method_from_name(const std::string& name);

struct SymmetricProblem {
  Index n = 0;      ///< matrix order
  Index procs = 0;  ///< P, the same processors before and after
  Index x = 0;      ///< source block size (BLOCK is ceil(n/P), CYCLIC is 1)
  Index y = 0;      ///< destination block size
  Orientation orientation = Orientation::RowWise;

  /// Throws std::invalid_argument (non-positive value) or OverflowError (n² elements do not fit).
  void validate() const;
  BlockCyclic source() const { return BlockCyclic(n, x, procs); }
  BlockCyclic dest() const { return BlockCyclic(n, y, procs); }
  /// Storage offset of (local line, position) in a slab of `lines` local lines: row-major in both
  /// orientations, so a row-wise slab is lines×n and a column-wise slab n×lines.
  Index offset(Index local_line, Index position, Index lines) const {
    return orientation == Orientation::RowWise ? local_line * n + position : position * lines + local_line;
  }
};

}  // namespace redist
