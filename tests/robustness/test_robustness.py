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


if __name__ == "__main__":
    REDIST = sys.argv.pop(1)
    unittest.main()
