// redist-mpi and the example program under mpirun: the phase JSON, the pdgemr2d comparison, and
// bad input reported as one error line per rank with a non-zero exit, never a hang.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>
#include <sstream>

#include "../run_command.hpp"
#include "../temp_dir.hpp"

namespace redist::test {
namespace {

std::string mpirun(int ranks, const std::string& program, const std::string& args) {
  // Leak checks off: Open MPI keeps what MPI_Init allocates (matters in the sanitizer build only).
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none "
         "ASAN_OPTIONS=detect_leaks=0 "
         "timeout 120 " REDIST_MPIRUN " -np " + std::to_string(ranks) + " " + program + " " + args;
}

int error_lines(const std::string& err, const std::string& text) {
  std::istringstream in(err);
  int count = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("redist-mpi: error: ", 0) == 0 && line.find(text) != std::string::npos) ++count;
  }
  return count;
}

TEST(RedistMpi, OneDimensionalRunPrintsTheSimulateJson) {
  const auto r = run_command(mpirun(3, REDIST_MPI_BIN,
                                    "run -P 2 -r 3 -Q 3 -s 6 -N 5000 --indexing krr --schedule greedy --json"));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json.at("P"), 2);
  EXPECT_EQ(json.at("Q"), 3);
  EXPECT_EQ(json.at("N"), 5000);
  EXPECT_EQ(json.at("verified"), true);
  EXPECT_EQ(json.at("indexing"), "krr");
  for (const char* phase : {"index", "pack", "comm", "unpack", "total"}) {
    EXPECT_GE(json.at("phases").at(phase).get<double>(), 0) << phase;
  }
  EXPECT_GE(json.at("phases").at("total").get<double>(), json.at("phases").at("comm").get<double>());
  EXPECT_GT(json.at("bytes").get<long>(), 0);
}

TEST(RedistMpi, TwoDimensionalRunMatchesPdgemr2d) {
  const auto r = run_command(mpirun(4, REDIST_MPI_BIN,
                                    "run --rows 123 --cols 77 --src-grid 2x2 --src-block 8x5 --dst-grid 4x1 "
                                    "--dst-block 3x7 --dst-first 1,0 --reference pdgemr2d --json"));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json.at("verified"), true);
  EXPECT_EQ(json.at("pdgemr2d").at("identical"), true);
  EXPECT_EQ(json.at("N"), 123 * 77);
}

// CYCLIC(4) on 3 -> CYCLIC(2) on 3 of 1200 elements: numbered as is 400 elements stay on their rank,
// the exact relabelling keeps 600 (as `redist simulate --relabel exact` reports).
// sub(A) into sub(B) of its own size, as ScaLAPACK's pdgemr2d takes it, at offsets that cut blocks
// on both sides: the drop-in's submatrix plan writes every element of sub(B) and nothing else of B,
// and ScaLAPACK's pdgemr2d on the same IA, JA, IB, JB leaves the same B.
TEST(RedistMpi, SubmatrixRunVerifiesAndMatchesPdgemr2d) {
  const auto r = run_command(mpirun(4, REDIST_MPI_BIN,
                                    "run --rows 123 --cols 77 --src-grid 2x2 --src-block 8x5 --dst-grid 4x1 "
                                    "--dst-block 3x7 --dst-first 1,0 --dst-matrix 90x100 --src-at 11,5 --dst-at 3,20 "
                                    "--sub 60x50 --reference pdgemr2d --repeat 2 --json"));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json.at("verified"), true);
  EXPECT_EQ(json.at("pdgemr2d").at("identical"), true);
  EXPECT_EQ(json.at("pdgemr2d").at("verified"), true);
  EXPECT_EQ(json.at("indexing"), "submatrix");  // as `redist simulate` names the drop-in's plan
  EXPECT_EQ(json.at("schedule"), "async");
  EXPECT_EQ(json.at("N"), 123 * 77);
  EXPECT_EQ(json.at("sub"), nlohmann::json::array({60, 50}));
  EXPECT_EQ(json.at("src").at("at"), nlohmann::json::array({11, 5}));
  EXPECT_EQ(json.at("dst").at("at"), nlohmann::json::array({3, 20}));
  EXPECT_EQ(json.at("dst").at("matrix"), nlohmann::json::array({90, 100}));
  for (const char* phase : {"index", "pack", "comm", "unpack", "total"}) {
    EXPECT_GE(json.at("phases").at(phase).get<double>(), 0) << phase;
  }
  EXPECT_GT(json.at("phases").at("index").get<double>(), 0);
  EXPECT_GE(json.at("phases").at("total").get<double>(), json.at("phases").at("comm").get<double>());
  EXPECT_GT(json.at("bytes").get<long>(), 0);
  // Disjoint processor sets, the destination grid's first process elsewhere.
  const auto disjoint = run_command(mpirun(4, REDIST_MPI_BIN,
                                           "run --rows 40 --cols 30 --src-grid 2x1 --src-block 4x4 --dst-grid 1x2 "
                                           "--dst-block 5x3 --dst-first 0,1 --src-at 2,3 --sub 37x20 --placement disjoint "
                                           "--reference pdgemr2d --json"));
  ASSERT_EQ(disjoint.status, 0) << disjoint.err;
  const auto apart = nlohmann::json::parse(disjoint.out);
  EXPECT_EQ(apart.at("verified"), true);
  EXPECT_EQ(apart.at("pdgemr2d").at("identical"), true);
  EXPECT_EQ(apart.at("placement"), "disjoint");
}

