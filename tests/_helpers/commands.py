"""``pyflink-compat`` run as an operations team runs it: each command a process of its own, with a
Flink configuration directory of its own, and the driver processes ``run -d`` leaves behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple

import pytest

from tests._helpers.files import file_uri, read_batch_files
from tests._helpers.waiting import wait_until

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: The job program the operations tests run: see its docstring.
ORDERS_JOB = os.path.join(REPO, "tests", "operations", "drivers", "orders_job.py")


class Commands:
    """``pyflink-compat`` as a separate process, whose ``$FLINK_CONF_DIR/config.yaml`` names the
    checkpoint directory ``<base>/cp`` and the default savepoint directory ``<base>/default-sp``.

    :param base: The test's directory (configuration, logs and temporary files go there).
    :param environ: The environment to start from (this process's by default).
    :param extra: Variables set over it.
    """

    def __init__(self, base: Any, environ: Optional[Mapping[str, str]] = None,
                 extra: Optional[Mapping[str, str]] = None):
        self.base = base
        conf = base / "conf"
        conf.mkdir()
        # the cluster configuration every command reads, as FLINK_CONF_DIR gives it to flink
        (conf / "config.yaml").write_text(
            "execution:\n  checkpointing:\n    dir: {}\n    interval: 200 ms\n"
            "    savepoint-dir: {}\nclient.timeout: 60 s\n".format(file_uri(base / "cp"), base / "default-sp"))
        self.env = dict(os.environ if environ is None else environ)
        self.env.update(FLINK_CONF_DIR=str(conf), FLINK_LOG_DIR=str(base), TMPDIR=str(base),
                        PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable,
                        PYTHONPATH=os.pathsep.join(p for p in (REPO, os.environ.get("PYTHONPATH")) if p))
        self.env.update(extra or {})
        #: What each command is started through (``setpriv ...``: as an account with fewer rights).
        self.prefix: List[str] = []

    def start(self, *args: str, own_group: bool = False) -> "subprocess.Popen[str]":
        """Start a command; ``own_group``: in a process group of its own, which the job program
        an attached ``run`` starts joins (so that :func:`kill_group` ends both)."""
        return subprocess.Popen(self.prefix + [sys.executable, "-m", "pyflink_compat.cli"] + list(args), env=self.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=own_group)

    def __call__(self, *args: str, timeout: float = 180) -> Tuple[int, str, str]:
        process = self.start(*args)
        out, err = process.communicate(timeout=timeout)
        return process.returncode, out, err

    def json(self, *args: str) -> Dict[str, Any]:
        code, out, err = self(*args, "--json")
        assert code == 0, (out, err)
        return dict(json.loads(out))


def finished(process: "subprocess.Popen[str]", timeout: float = 240) -> Dict[str, Any]:
    """The JSON a command printed, once it ended successfully."""
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, (out, err)
    return dict(json.loads(out))


def collect_lines(stream: Any) -> List[str]:
    """The lines of a process's output as they come (read by a thread of their own, so that
    the process never blocks on a full pipe)."""
    lines: List[str] = []

    def read() -> None:
        for line in stream:
            lines.append(line.rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()
    return lines


def output_ids(out: Any) -> List[int]:
    """The ids the orders job wrote into ``out``, sorted (a duplicate shows twice)."""
    return sorted(r["id"] for rows in read_batch_files(out).values() for r in rows)


def group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def kill_group(pid: int) -> None:
    """SIGKILL a detached driver and its JVM (its own process group), and wait until both are gone."""
    if not group_gone(pid):
        os.killpg(pid, signal.SIGKILL)
    wait_until(lambda: group_gone(pid), timeout=30, what="the driver's process group gone")


@pytest.fixture
def drivers() -> Iterator[List[int]]:
    """The pids of the detached drivers a test started (``run -d`` prints them): each still
    running at the test's end is killed with its process group."""
    started: List[int] = []
    yield started
    for pid in started:
        kill_group(pid)
