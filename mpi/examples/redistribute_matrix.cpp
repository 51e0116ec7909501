// Example: a 2-D block-cyclic matrix moved between two ScaLAPACK-style layouts with one call, then
// with a plan made once and executed again (as an iterative program would, every step), then from
// a source kept in a SharedArray (on one node: copied once), then with the destination processors
// relabelled: placed on the ranks that already hold most of their data,
// and last, given a machine model (the .model.json `redist calibrate` writes), with indexing,
// schedule and relabelling left to `auto`: the way predicted fastest on that machine runs.
//   mpirun -np 4 redistribute_matrix_example [machine.model.json]
// Every rank holds its column-major local matrix; after each move every element a(i, j) = i + j/1000
// sits where the destination descriptor puts it, and every rank checks its part.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include <redist/mpi/plan.hpp>
#include <redist/mpi/redistribute.hpp>
#include <redist/mpi/shared_array.hpp>
#include <redist/predict/machine_model_json.hpp>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const redist::Index m = 500, n = 300;
  // From 64×64 blocks on a 2×(ranks/2) grid to whole rows dealt cyclically over ranks×1.
  const redist::mpi::ScalapackDescriptor from{m, n, 64, 64, ranks >= 2 ? 2 : 1, ranks >= 2 ? ranks / 2 : 1, 0, 0};
  const redist::mpi::ScalapackDescriptor to{m, n, 1, n, ranks, 1, 0, 0};
  const redist::Layout source = redist::mpi::scalapack_layout(from);
  const redist::Layout dest = redist::mpi::scalapack_layout(to);
  const auto value = [&](redist::Index g) { return static_cast<double>(g / n) + static_cast<double>(g % n) / 1000; };

  // Global index g = i·n + j (row-major identity); local element l of this rank is global_index(rank, l).
  std::vector<double> a(rank < source.processors() ? static_cast<std::size_t>(source.local_size(rank)) : 0);
  for (std::size_t l = 0; l < a.size(); ++l) a[l] = value(source.global_index(rank, static_cast<redist::Index>(l)));
  std::vector<double> b(static_cast<std::size_t>(dest.local_size(rank)));

  const auto misplaced = [&] {
    int wrong = 0, all_wrong = 0;
    for (std::size_t l = 0; l < b.size(); ++l) wrong += b[l] != value(dest.global_index(rank, static_cast<redist::Index>(l)));
    MPI_Allreduce(&wrong, &all_wrong, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return all_wrong;
  };
  const auto total = [&](redist::Index mine) {
    long long all = 0, value_here = mine;
    MPI_Allreduce(&value_here, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return all;
  };

  try {
    const auto report = redist::mpi::redistribute<double>(MPI_COMM_WORLD, source, dest, a, b);  // default method
    int all_wrong = misplaced();
    if (rank == 0) {
      std::printf("moved a %lldx%lld matrix in %.6f s (rank 0), %d misplaced elements\n", static_cast<long long>(m),
                  static_cast<long long>(n), report.phases.total, all_wrong);
    }
    {  // The same move as a plan: index sets computed once, then executed at every step.
      redist::mpi::Plan plan(MPI_COMM_WORLD, source, dest, {.indexing = "prylli"});
      for (int step = 0; step < 3; ++step) {
        std::fill(b.begin(), b.end(), 0.0);
        const auto executed = plan.execute<double>(a, b);
        const int wrong = misplaced();
        all_wrong += wrong;
        if (rank == 0) {
          std::printf("plan (made in %.6f s) executed in %.6f s (rank 0), %d misplaced elements\n",
                      plan.plan_seconds(), executed.phases.total, wrong);
        }
      }
    }
    {  // The source in a SharedArray: with the ranks on one node, each receiver copies what it gets
      // straight out of the senders' storage, once per byte, when the pieces there are long (here
      // the senders' local columns, to blocks of 32 whole columns).
      const redist::Layout columns = redist::mpi::scalapack_layout({m, n, m, 32, 1, ranks, 0, 0});
      redist::mpi::SharedArray<double> shared(MPI_COMM_WORLD, static_cast<redist::Index>(a.size()));
      std::copy(a.begin(), a.end(), shared.span().begin());
      std::vector<double> c(static_cast<std::size_t>(columns.local_size(rank)));
      redist::mpi::Plan plan(MPI_COMM_WORLD, source, columns, {.indexing = "prylli"});
      const auto executed = plan.execute<double>(shared.span(), c);
      int wrong = 0, all = 0;
      for (std::size_t l = 0; l < c.size(); ++l) wrong += c[l] != value(columns.global_index(rank, static_cast<redist::Index>(l)));
      MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      all_wrong += all;
      const long long once = total(executed.bytes_copied_once), sent = total(executed.bytes_sent);
      if (rank == 0) {
        std::printf("shared source: %lld of %lld bytes sent copied once, %d misplaced elements\n", once, sent, all);
      }
    }
    {  // Relabelled: to block rows dealt from process 1, as another ScaLAPACK context might hold them.
      // Numbered as is, every block changes rank; relabelled (destination processor q on the rank
      // that holds most of its data), nothing needs to move.
      const redist::Layout rows_from = redist::mpi::scalapack_layout({m, n, (m + ranks - 1) / ranks, n, ranks, 1, 0, 0});
      const redist::Layout rows_to = redist::mpi::scalapack_layout({m, n, (m + ranks - 1) / ranks, n, ranks, 1, 1, 0});
      std::vector<double> rows(static_cast<std::size_t>(rows_from.local_size(rank)));
      for (std::size_t l = 0; l < rows.size(); ++l) rows[l] = value(rows_from.global_index(rank, static_cast<redist::Index>(l)));
      std::vector<double> as_is(static_cast<std::size_t>(rows_to.local_size(rank)));
      const auto numbered = redist::mpi::redistribute<double>(MPI_COMM_WORLD, rows_from, rows_to, rows, as_is);

      redist::mpi::Plan plan(MPI_COMM_WORLD, rows_from, rows_to, {.indexing = "prylli", .relabel = "exact"});
      // The destination processor this rank plays, as the plan placed them.
      const auto q = plan.options().ranks.dest_of(rank, rows_to.processors());
      std::vector<double> c(q ? static_cast<std::size_t>(rows_to.local_size(*q)) : 0);
      const auto relabelled = plan.execute<double>(rows, c);
      int wrong = 0, all = 0;
      for (std::size_t l = 0; l < c.size(); ++l) wrong += c[l] != value(rows_to.global_index(*q, static_cast<redist::Index>(l)));
      MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      all_wrong += all;
      const long long sent = total(relabelled.bytes_sent), kept = total(relabelled.bytes_kept);
      const long long sent_as_is = total(numbered.bytes_sent), kept_as_is = total(numbered.bytes_kept);
      if (rank == 0) {
        std::printf("relabelled: %lld bytes sent, %lld kept on their rank (numbered as is: %lld sent, %lld kept), "
                    "%d misplaced elements\n", sent, kept, sent_as_is, kept_as_is, all);
      }
    }
    if (argc > 1) {  // Chosen on a model of the machine: every rank predicts, all choose alike.
      redist::mpi::Options options{.indexing = "auto", .schedule = "auto", .relabel = "auto"};
      options.model = std::make_shared<const redist::MachineModel>(redist::load_machine_model(argv[1]));
      redist::mpi::Plan plan(MPI_COMM_WORLD, source, dest, options);
      const redist::mpi::Options& chosen = plan.options();
      const auto q = chosen.ranks.dest_of(rank, dest.processors());
      std::vector<double> c(q ? static_cast<std::size_t>(dest.local_size(*q)) : 0);
      plan.execute<double>(a, c);
      int wrong = 0, all = 0;
      for (std::size_t l = 0; l < c.size(); ++l) wrong += c[l] != value(dest.global_index(*q, static_cast<redist::Index>(l)));
      MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      all_wrong += all;
      if (rank == 0) {
        std::printf("auto chose indexing %s, schedule %s, relabelling %s: %d misplaced elements\n",
                    chosen.indexing.c_str(), chosen.schedule.c_str(), chosen.relabel.c_str(), all);
      }
    }
    MPI_Finalize();
    return all_wrong == 0 ? 0 : 1;
  } catch (const std::invalid_argument& e) {  // every rank throws the same: leave together
    std::fprintf(stderr, "error: %s\n", e.what());
    MPI_Finalize();
    return 1;
  }
}