// The submatrix options are checked as the simulator checks its parameters (requested_matrix_copy),
// and refused where they cannot apply, once, on every rank.
TEST(RedistMpi, SubmatrixOptionsOutsideTheMatrixOrWithWholeMatrixChoicesAreAnErrorOnEveryRank) {
  const std::string copy = "run --rows 20 --cols 20 --src-grid 2x1 --src-block 4x4 --dst-grid 1x2 --dst-block 4x4 ";
  const auto outside = run_command(mpirun(2, REDIST_MPI_BIN, copy + "--src-at 15,1 --sub 10x10"));
  EXPECT_NE(outside.status, 0);
  EXPECT_TRUE(outside.out.empty()) << outside.out;
  EXPECT_EQ(error_lines(outside.err, "source: rows 15-24 x columns 1-10 lie outside its 20 x 20 matrix"), 1)
      << outside.err;
  const auto b_outside = run_command(mpirun(2, REDIST_MPI_BIN, copy + "--dst-matrix 8x30 --sub 10x10"));
  EXPECT_NE(b_outside.status, 0);
  EXPECT_EQ(error_lines(b_outside.err, "destination: rows 1-10 x columns 1-10 lie outside its 8 x 30 matrix"), 1)
      << b_outside.err;
  const auto chosen = run_command(mpirun(2, REDIST_MPI_BIN, copy + "--sub 5x5 --indexing krr"));
  EXPECT_NE(chosen.status, 0);
  EXPECT_EQ(error_lines(chosen.err, "--indexing: a submatrix copy"), 1) << chosen.err;
  const auto row_major = run_command(mpirun(2, REDIST_MPI_BIN, copy + "--sub 5x5 --src-order row-major"));
  EXPECT_NE(row_major.status, 0);
  EXPECT_EQ(error_lines(row_major.err, "its local storage is column-major"), 1) << row_major.err;
  const auto malformed = run_command(mpirun(2, REDIST_MPI_BIN, copy + "--src-at 2x2"));
  EXPECT_NE(malformed.status, 0);
  EXPECT_EQ(error_lines(malformed.err, "--src-at '2x2' is not of the form A,B"), 1) << malformed.err;
  const auto one_dimensional = run_command(mpirun(2, REDIST_MPI_BIN, "run -P 2 -r 1 -Q 2 -s 1 -N 10 --sub 2x2"));
  EXPECT_NE(one_dimensional.status, 0);
  EXPECT_EQ(error_lines(one_dimensional.err, "--sub is a 2-D option"), 1) << one_dimensional.err;
}

TEST(RedistMpi, RelabelledRunVerifiesAndKeepsMoreOnItsRanks) {
  const auto r = run_command(mpirun(3, REDIST_MPI_BIN, "run -P 3 -r 4 -Q 3 -s 2 -N 1200 --relabel exact --json"));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json.at("verified"), true);
  EXPECT_EQ(json.at("relabel").at("method"), "exact");
  EXPECT_EQ(json.at("relabel").at("bytes_kept"), 600 * 8);
  EXPECT_EQ(json.at("relabel").at("bytes_kept_unrelabelled"), 400 * 8);
  EXPECT_EQ(json.at("bytes").get<long>(), (1200 - 600) * 8);
  const auto greedy = run_command(mpirun(3, REDIST_MPI_BIN, "run -P 3 -r 4 -Q 3 -s 2 -N 1200 --relabel greedy --json"));
  ASSERT_EQ(greedy.status, 0) << greedy.err;
  EXPECT_EQ(nlohmann::json::parse(greedy.out).at("verified"), true);
}

