// Memory before allocation. Commands that hold real payload or per-element tables
// estimate their peak first and refuse, at once, what does not fit in MemAvailable or --max-memory,
// naming the need and the phantom alternative where there is one.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "../run_command.hpp"
#include "../temp_dir.hpp"

namespace redist::test {
namespace {

namespace fs = std::filesystem;

struct Timed {
  CommandResult result;
  double seconds;
};

// Under `timeout` and `ulimit -v` (8 GiB of address space): a command that allocated instead of
// refusing would fail with bad_alloc or be killed, not pass. AddressSanitizer reserves terabytes of
// shadow address space at start, so a sanitizer build runs without `ulimit -v`; its allocator still
// aborts on the oversized allocations these tests guard against.
#ifdef __SANITIZE_ADDRESS__
constexpr const char* kAddressLimit = "";
#else
constexpr const char* kAddressLimit = "ulimit -v 8388608; ";
#endif

Timed redist(const std::string& args) {
  const auto start = std::chrono::steady_clock::now();
  auto result = run_command(std::string(kAddressLimit) + "timeout 60 " REDIST_BIN " " + args);
  return {std::move(result), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

const std::string kTwoHosts = REDIST_TEST_DATA "/platforms/two_hosts.xml";

// "Under a second" on an idle machine; the bound leaves room for a loaded one.
constexpr double kQuick = 3.0;

void expect_refusal(const Timed& t, const std::string& need, const std::string& alternative) {
  expect_one_error_line(t.result);
  EXPECT_NE(t.result.err.find(need), std::string::npos) << t.result.err;
  EXPECT_NE(t.result.err.find("of memory, more than the"), std::string::npos) << t.result.err;
  EXPECT_NE(t.result.err.find(alternative), std::string::npos) << t.result.err;
  EXPECT_LT(t.seconds, kQuick);
}

TEST(MemoryGuard, SimulateWithRealPayloadBeyondMemoryIsRefused) {
  // 10^12 doubles: 32 TB estimated, more than any machine this runs on (payload auto would go phantom).
  const auto t = redist("simulate --platform " + kTwoHosts + " -P 2 -r 1 -Q 2 -s 3 -N 1000000000000 --indexing pitfalls --payload real");
  // The limit is MemAvailable, or the address space left under `ulimit -v` when that is less.
  expect_refusal(t, "a redistribution of N = 1000000000000 elements with real payload needs about 29.1 TiB",
                 "); use --phantom");
}

TEST(MemoryGuard, SimulateOfABillionElementsIsRefusedUnderTheLimitGiven) {
  // The issue's case: -N 1e9 reached 3.4 GB and ended in bad_alloc. 4 x 8 GB estimated.
  const auto t = redist("simulate --platform " + kTwoHosts + " -P 2 -r 1 -Q 2 -s 3 -N 1000000000 --payload real --max-memory 4000000000");
  expect_refusal(t, "needs about 29.8 GiB (32000000000 bytes) of memory, more than the 3.7 GiB available (--max-memory)",
                 "use --phantom");
}

TEST(MemoryGuard, MaxMemoryCanLowerAndRaiseTheLimit) {
  const std::string run = "simulate --platform " + kTwoHosts + " -P 2 -r 1 -Q 2 -s 3 -N 1000";
  expect_refusal(redist(run + " --max-memory 31999"), "needs about 31.2 KiB (32000 bytes)", "use --phantom");
  EXPECT_EQ(redist(run + " --max-memory 32000").result.status, 0);
  EXPECT_EQ(redist(run + " --max-memory 1000000000000000").result.status, 0);  // above MemAvailable: the user's call
  EXPECT_EQ(redist(run + " --phantom --max-memory 1").result.status, 0);       // phantom holds no payload
}

TEST(MemoryGuard, PackOfA65536Square) {
  const auto t = redist("pack --platform " + kTwoHosts + " --shape 65536x65536 --grid 2x1 --block 64");
  expect_refusal(t, "a PACK of 4294967296 elements needs about 192.0 GiB", "no --phantom");
}

TEST(MemoryGuard, UnpackOfFourBillion) {
  const auto t = redist("unpack --platform " + kTwoHosts + " --shape 4000000000 --grid 2 --block 64");
  expect_refusal(t, "an UNPACK of 4000000000 elements needs about 178.8 GiB", "no --phantom");
}

TEST(MemoryGuard, PackBelowTheLimitRuns) {
  const std::string run = "pack --platform " + kTwoHosts + " --shape 64x64 --grid 2x1 --block 4";
  EXPECT_EQ(redist(run).result.status, 0);
  expect_refusal(redist(run + " --max-memory 196607"), "a PACK of 4096 elements needs about 192.0 KiB", "smaller --shape");
}

TEST(MemoryGuard, SraWithRealPayload) {
  const std::string run = "sra --platform " + kTwoHosts + " -n 512 -P 2 -x 16 -y 16";
  EXPECT_EQ(redist(run).result.status, 0);
  // 512^2 x 4 bytes x 4 = 4 MiB.
  expect_refusal(redist(run + " --max-memory 4194303"), "a symmetric redistribution of n = 512 with real payload needs about 4.0 MiB",
                 "use --phantom");
  EXPECT_EQ(redist(run + " --phantom --max-memory 1").result.status, 0);
}

TEST(MemoryGuard, ReplayOfARealPayloadScenario) {
  const TempDir dir("redist-memory-guard");
  fs::copy_file(kTwoHosts, dir / "two_hosts.xml", fs::copy_options::overwrite_existing);
  std::ofstream(dir / "real.yaml") << R"(scenario: real
platform: two_hosts.xml
experiment: redistribute
fixed: {P: 2, Q: 2, r: 1, s: 3, N: 100000}
methods:
  - name: async
    schedule: async
phases: [total]
payload: real
)";
  const std::string run = "sweep --no-plot --out " + (dir / "out").string() + " " + (dir / "real.yaml").string();
  expect_refusal(redist(run + " --max-memory 3199999"), "a redistribution of N = 100000 elements with real payload needs about 3.1 MiB",
                 "payload: phantom in a scenario");
  EXPECT_EQ(redist(run + " --max-memory 3200000").result.status, 0);
}

}  // namespace
}  // namespace redist::test
