// The keyword options of redist.mpi.redistribute() and Plan() as redist::mpi::Options: the indexing
// method, the schedule and the relabelling by name (or "auto"), the machine model file "auto" predicts
// on, and where the destination processors sit. A bad option is a problem for the ranks to agree on,
// not an exception on one rank, so that no rank is left waiting in the call.
#pragma once

#include <string>

#include <pybind11/pybind11.h>

#include "redist/mpi/redistribute.hpp"

namespace redist::python {

struct CallOptions {
  mpi::Options options;
  std::string problem;  ///< empty: the options are usable (their names are checked by redist's call)
};

/// `source` decides where disjoint destinations start (rank P, P + 1, ...).
CallOptions call_options(const pybind11::dict& given, const Layout& source);

}  // namespace redist::python
