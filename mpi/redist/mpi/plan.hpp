// A redistribution planned once and executed any number of times, as FFTW's plans and COSTA's
// transformer keep their work: the index sets, the schedule and the message datatypes are
// computed when the plan is made; execute() only moves data.
//
//   redist::mpi::Plan plan(comm, from, to, {.elem_bytes = 8, .indexing = "prylli"});
//   for (int step = 0; step < steps; ++step) {
//     compute(my_a);
//     plan.execute<double>(my_a, my_b);   // same result as redistribute(comm, from, to, my_a, my_b)
//   }
//
// Threads: a Plan may be executed from several threads (with MPI initialised for them, at least
// MPI_THREAD_SERIALIZED): its executions run one at a time on each rank, in the order the threads
// reach it, and each is collective, so the k-th execution of one rank meets the k-th of the
// others. Threads that execute one Plan on different buffers must therefore reach it in the same
// order on every rank; threads that run independently give each its own Plan (each Plan has its
// own duplicate communicator, so their messages never mix). Making and destroying a Plan are
// collective over its communicator, as MPI's own communicator calls are.
//
// redistribute() is the one-call form: a plan made and executed once. A Plan holds the algorithms'
// RedistributionPlan (redist/redistribute/redistribution_plan.hpp), the plan the simulator runs
// too; the ScaLAPACK drop-in keeps its submatrix plans as Plans.
#pragma once

#include <mpi.h>

#include <memory>
#include <span>

#include "redist/layout/layout.hpp"
#include "redist/mpi/redistribute.hpp"

namespace redist {
struct RedistributionPlan;
}

namespace redist::mpi {

class MpiTransport;

class Plan {
 public:
  /// Collective over `comm`, with the same layouts and options on every rank. Checks them as
  /// redistribute() does (std::invalid_argument on every rank, same message) and computes this
  /// rank's index sets. The plan keeps a duplicate of `comm` until it is destroyed.
  Plan(MPI_Comm comm, const Layout& source, const Layout& dest, const Options& options = {});
  /// Holds a plan made some other way (the ScaLAPACK drop-in's, from descriptors: plan_of_messages),
  /// moving its messages on `transport` (and through the shared window kept with the communicator
  /// it was made on), which the caller's plans on one communicator may share. Not collective, and
  /// no check: the caller's ranks agreed on the call already, as the drop-in's do in one
  /// MPI_Allgather; run it with execute_agreed().
  Plan(std::shared_ptr<MpiTransport> transport, RedistributionPlan planned);
  ~Plan();
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  /// Collective over the plan's communicator: moves this rank's part of the array (buffers as for
  /// redistribute(); a rank with a buffer of the wrong size makes every rank throw
  /// std::invalid_argument, same message). The report's index phase is 0: see plan_seconds().
  RedistributeReport execute(std::span<const std::byte> source_local, std::span<std::byte> dest_local);

  /// Typed form; sizeof(T) must be the plan's element size.
  template <class T>
  RedistributeReport execute(std::span<const T> source_local, std::span<T> dest_local) {
    return execute_typed(std::as_bytes(source_local), std::as_writable_bytes(dest_local), static_cast<Index>(sizeof(T)));
  }

  /// As execute(), for a caller whose ranks have agreed on their buffers already (the ScaLAPACK
  /// drop-in checks every rank's arguments in one MPI_Allgather before it runs a plan): only the
  /// move is collective, and only the sizes are checked; a buffer of the wrong size throws
  /// std::invalid_argument on its rank alone, leaving the others waiting. Saves execute()'s
  /// MPI_Allreduce, which on small matrices (or oversubscribed cores) can cost as much as the move.
  RedistributeReport execute_agreed(std::span<const std::byte> source_local, std::span<std::byte> dest_local);

  /// Seconds this rank spent computing the plan (its index sets), wall clock.
  double plan_seconds() const;

  /// The options the plan runs: each "auto" replaced by the choice made, `ranks` relabelled when a
  /// relabelling was asked for or chosen (destination processor q on rank ranks.dest_rank(q)).
  const Options& options() const;

  /// The plan held: this rank's messages, the sizes of its buffers.
  const RedistributionPlan& planned() const;

 private:
  friend RedistributeReport redistribute(MPI_Comm, const Layout&, const Layout&, std::span<const std::byte>,
                                         std::span<std::byte>, const Options&);
  /// The buffers redistribute() will execute on, checked with the layouts before the plan is made.
  struct Buffers {
    std::span<const std::byte> source, dest;
  };
  Plan(std::shared_ptr<MpiTransport> messages, const Layout& source, const Layout& dest, const Options& options,
       const Buffers* buffers);
  RedistributeReport execute_typed(std::span<const std::byte> source_local, std::span<std::byte> dest_local,
                                   Index type_bytes, bool agreed = false);
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace redist::mpi
