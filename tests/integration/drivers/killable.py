"""A run of the crash driver (``crash_job.py``) that a test can SIGKILL: the driver and its JVM
live in a process group of their own, killed together."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

DRIVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "crash_job.py")
#: The job name the driver runs under (its checkpoints are in ``cp/<JOB>/<sink>``).
JOB = "crash-job"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


class KillableDriver:
    """One run of the crash driver (or of another ``driver`` taking the same arguments) over
    ``base``'s ``in``, ``out`` and ``cp`` directories."""

    def __init__(self, base, run, mode="stateless", *extra, driver=DRIVER):
        env = dict(os.environ)
        env["PYSPARK_PYTHON"] = sys.executable
        env["PYSPARK_DRIVER_PYTHON"] = sys.executable
        env["PYTHONPATH"] = os.pathsep.join(p for p in (REPO, env.get("PYTHONPATH")) if p)
        env["TMPDIR"] = str(base / "tmp")
        os.makedirs(env["TMPDIR"], exist_ok=True)
        self.log = base / "driver-{}.log".format(run)
        self._log_file = open(self.log, "w")
        self.proc = subprocess.Popen(
            [sys.executable, driver, str(base / "in"), str(base / "out"), str(base / "cp"), mode]
            + list(extra),
            stdout=self._log_file, stderr=subprocess.STDOUT, env=env, start_new_session=True)

    def alive(self):
        return self.proc.poll() is None

    def output(self):
        """The end of the driver's log."""
        return self.log.read_text()[-5000:]

    def wait_started(self, timeout=120):
        deadline = time.monotonic() + timeout
        while "STARTING" not in self.log.read_text():
            if not self.alive() or time.monotonic() > deadline:
                pytest.fail("driver did not start:\n" + self.output())
            time.sleep(0.05)

    def kill_group(self):
        """SIGKILL the driver and everything it started (its JVM), then reap them."""
        pgid = self.proc.pid  # start_new_session: the driver leads its own group
        os.killpg(pgid, signal.SIGKILL)
        self.proc.wait(30)
        deadline = time.monotonic() + 30
        while True:  # the JVM child must be gone too
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                break
            if time.monotonic() > deadline:
                pytest.fail("processes of group {} survived SIGKILL".format(pgid))
            time.sleep(0.05)
        self._log_file.close()

    def wait(self, timeout):
        """Wait for the driver to end by itself; its exit code."""
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill_group()
            pytest.fail("driver did not finish within {} s; log:\n{}".format(timeout, self.output()))
        self._log_file.close()
        return code

    def finish(self, timeout=240):
        """Wait for the driver to end, and check that its job finished."""
        code = self.wait(timeout)
        assert code == 0, self.output()
        assert "FINISHED" in self.log.read_text()
