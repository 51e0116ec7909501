#!/usr/bin/env python3
"""Robustness of `redist` against a full disk, stop signals and a second run into one folder.

Run by ctest (label `robustness`) as `test_robustness.py REDIST_BIN [unittest arguments]`. Needs
no root: a full disk is a file size limit (RLIMIT_FSIZE, with SIGXFSZ ignored so that a write
fails with EFBIG instead of killing the process).
"""
import ctypes
import hashlib
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

REDIST = ""  # set from argv
DATA = Path(__file__).resolve().parent / "data"
SMALL = DATA / "small-sweep.yaml"
SLOW = DATA / "slow-sweep.yaml"
PR_SET_CHILD_SUBREAPER = 36
STOP_WITHIN = 2.0  # seconds


def limited(limit_bytes):
    """preexec_fn: a file size limit, with the signal that would kill the writer ignored."""
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))
    return apply


def run(args, limit_bytes=None, timeout=300):
    return subprocess.run([REDIST, *args], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL,
                          preexec_fn=limited(limit_bytes) if limit_bytes is not None else None)


def snapshot(folder):
    """Every file of a folder with its bytes' digest."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in Path(folder).iterdir()
            if p.is_file() and p.name != ".redist.lock"}  # the lock names its latest holder


def temporaries(folder):
    return [p.name for p in Path(folder).iterdir() if ".tmp" in p.name]


def assert_one_error_line(test, result, *fragments):
    test.assertNotEqual(result.returncode, 0, result.stdout + result.stderr)
    lines = result.stderr.splitlines()
    test.assertEqual(len(lines), 1, result.stderr)
    test.assertTrue(lines[0].startswith("redist: error: "), result.stderr)
    for fragment in fragments:
        test.assertIn(fragment, lines[0])


class FullDisk(unittest.TestCase):
    """Reports are published whole: a failed write leaves every earlier file as it was."""

    def test_replay_under_a_write_limit_keeps_every_earlier_file(self):
        with tempfile.TemporaryDirectory() as out:
            good = run(["sweep", str(SMALL), "--jobs", "2", "--out", out])
            self.assertEqual(good.returncode, 0, good.stderr)
            before = snapshot(out)
            self.assertTrue(any(name.endswith(".png") for name in before), before)
            failed = 0
            for k in (1, 2, 3, 4, 8, 16):
                result = run(["sweep", str(SMALL), "--jobs", "2", "--out", out], limit_bytes=k * 4096)
                if result.returncode != 0:
                    failed += 1
                    assert_one_error_line(self, result, "File too large")
                    # Nothing computed is lost: the Markdown summary is on standard output.
                    self.assertIn("robustness-small", result.stdout)
                after = snapshot(out)
                for name, digest in before.items():
                    self.assertEqual(after.get(name), digest, f"{name} changed under a {k} x 4 KiB limit")
                self.assertEqual(temporaries(out), [], f"k = {k}")
            self.assertGreater(failed, 0, "no limit made a write fail: the test proves nothing")

    def test_an_unwritable_out_fails_before_any_simulation(self):
        with tempfile.TemporaryDirectory() as out:
            start = time.monotonic()
            result = run(["sweep", str(SLOW), "--out", out], limit_bytes=0, timeout=30)
            self.assertLess(time.monotonic() - start, 5.0, "the simulations ran before the check")
            assert_one_error_line(self, result, "cannot write to " + out, "File too large")
            self.assertEqual(result.stdout, "")


class Trace(unittest.TestCase):
    """`simulate --trace`: checked before the simulation, published whole after it."""

    ARGS = ["simulate", "--platform", str(DATA.parent.parent.parent / "platforms" / "paragon.xml"),
            "-P", "4", "-r", "2", "-Q", "4", "-s", "3", "-N", "4800"]

    def test_a_trace_in_a_missing_folder_is_one_error(self):
        with tempfile.TemporaryDirectory() as out:
            result = run(self.ARGS + ["--trace", str(Path(out) / "missing" / "t.trace")])
            assert_one_error_line(self, result, "No such file or directory")

    def test_a_trace_onto_a_directory_is_one_error(self):
        with tempfile.TemporaryDirectory() as out:
            result = run(self.ARGS + ["--trace", out])
            assert_one_error_line(self, result, "Is a directory")

    def test_a_trace_in_an_unwritable_place_is_one_error(self):
        result = run(self.ARGS + ["--trace", "/proc/redist.trace"])
        assert_one_error_line(self, result, "/proc/redist.trace")

    def test_a_trace_cut_short_by_a_full_disk_is_an_error_and_keeps_the_old_one(self):
        with tempfile.TemporaryDirectory() as out:
            target = Path(out) / "t.trace"
            target.write_text("earlier trace\n")
            result = run(self.ARGS + ["--trace", str(target)], limit_bytes=4096)
            assert_one_error_line(self, result, "File too large")
            self.assertEqual(target.read_text(), "earlier trace\n")
            self.assertEqual(temporaries(out), [])

    def test_a_trace_is_written_whole(self):
        with tempfile.TemporaryDirectory() as out:
            target = Path(out) / "t.trace"
            result = run(self.ARGS + ["--trace", str(target)])
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertGreater(target.stat().st_size, 4096)
            self.assertEqual(sorted(p.name for p in Path(out).iterdir()), ["t.trace"])


REAPED = {}  # pid -> wait status, of every child and adopted orphan reaped


def reap():
    """Reaps every child and orphan this process adopted (as subreaper), without blocking."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        REAPED[pid] = status