// `auto` on real MPI: the ranks predict together, on the machine model `redist explain` wrote for
// them, and run the candidate explain predicts fastest (both price the same work the same way).
TEST(RedistMpi, AutoRunsTheCandidateExplainPredictsFastest) {
  const TempDir dir("redist-sp2-4-ranks");
  const std::string model = (dir / "sp2.model.json").string();
  const std::string pair = " -P 4 -r 4 -Q 4 -s 2 -N 100000";
  const auto explained = run_command(std::string(REDIST_BIN) + " explain --platform " + REDIST_SOURCE_DIR +
                                     "/platforms/sp2.xml" + pair + " --json --write-model " + model);
  ASSERT_EQ(explained.status, 0) << explained.err;
  const std::string choice = nlohmann::json::parse(explained.out).at("choice");
  const auto r = run_command(mpirun(4, REDIST_MPI_BIN, "run" + pair + " --indexing auto --schedule auto --relabel auto --model " +
                                                           model + " --json"));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json.at("verified"), true);
  const auto& chosen = json.at("auto");
  EXPECT_EQ(chosen.at("indexing").get<std::string>() + "/" + chosen.at("schedule").get<std::string>() + "/" +
                chosen.at("relabel").get<std::string>(),
            choice);
  // Without a model there is nothing to predict on: every rank says so.
  const auto refused = run_command(mpirun(4, REDIST_MPI_BIN, "run" + pair + " --schedule auto"));
  EXPECT_NE(refused.status, 0);
  EXPECT_EQ(error_lines(refused.err, "choosing by auto needs a machine model"), 1) << refused.err;
}

TEST(RedistMpi, RelabellingDisjointProcessorsIsAnErrorOnEveryRank) {
  const auto r = run_command(mpirun(6, REDIST_MPI_BIN, "run -P 3 -r 4 -Q 3 -s 2 -N 1200 --placement disjoint "
                                                       "--relabel exact"));
  EXPECT_NE(r.status, 0);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(error_lines(r.err, "--relabel exact places destination processors on the sources' ranks"), 1) << r.err;
}

TEST(RedistMpi, MoreRanksThanTheLayoutsUseIsAnErrorOnEveryRank) {
  const auto r = run_command(mpirun(3, REDIST_MPI_BIN, "run -P 2 -r 3 -Q 2 -s 5 -N 100"));
  EXPECT_NE(r.status, 0);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(error_lines(r.err, "mpirun started 3 ranks, the layouts use 2"), 1) << r.err;
}

TEST(RedistMpi, MalformedOptionsAreAnErrorOnEveryRank) {
  const auto r = run_command(mpirun(2, REDIST_MPI_BIN, "run --rows 10 --cols 10 --src-grid 2y1 --src-block 2x2 "
                                                       "--dst-grid 1x2 --dst-block 2x2"));
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(error_lines(r.err, "--src-grid '2y1' is not of the form AxB"), 1) << r.err;
  const auto zero = run_command(mpirun(2, REDIST_MPI_BIN, "run -P 2 -r 0 -Q 2 -s 1 -N 10"));
  EXPECT_NE(zero.status, 0);
  EXPECT_EQ(error_lines(zero.err, "block"), 1) << zero.err;
  const auto method = run_command(mpirun(2, REDIST_MPI_BIN, "run -P 2 -r 1 -Q 2 -s 1 -N 10 --indexing quick"));
  EXPECT_NE(method.status, 0);
  EXPECT_EQ(error_lines(method.err, "unknown indexing method 'quick'"), 1) << method.err;
  // A negative size is refused as such, not taken for an option left out.
  const auto negative = run_command(mpirun(2, REDIST_MPI_BIN, "run --rows 10 --cols -1 --src-grid 2x1 --src-block 2x2 "
                                                              "--dst-grid 1x2 --dst-block 2x2"));
  EXPECT_NE(negative.status, 0);
  EXPECT_EQ(error_lines(negative.err, "matrix columns must be a positive integer (got -1)"), 1) << negative.err;
}

