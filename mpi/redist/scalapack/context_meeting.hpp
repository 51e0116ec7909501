// Where the ranks of a drop-in call meet: on one communicator per set of processes, not on the
// communicator of the context each rank passed. A context handle is a number of the rank's own, and
// two contexts over the same processes (a 2 x 2 grid and a 1 x 4 one, the same grid made twice)
// have communicators of their own: ranks passing different ones once gathered on different
// communicators and waited for ever. What a call's ICTXT says is which processes take part, in
// which order; ranks whose ICTXTs name the same processes in the same order meet whatever their
// handles or grids (the grids that matter, A's and B's, are gathered and compared with the call).
// Ranks whose ICTXTs name other processes, or the same in another order, share no communicator to
// refuse the call on: before meeting, each rank sends the list its ICTXT names to every process in it
// over MPI_COMM_WORLD and reads theirs. A rank that reads another list than its own says so in one
// line (the one rank both lists start from, so once per job) and ends the job with MPI_Abort: the
// ranks left waiting for a process that is not coming could not otherwise return.
#pragma once

#include <mpi.h>

#include <string>

namespace redist::scalapack {

/// The communicator the ranks of a call with ICTXT `context` meet on: the processes of the
/// context's communicator, in its order. Made once per set of processes, by its ranks together
/// (MPI_Comm_create_group over MPI_COMM_WORLD: collective over those processes alone), kept until
/// MPI_Finalize and never dropped before (ranks in other sets would otherwise make it again apart).
/// The context's own communicator where some of its processes are not in MPI_COMM_WORLD;
/// MPI_COMM_NULL where this rank is not in the context. Ends the job where the processes of the
/// call passed contexts over other processes ("<routine>: <argument>: ..." on stderr, once).
MPI_Comm meeting_communicator(int context, const std::string& routine, const std::string& argument);

}  // namespace redist::scalapack
