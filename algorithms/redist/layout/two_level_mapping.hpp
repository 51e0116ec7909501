// The two-level HPF data-processor mapping of paper 003 (Shih, Sheu, Huang), Fig. 1:
//   !HPF$ PROCESSORS PROC(P)
//   !HPF$ ALIGN A(i) WITH T(s*i + o)
//   !HPF$ DISTRIBUTE T(CYCLIC(x)) ONTO PROC
// A(i) sits on template cell t = s·i + o, which CYCLIC(x) puts in block t / x on processor
// (t / x) mod P. Numbering starts at 0 everywhere, as in the paper.
#pragma once

#include "redist/core/int_math.hpp"

namespace redist {

struct TwoLevelMapping {
  Index size = 1;    ///< N_A, the elements of A
  Index stride = 1;  ///< s, the alignment stride
  Index offset = 0;  ///< o, the alignment offset
  Index block = 1;   ///< x, the distribution block size
  Index procs = 1;   ///< P, the processors

  /// Throws std::invalid_argument for a non-positive size, stride, block or processor count or a
  /// negative offset, and OverflowError when the last template cell or P·x (the template cells of
  /// one round of blocks) does not fit in 64 bits.
  void validate() const;

  Index template_cell(Index i) const { return stride * i + offset; }
  Index owner(Index i) const { return (template_cell(i) / block) % procs; }
  /// r = o mod s: offsets congruent mod s give isomorphic mappings and share their tables.
  Index reduced_offset() const { return offset % stride; }
  /// o div s: the aligned cells before A(0) once o is reduced to r (paper 003's pseudo-active
  /// elements, which the tables count and the compressed local array skips).
  Index pseudo_active() const { return offset / stride; }
};

}  // namespace redist
