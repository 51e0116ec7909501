#include "redist/scalapack/blacs.hpp"

// Debian's BLACS (in libscalapack-openmpi), C interface. Cblacs_get(context, 10, ...) gives the
// index of the context's own communicator in BLACS' table (never ask it of context -1: BLACS reads
// before its table then), Cblacs2sys_handle the communicator: rank r · columns + c plays grid
// process (r, c), whatever the grid's order or process map.
extern "C" {
void Cblacs_gridinfo(int context, int* rows, int* cols, int* row, int* col);
void Cblacs_get(int context, int what, int* value);
MPI_Comm Cblacs2sys_handle(int system_handle);
}

namespace redist::scalapack {

GridPlace grid_place(int context) {
  GridPlace place;
  if (context < 0) return place;
  Cblacs_gridinfo(context, &place.rows, &place.cols, &place.row, &place.col);
  if (place.row < 0 || place.col < 0 || place.row >= place.rows || place.col >= place.cols) return GridPlace{};
  return place;
}

MPI_Comm context_communicator(int context) {
  if (!grid_place(context).inside()) return MPI_COMM_NULL;
  int handle = -1;
  Cblacs_get(context, 10, &handle);
  return Cblacs2sys_handle(handle);
}

}  // namespace redist::scalapack
