// ScaLAPACK-style 2-D block-cyclic descriptors as redist layouts, under redist::mpi's names: the
// description is the algorithms' own (redist/layout/scalapack_descriptor.hpp), shared with the
// simulator and the prediction.
#pragma once

#include "redist/layout/scalapack_descriptor.hpp"

namespace redist::mpi {

using redist::ScalapackDescriptor;
using redist::scalapack_layout;

}  // namespace redist::mpi