TEST(RedistMpi, PingPongReportsGrowingTimes) {
  // Short messages against 1 MiB, 10 ms per size: a gap of two orders of magnitude that a loaded
  // machine (ctest -j2 beside other MPI programs) does not close, where 64 KiB at 2 ms once did.
  // The short side is the fastest of the sizes up to 64 B (1, 2, 3, 4, 6, ..., 64: 12 sizes, 120 ms):
  // one of them alone was once measured at 1.8 ms under an ASan build, when for 10 ms no round trip
  // found both ranks on a core; the 1 MiB one took 31 us a second later.
  const auto r = run_command(mpirun(2, REDIST_MPI_BIN, "pingpong --max-bytes 1048576 --seconds-per-size 0.01 --json"));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  const auto sizes = json.at("bytes").get<std::vector<long>>();
  const auto seconds = json.at("seconds").get<std::vector<double>>();
  ASSERT_EQ(sizes.size(), seconds.size());
  EXPECT_EQ(sizes.front(), 1);
  EXPECT_EQ(sizes.back(), 1048576);
  double shortest = 1e300;
  for (std::size_t k = 0; k < sizes.size() && sizes[k] <= 64; ++k) shortest = std::min(shortest, seconds[k]);
  EXPECT_LT(shortest, seconds.back());
}

// The time slice calibrate writes: with 4 ranks on 2 cores bound in turn, ranks 0 and 1 each beside a
// computing rank, a round trip waits for the computing ranks' slices (milliseconds on Linux, against
// microseconds between ranks that poll); on 2 ranks nobody computes: one error line.
TEST(RedistMpi, BusyPingPongWaitsForTheComputingRanksSlice) {
  const auto r = run_command(mpirun(4, "--bind-to core:overload-allowed --map-by core " REDIST_MPI_BIN,
                                    "pingpong --busy --seconds-per-size 0.1 --json"));
  ASSERT_EQ(r.status, 0) << r.err;
  const double round_trip = nlohmann::json::parse(r.out).at("round_trip").get<double>();
  EXPECT_GT(round_trip, 0);
  EXPECT_LT(round_trip, 0.1);
  const auto two = run_command(mpirun(2, REDIST_MPI_BIN, "pingpong --busy --json"));
  EXPECT_NE(two.status, 0);
  EXPECT_EQ(error_lines(two.err, "pingpong --busy needs 3 ranks, mpirun started 2"), 1) << two.err;
}

// The switch cost calibrate writes: with 4 ranks on 2 cores bound in turn, ranks 0 and 2 share core 0
// and 1 and 3 core 1; each message of a pair wakes a rank whose core its partner holds: a round trip
// of microseconds where the ranks yield as they wait (a few time slices at most where other work
// shares the cores). As many ranks as cores share none: one error line.
TEST(RedistMpi, SharedCorePingPongPassesTheCoreFromRankToRank) {
  const auto r = run_command(mpirun(4, "--bind-to core:overload-allowed --map-by core " REDIST_MPI_BIN,
                                    "pingpong --shared-core 2 --seconds-per-size 0.1 --json"));
  ASSERT_EQ(r.status, 0) << r.err;
  const double round_trip = nlohmann::json::parse(r.out).at("round_trip").get<double>();
  EXPECT_GT(round_trip, 1e-7);
  EXPECT_LT(round_trip, 0.1);
  const auto two = run_command(mpirun(2, REDIST_MPI_BIN, "pingpong --shared-core 2 --json"));
  EXPECT_NE(two.status, 0);
  EXPECT_EQ(error_lines(two.err, "pingpong --shared-core 2 needs more ranks than that, mpirun started 2"), 1) << two.err;
}

// The all-to-all calibrate prices the shared link with: 3 ranks move 3·2 messages; its bandwidth is
// those bytes over the time it reports. One rank has no one to exchange with: one error line each.
TEST(RedistMpi, ExchangeReportsTheBytesAllRanksMoved) {
  const auto r = run_command(mpirun(3, REDIST_MPI_BIN, "exchange --bytes 65536 --repeat 3 --json"));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json.at("ranks"), 3);
  EXPECT_EQ(json.at("bytes"), 65536);
  ASSERT_GT(json.at("seconds").get<double>(), 0);
  EXPECT_DOUBLE_EQ(json.at("bandwidth").get<double>(), 6 * 65536 / json.at("seconds").get<double>());
  const auto alone = run_command(mpirun(1, REDIST_MPI_BIN, "exchange"));
  EXPECT_NE(alone.status, 0);
  EXPECT_EQ(error_lines(alone.err, "exchange needs 2 ranks or more, mpirun started 1"), 1) << alone.err;
  const auto empty = run_command(mpirun(2, REDIST_MPI_BIN, "exchange --bytes 0"));
  EXPECT_NE(empty.status, 0);
  EXPECT_EQ(error_lines(empty.err, "--bytes"), 1) << empty.err;
}

