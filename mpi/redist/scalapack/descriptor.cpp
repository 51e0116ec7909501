#include "redist/scalapack/descriptor.hpp"

#include <algorithm>

namespace redist::scalapack {
namespace {

// PBLAS's local count (PB_Cnumroc) for a dimension with its first block: all of it on every
// process of a replicated dimension (first process -1).
Index local_count(Index extent, Index first_block, Index block, Index process, Index first, Index processes) {
  if (extent <= 0) return 0;
  if (first == -1) return extent;
  return held_in(stretches(extent, first_block, block, processes, first), 0, extent, processes, process);
}

std::string field(const char* name, int value, const std::string& why) {
  return std::string(name) + " " + std::to_string(value) + " " + why;
}

}  // namespace

Descriptor read_descriptor(const int* d, Reader reader) {
  Descriptor out;
  if (reader == Reader::Redist) {  // REDIST's MDESC: DTYPE_ is a member it never reads
    out = {1, d[1], d[2], d[3], d[4], d[5], d[4], d[5], d[6], d[7], d[8]};
  } else if (d[0] == 1) {
    out = {1, d[1], d[2], d[3], d[4], d[5], d[4], d[5], d[6], d[7], d[8]};
  } else if (d[0] == 2) {
    out = {2, d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10]};
  } else {  // PB_CargFtoC reads DTYPE_ and CTXT_ only
    out.dtype = d[0];
    out.context = d[1];
  }
  return out;
}

std::string descriptor_problem(const Descriptor& d, const GridPlace& place, Reader reader, bool empty) {
  const bool pblas = reader == Reader::Pblas;
  if (pblas && d.dtype != 1 && d.dtype != 2) {
    return field("DTYPE_", d.dtype, "is neither 1 nor 2 (the two types PBLAS takes)");
  }
  if (d.rows < 0) return field("M_", d.rows, "is negative");
  if (d.cols < 0) return field("N_", d.cols, "is negative");
  if (d.dtype == 2 && d.first_row_block < 1) return field("IMB_", d.first_row_block, "is not a positive block size");
  if (d.dtype == 2 && d.first_col_block < 1) return field("INB_", d.first_col_block, "is not a positive block size");
  if (d.row_block < 1) return field("MB_", d.row_block, "is not a positive block size");
  if (d.col_block < 1) return field("NB_", d.col_block, "is not a positive block size");
  const int lowest = pblas ? -1 : 0;  // PBLAS: -1 for a matrix replicated over the process rows (columns)
  if (d.first_row < lowest || d.first_row >= place.rows) {
    return field("RSRC_", d.first_row, "is outside the " + std::to_string(place.rows) + " process rows");
  }
  if (d.first_col < lowest || d.first_col >= place.cols) {
    return field("CSRC_", d.first_col, "is outside the " + std::to_string(place.cols) + " process columns");
  }
  if (pblas && empty) {  // PB_Cchkmat's relaxed checks for an empty operation
    if (d.leading_dim < 1) return field("LLD_", d.leading_dim, "is below 1");
    return {};
  }
  const Index local_rows = local_count(d.rows, d.first_row_block, d.row_block, place.row, d.first_row, place.rows);
  if (!pblas) {  // REDIST's paramcheck: LLD_ at least the local rows, 0 where there are none
    if (d.leading_dim < local_rows) {
      return field("LLD_", d.leading_dim, "is below the " + std::to_string(local_rows) + " local rows");
    }
    return {};
  }
  if (d.leading_dim < 1) return field("LLD_", d.leading_dim, "is below 1");
  const Index local_cols = local_count(d.cols, d.first_col_block, d.col_block, place.col, d.first_col, place.cols);
  if (local_cols > 0 && d.leading_dim < local_rows) {
    return field("LLD_", d.leading_dim, "is below the " + std::to_string(local_rows) + " local rows");
  }
  return {};
}

Descriptor held_by(Descriptor d, int row, int col) {
  if (d.first_row == -1) {
    d.first_row_block = d.row_block = std::max(1, d.rows);
    d.first_row = row;
  }
  if (d.first_col == -1) {
    d.first_col_block = d.col_block = std::max(1, d.cols);
    d.first_col = col;
  }
  return d;
}

std::vector<Stretch> stretches(Index extent, Index first_block, Index block, Index processes, Index first) {
  if (extent <= 0) return {};
  const auto whole = [&](Index b) { return std::vector<Stretch>{{0, extent, 0, extent, b, first, -1, 0}}; };
  if (first_block == block) return whole(block);
  if (first_block >= extent) return whole(extent);  // one block holds it all
  if (first_block < block) {  // the block-cyclic matrix with `missing` more in front
    const Index missing = block - first_block;
    return {{0, extent, missing, extent + missing, block, first, first, missing}};
  }
  if (processes == 1) return whole(block);  // every element on the one process, in order
  // A larger first block: on `first` alone, then blocks dealt from the next process; on `first`,
  // they follow the first block in local storage.
  return {{0, first_block, 0, first_block, first_block, first, -1, 0},
          {first_block, extent, 0, extent - first_block, block, (first + 1) % processes, first, -first_block}};
}

Index held_in(const std::vector<Stretch>& dimension, Index begin, Index count, Index processes, Index process) {
  Index held = 0;
  for (const Stretch& s : dimension) {
    const Index lo = std::max(begin, s.begin), hi = std::min(begin + count, s.end);
    if (lo >= hi) continue;
    const auto upto = [&](Index n) {
      return n <= 0 ? Index{0} : BlockCyclic(n, s.block, processes, s.first).local_size(process);
    };
    held += upto(hi - s.begin + s.virtual_begin) - upto(lo - s.begin + s.virtual_begin);
  }
  return held;
}

}  // namespace redist::scalapack
