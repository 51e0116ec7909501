// Redistributions on generated data under MPI, checked element by element, summarised over ranks as
// the papers time them (each phase the maximum over ranks). Used by redist-mpi, tests and bench.
#pragma once

#include <mpi.h>

#include <optional>

#include "redist/indexing/matrix_copy.hpp"
#include "redist/mpi/redistribute.hpp"

namespace redist::mpi {

/// Where a verified run keeps its source elements: private memory, or a SharedArray (shared_array.hpp).
enum class SourceStorage { Private, Shared };

struct MpiRunSummary {
  Phases phases;    ///< maximum over ranks of the fastest repetition (by total)
  Index messages = 0;   ///< messages between distinct ranks, all ranks together
  Index bytes = 0;
  Index bytes_kept = 0;   ///< bytes that stay on their rank, all ranks together
  bool verified = false;  ///< every destination element on every rank holds its own value
  Index misplaced = 0;
  Index bytes_copied_once = 0;  ///< of `bytes`, those copied once in the last call (RedistributeReport)
};

/// Fills each source element with the test value of its global index (fill_element), runs
/// redistribute() `repeat` times, checks the destination. Collective over `comm` (and the
/// SharedArray made on `comm` when `storage` says so).
MpiRunSummary verified_redistribute(MPI_Comm comm, const Layout& source, const Layout& dest, const Options& options,
                                    int repeat = 1, SourceStorage storage = SourceStorage::Private);

/// A copy of sub(A) into sub(B) (a MatrixCopy that is not whole) moved as the ScaLAPACK drop-in
/// moves it: its submatrix plan (submatrix_plan, plan_of_messages) held in a Plan and run by the
/// default exchange (Plan::execute_agreed), each repetition planning again, as a call that is not
/// kept does (the index phase is the planning). A is filled with test values, B with others, and
/// B checked as copy_and_verify does: every element of sub(B) holds its sub(A) element's, every
/// other element is untouched (verified_run.hpp). Source processes on ranks.source_rank(p),
/// destination ones on ranks.dest_rank(q). Collective over `comm`. Precondition: no
/// matrix_copy_problem.
MpiRunSummary verified_matrix_copy(MPI_Comm comm, const MatrixCopy& copy, const RankMap& ranks, Index elem_bytes,
                                   int repeat = 1);

struct ReferenceComparison {
  double redist_seconds = 0;    ///< fastest repetition, maximum over ranks
  double pdgemr2d_seconds = 0;  ///< fastest repetition, maximum over ranks
  bool identical = false;       ///< both destinations equal byte for byte on every rank
  bool verified = false;        ///< and equal to the expected values
  Index bytes_moved = 0;        ///< bytes redist's last call sent between ranks, all ranks together
  Index bytes_copied_once = 0;  ///< of those, the bytes copied once (RedistributeReport)
};

/// The same matrix of doubles (element value: its row-major global index) moved by redist and by
/// ScaLAPACK's pdgemr2d between two descriptors on grids placed as `options.ranks` says.
/// Collective over MPI_COMM_WORLD (BLACS' world). pdgemr2d's calls come first, here and in
/// compare_copy_with_pdgemr2d, and a caller that runs redist too calls these first: the pages of
/// pdgemr2d's buffers depend on the blocks the process freed before it (pdgemr2d/call_buffer.hpp),
/// and so its time is measured as of a process that made only its own calls.
ReferenceComparison compare_with_pdgemr2d(const ScalapackDescriptor& from, const ScalapackDescriptor& to,
                                          const Options& options, int repeat = 1,
                                          SourceStorage storage = SourceStorage::Private);

/// The copy of sub(A) into sub(B) moved as verified_matrix_copy moves it and by ScaLAPACK's
/// pdgemr2d (its IA, JA, IB, JB, m and n the copy's), on 8-byte elements, each checked as
/// copy_and_verify checks (sub(B) copied, the rest of B untouched) and the two B compared byte for
/// byte. Collective over MPI_COMM_WORLD (BLACS' world). Precondition: no matrix_copy_problem.
ReferenceComparison compare_copy_with_pdgemr2d(const MatrixCopy& copy, const RankMap& ranks, int repeat = 1);

}  // namespace redist::mpi
