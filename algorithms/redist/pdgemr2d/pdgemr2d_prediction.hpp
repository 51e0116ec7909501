// ScaLAPACK's pdgemr2d priced on a machine model, as `auto` prices redist's candidates (redist/
// predict/prediction.hpp): each rank's local work counted by the very functions the simulated copy
// charges (pdgemr2d_geometry, pdgemr2d_intervals, pdgemr2d_setup), priced by MachineModel, and each
// message by predicted_comm. Unlike redist's exchanges, pdgemr2d waits for every message on its own:
// a rank's send and receive of a step block until their partner is there. So the prediction follows
// each rank's clock through the step loop: a message starts when both its ranks have reached it,
// shares the links with the other messages of its step and half-step, and both ranks go on from its
// end. Ranks sharing a host divide its cores (their local work stretched by ranks over cores).
#pragma once

#include "redist/indexing/rank_map.hpp"
#include "redist/indexing/submatrix_plan.hpp"
#include "redist/layout/layout.hpp"
#include "redist/predict/prediction.hpp"
#include "redist/transport/machine_model.hpp"

namespace redist {

/// The name pdgemr2d's prediction carries as its candidate's indexing and schedule: its own interval
/// scans and its own step loop, neither one of redist's.
inline constexpr const char* kPdgemr2dName = "pdgemr2d";

/// pdgemr2d's phases for `copy` run on `ranks` ranks (every grid rank below it) of `model`, each the
/// slowest rank's: index (scans and bookkeeping), pack, comm (waiting for messages and the
/// parameter exchange), unpack, total. `copy`'s leading dimensions do not change the prediction.
/// Throws std::invalid_argument as pdgemr2d_copy would refuse the copy.
Prediction predict_pdgemr2d(const SubmatrixCopy& copy, Index elem_bytes, Rank ranks, const MachineModel& model);

/// The whole matrix moved from `source` to `dest`, two-dimensional layouts stored column-major
/// (ScaLAPACK's), as pdgemr2d copies it: processors placed on ranks as `ranks` says.
Prediction predict_pdgemr2d(const Layout& source, const Layout& dest, Index elem_bytes, const RankMap& ranks,
                            const MachineModel& model);

/// The SubmatrixCopy of the whole matrix between two 2-D column-major layouts, as rank `me` sees it
/// (its LLD its local rows, at least 1; grid process (pr, pc) is processor pr·Pc + pc, on the rank
/// `ranks` gives it). Throws std::invalid_argument for layouts that are not two-dimensional and
/// column-major, or of different shapes.
SubmatrixCopy whole_matrix_copy(const Layout& source, const Layout& dest, const RankMap& ranks, Rank me);

}  // namespace redist