def session_members(sid):
    """Live processes of a session (redist starts one; mpirun gets a process group of its own in it)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def group_size(sid):
    return len(session_members(sid))


def kill_session(sid):
    for pid in session_members(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class Stops(unittest.TestCase):
    """A stop signal to the redist process (not its group) ends everything it started."""

    @classmethod
    def setUpClass(cls):
        # Orphans are re-parented to us, so that they can be reaped and counted, not to init.
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

    def start(self, args, out):
        process = subprocess.Popen([REDIST, *args], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 30
        while group_size(process.pid) < self.busy_processes and time.monotonic() < deadline:
            self.assertNotIn(process.pid, REAPED, "redist ended before it was stopped")
            time.sleep(0.05)
        self.assertGreaterEqual(group_size(process.pid), self.busy_processes)
        time.sleep(0.3)
        return process

    def stop_and_check(self, process, sig, out):
        os.kill(process.pid, sig)
        deadline = time.monotonic() + STOP_WITHIN
        while time.monotonic() < deadline:
            reap()
            if process.pid in REAPED and group_size(process.pid) == 0:
                break
            time.sleep(0.02)
        left = group_size(process.pid)
        kill_session(process.pid)  # whatever is left must not outlive the test
        time.sleep(0.1)
        reap()
        self.assertEqual(left, 0, f"{left} process(es) of the run still alive {STOP_WITHIN} s after {sig.name}")
        status = REAPED.get(process.pid)
        process.returncode = -1 if status is None else status  # reaped here, not by Popen
        self.assertTrue(status is not None and os.WIFSIGNALED(status) and os.WTERMSIG(status) == sig,
                        f"redist did not end by {sig.name} (wait status {status})")
        if out is not None:
            self.assertEqual(temporaries(out), [])

    busy_processes = 5  # redist, 2 workers, their 2 simulations

    def sweep_stop(self, sig):
        with tempfile.TemporaryDirectory() as out:
            process = self.start(["sweep", str(SLOW), "--jobs", "2", "--out", out], out)
            self.stop_and_check(process, sig, out)

    def test_sigint_ends_a_sweep_and_its_simulations(self):
        self.sweep_stop(signal.SIGINT)

    def test_sigterm_ends_a_sweep_and_its_simulations(self):
        self.sweep_stop(signal.SIGTERM)

    def test_sighup_ends_a_sweep_and_its_simulations(self):
        self.sweep_stop(signal.SIGHUP)

    def test_sigkill_of_redist_ends_its_simulations(self):
        self.sweep_stop(signal.SIGKILL)

    def test_sigterm_ends_a_single_job_replay(self):
        self.busy_processes = 2  # redist and its simulation
        with tempfile.TemporaryDirectory() as out:
            process = self.start(["sweep", str(SLOW), "--out", out], out)
            self.stop_and_check(process, signal.SIGTERM, out)

    def test_sigterm_ends_mpirun_and_its_ranks(self):
        # A stand-in for mpirun that starts two "ranks" and waits for them.
        with tempfile.TemporaryDirectory() as out:
            fake = Path(out) / "fake-mpirun"
            fake.write_text("#!/bin/sh\nsleep 300 &\nsleep 300 &\nwait\n")
            fake.chmod(0o755)
            self.busy_processes = 4  # redist, the stand-in, two ranks
            process = self.start(["calibrate", "--out", str(Path(out) / "m.xml"), "--mpirun", str(fake),
                                  "--redist-mpi", "/bin/true"], None)
            self.stop_and_check(process, signal.SIGTERM, None)


class OneWriterPerFolder(unittest.TestCase):
    """A second run into a folder being written is refused at once, naming the first."""

    def test_a_second_run_into_a_busy_folder_is_refused(self):
        with tempfile.TemporaryDirectory() as out:
            first = subprocess.Popen([REDIST, "sweep", str(SLOW), "--jobs", "2", "--out", out],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
            try:
                deadline = time.monotonic() + 30
                lock = Path(out) / ".redist.lock"
                while (not lock.exists() or str(first.pid) not in lock.read_text()) and time.monotonic() < deadline:
                    time.sleep(0.05)
                second = run(["sweep", str(SMALL), "--out", out], timeout=60)
                assert_one_error_line(self, second, "another redist run", f"pid {first.pid}", "sweep")
                # Only the first run's lock and (once its runs start) its journal for --resume: the
                # refused run wrote nothing.
                first_runs_files = {".redist.lock", ".robustness-slow.journal"}
                self.assertIn(".redist.lock", [p.name for p in Path(out).iterdir()])
                self.assertEqual([p.name for p in Path(out).iterdir() if p.name not in first_runs_files], [])
            finally:
                kill_session(first.pid)
                first.wait()
            third = run(["sweep", str(SMALL), "--out", out])  # the lock ended with its holder
            self.assertEqual(third.returncode, 0, third.stderr)
            # A run that ends normally leaves no lock file behind.
            self.assertNotIn(".redist.lock", [p.name for p in Path(out).iterdir()])

PLATFORMS = DATA.parent.parent.parent / "platforms"
TEST_PLATFORMS = DATA.parent.parent / "data" / "platforms"


def small_sweep(folder, name="b.yaml", values="[1, 2]"):
    """A copy of the small sweep (same scenario name) over other source block sizes."""
    path = Path(folder) / name
    path.write_text(SMALL.read_text().replace("r: [1, 2, 4, 8]", "r: " + values))
    return path


def report_files(folder):
    return sorted(p.name for p in Path(folder).iterdir() if not p.name.startswith("."))


def fingerprint(scenario, platform=None):
    """The journal's fingerprint of a sweep's inputs, its scenario file and its platform (FNV-1a, 64
    bits over each file's length, a colon and its bytes, as redist computes it)."""
    h = 0xcbf29ce484222325
    for path in (scenario, platform or PLATFORMS / "paragon.xml"):
        data = Path(path).read_bytes()
        for byte in str(len(data)).encode() + b":" + data:
            h = ((h ^ byte) * 0x100000001b3) % (1 << 64)
    return "%016x" % h


class SharedOutputs(unittest.TestCase):
    """Two inputs that would write the same reports are refused before anything runs."""

    def test_two_sweeps_of_one_scenario_are_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            other = small_sweep(folder)
            out = Path(folder) / "out"
            result = run(["sweep", str(SMALL), str(other), "--no-plot", "--out", str(out)], timeout=60)
            assert_one_error_line(self, result, str(SMALL), str(other), "robustness-small")
            self.assertFalse(out.exists() and report_files(out), "something was written")

    def test_one_scenario_replayed_from_two_files_is_refused(self):
        scenario = DATA.parent.parent.parent / "scenarios" / "paper000-table1.yaml"
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / "copy.yaml"
            copy.write_text(scenario.read_text())
            out = Path(folder) / "out"
            result = run(["replay", str(scenario), str(copy), "--no-plot", "--out", str(out)], timeout=60)
            assert_one_error_line(self, result, str(scenario), str(copy), "paper000-table1")
            self.assertFalse(out.exists() and report_files(out), "something was written")
            result = run(["replay", str(scenario), str(scenario), "--no-plot", "--out", str(out)], timeout=60)
            assert_one_error_line(self, result, str(scenario), "given twice")


class PlannedOutputs(unittest.TestCase):
    """Outputs are checked before the first run, and a report's files are published together."""

    def test_a_method_name_that_is_not_utf8_is_refused_before_any_run(self):
        with tempfile.TemporaryDirectory() as folder:
            bad = Path(folder) / "bad.yaml"
            bad.write_bytes(SMALL.read_bytes().replace(b"name: async", b"name: as\xffync"))
            out = Path(folder) / "out"
            result = run(["sweep", str(bad), "--no-plot", "--out", str(out)], timeout=60)
            assert_one_error_line(self, result, f"{bad}:10", "byte 0xFF", "not UTF-8")
            self.assertFalse(out.exists(), "the output folder was made")

    def test_validate_json_refuses_a_platform_path_that_is_not_utf8_before_measuring(self):
        with tempfile.TemporaryDirectory() as folder:
            platform = os.path.join(folder.encode(), b"par\xffagon.xml")
            Path(os.fsdecode(platform)).write_bytes((PLATFORMS / "paragon.xml").read_bytes())
            start = time.monotonic()
            result = subprocess.run([REDIST.encode(), b"validate", b"--platform", platform, b"--json", b"--quick",
                                     b"--mpirun", b"/bin/false"], capture_output=True, timeout=60,
                                    stdin=subprocess.DEVNULL)
            self.assertNotEqual(result.returncode, 0)
            lines = result.stderr.decode(errors="replace").splitlines()
            self.assertEqual(len(lines), 1, lines)
            self.assertIn("--platform: byte 0xFF", lines[0])
            self.assertLess(time.monotonic() - start, 5.0)

    def test_calibrate_checks_its_model_file_before_measuring_and_keeps_the_old_platform(self):
        with tempfile.TemporaryDirectory() as folder:
            platform = Path(folder) / "d.xml"
            platform.write_text("old\n")
            (Path(folder) / "d.model.json").mkdir()  # the model cannot be written
            start = time.monotonic()
            result = run(["calibrate", "--out", str(platform), "--passes", "1", "--max-bytes", "64",
                          "--seconds-per-size", "0.0001", "--cores", "1"], timeout=120)
            assert_one_error_line(self, result, "cannot write " + str(Path(folder) / "d.model.json"), "Is a directory")
            self.assertLess(time.monotonic() - start, 3.0, "it measured before checking its outputs")
            self.assertEqual(platform.read_text(), "old\n")

    def test_fit_checks_both_outputs_before_the_replays(self):
        with tempfile.TemporaryDirectory() as folder:
            fitted = Path(folder) / "fitted.xml"
            report = Path(folder) / "report.json"
            report.mkdir()  # the JSON report cannot be written
            start = time.monotonic()
            result = run(["fit", str(PLATFORMS / "cm5.fit.yaml"), "--cross-validation", "none", "--out", str(fitted),
                          "--json", str(report)], timeout=120)
            # Loading the spec takes seconds on a loaded machine; the fit itself takes minutes.
            self.assertLess(time.monotonic() - start, 60.0, "it fitted before checking its outputs")
            assert_one_error_line(self, result, "cannot write " + str(report), "Is a directory")
            self.assertFalse(fitted.exists())

    def test_a_report_path_taken_by_a_folder_is_refused_before_any_run(self):
        with tempfile.TemporaryDirectory() as out:
            (Path(out) / "robustness-slow.json").mkdir()
            start = time.monotonic()
            result = run(["sweep", str(SLOW), "--no-plot", "--out", out], timeout=60)
            self.assertLess(time.monotonic() - start, 5.0, "the simulations ran before the check")
            assert_one_error_line(self, result, "cannot write " + str(Path(out) / "robustness-slow.json"),
                                  "Is a directory")
            self.assertEqual(report_files(out), ["robustness-slow.json"])

    def test_a_late_write_failure_leaves_none_of_a_reports_files(self):
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "out"
            good = run(["sweep", str(SMALL), "--no-plot", "--out", str(out)])
            self.assertEqual(good.returncode, 0, good.stderr)
            before = snapshot(out)
            other = small_sweep(folder)  # the same reports, other contents
            failures = 0
            for k in range(1, 12):
                result = run(["sweep", str(other), "--no-plot", "--out", str(out)], limit_bytes=k * 1024)
                after = snapshot(out)
                changed = sorted(name for name in before if after.get(name) != before[name])
                if result.returncode != 0:
                    failures += 1
                    self.assertEqual(changed, [], f"under a {k} KiB limit a failed run replaced {changed}")
                    self.assertEqual(temporaries(out), [])
                else:
                    self.assertEqual(changed, sorted(before), f"under a {k} KiB limit a run published only {changed}")
                    break
            self.assertGreater(failures, 0, "no limit made a write fail")


class Temporaries(unittest.TestCase):
    """Temporaries are removed however the command ends, stop signals included."""

    def test_sigterm_to_fit_removes_its_candidate_platforms(self):
        with tempfile.TemporaryDirectory() as folder:
            env = dict(os.environ, TMPDIR=folder)
            process = subprocess.Popen([REDIST, "fit", str(PLATFORMS / "cm5.fit.yaml"), "--cross-validation", "none",
                                        "--out", str(Path(folder) / "fitted.xml")], env=env,
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                deadline = time.monotonic() + 60
                while not list(Path(folder).glob("redist-fit-*/candidate-*.xml")) and time.monotonic() < deadline:
                    time.sleep(0.05)
                self.assertTrue(list(Path(folder).glob("redist-fit-*/candidate-*.xml")), "no candidate appeared")
                process.send_signal(signal.SIGTERM)
                self.assertEqual(process.wait(timeout=10), -signal.SIGTERM)
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
            self.assertEqual(list(Path(folder).iterdir()), [])


class Readers(unittest.TestCase):
    """Damaged inputs: one line naming the file, the key or line, what was found and what is allowed."""

    def test_a_damaged_journal_is_named_with_its_line(self):
        with tempfile.TemporaryDirectory() as out:
            journal = Path(out) / ".robustness-small.journal"
            zeros = "[" + ",".join(["0"] * 9) + "]"
            journal.write_text(f"{fingerprint(SMALL)}\n{{\"job\":\"x\",\"phases\":{zeros},\"quantities\":{{}}}}\n"
                               f"{{\"job\":1,\"phases\":{zeros},\"quantities\":{{}}}}\n")
            result = run(["sweep", str(SMALL), "--resume", "--no-plot", "--out", out], timeout=60)
            assert_one_error_line(self, result, f"{journal}:2", "'job' is \"x\"", "whole number")

    def test_a_slice_with_a_value_of_the_wrong_type_is_named_with_its_key(self):
        with tempfile.TemporaryDirectory() as folder:
            sliced = Path(folder) / "slices"
            first = run(["sweep", str(SMALL), "--shard", "0/2", "--no-plot", "--out", str(sliced)])
            self.assertEqual(first.returncode, 0, first.stderr)
            path = sliced / "robustness-small.shard-0-of-2.json"
            text = path.read_text()
            path.write_text(text.replace('"jobs": 8', '"jobs": "8"').replace('"jobs":8', '"jobs":"8"'))
            result = run(["merge", str(sliced), "--no-plot", "--out", str(Path(folder) / "merged")], timeout=60)
            assert_one_error_line(self, result, str(path), "'jobs' is \"8\"", "whole number")
            path.write_text(text.replace('"job": 0,', '"job": -2,').replace('"job":0,', '"job":-2,'))
            result = run(["merge", str(sliced), "--no-plot", "--out", str(Path(folder) / "merged")], timeout=60)
            assert_one_error_line(self, result, str(path), "'lines[0].job' is -2")

    def test_a_damaged_report_beside_a_what_if_replay_is_named_before_the_runs(self):
        scenario = DATA.parent.parent.parent / "scenarios" / "paper000-table1.yaml"
        with tempfile.TemporaryDirectory() as folder:
            beside = Path(folder) / "beside"
            beside.mkdir()
            report = beside / "paper000-table1.json"
            report.write_text('{"metrics":{"claims":[{"claim":"x","holds":"yes"}]}}\n')
            out = Path(folder) / "out"
            start = time.monotonic()
            result = run(["replay", str(scenario), "--platform", "modern-100g.xml", "--beside", str(beside),
                          "--no-plot", "--out", str(out)], timeout=120)
            self.assertLess(time.monotonic() - start, 5.0, "the runs ran before the report was read")
            assert_one_error_line(self, result, f"{report} is not a replay report",
                                  "'metrics.claims[0].holds' is \"yes\" (it must be true or false)")
            self.assertFalse(out.exists() and report_files(out), "something was written")

    def test_platform_core_counts_are_checked_before_simgrid(self):
        with tempfile.TemporaryDirectory() as folder:
            text = (TEST_PLATFORMS / "two_cores.xml").read_text()
            for value in ["0", "99999999999", "-1", "x"]:
                platform = Path(folder) / f"core-{value}.xml"
                platform.write_text(text.replace('core="2"', f'core="{value}"'))
                result = run(["simulate", "--platform", str(platform), "-P", "2", "-Q", "2", "-N", "64", "-r", "1",
                              "-s", "1", "--hosts", "1"], timeout=60)
                assert_one_error_line(self, result, f"platform {platform}: host 'node-0' has core=\"{value}\"",
                                      "whole number from 1 to 2147483647")

    def test_platform_include_is_refused_before_simgrid(self):
        # SimGrid 3.32 aborts on <include> (removed in v3.18): the included file's elements would
        # never be loaded nor have their core counts checked. Refused with one line naming it; a
        # commented-out include or core="0" is no element and is not refused.
        with tempfile.TemporaryDirectory() as folder:
            text = (TEST_PLATFORMS / "two_cores.xml").read_text()
            (Path(folder) / "part.xml").write_text('<?xml version="1.0"?>\n<platform version="4.1">\n'
                                                   '  <host id="node-1" speed="1Gf" core="0"/>\n</platform>\n')
            platform = Path(folder) / "main.xml"
            platform.write_text(text.replace('<link id="memory"', '<include file="part.xml"/>\n    <link id="memory"'))
            args = ["-P", "2", "-Q", "2", "-N", "64", "-r", "1", "-s", "1", "--hosts", "1"]
            result = run(["simulate", "--platform", str(platform)] + args, timeout=60)
            assert_one_error_line(self, result, f'platform {platform}: <include file="part.xml"> is not supported',
                                  "put the elements of part.xml into this file")
            self.assertNotIn("crashed", result.stderr)
            commented = Path(folder) / "commented.xml"
            commented.write_text(text.replace('<link id="memory"',
                                              '<!-- <include file="part.xml"/> <host id="x" core="0"/> -->\n'
                                              '    <link id="memory"'))
            result = run(["simulate", "--platform", str(commented)] + args, timeout=60)
            self.assertEqual(result.returncode, 0, result.stderr)


class RunsCheckedFirst(unittest.TestCase):
    """Every run of a sweep is checked before the first runs; memory is estimated before allocating."""

    def test_a_naive_run_too_long_is_refused_before_the_others_run(self):
        with tempfile.TemporaryDirectory() as folder:
            sweep = Path(folder) / "big.yaml"
            sweep.write_text("scenario: big-naive\nplatform: paragon.xml\nexperiment: redistribute\n"
                             "fixed: {P: 4, Q: 4, r: 1, s: 3}\n"
                             "sweep:\n  N: {from: 268435456, to: 4611686018427387904, factor: 2}\n"
                             "methods:\n  - name: async\n    schedule: async\nphases: [total]\npayload: phantom\n")
            out = Path(folder) / "out"
            start = time.monotonic()
            result = run(["sweep", str(sweep), "--no-plot", "--out", str(out)], timeout=60)
            self.assertLess(time.monotonic() - start, 5.0, "runs ran before the refusal")
            assert_one_error_line(self, result, '"N":8589934592', "indexing naive", "nothing was run")
            self.assertFalse(out.exists())

    def refused_sweep(self, name, text, *fragments):
        # A sweep whose later run is refused: refused before its first run, in one line, nothing written.
        with tempfile.TemporaryDirectory() as folder:
            sweep = Path(folder) / f"{name}.yaml"
            sweep.write_text(text)
            out = Path(folder) / "out"
            start = time.monotonic()
            result = run(["sweep", str(sweep), "--no-plot", "--out", str(out)], timeout=60)
            self.assertLess(time.monotonic() - start, 5.0, "runs ran before the refusal")
            assert_one_error_line(self, result, "nothing was run", *fragments)
            self.assertFalse(out.exists())

    def test_holes_runs_are_checked_before_the_first(self):
        head = "scenario: holes-check\nplatform: alpha3000.xml\nexperiment: holes\n"
        tail = "methods:\n  - name: ours\n    method: table\nphases: [generate]\n"
        self.refused_sweep("holes-memory", head + "fixed: {P: 4, x: 5, s: 3}\nsweep:\n  n: [40, 1125899906842624]\n" + tail,
                           '"n":1125899906842624', "generating one processor's local array of n = 1125899906842624",
                           "needs about")
        self.refused_sweep("holes-proc", head + "fixed: {P: 4, x: 5, s: 3, n: 40}\nsweep:\n  proc: [0, 7]\n" + tail,
                           '"proc":7', "proc must be below P")

    def test_pack_beta1_runs_are_checked_before_the_first(self):
        head = "scenario: beta1-check\nplatform: cm5-fitted.xml\nexperiment: pack-beta1\nfixed: {d: 1, P: 4}\n"
        tail = "methods:\n  - name: css-vs-sss\nphases: [beta1]\npayload: real\n"
        self.refused_sweep("beta1-memory", head + "sweep:\n  N: [64, 1099511627776]\n" + tail,
                           '"N":1099511627776', "a PACK of", "needs about")
        self.refused_sweep("beta1-geometry", head + "sweep:\n  N: [64, 66]\n" + tail,
                           '"N":66', "P_i x W_i = 4 must divide N_i = 66")

    def test_grid_estimates_its_memory_under_an_address_space_limit(self):
        def limit_address_space():
            resource.setrlimit(resource.RLIMIT_AS, (1000000 * 1024, 1000000 * 1024))
        result = subprocess.run([REDIST, "grid", "-P", "8000", "-r", "1", "-Q", "8000", "-s", "3", "--json"],
                                capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                                preexec_fn=limit_address_space)
        assert_one_error_line(self, result, "8000x8000 communication grid as JSON needs about",
                              "address space left under ulimit -v")


PARAGON = PLATFORMS / "paragon.xml"
SIMULATE = ["-P", "4", "-r", "2", "-Q", "4", "-s", "3", "-N", "4800"]


class FilesStayInFolder(unittest.TestCase):
    """Nothing is written through a link: locks and journals that are links are refused or replaced,
    reports replace the link, not the file it points to, and cleanup removes only redist's own."""

    def victim(self, folder):
        path = Path(folder) / "victim.txt"
        path.write_text("the user's file\n")
        return path

    def test_a_lock_that_is_a_link_is_refused_and_its_target_kept(self):
        with tempfile.TemporaryDirectory() as folder:
            victim = self.victim(folder)
            out = Path(folder) / "out"
            out.mkdir()
            (out / ".redist.lock").symlink_to(victim)
            result = run(["sweep", str(SMALL), "--no-plot", "--out", str(out)], timeout=60)
            assert_one_error_line(self, result, str(out / ".redist.lock"), "symbolic link")
            self.assertEqual(victim.read_text(), "the user's file\n")
            self.assertEqual(report_files(out), [])

    def test_a_journal_that_is_a_link_is_replaced_or_refused_never_written_through(self):
        with tempfile.TemporaryDirectory() as folder:
            victim = self.victim(folder)
            out = Path(folder) / "out"
            out.mkdir()
            journal = out / ".robustness-small.journal"
            journal.symlink_to(victim)
            resumed = run(["sweep", str(SMALL), "--resume", "--no-plot", "--out", str(out)], timeout=60)
            assert_one_error_line(self, resumed, str(journal), "symbolic link")
            fresh = run(["sweep", str(SMALL), "--no-plot", "--out", str(out)], timeout=120)
            self.assertEqual(fresh.returncode, 0, fresh.stderr)
            self.assertEqual(victim.read_text(), "the user's file\n")
            self.assertFalse(journal.exists() or journal.is_symlink(), "the journal of a finished sweep stays")

    def test_a_report_that_is_a_link_is_replaced_and_its_target_kept(self):
        with tempfile.TemporaryDirectory() as folder:
            victim = self.victim(folder)
            out = Path(folder) / "out"
            out.mkdir()
            (out / "robustness-small.md").symlink_to(victim)
            result = run(["sweep", str(SMALL), "--no-plot", "--out", str(out)], timeout=120)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(victim.read_text(), "the user's file\n")
            self.assertFalse((out / "robustness-small.md").is_symlink())
            self.assertIn("robustness-small", (out / "robustness-small.md").read_text())

    def test_cleanup_removes_only_redists_own_temporaries(self):
        with tempfile.TemporaryDirectory() as out:
            users = Path(out) / ".notes.backup.tmp"
            users.write_text("keep me\n")
            stale = Path(out) / ".robustness-small.md.redist-Ab12Cd.tmp"  # a killed run's
            stale.write_text("half a report")
            result = run(["sweep", str(SMALL), "--no-plot", "--out", out], timeout=120)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(users.read_text(), "keep me\n")
            self.assertFalse(stale.exists())

    def test_schedule_plot_writes_nothing_in_a_shared_temporary_folder(self):
        with tempfile.TemporaryDirectory() as folder:
            shared = Path(folder) / "tmp"
            shared.mkdir()
            victim = self.victim(folder)
            (shared / "redist-schedule.json").symlink_to(victim)
            out = Path(folder) / "out"
            out.mkdir()
            result = subprocess.run([REDIST, "schedule", "-P", "4", "-r", "1", "-Q", "4", "-s", "3",
                                     "--plot", str(out / "s.png")], capture_output=True, text=True, timeout=60,
                                    stdin=subprocess.DEVNULL, env=dict(os.environ, TMPDIR=str(shared)))
            self.assertEqual(victim.read_text(), "the user's file\n")
            self.assertEqual(sorted(p.name for p in shared.iterdir()), ["redist-schedule.json"])
            self.assertEqual(temporaries(out), [], result.stderr)


class OutputsApartFromInputs(unittest.TestCase):
    """An output named like an input (or a link to it) is refused with one line before any work."""

    def test_write_model_onto_the_platform_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            platform = Path(folder) / "p.xml"
            platform.write_text(PARAGON.read_text())
            link = Path(folder) / "link.xml"
            link.symlink_to(platform)
            for output in (platform, link):
                result = run(["explain", "--platform", str(platform), *SIMULATE, "--write-model", str(output)],
                             timeout=30)
                assert_one_error_line(self, result, f"--write-model {output} is the --platform file",
                                      "an output never replaces an input")
                self.assertEqual(result.stdout, "")
                self.assertEqual(platform.read_text(), PARAGON.read_text())

    def test_a_trace_onto_the_platform_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            platform = Path(folder) / "p.xml"
            platform.write_text(PARAGON.read_text())
            result = run(["simulate", "--platform", str(platform), *SIMULATE, "--trace", str(platform)], timeout=30)
            assert_one_error_line(self, result, f"--trace {platform} is the --platform file")
            self.assertEqual(platform.read_text(), PARAGON.read_text())

    def test_a_report_onto_the_sweeps_own_inputs_is_refused(self):
        with tempfile.TemporaryDirectory() as out:
            scenario = Path(out) / "robustness-small.csv"  # the name of the report the sweep writes
            scenario.write_text(SMALL.read_text())
            result = run(["sweep", str(scenario), "--no-plot", "--out", out], timeout=60)
            assert_one_error_line(self, result, "is the scenario file", "an output never replaces an input")
            self.assertEqual(scenario.read_text(), SMALL.read_text())


class SweepInputs(unittest.TestCase):
    """A sweep's fingerprint covers its platform too: slices, journals and merges of a changed
    machine are refused, never mixed into one report."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.folder = Path(self.dir.name)
        self.platform = self.folder / "machine.xml"
        self.platform.write_text(PARAGON.read_text())
        self.scenario = self.folder / "s.yaml"
        self.scenario.write_text(SMALL.read_text().replace("platform: paragon.xml", "platform: machine.xml"))

    def tearDown(self):
        self.dir.cleanup()

    def sweep(self, *args):
        return run(["sweep", str(self.scenario), "--no-plot", *args], timeout=120)

    def edit_platform(self):
        self.platform.write_text(self.platform.read_text() + "<!-- edited -->\n")

    def test_slices_of_two_machines_are_not_merged(self):
        self.assertEqual(self.sweep("--shard", "0/2", "--out", str(self.folder / "s0")).returncode, 0)
        self.edit_platform()
        self.assertEqual(self.sweep("--shard", "1/2", "--out", str(self.folder / "s1")).returncode, 0)
        merged = run(["merge", str(self.folder / "s0"), str(self.folder / "s1"), "--no-plot", "--out",
                      str(self.folder / "m")], timeout=60)
        assert_one_error_line(self, merged, "slices of different sweeps")
        self.assertFalse((self.folder / "m" / "robustness-small.md").exists())

    def test_a_platform_edited_after_the_slices_is_refused_by_merge(self):
        for k in (0, 1):
            self.assertEqual(self.sweep("--shard", f"{k}/2", "--out", str(self.folder / f"s{k}")).returncode, 0)
        self.edit_platform()
        merged = run(["merge", str(self.folder / "s0"), str(self.folder / "s1"), "--no-plot", "--out",
                      str(self.folder / "m")], timeout=60)
        assert_one_error_line(self, merged, str(self.platform), "changed since its slices ran")

    def test_resume_refuses_the_journal_of_another_machine(self):
        out = self.folder / "out"
        out.mkdir()
        journal = out / ".robustness-small.journal"
        journal.write_text(fingerprint(self.scenario, self.platform) + "\n")
        self.edit_platform()
        result = self.sweep("--resume", "--out", str(out))
        assert_one_error_line(self, result, str(journal), "other inputs")
        journal.write_text(fingerprint(self.scenario, self.platform) + "\n")  # the same machine: resumed
        self.assertEqual(self.sweep("--resume", "--out", str(out)).returncode, 0)


class Edges(unittest.TestCase):
    """Inputs at the edges: answered or refused at once, with one line naming the reason."""

    def test_a_full_standard_output_is_an_error(self):
        for args in (["grid", "-P", "4", "-r", "1", "-Q", "4", "-s", "3"],
                     ["explain", "--platform", str(PARAGON), *SIMULATE]):
            with open("/dev/full", "w") as full:
                result = subprocess.run([REDIST, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60,
                                        stdin=subprocess.DEVNULL)
            self.assertNotEqual(result.returncode, 0, args)
            self.assertEqual(result.stderr, "redist: error: cannot write standard output: No space left on device\n")

    def test_ranks_sharing_a_host_reach_it_through_its_loopback(self):
        # Routes were read before the platform was sealed: a host's route to itself crashed on a
        # Full zone (signal 11) and was "No route" on a Floyd one.
        for platform in ("alpha3000.xml", "modern-100g.xml"):
            result = run(["simulate", "--platform", str(PLATFORMS / platform), *SIMULATE, "--hosts", "1"], timeout=60)
            self.assertEqual(result.returncode, 0, platform + ": " + result.stderr)
            self.assertIn("verified yes", result.stdout, platform)

    def test_a_platform_that_is_a_device_or_a_fifo_is_refused_at_once(self):
        with tempfile.TemporaryDirectory() as folder:
            fifo = Path(folder) / "p.xml"
            os.mkfifo(fifo)
            for platform in ("/dev/zero", str(fifo)):
                for command in ("simulate", "explain"):
                    start = time.monotonic()
                    result = run([command, "--platform", platform, *SIMULATE], timeout=30)
                    self.assertLess(time.monotonic() - start, 5.0)
                    assert_one_error_line(self, result, f"platform {platform}: not a regular file")

    def test_the_largest_array_size_is_answered_or_refused_at_once(self):
        for n in ("9223372036854775807", "9223372036854775800"):
            start = time.monotonic()
            result = run(["explain", "--platform", str(PARAGON), "-P", "4", "-Q", "4", "-r", "2", "-s", "3", "-N", n],
                         timeout=30)
            self.assertLess(time.monotonic() - start, 10.0, n)
            if result.returncode != 0:
                assert_one_error_line(self, result)

    def test_deeply_nested_yaml_names_the_line_and_the_reason(self):
        with tempfile.TemporaryDirectory() as folder:
            scenario = Path(folder) / "deep.yaml"
            scenario.write_text(SMALL.read_text() + "extra: " + "[" * 100000 + "]" * 100000 + "\n")
            result = run(["sweep", str(scenario), "--no-plot", "--out", folder], timeout=30)
            assert_one_error_line(self, result, f"{scenario}:16: ")
            self.assertNotIn("bad file", result.stderr)

    def test_a_file_name_with_a_newline_stays_on_one_error_line(self):
        # The name reached the message as it is: "redist: error: bad" then "name.yaml:16: ...".
        with tempfile.TemporaryDirectory() as folder:
            scenario = Path(folder) / "bad\nname.yaml"
            scenario.write_text(SMALL.read_text() + "unit: ms\n")
            result = run(["sweep", str(scenario), "--no-plot", "--out", folder], timeout=30)
            assert_one_error_line(self, result, "bad\\nname.yaml:16: key 'unit' appears twice")

    def test_a_platform_name_longer_than_path_max_is_named_by_the_scenario_line_on_one_short_line(self):
        # The name was looked up with the throwing std::filesystem call: "filesystem error: status:
        # File name too long [the name]", without the scenario's file or line, megabytes long.
        with tempfile.TemporaryDirectory() as folder:
            scenario = Path(folder) / "long.yaml"
            scenario.write_text(SMALL.read_text().replace("platform: paragon.xml", "platform: " + "p" * 100000 + ".xml"))
            result = run(["sweep", str(scenario), "--no-plot", "--out", folder], timeout=30)
            assert_one_error_line(self, result, f"{scenario}:4: platform file 'ppp", "' not found", "characters left out")
            self.assertLess(len(result.stderr), 2100)

    def test_an_out_folder_that_is_a_link_to_nothing_is_named_as_such(self):
        # create_directories said only "File exists".
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "out"
            out.symlink_to(Path(folder) / "missing")
            result = run(["sweep", str(SMALL), "--no-plot", "--out", str(out)], timeout=30)
            assert_one_error_line(self, result, f"cannot write to {out}: a symbolic link to {Path(folder) / 'missing'}, "
                                                "which leads to no file or folder")

    def test_validate_reads_its_platform_bounded_and_checked_before_measuring(self):
        # /dev/zero was read without end; a damaged platform was named only after every measurement.
        with tempfile.TemporaryDirectory() as folder:
            cut = Path(folder) / "cut.xml"
            cut.write_text((PLATFORMS / "paragon.xml").read_text()[:300])
            for platform, reason in (("/dev/zero", "not a regular file"), (str(cut), "is never closed")):
                start = time.monotonic()
                result = run(["validate", "--platform", platform, "--quick", "--mpirun", "/bin/false"], timeout=30)
                self.assertLess(time.monotonic() - start, 5.0, platform)
                assert_one_error_line(self, result, f"platform {platform}", reason)

    def test_a_scenario_that_is_not_a_regular_file_is_refused(self):
        result = run(["sweep", "/dev/zero", "--no-plot", "--out", tempfile.gettempdir()], timeout=30)
        assert_one_error_line(self, result, "/dev/zero", "not a regular file")

    def many_runs(self, folder, first_axis):
        scenario = Path(folder) / "many.yaml"
        scenario.write_text("scenario: robustness-many\ndescription: many runs\nplatform: paragon.xml\n"
                            "experiment: redistribute\nfixed: {P: 4, Q: 4, elem_bytes: 8}\npayload: real\nsweep:\n"
                            f"  N: {first_axis}\n  r: {{from: 1, to: 100, step: 1}}\n  s: {{from: 1, to: 100, step: 1}}\n"
                            "methods:\n  - name: async\n    schedule: async\nphases: [comm]\nunit: ms\n")
        return scenario

    def test_a_sweep_whose_run_list_would_not_fit_is_refused_before_it_is_listed(self):
        # 2 million runs listed take about 1.2 GB: refused at once under --max-memory 100 MB, not
        # listed for a minute first.
        with tempfile.TemporaryDirectory() as folder:
            scenario = self.many_runs(folder, "{from: 4800, to: 4999, step: 1}")
            start = time.monotonic()
            result = run(["sweep", str(scenario), "--no-plot", "--out", folder, "--max-runs", "10000000",
                          "--max-memory", "100000000"], timeout=60)
            self.assertLess(time.monotonic() - start, 5.0)
            assert_one_error_line(self, result, "robustness-many: the list of its runs needs about",
                                  "more than the 95.4 MiB available (--max-memory)")

    def test_checking_many_runs_prints_its_progress(self):
        # 200,000 runs checked before the first starts (the last 10,000 refused, so none runs): a
        # line every --progress-seconds while they are checked, as the runs themselves have.
        with tempfile.TemporaryDirectory() as folder:
            scenario = self.many_runs(folder, "[" + ", ".join(str(4800 + k) for k in range(19)) + ", 1000000000000000]")
            result = run(["sweep", str(scenario), "--no-plot", "--out", folder, "--max-runs", "10000000",
                          "--progress-seconds", "0.5"], timeout=120)
            self.assertNotEqual(result.returncode, 0)
            lines = result.stderr.splitlines()
            self.assertTrue(lines[-1].startswith("redist: error: robustness-many: run "), result.stderr)
            self.assertIn("is refused (nothing was run)", lines[-1])
            progress = [line for line in lines[:-1] if line.startswith("robustness-many (checking): ")]
            self.assertGreater(len(progress), 0, result.stderr)
            self.assertEqual(len(progress), len(lines) - 1, result.stderr)
            self.assertRegex(progress[0], r"^robustness-many \(checking\): \d+/200000 runs, ~\d+s left$")


if __name__ == "__main__":
    REDIST = sys.argv.pop(1)
    unittest.main()
