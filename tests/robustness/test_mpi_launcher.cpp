// `redist calibrate` and `redist validate` start mpirun without a shell: paths with spaces reach it
// whole (a --redist-mpi path with a space once failed, and with a TMPDIR holding a space mpirun's
// errors went to a stray file); a --mpirun or --redist-mpi that cannot run is named with the reason
// before anything starts (once "failed: no error message", or a fragment of mpirun's help); output
// that is not redist-mpi's is reported as such, with the command.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "../run_command.hpp"

namespace redist::test {
namespace {

namespace fs = std::filesystem;

std::string shell_word(const fs::path& path) { return "'" + path.string() + "'"; }

void write_program(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
  fs::permissions(path, fs::perms::owner_all);
}

// The phases JSON of `redist-mpi run --json`, every case 1 s.
const std::string kRunJson =
    "#!/bin/sh\necho '{\"verified\": true, \"phases\": {\"index\": 0.25, \"pack\": 0.25, \"comm\": 0.25, "
    "\"unpack\": 0.25, \"total\": 1.0}}'\n";

// A stand-in for mpirun that takes `-np N PROGRAM ARGS...` as mpirun does and runs PROGRAM once;
// any other shape of arguments is an error.
const std::string kFakeMpirun =
    "#!/bin/sh\n"
    "[ \"$1\" = -np ] && [ -f \"$3\" ] || { echo \"mpirun error: not -np N PROGRAM: $*\" >&2; exit 3; }\n"
    "shift 2\nexec \"$@\"\n";

CommandResult calibrate(const TempDir& dir, const std::string& options) {
  return run_command("timeout 60 " REDIST_BIN " calibrate --passes 1 --cores 2 --out " + shell_word(dir / "p.xml") + " " +
                     options);
}

TEST(MpiLauncher, PathsWithSpacesReachMpirunWholeAndNothingIsLeftInTmpdir) {
  const TempDir dir("redist-launcher");
  const fs::path spaced = dir / "with space", tmp = dir / "tmp dir";
  fs::create_directories(spaced);
  fs::create_directories(tmp);
  write_program(spaced / "mpirun", kFakeMpirun);
  write_program(spaced / "redist-mpi", kRunJson);
  const auto r = run_command("TMPDIR=" + shell_word(tmp) + " timeout 120 " REDIST_BIN " validate --platform " REDIST_SOURCE_DIR
                             "/platforms/sp2.xml --json --pairs-side 0 --random-2d 0 --within-cores 0 --mpirun " +
                             shell_word(spaced / "mpirun") + " --redist-mpi " +
                             shell_word(spaced / "redist-mpi"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_empty(tmp)) << "files left in TMPDIR";
}

TEST(MpiLauncher, ProgramsThatCannotRunAreNamedWithTheReason) {
  const TempDir dir("redist-launcher");
  fs::create_directories(dir / "folder");
  write_program(dir / "empty", "");
  std::ofstream(dir / "plain") << "#!/bin/sh\n";
  const std::string missing = (dir / "missing").string(), folder = (dir / "folder").string();
  const std::string empty = (dir / "empty").string(), plain = (dir / "plain").string();
  for (const std::string option : {"--mpirun", "--redist-mpi"}) {
    const struct {
      std::string path, reason;
    } cases[] = {{missing, "no such file"},
                 {folder, "a directory, not a program"},
                 {empty, "an empty file, not a program"},
                 {plain, "not executable (no execute permission)"}};
    for (const auto& c : cases) {
      const auto r = calibrate(dir, option + " " + shell_word(c.path));
      expect_one_error_line(r);
      EXPECT_EQ(r.err, "redist: error: " + option + " " + c.path + ": " + c.reason + "\n");
    }
  }
  const auto nameless = calibrate(dir, "--mpirun ''");
  expect_one_error_line(nameless);
  EXPECT_EQ(nameless.err, "redist: error: --mpirun is empty: it names the MPI launcher (default: mpirun --oversubscribe --bind-to core:overload-allowed --map-by core)\n");
  const auto unknown = calibrate(dir, "--mpirun 'no-such-mpirun-anywhere --oversubscribe'");
  expect_one_error_line(unknown);
  EXPECT_EQ(unknown.err, "redist: error: --mpirun no-such-mpirun-anywhere: no program of that name on PATH\n");
}

TEST(MpiLauncher, OutputThatIsNotRedistMpisAndFailuresNameTheCommand) {
  const TempDir dir("redist-launcher");
  write_program(dir / "mpirun", kFakeMpirun);
  write_program(dir / "hello", "#!/bin/sh\necho hello\n");
  write_program(dir / "other-json", "#!/bin/sh\necho '{\"x\": 1}'\n");
  write_program(dir / "failing", "#!/bin/sh\necho 'redist-mpi: error: something is wrong' >&2\nexit 1\n");
  const std::string mpirun = (dir / "mpirun").string();
  const std::string command = mpirun + " -np 2 " + (dir / "PROGRAM").string() +
                              " pingpong --max-bytes 16777216 --seconds-per-size 0.05 --json";
  const auto with = [&](const std::string& program) {
    std::string text = command;
    text.replace(text.find("PROGRAM"), 7, program);
    return text;
  };
  const auto hello = calibrate(dir, "--mpirun " + mpirun + " --redist-mpi " + (dir / "hello").string());
  expect_one_error_line(hello);
  EXPECT_EQ(hello.err, "redist: error: " + with("hello") + " printed 'hello', not the JSON object redist-mpi prints\n");
  const auto other = calibrate(dir, "--mpirun " + mpirun + " --redist-mpi " + (dir / "other-json").string());
  expect_one_error_line(other);
  EXPECT_EQ(other.err.rfind("redist: error: " + with("other-json") + " printed JSON that is not redist-mpi's (", 0), 0u)
      << other.err;
  const auto failing = calibrate(dir, "--mpirun " + mpirun + " --redist-mpi " + (dir / "failing").string());
  expect_one_error_line(failing);
  EXPECT_EQ(failing.err,
            "redist: error: " + with("failing") + " failed (exit status 1): redist-mpi: error: something is wrong\n");
  EXPECT_FALSE(fs::exists(dir / "p.xml"));
}

// True while process `pid` runs (a zombie, ended but not yet reaped, does not).
bool process_runs(const std::string& pid) {
  std::ifstream stat("/proc/" + pid + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

// A mpirun that hangs is ended after --mpirun-timeout with its whole process group, SIGTERM then
// SIGKILL (once `redist calibrate` and `validate` waited for it forever). The stand-in ignores
// SIGTERM, and so does the "rank" it starts: both are gone after SIGKILL, the command named.
TEST(MpiLauncher, AMpirunThatHangsIsKilledWithItsRanksAfterTheTimeout) {
  const TempDir dir("redist-launcher");
  const fs::path pid_file = dir / "rank.pid";
  write_program(dir / "mpirun", "#!/bin/sh\ntrap '' TERM\nsleep 600 &\necho $! > " + shell_word(pid_file) + "\nwait\n");
  write_program(dir / "redist-mpi", kRunJson);
  const std::string command = (dir / "mpirun").string() + " -np 2 " + (dir / "redist-mpi").string() +
                              " pingpong --max-bytes 16777216 --seconds-per-size 0.05 --json";
  const auto start = std::chrono::steady_clock::now();
  const auto r = calibrate(dir, "--mpirun " + shell_word(dir / "mpirun") + " --redist-mpi " +
                                    shell_word(dir / "redist-mpi") + " --mpirun-timeout 1");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  expect_one_error_line(r);
  EXPECT_EQ(r.err, "redist: error: " + command + " did not finish within 1 s (killed)\n");
  EXPECT_LT(seconds, 30.0) << "SIGKILL follows SIGTERM after 5 s";
  const std::string rank = slurp(pid_file);
  ASSERT_FALSE(rank.empty());
  EXPECT_FALSE(process_runs(rank.substr(0, rank.find('\n')))) << "the rank outlived the timeout";
  EXPECT_FALSE(fs::exists(dir / "p.xml"));
  // The option's default is generous: 30 minutes.
  const auto help = run_command("timeout 60 " REDIST_BIN " calibrate --help");
  EXPECT_NE(help.out.find("--mpirun-timeout"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("1800"), std::string::npos) << help.out;
}

// Stopped by SIGTERM, redist passes it to mpirun's group, and kills what is left of the group 3 s
// later: an mpirun that ignores SIGTERM does not outlive it.
TEST(MpiLauncher, AStoppedRedistLeavesNoMpirunThatIgnoresSigterm) {
  const TempDir dir("redist-launcher");
  const fs::path mpirun_pid = dir / "mpirun.pid", rank_pid = dir / "rank.pid";
  write_program(dir / "mpirun", "#!/bin/sh\ntrap '' TERM\necho $$ > " + shell_word(mpirun_pid) + "\nsleep 600 &\necho $! > " +
                                    shell_word(rank_pid) + "\nwait\n");
  write_program(dir / "redist-mpi", kRunJson);
  const auto r = run_command("timeout -s TERM 2 " REDIST_BIN " calibrate --passes 1 --cores 2 --out " +
                             shell_word(dir / "p.xml") + " --mpirun " + shell_word(dir / "mpirun") + " --redist-mpi " +
                             shell_word(dir / "redist-mpi"));
  EXPECT_NE(r.status, 0);
  const std::string mpirun = slurp(mpirun_pid), rank = slurp(rank_pid);
  ASSERT_FALSE(mpirun.empty());
  ASSERT_FALSE(rank.empty());
  bool left = true;
  for (int wait = 0; wait < 100 && left; ++wait) {  // reparented: init reaps them a moment later
    left = process_runs(mpirun.substr(0, mpirun.find('\n'))) || process_runs(rank.substr(0, rank.find('\n')));
    if (left) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_FALSE(left) << "mpirun or its rank outlived redist";
  EXPECT_FALSE(fs::exists(dir / "p.xml"));
}

}  // namespace
}  // namespace redist::test