TEST(MpiExample, RedistributesAMatrixAndChecksIt) {
  const auto r = run_command(mpirun(4, REDIST_MPI_EXAMPLE, ""));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("0 misplaced elements"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("plan (made in"), std::string::npos) << r.out;  // and its plan, executed three times
  // From a SharedArray on one node (the MPI tests' one): every byte sent is copied once.
  long long once = -1, shared_sent = -2;
  int shared_wrong = -1;
  const auto shared_at = r.out.find("shared source: ");
  ASSERT_NE(shared_at, std::string::npos) << r.out;
  ASSERT_EQ(std::sscanf(r.out.c_str() + shared_at, "shared source: %lld of %lld bytes sent copied once, %d", &once,
                        &shared_sent, &shared_wrong),
            3)
      << r.out;
  EXPECT_EQ(shared_wrong, 0);
  EXPECT_GT(shared_sent, 0);
  EXPECT_EQ(once, shared_sent);
  // Relabelled: every element in place, and fewer bytes sent than numbered as is.
  long long sent = 0, kept = 0, sent_as_is = 0, kept_as_is = 0;
  int wrong = -1;
  const auto at = r.out.find("relabelled: ");
  ASSERT_NE(at, std::string::npos) << r.out;
  ASSERT_EQ(std::sscanf(r.out.c_str() + at,
                        "relabelled: %lld bytes sent, %lld kept on their rank (numbered as is: %lld sent, %lld kept), %d",
                        &sent, &kept, &sent_as_is, &kept_as_is, &wrong),
            5)
      << r.out;
  EXPECT_EQ(wrong, 0);
  EXPECT_LT(sent, sent_as_is);
  EXPECT_GT(kept, kept_as_is);
  EXPECT_EQ(sent + kept, sent_as_is + kept_as_is);
}

// The example's last part: given a machine model, auto picks the way to move the matrix, and moves it.
TEST(MpiExample, AutoChoosesOnAMachineModelAndMovesEveryElement) {
  const TempDir dir("redist-example-4-ranks");
  const std::string model = (dir / "modern-100g.model.json").string();
  const auto written = run_command(std::string(REDIST_BIN) + " explain --platform " + REDIST_SOURCE_DIR +
                                   "/platforms/modern-100g.xml -P 4 -Q 4 -N 1000 --write-model " + model);
  ASSERT_EQ(written.status, 0) << written.err;
  const auto r = run_command(mpirun(4, REDIST_MPI_EXAMPLE, model));
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  char indexing[32] = {}, schedule[32] = {}, relabel[32] = {};
  int wrong = -1;
  const auto at = r.out.find("auto chose ");
  ASSERT_NE(at, std::string::npos) << r.out;
  ASSERT_EQ(std::sscanf(r.out.c_str() + at, "auto chose indexing %31s schedule %31s relabelling %31s %d", indexing,
                        schedule, relabel, &wrong),
            4)
      << r.out;
  EXPECT_EQ(wrong, 0);
  for (const char* name : {indexing, schedule, relabel}) EXPECT_EQ(std::string(name).find("auto"), std::string::npos) << r.out;
}

// The installed reference library's example: redist's move and pdgemr2d's give the same bytes.
TEST(MpiExample, ComparesWithPdgemr2dAndAgrees) {
  const auto r = run_command(mpirun(4, REDIST_MPI_COMPARE_EXAMPLE, ""));
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("identical results: redist"), std::string::npos) << r.out;
}

// --version names redist-mpi, the SimGrid it was built with and the MPI library; it needs no
// mpirun (MPI_Get_library_version works before MPI_Init); under mpirun it works too (each process
// may print it).
TEST(RedistMpi, VersionNamesTheProjectSimGridAndTheMpiLibrary) {
  const auto alone = run_command("ASAN_OPTIONS=detect_leaks=0 timeout 60 " REDIST_MPI_BIN " --version");
  ASSERT_EQ(alone.status, 0) << alone.err;
  EXPECT_EQ(alone.out.rfind("redist-mpi ", 0), 0u) << alone.out;
  EXPECT_NE(alone.out.find("\nSimGrid 3."), std::string::npos) << alone.out;
  EXPECT_NE(alone.out.find("\nMPI "), std::string::npos) << alone.out;
  const auto launched = run_command(mpirun(2, REDIST_MPI_BIN, "--version"));
  ASSERT_EQ(launched.status, 0) << launched.err;
  EXPECT_EQ(launched.out.rfind(alone.out, 0), 0u) << launched.out;
}

}  // namespace
}  // namespace redist::test
